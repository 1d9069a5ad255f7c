package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.examples.Hello;

/**
 * Direct {@code srun --mpi=pmix} jobs with no oshrun, on a one-node Slurm of the test's own
 * ({@link PrivateSlurm}): the spec's Hello, a mixed workload with checked results, and a PE that
 * fails before finalizing ending the step. Needs root and slurm-wlm; skipped without them (failed
 * under {@code SHMEM4J_REQUIRE_PMIX=1}).
 */
@Timeout(240)
class SrunPmixTest {
    @TempDir
    static Path dir;
    private static PrivateSlurm slurm;

    @BeforeAll
    static void startSlurm() throws Exception {
        PmixJobs.require("SrunPmixTest", PrivateSlurm.missing());
        slurm = PrivateSlurm.start(dir);
    }

    @AfterAll
    static void stopSlurm() throws InterruptedException {
        if (slurm != null) {
            slurm.close();
        }
    }

    @Test
    void helloOnTwoAndFourPes() {
        for (int n : new int[] {2, 4}) {
            var r = Jobs.run("Hello (srun --mpi=pmix -n " + n + ")", PmixJobs.command(PrivateSlurm.srun(n), Hello.class),
                    slurm.env(), PmixJobs.BOUND);
            assertEquals(0, r.exit(), r::describe);
            assertEquals(MpirunPmixTest.sorted(IntStream.range(0, n).mapToObj(pe -> "Hello from PE " + pe + " of " + n).toList()),
                    MpirunPmixTest.sorted(r.stdout()), r::describe);
        }
    }

    @Test
    void amosLocksAndTeamsOnFourPes() {
        var amo = Jobs.run("AmoLockCheck (srun --mpi=pmix -n 4)", PmixJobs.command(PrivateSlurm.srun(4), AmoLockCheck.class, "200"),
                slurm.env(), PmixJobs.BOUND);
        assertEquals(0, amo.exit(), amo::describe);
        var expected = new ArrayList<String>();
        IntStream.range(0, 4).forEach(pe -> expected.addAll(List.of("amo-ok " + pe, "lock-ok " + pe)));
        assertEquals(MpirunPmixTest.sorted(expected), MpirunPmixTest.sorted(amo.stdout()), amo::describe);

        var grid = Jobs.run("TeamGrid (srun --mpi=pmix -n 4)", PmixJobs.command(PrivateSlurm.srun(4), TeamGrid.class, "2"),
                slurm.env(), PmixJobs.BOUND);
        assertEquals(0, grid.exit(), grid::describe);
        assertEquals(TeamsJobTest.expected(4, 2), MpirunPmixTest.sorted(grid.stdout()), grid::describe);
    }

    @Test
    void aPeThrowingBeforeFinalizeEndsTheStep() throws InterruptedException {
        PmixJobs.failingPeEndsTheJob("ThrowBeforeFinalize (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }

    @Test
    void theBootstrapExchangeOnThreePes() {
        PmixJobs.exchange("PmixExchange (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }

    @Test
    void aKilledPeEndsTheJob() throws InterruptedException {
        PmixJobs.killedPeEndsTheJob("KillTarget (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }

    @Test
    void globalExitEndsTheJob() {
        PmixJobs.globalExitEndsTheJob("GlobalExitExample (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }
}
