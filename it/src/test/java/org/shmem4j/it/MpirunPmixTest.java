package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.examples.Hello;

/**
 * PEs started by Open MPI's {@code mpirun}, which serves PMIx to its children: the PMIx bootstrap
 * without Slurm. Needs Open MPI ({@code openmpi-bin}) and libpmix2; skipped without them (failed
 * under {@code SHMEM4J_REQUIRE_PMIX=1}).
 */
@Timeout(180)
class MpirunPmixTest {
    @BeforeEach
    void needsMpirun() {
        PmixJobs.require("MpirunPmixTest", PmixJobs.onPath("mpirun").isPresent() ? null : "mpirun is not installed (openmpi-bin)");
    }

    private static List<String> mpirun(int n) {
        return List.of("mpirun", "--allow-run-as-root", "--oversubscribe", "--tag-output", "-np", Integer.toString(n));
    }

    @Test
    void helloOnTwoPes() {
        var r = Jobs.run("Hello (mpirun -np 2)", PmixJobs.command(mpirun(2), Hello.class), Map.of(), PmixJobs.BOUND);
        assertEquals(0, r.exit(), r::describe);
        assertEquals(List.of("Hello from PE 0 of 2", "Hello from PE 1 of 2"), sorted(r.stdout()), r::describe);
    }

    @Test
    void amosLocksAndTeamsOnThreePes() {
        var amo = Jobs.run("AmoLockCheck (mpirun -np 3)", PmixJobs.command(mpirun(3), AmoLockCheck.class, "200"), Map.of(),
                PmixJobs.BOUND);
        assertEquals(0, amo.exit(), amo::describe);
        var expected = new ArrayList<String>();
        IntStream.range(0, 3).forEach(pe -> expected.addAll(List.of("amo-ok " + pe, "lock-ok " + pe)));
        assertEquals(sorted(expected), sorted(amo.stdout()), amo::describe);

        var grid = Jobs.run("TeamGrid (mpirun -np 3)", PmixJobs.command(mpirun(3), TeamGrid.class, "2"), Map.of(), PmixJobs.BOUND);
        assertEquals(0, grid.exit(), grid::describe);
        assertEquals(TeamsJobTest.expected(3, 2), sorted(grid.stdout()), grid::describe);
    }

    @Test
    void aPeThrowingBeforeFinalizeEndsTheJob() throws InterruptedException {
        PmixJobs.failingPeEndsTheJob("ThrowBeforeFinalize (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void theBootstrapExchangeOnThreePes() {
        PmixJobs.exchange("PmixExchange (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void aKilledPeEndsTheJob() throws InterruptedException {
        PmixJobs.killedPeEndsTheJob("KillTarget (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void globalExitEndsTheJob() {
        PmixJobs.globalExitEndsTheJob("GlobalExitExample (mpirun -np 3)", mpirun(3), Map.of());
    }

    /** {@code lines} (untagged) in order. */
    static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(PmixJobs.untagged(lines));
        s.sort(null);
        return s;
    }
}
