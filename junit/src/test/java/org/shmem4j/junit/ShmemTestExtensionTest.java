package org.shmem4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * The extension tested through the JUnit Platform: each nested sample class is run by the Jupiter
 * engine (they are not run by the build themselves: their names contain '$'), and the events it
 * reports are checked. The samples record what their PEs saw in static queues, which is safe here
 * because in-process PEs share them (the very thing {@link ShmemTest} warns users about).
 */
class ShmemTestExtensionTest {
    static final Queue<String> seen = new ConcurrentLinkedQueue<>();

    private static Events run(Class<?> sample) {
        seen.clear();
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(sample)).execute().testEvents();
    }

    private static List<String> names(Events events) {
        return events.map(e -> e.getTestDescriptor().getDisplayName()).toList();
    }

    private static Throwable failureOf(Event event) {
        return event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    static class Counts {
        @ShmemTest(pes = {1, 2, 3, 5})
        void everyPeRuns(Shmem shmem) {
            SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            shmem.atomicAdd(sum, 0, shmem.myPe() + 1, 0);
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                seen.add("n=" + shmem.nPes() + " sum=" + shmem.atomicFetch(sum, 0, 0));
            }
            seen.add(shmem.nPes() + ":" + shmem.myPe());
            sum.close();
        }
    }

    @Test
    void eachPeCountIsOneTestWhoseEveryPeRuns() {
        Events events = run(Counts.class);
        events.assertStatistics(s -> s.started(4).succeeded(4).failed(0));
        assertEquals(List.of("pes=1", "pes=2", "pes=3", "pes=5"), names(events.started()));
        Set<String> expected = new TreeSet<>();
        for (int n : new int[] {1, 2, 3, 5}) {
            expected.add("n=" + n + " sum=" + n * (n + 1) / 2);
            for (int pe = 0; pe < n; pe++) {
                expected.add(n + ":" + pe);
            }
        }
        assertEquals(expected, new TreeSet<>(seen));
        assertEquals(expected.size(), seen.size(), "some PE ran twice: " + seen);
    }

    static class OddPesFail {
        @ShmemTest(pes = 4)
        void oddPesThrow(Shmem shmem) {
            if (shmem.myPe() % 2 == 1) {
                throw new IllegalStateException("boom on PE " + shmem.myPe());
            }
            seen.add("PE " + shmem.myPe() + " returned");
        }
    }

    @Test
    void everyFailingPeIsReportedNotOnlyTheFirst() {
        Events events = run(OddPesFail.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        Throwable failure = failureOf(events.failed().list().getFirst());
        String message = failure.getMessage();
        assertTrue(message.startsWith("pes=4: 2 of 4 PEs failed"), message);
        assertTrue(message.contains("PE 1: java.lang.IllegalStateException: boom on PE 1"), message);
        assertTrue(message.contains("PE 3: java.lang.IllegalStateException: boom on PE 3"), message);
        assertFalse(message.contains("PE 0:") || message.contains("PE 2:"), message);
        assertEquals(List.of("boom on PE 1", "boom on PE 3"),
                List.of(failure.getSuppressed()).stream().map(Throwable::getMessage).toList());
        assertEquals(Set.of("PE 0 returned", "PE 2 returned"), Set.copyOf(seen));
    }

    static class OnePeFailsInABarrier {
        @ShmemTest(pes = {1, 3})
        void lastPeFails(Shmem shmem) {
            if (shmem.myPe() == shmem.nPes() - 1) {
                throw new AssertionError("PE " + shmem.myPe() + " disagrees");
            }
            shmem.barrierAll(); // the others wait for it here, and fail when it is gone
        }
    }

    @Test
    void peersLeftWaitingForAFailedPeAreReportedToo() {
        Events events = run(OnePeFailsInABarrier.class);
        events.assertStatistics(s -> s.started(2).failed(2));
        List<String> messages = events.failed().map(e -> failureOf(e).getMessage()).toList();
        assertTrue(messages.get(0).startsWith("pes=1: 1 of 1 PEs failed\n  PE 0: java.lang.AssertionError: PE 0 disagrees"),
                messages.get(0));
        String three = messages.get(1);
        assertTrue(three.startsWith("pes=3: 3 of 3 PEs failed"), three);
        assertTrue(three.contains("PE 2: java.lang.AssertionError: PE 2 disagrees"), three);
        // one line for both when they failed alike (the usual: the job's abort), else one each
        assertTrue(three.contains("\n  PEs 0, 1 (2): ") || three.contains("\n  PE 0: ") && three.contains("\n  PE 1: "), three);
    }

    static class Hangs {
        @ShmemTest(pes = {1, 2}, timeout = 2, unit = TimeUnit.SECONDS)
        void everyPeWaitsForAFlagNobodySets(Shmem shmem) {
            SymmetricIntArray flag = shmem.calloc(ValueLayout.JAVA_INT, 1);
            shmem.barrierAll();
            shmem.waitUntil(flag, 0, Cmp.EQ, 1); // a deadlock of the program: every PE waits
        }
    }

    @Test
    void aHangIsBoundedAndShowsWhereEachPeWas() {
        Events events = run(Hangs.class);
        events.assertStatistics(s -> s.started(2).failed(2));
        for (Event e : events.failed().list()) {
            String pes = e.getTestDescriptor().getDisplayName();
            String message = failureOf(e).getMessage();
            assertTrue(message.startsWith(pes + ": timed out after 2000 ms"), message);
            // PEs stuck at the same place share one stack
            assertTrue(pes.equals("pes=1") ? message.contains("\n  PE 0 still running at:")
                    : message.contains("\n  PEs 0, 1 (2) still running at:")
                            || message.contains("\n  PE 0 still running at:") && message.contains("\n  PE 1 still running at:"), message);
            assertTrue(message.contains("everyPeWaitsForAFlagNobodySets"), message);
        }
    }

    static class InitsItself {
        @ShmemTest(pes = 3)
        void callsInit(TestInfo info) {
            try (Shmem shmem = Shmem.init()) {
                seen.add(info.getDisplayName() + " PE " + shmem.myPe() + " of " + shmem.nPes());
            }
        }
    }

    @Test
    void aMethodWithoutShmemParameterIsTheWholeProgramAndOtherParametersStillResolve() {
        run(InitsItself.class).assertStatistics(s -> s.started(1).succeeded(1));
        assertEquals(Set.of("pes=3 PE 0 of 3", "pes=3 PE 1 of 3", "pes=3 PE 2 of 3"), Set.copyOf(seen));
    }

    static class PseudoHosts {
        @ShmemTest(pes = {2, 4}, hosts = 2)
        void sharedTeamIsTheHost(Shmem shmem) {
            seen.add(shmem.nPes() + ":" + shmem.teamShared().nPes());
        }
    }

    @Test
    void pseudoHostsSplitThePes() {
        Events events = run(PseudoHosts.class);
        events.assertStatistics(s -> s.started(2).succeeded(2));
        assertEquals(List.of("pes=2, hosts=2", "pes=4, hosts=2"), names(events.started()));
        assertEquals(List.of("2:1", "2:1", "4:2", "4:2", "4:2", "4:2"), seen.stream().sorted().toList());
    }

    static class PseudoNodes {
        @ShmemTest(pes = {2, 3}, nodes = 2)
        void putsCrossNodesThroughTheNetworkEngine(Shmem shmem) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymmetricLongArray box = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            shmem.p(box, 0, 100L + me, (me + 1) % n);
            shmem.barrierAll();
            seen.add(n + ":" + me + " shared=" + shmem.teamShared().nPes() + " got=" + box.get(0));
            box.close();
        }
    }

    @Test
    void pseudoNodesSplitThePesAndTheirPutsArrive() {
        // the network engine between pseudo-nodes is UCX (Debian's libucx0); CI installs it
        try {
            java.lang.foreign.SymbolLookup.libraryLookup("libucp.so.0", java.lang.foreign.Arena.global());
        } catch (IllegalArgumentException missing) {
            String message = "@ShmemTest(nodes = 2) NOT TESTED: UCX (libucp.so.0) is not installed";
            if ("1".equals(System.getenv("SHMEM4J_REQUIRE_UCX"))) {
                throw new AssertionError(message + " (SHMEM4J_REQUIRE_UCX=1)");
            }
            System.err.println("WARNING: " + message);
            org.junit.jupiter.api.Assumptions.assumeTrue(false, message);
        }
        Events events = run(PseudoNodes.class);
        events.assertStatistics(s -> s.started(2).succeeded(2));
        assertEquals(List.of("pes=2, nodes=2", "pes=3, nodes=2"), names(events.started()));
        // 3 PEs on 2 nodes: PEs 0-1 on node 0, PE 2 on node 1 (blocks, as oshrun --nodes)
        assertEquals(List.of("2:0 shared=1 got=101", "2:1 shared=1 got=100", "3:0 shared=2 got=102", "3:1 shared=2 got=100",
                "3:2 shared=1 got=101"), seen.stream().sorted().toList());
    }

    static class NoPes {
        @ShmemTest(pes = {2, 0})
        void never(Shmem shmem) {
            seen.add("ran");
        }
    }

    @Test
    void aBadPeCountIsAConfigurationErrorNamingTheMethod() {
        seen.clear();
        Events all = EngineTestKit.engine("junit-jupiter").selectors(selectClass(NoPes.class)).execute().allEvents();
        Throwable failure = failureOf(all.failed().list().getFirst());
        assertInstanceOf(ExtensionConfigurationException.class, failure);
        assertEquals("@ShmemTest on NoPes.never: pes = 0 is not a PE count (at least 1)", failure.getMessage());
        assertTrue(seen.isEmpty(), seen.toString());
    }
}
