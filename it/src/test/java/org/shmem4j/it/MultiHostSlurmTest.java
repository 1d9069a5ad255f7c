package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * oshrun inside a Slurm allocation on two pseudo-hosts ({@link Testbed} with Slurm):
 * {@code salloc -N 2 --ntasks-per-node=2 oshrun -n 4 ...} on host 0, oshrun starting the PEs with
 * one srun step. Examples, the mixed workload, and the failure cases; and the mixed workload
 * started by Slurm itself ({@code srun --mpi=pmix}, no oshrun: the PMIx bootstrap across hosts).
 */
@Tag("pseudo-hosts") // run by .ci/run after the README's test command, with -Dshmem4j.excludedGroups=none
@Timeout(600)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiHostSlurmTest {
    private static final int N = 4;
    @AutoClose // torn down whatever the tests did
    private Testbed tb;

    @BeforeAll
    void up() {
        tb = Testbed.up(2, true);
    }

    /** {@code salloc -N 2 --ntasks-per-node=2 oshrun -n 4 args} on host 0. */
    private List<String> inAllocation(List<String> args) {
        return inAllocation(List.of(), args);
    }

    /** {@code salloc -N 2 --ntasks-per-node=2 wrapper... oshrun -n 4 args} on host 0. */
    private List<String> inAllocation(List<String> wrapper, List<String> args) {
        var a = new ArrayList<>(List.of("salloc", "-N", "2", "--ntasks-per-node=2", "--quiet"));
        a.addAll(wrapper);
        a.addAll(Jobs.oshrun(new ArrayList<>(Stream.concat(Stream.of("-n", Integer.toString(N)), args.stream()).toList())));
        return tb.on(tb.hosts.getFirst(), MultiHost.JOB_BOUND_S, a);
    }

    private Jobs.Result run(String name, List<String> args) {
        return Jobs.run(name + " on 2 hosts x 2 PEs through Slurm", inAllocation(args), MultiHost.noEnv(),
                Duration.ofSeconds(MultiHost.JOB_BOUND_S + 10));
    }

    static Stream<String> examples() {
        var some = Set.of("Hello", "PutExample", "FenceExample", "AtomicFetchAddExample", "PutSignalExample",
                "WaitUntilSomeExample", "SetLockExample", "PtrExample");
        return MultiHost.examplesFor(N).stream().map(e -> e.main().getSimpleName()).filter(some::contains);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void specExample(String name) {
        var e = ExamplesTest.example(name);
        ExamplesTest.assertSucceeded(e, N, run(name, List.of("-cp", Jobs.peClasspath(), e.main().getName())));
    }

    @ParameterizedTest(name = "{0} by direct srun")
    @MethodSource("examples")
    void specExampleByDirectSrun(String name) {
        var e = ExamplesTest.example(name);
        ExamplesTest.assertSucceeded(e, N, direct(e.main()));
    }

    @Test
    void everyNodeGivesItsPesTheirShareOfItsCores() {
        // 4 PEs on the allocation's 2 nodes: 2 a node, each node's cores from Slurm (SLURM_CPUS_ON_NODE)
        MultiHost.assertEachPeHadItsShare(run("JvmReport", List.of("-cp", Jobs.peClasspath(), JvmReport.class.getName())),
                N, 2);
    }

    @Test
    void mixedWorkload() {
        checkMixedWorkload((main, args) -> run(main.getSimpleName(),
                Stream.concat(Stream.of("-cp", Jobs.peClasspath(), main.getName()), Stream.of(args)).toList()));
    }

    /** {@code srun --mpi=pmix -N 2 -n 4 java ... main args} on host 0: no oshrun, Slurm starts the PEs and serves PMIx. */
    private Jobs.Result direct(Class<?> main, String... args) {
        return Jobs.run(main.getSimpleName() + " on 2 hosts x 2 PEs by direct srun --mpi=pmix", directCommand(main, args),
                MultiHost.noEnv(), Duration.ofSeconds(MultiHost.JOB_BOUND_S + 10));
    }

    private List<String> directCommand(Class<?> main, String... args) {
        var srun = List.of("srun", "--mpi=pmix", "-N", "2", "--ntasks-per-node=2", "-n", Integer.toString(N), "--immediate=20",
                "--quiet"); // no "queued and waiting for resources" lines while the previous step winds down: only errors
        return tb.on(tb.hosts.getFirst(), MultiHost.JOB_BOUND_S, PmixJobs.command(srun, main, args));
    }

    /** Direct srun: a PE killed outright on host 1 cannot abort; Slurm's PMIx plugin ends the step, naming the task. */
    @Test
    void directSrunAPeKilledOnTheOtherHostEndsTheStep() {
        try (var job = Jobs.start("KillTarget by direct srun, PE 3 killed", directCommand(KillTarget.class), MultiHost.noEnv())) {
            var ready = MultiHost.awaitReady(job, N);
            long t0 = System.nanoTime();
            Jobs.run("kill PE 3", tb.on(tb.hosts.get(1), 10, List.of("kill", "-KILL", Long.toString(ready.pids()[3]))));
            var r = job.await(Duration.ofSeconds(MultiHost.JOB_BOUND_S));
            Jobs.record("containment: PE killed on the other host (direct srun): job ended "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms after the kill, status " + r.exit());
            assertNotEquals(0, r.exit(), r::describe);
            assertTrue(r.stderrText().contains(tb.hosts.get(1) + ": task 3: Killed"), r::describe);
            MultiHost.assertNoPeLeft(KillTarget.class);
            MultiHost.assertShmClean(tb, ready.jobId());
        }
    }

    @Test
    void directSrunThroughPmix() {
        // The bootstrap's own exchange and barriers across hosts first (a barrier that let one
        // host's PEs leave early hung jobs in finalize, 1 run in 5-10).
        PmixJobs.assertExchanged(direct(PmixExchange.class, "2"), N);
        checkMixedWorkload(this::direct);
    }

    /** HostTeams, AmoLockCheck and TeamGrid on 2 hosts x 2 PEs, run by {@code job}, with their results checked. */
    private static void checkMixedWorkload(java.util.function.BiFunction<Class<?>, String[], Jobs.Result> job) {
        var teams = job.apply(HostTeams.class, new String[0]);
        assertEquals(0, teams.exit(), teams::describe);
        assertEquals(PseudoHostsJobTest.expected(N, 2), MultiHost.sortedOutput(teams), teams::describe);
        MultiHost.assertAmoLockOk(N, job.apply(AmoLockCheck.class, new String[] {"100"}));
        var grid = job.apply(TeamGrid.class, new String[] {"2"});
        assertEquals(0, grid.exit(), grid::describe);
        assertEquals(TeamsJobTest.expected(N, 2), MultiHost.sortedOutput(grid), grid::describe);
    }

    private Jobs.Running startKillTarget(String name) {
        return Jobs.start(name, inAllocation(List.of("-cp", Jobs.peClasspath(), KillTarget.class.getName())), MultiHost.noEnv());
    }

    @Test
    void aPeKilledOnTheOtherNodeEndsTheJob() {
        try (var job = startKillTarget("KillTarget in Slurm, PE 3 killed")) {
            var ready = MultiHost.awaitReady(job, N);
            long t0 = System.nanoTime();
            // a heap file as a PE dying in start-up leaves it: the clean-up step must remove it
            Jobs.run("leave a heap file", tb.on(tb.hosts.get(1), 10, List.of("touch",
                    "/dev/shm/shmem4j-" + ready.jobId() + "-left-by-a-pe-dying-in-start-up")));
            Jobs.run("kill PE 3", tb.on(tb.hosts.get(1), 10, List.of("kill", "-KILL", Long.toString(ready.pids()[3]))));
            // a PE placed by srun is named by the host name it reported
            MultiHost.assertContained(job, "PE killed on the other node (Slurm)", t0, 3, tb.hosts.get(1));
            MultiHost.assertNoPeLeft(KillTarget.class);
            MultiHost.assertShmClean(tb, ready.jobId());
        }
    }

    @Test
    void sigtermToOshrunEndsTheStep() {
        try (var job = startKillTarget("KillTarget in Slurm, oshrun terminated")) {
            MultiHost.assertSigtermEndsTheJob(job, tb, N, "Slurm");
        }
    }

    @Test
    void sigkillOfOshrunEndsThePesWhileTheAllocationLivesOn() {
        // the allocation outlives oshrun (as a batch script going on would): the step must end by itself
        var wrapper = List.of("sh", "-c", "\"$@\"; sleep " + MultiHost.JOB_BOUND_S, "sh");
        try (var job = Jobs.start("NeverInitializes in Slurm, oshrun killed", inAllocation(wrapper, List.of("-cp",
                Jobs.peClasspath(), NeverInitializes.class.getName())), MultiHost.noEnv())) {
            job.awaitStdout(l -> l.stream().filter(x -> x.startsWith("pid ")).count() == N, Duration.ofSeconds(MultiHost.JOB_BOUND_S));
            long t0 = System.nanoTime();
            MultiHost.oshrunOf(job).destroyForcibly(); // SIGKILL: srun lives on, its input ends
            MultiHost.assertNoPeLeft(NeverInitializes.class);
            Jobs.record("containment: SIGKILL to oshrun (Slurm), PEs before shmem_init: all gone "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms later");
            // the allocation of the killed salloc would hold its CPUs: give them back to the other tests
            Jobs.run("scancel", tb.on(tb.hosts.getFirst(), 10, List.of("scancel", "--user=root")));
        }
    }

    @Test
    void aStepWhoseResourcesStayBusyGivesUp() {
        // another step holds every CPU of the allocation until oshrun is done
        var wrapper = List.of("sh", "-c", "srun --exact -n " + N + " sleep " + MultiHost.JOB_BOUND_S + " & "
                + "until squeue -h -s -o %j | grep -q sleep; do sleep 0.1; done; \"$@\"; rc=$?; kill $!; exit $rc", "sh");
        var r = Jobs.run("Hello in Slurm, resources busy", inAllocation(wrapper, List.of("-cp", Jobs.peClasspath(),
                org.shmem4j.examples.Hello.class.getName())), Map.of("SHMEM_BOOTSTRAP_TIMEOUT_S", "3"),
                Duration.ofSeconds(MultiHost.JOB_BOUND_S));
        assertNotEquals(0, r.exit(), r::describe);
        assertTrue(r.stderrText().contains("Unable to create step"), r::describe);
        assertEquals(List.of(), r.stdout(), r::describe);
    }
}
