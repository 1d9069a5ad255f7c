package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        PmixJobs.hello("Hello (mpirun -np 2)", mpirun(2), Map.of(), 2);
    }

    @Test
    void amosLocksAndTeamsOnThreePes() {
        PmixJobs.amosLocksAndTeams("mpirun -np 3", mpirun(3), Map.of(), 3);
    }

    @Test
    void aPeThrowingBeforeFinalizeEndsTheJob() throws InterruptedException {
        PmixJobs.failingPeEndsTheJob("ThrowBeforeFinalize (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void theBootstrapExchangeOnThreePes() {
        PmixJobs.exchange("PmixExchange (mpirun -np 3)", mpirun(3), Map.of());
    }

    /**
     * Every AMO through the network engine: UCX opens on this one machine, each PE publishes its
     * address with {@code PMIx_Put} and fetches a peer's with {@code PMIx_Get} at first contact.
     */
    @Test
    void ucxAddressesAreLookedUpThroughPmixOnFourPes() {
        var r = Jobs.run("ScaleJob over UCX (mpirun -np 4)", PmixJobs.command(mpirun(4), ScaleJob.class, "2"),
                Map.of("SHMEM_NETWORK_ATOMICS", "1", "SHMEM_SYMMETRIC_SIZE", "1m"), PmixJobs.BOUND);
        assertEquals(0, r.exit(), r::describe);
        assertTrue(PmixJobs.untagged(r.stdout()).stream().anyMatch(l -> l.startsWith("scale: 4 PEs ok")), r::describe);
    }

    @Test
    void aKilledPeEndsTheJob() throws InterruptedException {
        PmixJobs.killedPeEndsTheJob("KillTarget (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void globalExitEndsTheJob() {
        PmixJobs.globalExitEndsTheJob("GlobalExitExample (mpirun -np 3)", mpirun(3), Map.of());
    }

    @Test
    void aPeThatNeverInitializesFailsTheOthersInit() {
        PmixJobs.startupTimeoutEndsTheJob("LateToInit (mpirun -np 3)", mpirun(3), Map.of());
    }
}
