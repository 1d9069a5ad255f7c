package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/** What the ssh and Slurm multi-host tests share: the workloads' checks and the clean-up checks. */
final class MultiHost {
    /** Bound of one multi-host job (the normal ones take a few seconds). */
    static final int JOB_BOUND_S = 120;
    private static final Pattern READY = Pattern.compile("ready (\\d+) (\\d+) (\\w+)");

    private static final Pattern SHARE = Pattern.compile("pe=\\d+ cpus=(\\d+) .* node_cores=(\\d+) background_compilation=(\\w+)");

    private MultiHost() {}

    /**
     * {@link JvmReport} on {@code n} PEs, {@code pesPerNode} on each node: every PE's JVM saw
     * ceil(its node's cores / PEs there) processors, the node's cores reaching the PE too, and
     * compiled in the foreground exactly when the node's PEs fill its cores.
     */
    static void assertEachPeHadItsShare(Jobs.Result r, int n, int pesPerNode) {
        assertEquals(0, r.exit(), r::describe);
        int seen = 0;
        for (String line : r.stdout()) {
            Matcher m = SHARE.matcher(line);
            if (m.find()) {
                int cores = Integer.parseInt(m.group(2));
                assertTrue(cores > 0, line);
                assertEquals((cores + pesPerNode - 1) / pesPerNode, Integer.parseInt(m.group(1)), () -> line + "\n" + r.describe());
                assertEquals(pesPerNode < cores, Boolean.parseBoolean(m.group(3)), () -> line + "\n" + r.describe());
                seen++;
            }
        }
        assertEquals(n, seen, r::describe);
    }

    /** The example jobs: every example that runs on {@code n} PEs. */
    static List<ExamplesTest.Example> examplesFor(int n) {
        return ExamplesTest.EXAMPLES.stream().filter(e -> IntStream.of(e.counts()).min().orElse(1) <= n).toList();
    }

    /** Lines of stdout without the JVM's hsperfdata warnings, sorted. */
    static List<String> sortedOutput(Jobs.Result r) {
        var out = new ArrayList<>(r.stdout().stream().filter(l -> !l.matches("\\[[0-9.]+s\\]\\[warning\\]\\[perf.*")).toList());
        out.sort(null);
        return out;
    }

    /** AmoLockCheck's result: every PE's fetch-adds were unique and its locked increments kept. */
    static void assertAmoLockOk(int n, Jobs.Result r) {
        assertEquals(0, r.exit(), r::describe);
        var want = new TreeSet<String>();
        for (int p = 0; p < n; p++) {
            want.add("amo-ok " + p);
            want.add("lock-ok " + p);
        }
        assertEquals(want, new TreeSet<>(r.stdout().stream().filter(l -> l.startsWith("amo-ok") || l.startsWith("lock-ok")).toList()),
                r::describe);
    }

    /** Waits until all {@code n} KillTarget PEs printed "ready"; returns their (host-local) pids by rank and the job id. */
    static Ready awaitReady(Jobs.Running job, int n) {
        var lines = job.awaitStdout(l -> l.stream().filter(s -> READY.matcher(s).matches()).count() == n,
                Duration.ofSeconds(JOB_BOUND_S));
        long[] pids = new long[n];
        String jobId = null;
        for (String l : lines) {
            Matcher m = READY.matcher(l);
            if (m.matches()) {
                pids[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2));
                jobId = m.group(3);
            }
        }
        return new Ready(pids, jobId);
    }

    record Ready(long[] pids, String jobId) {}

    /**
     * Waits for the job to end after a failure was caused at {@code causedNanos}: it ends with a
     * non-zero status and a message naming {@code rank} and {@code host}; records the time taken.
     */
    static Jobs.Result assertContained(Jobs.Running job, String what, long causedNanos, int rank, String host) {
        var r = job.await(Duration.ofSeconds(JOB_BOUND_S));
        long ms = (System.nanoTime() - causedNanos) / 1_000_000;
        Jobs.record("containment: " + what + ": job ended " + ms + " ms after the failure, status " + r.exit());
        assertNotEquals(0, r.exit(), r::describe);
        assertTrue(Pattern.compile("oshrun: PE " + rank + " \\(pid \\d+ on host " + Pattern.quote(host) + "\\)")
                .matcher(r.stderrText()).find(), r::describe);
        return r;
    }

    /**
     * No process of the test's PE class runs anywhere (every pseudo-host's processes are visible
     * from here) once their job ended, whether oshrun or srun started it: waits for the last ones
     * to go, at most 15 s.
     */
    static void assertNoPeLeft(Class<?> peMain) {
        String where = Jobs.location(Jobs.class); // this build's PEs only: another worktree may run jobs too
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            var left = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                    .filter(c -> c.contains(peMain.getName()) && c.contains(where) && !c.contains("launcher.Oshrun")).isPresent()).toList();
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("PEs outlived their job: " + left.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList());
            }
            Jobs.sleep(50);
        }
    }

    /**
     * The job secret of a running PE of {@code peMain} (read from its environment) appears in no
     * process's command line on any host: ssh and srun carry it out of sight.
     */
    static void assertSecretOnNoCommandLine(Class<?> peMain) {
        String where = Jobs.location(Jobs.class);
        var pe = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .filter(c -> c.contains(peMain.getName()) && c.contains(where) && c.contains("PeMain")).isPresent())
                .findFirst().orElseThrow(() -> new AssertionError("no running PE of " + peMain.getName()));
        String secret;
        try {
            secret = java.util.Arrays.stream(java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pe.pid()),
                    "environ")).split("\0")).filter(v -> v.startsWith("SHMEM4J_JOB_SECRET=")).findFirst()
                    .map(v -> v.substring(v.indexOf('=') + 1)).orElseThrow(() -> new AssertionError("PE " + pe.pid() + " has no secret"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        var showing = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().filter(c -> c.contains(secret)).isPresent())
                .map(p -> p.pid() + " " + p.info().command().orElse("?")).toList();
        assertEquals(List.of(), showing, "processes showing the job secret on their command line");
    }

    /** No host keeps a heap file of job {@code jobId}. */
    static void assertShmClean(Testbed tb, String jobId) {
        for (String h : tb.hosts) {
            assertEquals(List.of(), tb.shmFiles(h).stream().filter(f -> f.contains(jobId)).toList(), "/dev/shm of " + h);
        }
    }

    /**
     * SIGTERM to the oshrun of {@code job} ({@code npes} KillTarget PEs) once they are ready: the
     * job ends with 143 (salloc reports its command's status), no PE and no heap file left anywhere.
     */
    static void assertSigtermEndsTheJob(Jobs.Running job, Testbed tb, int npes, String mode) {
        var ready = awaitReady(job, npes);
        assertSecretOnNoCommandLine(KillTarget.class);
        long t0 = System.nanoTime();
        oshrunOf(job).destroy(); // SIGTERM
        var r = job.await(Duration.ofSeconds(JOB_BOUND_S));
        Jobs.record("containment: SIGTERM to oshrun (" + mode + "): ended " + (System.nanoTime() - t0) / 1_000_000 + " ms later");
        assertEquals(143, r.exit(), r::describe);
        assertNoPeLeft(KillTarget.class);
        assertShmClean(tb, ready.jobId());
    }

    /** The oshrun JVM among the descendants of {@code job}'s process (which starts it on a pseudo-host). */
    static ProcessHandle oshrunOf(Jobs.Running job) {
        // the JVM itself, not nsenter or timeout, whose arguments name the class too
        return job.process.descendants().filter(p -> p.info().command().filter(c -> c.endsWith("/java")).isPresent()
                && p.info().commandLine().filter(c -> c.contains("org.shmem4j.launcher.Oshrun")).isPresent()).findFirst()
                .orElseThrow(() -> new AssertionError("no oshrun process under " + job.name));
    }

    static Map<String, String> noEnv() {
        return Map.of();
    }
}
