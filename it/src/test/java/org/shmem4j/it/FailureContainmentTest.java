package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.examples.Hello;

/**
 * Jobs that go wrong end in bounded time with a non-zero status, a message that says which PE
 * failed and how, and no shared-memory file left behind.
 */
@Timeout(120)
class FailureContainmentTest {
    private static final Pattern READY = Pattern.compile("ready (\\d+) (\\d+) (\\S+)");

    @Test
    void sigkillOfOnePeEndsTheJobQuicklyAndCleansSharedMemory() throws InterruptedException {
        Set<String> shmBefore = Jobs.shmFiles();
        int n = 4;
        int victim = 2;
        try (var job = Jobs.start("KillTarget -n 4", Jobs.oshrun(n, KillTarget.class), Map.of())) {
            List<String> ready = job.awaitStdout(lines -> lines.stream().filter(l -> READY.matcher(l).matches()).count() == n,
                    Duration.ofSeconds(30));
            var pids = new HashMap<Integer, Long>();
            String jobId = null;
            for (String l : ready) {
                Matcher m = READY.matcher(l);
                if (m.matches()) {
                    pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                    assertTrue(jobId == null || jobId.equals(m.group(3)), () -> "PEs disagree on the job id: " + ready);
                    jobId = m.group(3);
                }
            }
            assertEquals(Set.of(0, 1, 2, 3), pids.keySet(), ready::toString);
            assertTrue(jobId != null && !jobId.equals("null"), () -> "no SHMEM4J_JOB_ID in " + ready);

            long victimPid = pids.get(victim);
            var handle = ProcessHandle.of(victimPid).orElseThrow(() -> new AssertionError("PE " + victim + " is gone"));
            long killedAt = System.nanoTime();
            assertTrue(handle.destroyForcibly(), "SIGKILL not sent"); // SIGKILL on Linux
            boolean ended = job.process.waitFor(60, TimeUnit.SECONDS); // a hang bound; the latency is recorded
            long latencyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            var r = job.await(Duration.ofSeconds(30)); // kills and fails when it has not ended
            Jobs.record("kill-to-exit latency: " + latencyMs + " ms (oshrun exit " + r.exit() + ")");
            assertTrue(ended);
            assertNotEquals(0, r.exit(), r::describe);
            assertEquals(128 + 9, r.exit(), r::describe);
            assertTrue(r.stderrText().contains("PE " + victim + " (pid " + victimPid + ")"), r::describe);
            assertTrue(r.stderrText().contains("SIGKILL"), r::describe);

            // The other PEs are gone too, and so are the job's heap files.
            for (var e : pids.entrySet()) {
                var h = ProcessHandle.of(e.getValue());
                assertTrue(h.isEmpty() || !h.get().isAlive() || !h.get().info().commandLine().orElse("")
                        .contains(KillTarget.class.getName()), "PE " + e.getKey() + " outlived oshrun");
            }
            String prefix = "shmem4j-" + jobId;
            var ofJob = Jobs.shmFiles().stream().filter(f -> f.startsWith(prefix)).toList();
            assertEquals(List.of(), ofJob, "heap files of job " + jobId + " left in " + Jobs.SHM_DIR);
        }
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore), "shmem4j-* files left in " + Jobs.SHM_DIR);
    }

    @Test
    void aPeThatThrowsBeforeFinalizeIsNamedAndFailsTheJob() {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("ThrowBeforeFinalize -n 3", Jobs.oshrun(3, ThrowBeforeFinalize.class, "1"));
        assertNotEquals(0, r.exit(), r::describe);
        assertEquals(1, r.exit(), r::describe); // an uncaught exception ends a JVM with status 1
        String err = r.stderrText();
        assertTrue(err.contains("deliberate failure on PE 1 before shmem_finalize"), r::describe);
        assertTrue(err.matches("(?s).*oshrun: PE 1 \\(pid \\d+\\) exited with status 1 before finalizing.*"), r::describe);
        // whose stack trace it is, in the job's merged output, and how to finalize on every way out
        assertTrue(err.contains("PE 1: Exception in thread \"main\" java.lang.IllegalStateException: deliberate failure on PE 1"),
                r::describe);
        assertTrue(err.contains("ending the job (hint: initialize with try (Shmem shmem = Shmem.init()) { ... }"), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }

    @Test
    void anUnparsableSymmetricSizeFailsTheJobAndSaysWhy() {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("Hello -n 2 SHMEM_SYMMETRIC_SIZE=12q", Jobs.oshrun(2, Hello.class),
                Map.of("SHMEM_SYMMETRIC_SIZE", "12q"), Duration.ofSeconds(30));
        assertNotEquals(0, r.exit(), r::describe);
        assertTrue(r.stderrText().contains("SHMEM_SYMMETRIC_SIZE"), r::describe);
        assertTrue(r.stderrText().contains("12q"), r::describe);
        assertEquals(List.of(), r.stdout(), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }

    /**
     * A failure of shmem_init that only the PEs can see (here: no network engine of that name,
     * needed for the peers on the other pseudo-nodes) is one line for the job, said by oshrun,
     * whatever the number of PEs: no stack trace per PE, no hint about try-with-resources.
     */
    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3})
    void aFailedInitIsOneLineForTheWholeJob(int n) {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("Hello -n " + n + " on " + n + " pseudo-nodes, SHMEM_NETWORK=nosuch",
                Jobs.oshrun(List.of("-n", Integer.toString(n), "--oversubscribe", "--nodes", Integer.toString(n), "-cp",
                        Jobs.peClasspath(), Hello.class.getName())),
                Map.of("SHMEM_NETWORK", "nosuch"), Duration.ofSeconds(60));
        assertEquals(1, r.exit(), r::describe);
        List<String> said = r.stderrText().lines().filter(l -> l.contains("nosuch")).toList();
        assertEquals(1, said.size(), r::describe);
        assertTrue(said.get(0).matches("oshrun: the job could not initialize \\(PE \\d \\(pid \\d+\\) said first\\): shmem_init: .*no network engine"
                + " named 'nosuch' \\(SHMEM_NETWORK\\).*; ending the job"), r::describe);
        assertFalse(r.stderrText().contains("Exception"), r::describe);
        assertFalse(r.stderrText().contains("hint:"), r::describe);
        assertEquals(List.of(), r.stdout(), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }

    @Test
    void aSymmetricSizeBeyondTheFreeSharedMemoryFailsTheJobAndSaysWhy() {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("Hello -n 2 SHMEM_SYMMETRIC_SIZE=64t", Jobs.oshrun(2, Hello.class),
                Map.of("SHMEM_SYMMETRIC_SIZE", "64t"), Duration.ofSeconds(30));
        assertNotEquals(0, r.exit(), r::describe);
        assertTrue(r.stderrText().contains("free"), r::describe);
        assertTrue(r.stderrText().contains(Jobs.SHM_DIR.toString()), r::describe);
        assertTrue(r.stderrText().contains("SHMEM_SYMMETRIC_SIZE"), r::describe);
        assertEquals(List.of(), r.stdout(), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }
}
