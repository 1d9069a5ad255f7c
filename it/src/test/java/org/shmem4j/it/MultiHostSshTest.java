package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Jobs over ssh on pseudo-hosts ({@link Testbed}): oshrun runs on host 0 and starts 2 PEs on each
 * of 2 or 3 hosts with {@code --host}; PEs of one host share memory, the others talk through the
 * network engine. The spec examples and a mixed workload with checked results, then the failure
 * cases: each ends the job in bounded time, naming the PE and its host, with no PE and no heap
 * file left on any host.
 */
@Tag("pseudo-hosts") // run by .ci/run after the README's test command, with -Dshmem4j.excludedGroups=none
@Timeout(600)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiHostSshTest {
    @AutoClose // torn down whatever the tests did
    private Testbed tb;

    @BeforeAll
    void up() {
        tb = Testbed.up(3, false);
    }

    /** {@code oshrun --host <hosts>:2 --ssh ... args} run on host 0. */
    private List<String> oshrun(Testbed bed, int hosts, List<String> args) {
        var a = new ArrayList<>(List.of("--host", bed.hostList(hosts, 2), "--ssh", bed.ssh(), "-n", Integer.toString(2 * hosts)));
        a.addAll(args);
        return bed.on(bed.hosts.getFirst(), MultiHost.JOB_BOUND_S, Jobs.oshrun(a));
    }

    private Jobs.Result run(String name, int hosts, List<String> args) {
        return Jobs.run(name + " on " + hosts + " hosts x 2 PEs over ssh", oshrun(tb, hosts, args), MultiHost.noEnv(),
                java.time.Duration.ofSeconds(MultiHost.JOB_BOUND_S + 10));
    }

    /** Every example on 2 hosts; on 3, one of each kind (the 3-host runs cost twice as much on a 2-core machine). */
    static Stream<Arguments> examples() {
        var on3 = java.util.Set.of("Hello", "PutExample", "FenceExample", "AtomicFetchAddExample", "PutSignalExample",
                "WaitUntilSomeExample", "SetLockExample", "PtrExample");
        return Stream.concat(MultiHost.examplesFor(4).stream().map(e -> Arguments.of(e.main().getSimpleName(), 2)),
                MultiHost.examplesFor(6).stream().filter(e -> on3.contains(e.main().getSimpleName()))
                        .map(e -> Arguments.of(e.main().getSimpleName(), 3)));
    }

    @ParameterizedTest(name = "{0} on {1} hosts x 2 PEs")
    @MethodSource("examples")
    void specExample(String name, int hosts) {
        var e = ExamplesTest.example(name);
        ExamplesTest.assertSucceeded(e, 2 * hosts, run(name, hosts, List.of("-cp", Jobs.peClasspath(), e.main().getName())));
    }

    @Test
    void everyHostGivesItsPesTheirShareOfItsCores() {
        // host 0 runs oshrun, which counts its cores; hosts 1 and 2 count theirs in the PE's sh prelude
        MultiHost.assertEachPeHadItsShare(run("JvmReport", 3, List.of("-cp", Jobs.peClasspath(), JvmReport.class.getName())),
                6, 2);
    }

    @ParameterizedTest(name = "teams, ptr and collectives follow the {0} hosts")
    @CsvSource({"2", "3"})
    void hostTeams(int hosts) {
        var r = run("HostTeams", hosts, List.of("-cp", Jobs.peClasspath(), HostTeams.class.getName()));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(PseudoHostsJobTest.expected(2 * hosts, hosts), MultiHost.sortedOutput(r), r::describe);
    }

    @Test
    void hostfileWithRanksRoundRobinOverTheHosts() throws Exception {
        // in target/: the pseudo-hosts share the file system but for /tmp, /dev/shm and /root
        var hostfile = java.nio.file.Files.writeString(java.nio.file.Path.of(System.getProperty("basedir",
                System.getProperty("user.dir")), "target", "hostfile-" + tb.prefix), "# two hosts\n" + tb.hosts.get(0)
                + " slots=2\n\n" + tb.hosts.get(1) + " slots=2   # the second\n");
        var r = Jobs.run("HostTeams --hostfile --map-by node", tb.on(tb.hosts.getFirst(), MultiHost.JOB_BOUND_S,
                Jobs.oshrun(List.of("--hostfile", hostfile.toString(), "--map-by", "node", "--ssh", tb.ssh(), "-n", "4",
                        "-cp", Jobs.peClasspath(), HostTeams.class.getName()))));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(PseudoHostsJobTest.expected(4, pe -> pe % 2), MultiHost.sortedOutput(r), r::describe);
    }

    @ParameterizedTest(name = "AMOs and locks on {0} hosts")
    @CsvSource({"2", "3"})
    void amosAndLocks(int hosts) {
        MultiHost.assertAmoLockOk(2 * hosts, run("AmoLockCheck", hosts, List.of("-cp", Jobs.peClasspath(),
                AmoLockCheck.class.getName(), "100")));
    }

    @ParameterizedTest(name = "team split_2d, contexts and syncs on {0} hosts, xrange {1}")
    @CsvSource({"2, 2", "3, 3"})
    void teamGrid(int hosts, int xrange) {
        var r = run("TeamGrid", hosts, List.of("-cp", Jobs.peClasspath(), TeamGrid.class.getName(), Integer.toString(xrange)));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(TeamsJobTest.expected(2 * hosts, xrange), MultiHost.sortedOutput(r), r::describe);
    }

    private Jobs.Running startKillTarget(Testbed bed, String name) {
        return Jobs.start(name, oshrun(bed, 3, List.of("-cp", Jobs.peClasspath(), KillTarget.class.getName())),
                MultiHost.noEnv());
    }

    /**
     * Starts a 3 x 2 job, runs {@code failure} (given the pid of {@code rank} on its host) on that
     * host, and checks the job is contained, naming the PE and its host.
     */
    private void failOnRemoteHost(String what, int rank, java.util.function.LongFunction<String> failure) {
        try (var job = startKillTarget(tb, "KillTarget, " + what)) {
            var ready = MultiHost.awaitReady(job, 6);
            String host = tb.hosts.get(rank / 2);
            long t0 = System.nanoTime();
            // a heap file as a PE dying in start-up leaves it, on a host other than oshrun's
            Jobs.run("leave a heap file", tb.on(tb.hosts.get(2), 10, List.of("touch",
                    "/dev/shm/" + "shmem4j-" + ready.jobId() + "-left-by-a-pe-dying-in-start-up")));
            Jobs.run(what, tb.on(host, 10, List.of("sh", "-c", failure.apply(ready.pids()[rank]))));
            MultiHost.assertContained(job, what + " (ssh)", t0, rank, host);
            MultiHost.assertNoPeLeft(KillTarget.class);
            MultiHost.assertShmClean(tb, ready.jobId());
        }
    }

    /**
     * PEs that cannot fit their remote host (an initial heap larger than its memory) are refused
     * there, before any JVM starts, by the shell of their ssh start: oshrun cannot read another
     * host's memory, and the job gets one line naming the host, not a JVM's failure per PE (the
     * first refusal to arrive: a host's first PE counts both of its PEs, its second only itself).
     * (Hosts 1 and 2 only: oshrun's own host is judged before any start, NodeCapacityTest.)
     */
    @Test
    void pesThatCannotFitARemoteHostAreRefusedThereInOneLine() {
        String hosts = tb.hosts.get(1) + ":2," + tb.hosts.get(2) + ":2";
        var r = Jobs.run("4 PEs of -Xms64t on 2 remote hosts", tb.on(tb.hosts.getFirst(), MultiHost.JOB_BOUND_S, Jobs.oshrun(List.of(
                "--host", hosts, "--ssh", tb.ssh(), "-n", "4", "-Xms64t", "-cp", Jobs.peClasspath(), KillTarget.class.getName()))),
                MultiHost.noEnv(), java.time.Duration.ofSeconds(MultiHost.JOB_BOUND_S + 10));
        org.junit.jupiter.api.Assertions.assertEquals(1, r.exit(), r::describe);
        // one line; and if the refusal came while oshrun still started PEs, the line that says it stopped
        var lines = r.stderr().stream().filter(l -> !l.isBlank() && !l.matches("oshrun: PEs \\d+\\.\\.3 were not started: the job had ended")).toList();
        org.junit.jupiter.api.Assertions.assertEquals(1, lines.size(), r::describe);
        org.junit.jupiter.api.Assertions.assertTrue(lines.getFirst().matches("oshrun: (2 PEs|1 PE) cannot fit host (" + java.util.regex.Pattern.quote(
                tb.hosts.get(1)) + "|" + java.util.regex.Pattern.quote(tb.hosts.get(2)) + ")'s memory: each PE's JVM needs about 64 TiB"
                + " \\(32 MiB plus its -Xms\\), \\d+ MiB is available \\(MemAvailable\\), room for 0 PEs"), r::describe);
        MultiHost.assertNoPeLeft(KillTarget.class);
    }

    @Test
    void aPeKilledOnARemoteHostEndsTheJob() {
        failOnRemoteHost("PE 3 killed on its host", 3, pid -> "kill -KILL " + pid);
    }

    @Test
    void aDroppedSshConnectionEndsTheJob() {
        // the sshd session serving PE 5: the connection ends on the remote side
        failOnRemoteHost("ssh connection of PE 5 dropped", 5, pid -> "kill -KILL $(ps -o ppid= -p " + pid + ")");
    }

    @Test
    void sigtermToOshrunEndsThePesOfEveryHost() {
        try (var job = startKillTarget(tb, "KillTarget, oshrun terminated")) {
            MultiHost.assertSigtermEndsTheJob(job, tb, 6, "ssh");
        }
    }

    @Test
    void sigkillOfOshrunEndsPesThatHaveNotInitializedOnEveryHost() {
        try (var job = Jobs.start("NeverInitializes, oshrun killed", oshrun(tb, 3, List.of("-cp", Jobs.peClasspath(),
                NeverInitializes.class.getName())), MultiHost.noEnv())) {
            job.awaitStdout(l -> l.stream().filter(x -> x.startsWith("pid ")).count() == 6, java.time.Duration.ofSeconds(
                    MultiHost.JOB_BOUND_S));
            long t0 = System.nanoTime();
            MultiHost.oshrunOf(job).destroyForcibly(); // SIGKILL: oshrun cannot clean up
            // the PEs (and their ssh clients, whose command lines name the PE class too) go by themselves
            MultiHost.assertNoPeLeft(NeverInitializes.class);
            Jobs.record("containment: SIGKILL to oshrun (ssh), PEs before shmem_init: all gone "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms later");
        }
    }

    /**
     * A host crashed (link down, then every process on it killed): oshrun's heartbeat (default
     * 1 s) ends the job naming the host. {@code -Dshmem4j.vanish.runs=10} repeats it on fresh
     * testbeds and records the medians from the crash to oshrun's message and to its exit (which
     * adds the ABORT to the live PEs and the clean-up over ssh of the live hosts).
     */
    @Test
    void aHostThatDisappearsEndsTheJob() {
        int runs = Integer.getInteger("shmem4j.vanish.runs", 1);
        var ms = new ArrayList<Long>();
        var named = new ArrayList<Long>();
        for (int run = 0; run < runs; run++) {
            try (var own = Testbed.up(3, false); var job = startKillTarget(own, "KillTarget, host 2 crashed")) {
                var ready = MultiHost.awaitReady(job, 6);
                String host = own.hosts.get(2);
                long t0 = System.nanoTime();
                own.crash(host);
                String said = "oshrun: host " + host + " has not answered for ";
                long bound = t0 + java.util.concurrent.TimeUnit.SECONDS.toNanos(MultiHost.JOB_BOUND_S);
                while (job.process.isAlive() && job.err.lines.stream().noneMatch(l -> l.contains(said)) && System.nanoTime() < bound) {
                    java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // polls for the message: its time is the figure
                }
                named.add((System.nanoTime() - t0) / 1_000_000);
                var r = job.await(java.time.Duration.ofSeconds(MultiHost.JOB_BOUND_S));
                ms.add((System.nanoTime() - t0) / 1_000_000);
                Jobs.record("containment: host crashed (ssh): job ended " + ms.getLast() + " ms after the failure, status " + r.exit());
                org.junit.jupiter.api.Assertions.assertNotEquals(0, r.exit(), r::describe);
                org.junit.jupiter.api.Assertions.assertTrue(r.stderrText().contains(said),
                        r::describe);
                // the live PEs met the job's end oshrun announced: they repeat none of it (it was a stack trace each)
                org.junit.jupiter.api.Assertions.assertFalse(r.stderrText().contains("Exception"), r::describe);
                org.junit.jupiter.api.Assertions.assertTrue(r.stderrText().matches("(?s).*PE [45] \\(pid \\d+ on host "
                        + java.util.regex.Pattern.quote(host) + "\\).*"), r::describe);
                MultiHost.assertNoPeLeft(KillTarget.class);
                MultiHost.assertShmClean(own, ready.jobId());
            }
        }
        Jobs.record("containment: host crashed (ssh), " + runs + " runs: crash to oshrun's message naming the host: median "
                + named.stream().sorted().toList().get(runs / 2) + " ms, all " + named + "; to oshrun's exit: median "
                + ms.stream().sorted().toList().get(runs / 2) + " ms, all " + ms);
    }
}
