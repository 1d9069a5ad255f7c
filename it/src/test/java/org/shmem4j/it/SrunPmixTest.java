package org.shmem4j.it;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
            PmixJobs.hello("Hello (srun --mpi=pmix -n " + n + ")", PrivateSlurm.srun(n), slurm.env(), n);
        }
    }

    @Test
    void amosLocksAndTeamsOnFourPes() {
        PmixJobs.amosLocksAndTeams("srun --mpi=pmix -n 4", PrivateSlurm.srun(4), slurm.env(), 4);
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
        // srun lists the tasks that ended alike together ("task 2", or "tasks 0,2", "tasks 0-2" if they went at once).
        PmixJobs.killedPeEndsTheJob("KillTarget (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env(),
                Pattern.compile("^srun: error: \\S+: tasks? (?:[0-9,-]*[,-])?2: Killed$"));
    }

    @Test
    void globalExitEndsTheJob() {
        PmixJobs.globalExitEndsTheJob("GlobalExitExample (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }

    @Test
    void aPeThatNeverInitializesFailsTheOthersInit() {
        PmixJobs.startupTimeoutEndsTheJob("LateToInit (srun --mpi=pmix -n 3)", PrivateSlurm.srun(3), slurm.env());
    }
}
