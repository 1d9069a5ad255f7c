package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEs started by Open MPI's {@code mpirun}, which serves PMIx to its children: the PMIx bootstrap
 * without Slurm. Needs Open MPI ({@code openmpi-bin}) and libpmix2; skipped without them (failed
 * under {@code SHMEM4J_REQUIRE_PMIX=1}).
 */
@Timeout(180)
class MpirunPmixTest {
    /** From mpirun's death to the exit of its PEs: PMIx notices after about 1 s; the rest is slack for a loaded machine. */
    private static final Duration LOST_SERVER_BOUND = Duration.ofSeconds(30);

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
        PmixJobs.killedPeEndsTheJob("KillTarget (mpirun -np 3)", mpirun(3), Map.of(),
                Pattern.compile("^mpirun noticed that process rank 2 with PID \\d+ on node \\S+ exited on signal 9 \\(Killed\\)"));
    }

    /**
     * mpirun itself is killed (SIGKILL) while its 3 PEs wait for a flag that no PE sets, and
     * nothing is left to end them: the PMIx event of the lost server ({@code PMIX_ERR_LOST_CONNECTION})
     * must make each PE's wait fail, naming it, and the PE exit, instead of waiting forever. Their
     * output has nowhere to go, so each writes its failure to a file ({@link KillTarget}).
     */
    @Test
    void pesThatLoseMpirunFailInTheirWaits(@TempDir Path dir) throws Exception {
        var command = PmixJobs.command(mpirun(3), KillTarget.class, "wait", dir.toString());
        List<Long> pids = List.of();
        try (var job = Jobs.start("KillTarget (mpirun -np 3, mpirun killed)", command, Map.of())) {
            pids = PmixJobs.readyPids(job);
            long killedAt = System.nanoTime();
            job.process.children().forEach(ProcessHandle::destroyForcibly); // mpirun, under timeout
            var exits = pids.stream().map(pid -> ProcessHandle.of(pid).map(ProcessHandle::onExit)
                    .orElse(CompletableFuture.completedFuture(null))).toArray(CompletableFuture[]::new);
            try {
                CompletableFuture.allOf(exits).get(LOST_SERVER_BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                fail("PEs " + pids + " still run " + LOST_SERVER_BOUND.toSeconds() + " s after mpirun died");
            }
            Jobs.record(job.name + ": SIGKILL of mpirun to every PE's exit "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms");
            // Each PE learns of the loss from its own PMIx event, and names it, also when its event
            // comes after the others': a PE of an ended job leaves without announcing a finalize,
            // so no late PE can take its peers for PEs that finalized.
            String lost = "org.shmem4j.bootstrap.JobAborted: job aborted: PE %d lost its PMIx server (PMIx event"
                    + " PMIX_ERR_LOST_CONNECTION): the launcher's process serving it (mpirun, orted or Slurm's step daemon) is gone";
            for (int pe = 0; pe < pids.size(); pe++) {
                Path report = dir.resolve("pe" + pe + ".txt");
                assertTrue(Files.exists(report), "PE " + pe + " exited without a failing wait");
                assertEquals(String.format(lost, pe), Files.readString(report));
            }
        } finally {
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly)); // orphans: not in the job's tree
        }
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
