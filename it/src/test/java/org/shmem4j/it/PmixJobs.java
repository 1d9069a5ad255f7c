package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.shmem4j.Shmem;
import org.shmem4j.examples.GlobalExitExample;
import org.shmem4j.examples.Hello;

/**
 * PE programs started by a PMIx server instead of oshrun ({@code srun --mpi=pmix}, Open MPI's
 * {@code mpirun}): the PE command line, the skip-or-fail rule for what the system lacks, and a
 * failure run measured from the failing PE's report to the end of the job.
 */
final class PmixJobs {
    /** Every PMIx job's wall time is bounded by this, by {@code timeout} as well as by the test. */
    static final Duration BOUND = Duration.ofSeconds(60);

    private PmixJobs() {}

    /** {@code timeout ... java --enable-native-access=ALL-UNNAMED -cp <core, examples, it> main args}, after {@code launcher}. */
    static List<String> command(List<String> launcher, Class<?> main, String... args) {
        var cmd = new ArrayList<>(List.of("timeout", "-k", "5", Long.toString(BOUND.toSeconds())));
        cmd.addAll(launcher);
        cmd.addAll(List.of(Jobs.javaExecutable(), "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", Jobs.location(Shmem.class) + File.pathSeparator + Jobs.peClasspath(), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Skips the test {@code what} because {@code missing} (unless null), saying so on stderr; fails
     * instead under {@code SHMEM4J_REQUIRE_PMIX=1} (CI, which installs Open MPI and Slurm).
     */
    static void require(String what, String missing) {
        Jobs.require("SHMEM4J_REQUIRE_PMIX", what, missing);
    }

    /** mpirun's {@code --tag-output} prefix of a piece of a PE's output. */
    private static final Pattern TAG = Pattern.compile("\\[\\d+,(\\d+)\\]<std(?:out|err)>:");

    /**
     * The PEs' lines in {@code lines} as mpirun {@code --tag-output} printed them: mpirun forwards
     * each piece a PE wrote as it comes, tagged with the rank, so one printed line may hold the
     * starts of several PEs' lines; each PE's pieces are joined until the end of a printed line
     * ends one of its lines. Untagged lines (srun's) are kept as they are.
     */
    static List<String> untagged(List<String> lines) {
        var whole = new ArrayList<String>();
        var pending = new HashMap<String, StringBuilder>();
        for (String line : lines) {
            Matcher m = TAG.matcher(line);
            if (!m.lookingAt()) {
                whole.add(line);
                continue;
            }
            String rank = m.group(1);
            int from = m.end();
            while (m.find()) {
                pending.computeIfAbsent(rank, r -> new StringBuilder()).append(line, from, m.start());
                rank = m.group(1);
                from = m.end();
            }
            StringBuilder rest = pending.remove(rank);
            whole.add((rest == null ? "" : rest.toString()) + line.substring(from));
        }
        return whole;
    }

    /** The executable {@code name} found on the PATH. */
    static Optional<Path> onPath(String name) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
                .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
    }

    /**
     * Runs {@link ThrowBeforeFinalize} (PE 1 throws after the first barrier, the others would wait
     * 60 s): the job must end with a non-zero status and the failing PE's report; records the time
     * from that report reaching stderr to the end of the job.
     */
    static void failingPeEndsTheJob(String name, List<String> launcher, Map<String, String> env) throws InterruptedException {
        try (var job = Jobs.start(name, command(launcher, ThrowBeforeFinalize.class, "1"), env)) {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (untagged(job.err.lines).stream().noneMatch(l -> l.contains("deliberate failure on PE 1")) && job.process.isAlive()
                    && System.nanoTime() - deadline < 0) {
                Thread.sleep(5); // polling stderr for the report; the bound is the job's
            }
            var r = failedAfter(job, System.nanoTime(), "failure report");
            String err = String.join("\n", untagged(r.stderr()));
            assertTrue(err.contains("deliberate failure on PE 1 before shmem_finalize"), r::describe);
            assertTrue(err.matches("(?s).*shmem4j: PE 1 \\(host [^)]+\\) is exiting before shmem_finalize; asking PMIx to abort the job.*"),
                    r::describe);
        }
    }

    /**
     * Runs {@link KillTarget} on 3 PEs and kills PE 2 with SIGKILL once all are ready (it has no
     * chance to abort): the resource manager must notice the lost PMIx client and end the job,
     * naming PE 2 in a line of its own stderr that {@code launcherReport} matches; records the time
     * from the kill to the end. Neither srun nor mpirun tells the other PEs with a PMIx event (see
     * {@code PmixBootstrap}), so their own reports cannot name PE 2: the launcher's is the one.
     */
    static void killedPeEndsTheJob(String name, List<String> launcher, Map<String, String> env, Pattern launcherReport)
            throws InterruptedException {
        try (var job = Jobs.start(name, command(launcher, KillTarget.class), env)) {
            long victim = readyPids(job).get(2);
            long killedAt = System.nanoTime();
            assertTrue(ProcessHandle.of(victim).map(ProcessHandle::destroyForcibly).orElse(false), "PE 2 (pid " + victim + ") is gone");
            var r = failedAfter(job, killedAt, "SIGKILL of PE 2");
            assertTrue(r.stderr().stream().anyMatch(l -> launcherReport.matcher(l).find()), r::describe);
        }
    }

    /** The pids of the 3 PEs of {@link KillTarget} {@code job}, by rank, once all are ready. */
    static List<Long> readyPids(Jobs.Running job) {
        var ready = untagged(job.awaitStdout(lines -> untagged(lines).stream().filter(l -> l.startsWith("ready ")).count() == 3, BOUND));
        return IntStream.range(0, 3).mapToObj(pe -> ready.stream().filter(l -> l.startsWith("ready " + pe + " "))
                .map(l -> Long.parseLong(l.split(" ")[2])).findFirst().orElseThrow()).toList();
    }

    /**
     * Waits for {@code job} to end (within {@link #BOUND}), which must be with a non-zero status;
     * records the time from {@code event} (at {@code since}, a {@link System#nanoTime()}) to the end.
     */
    private static Jobs.Result failedAfter(Jobs.Running job, long since, String event) throws InterruptedException {
        boolean ended = job.process.waitFor(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        long endMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        var r = job.await(Duration.ofSeconds(5));
        Jobs.record(job.name + ": " + event + " to end of job " + endMs + " ms (exit " + r.exit() + ")");
        assertTrue(ended, r::describe);
        assertTrue(r.exit() != 0, r::describe);
        return r;
    }

    /**
     * The spec's Hello on {@code n} PEs with {@code SHMEM_INFO=1}: its lines, and PE 0's report
     * that the PMIx bootstrap was chosen.
     */
    static void hello(String name, List<String> launcher, Map<String, String> env, int n) {
        var withInfo = new HashMap<>(env);
        withInfo.put("SHMEM_INFO", "1");
        var r = Jobs.run(name, command(launcher, Hello.class), withInfo, BOUND);
        assertEquals(0, r.exit(), r::describe);
        var out = untagged(r.stdout());
        assertEquals(IntStream.range(0, n).mapToObj(pe -> "Hello from PE " + pe + " of " + n).toList(),
                sorted(out.stream().filter(l -> l.startsWith("Hello from PE ")).toList()), r::describe);
        assertTrue(out.stream().anyMatch(l -> l.startsWith("shmem4j bootstrap: PmixBootstrap[rank 0 of " + n + ", namespace ")),
                r::describe);
    }

    /**
     * The mixed workload on {@code n} PEs ({@code how} says how they were started): AMOs and locks
     * ({@link AmoLockCheck}), then split_2d teams with team contexts and syncs ({@link TeamGrid}),
     * each with its results checked.
     */
    static void amosLocksAndTeams(String how, List<String> launcher, Map<String, String> env, int n) {
        var amo = Jobs.run("AmoLockCheck (" + how + ")", command(launcher, AmoLockCheck.class, "200"), env, BOUND);
        assertEquals(0, amo.exit(), amo::describe);
        var expected = new ArrayList<String>();
        IntStream.range(0, n).forEach(pe -> expected.addAll(List.of("amo-ok " + pe, "lock-ok " + pe)));
        assertEquals(sorted(expected), sorted(amo.stdout()), amo::describe);

        var grid = Jobs.run("TeamGrid (" + how + ")", command(launcher, TeamGrid.class, "2"), env, BOUND);
        assertEquals(0, grid.exit(), grid::describe);
        assertEquals(TeamsJobTest.expected(n, 2), sorted(grid.stdout()), grid::describe);
    }

    /** {@code lines} untagged and in order. */
    static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(untagged(lines));
        s.sort(null);
        return s;
    }

    /** {@link PmixExchange} on 3 PEs of one host: every PE's exchanges and barriers check out and it exits normally. */
    static void exchange(String name, List<String> launcher, Map<String, String> env) {
        assertExchanged(Jobs.run(name, command(launcher, PmixExchange.class), env, BOUND), 3);
    }

    /** {@code r}, a job of {@link PmixExchange} on {@code n} PEs, succeeded on every PE. */
    static void assertExchanged(Jobs.Result r, int n) {
        assertEquals(0, r.exit(), r::describe);
        assertEquals(IntStream.range(0, n).mapToObj(pe -> "exchange-ok " + pe + " of " + n).toList(), sorted(r.stdout()),
                r::describe);
    }

    /**
     * {@link LateToInit} on 3 PEs with {@code SHMEM_BOOTSTRAP_TIMEOUT_S=3}: PE 2 never initializes,
     * so the others' {@code shmem_init} fails naming the timeout (PMIx's fence timeout) and the job
     * ends with a non-zero status instead of waiting for the bound.
     */
    static void startupTimeoutEndsTheJob(String name, List<String> launcher, Map<String, String> env) {
        var withTimeout = new HashMap<>(env);
        withTimeout.put("SHMEM_BOOTSTRAP_TIMEOUT_S", "3");
        var r = Jobs.run(name, command(launcher, LateToInit.class, "2"), withTimeout, BOUND);
        assertTrue(r.exit() != 0, r::describe);
        assertTrue(untagged(r.stderr()).stream().anyMatch(l -> l.contains("(SHMEM_BOOTSTRAP_TIMEOUT_S)")
                && l.contains("never called shmem_init")), r::describe);
    }

    /** {@code GlobalExitExample} with a missing file on 3 PEs: PE 0's global exit ends the job with a non-zero status. */
    static void globalExitEndsTheJob(String name, List<String> launcher, Map<String, String> env) {
        var r = Jobs.run(name, command(launcher, GlobalExitExample.class, "/nonexistent/shmem4j-input.txt"), env, BOUND);
        assertTrue(r.exit() != 0, r::describe);
        assertTrue(untagged(r.stderr()).contains("shmem4j: PE 0 called shmem_global_exit(1)"), r::describe);
    }
}
