package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * shmem4j's JFR events, read back from a recording of an in-process job: what each profiling
 * level ({@code shmem_pcontrol}) records, and that nothing is recorded or allocated when off.
 */
class JfrEventsInProcessTest {
    private static final int BIG = 8192; // longs: 64 KiB, the default SHMEM_JFR_RMA_SIZE

    /** The same program at every level: each kind of instrumented operation at least once. */
    private static void workload(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, BIG);
        SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, BIG);
        SymmetricIntArray never = shmem.calloc(ValueLayout.JAVA_INT, 1);
        shmem.barrierAll();
        for (int i = 0; i < 5; i++) {
            shmem.p(data, i, me, (me + 1) % n);
        }
        shmem.atomicFetchAdd(sum, 0, 1L, 0);
        shmem.put(data, 0, new long[BIG], 0, BIG, (me + 1) % n);
        shmem.barrierAll();
        shmem.teamWorld().sumReduce(sum, data, BIG);
        Team evens = shmem.teamWorld().splitStrided(0, 2, (n + 1) / 2, null, 0);
        assertFalse(shmem.waitUntil(never, 0, Cmp.EQ, 1, Duration.ofMillis(20)), "nobody sets it");
        evens.close();
        never.close();
        sum.close();
        data.close();
    }

    /** Runs {@link #workload} on {@code npes} PEs at {@code level} under a JFR recording, returning shmem4j's events. */
    private static List<RecordedEvent> record(int npes, int level, Map<String, String> env) throws Exception {
        Path file = Files.createTempFile("shmem4j-events", ".jfr");
        try (Recording recording = new Recording()) {
            recording.start();
            InProcessTestSupport.runWith(npes, env, () -> {
                try (Shmem shmem = Shmem.init()) {
                    shmem.pcontrol(level);
                    workload(shmem);
                }
            }).orThrow();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().startsWith("shmem4j.")).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<RecordedEvent> of(List<RecordedEvent> events, int pe, String type, String routine) {
        Predicate<RecordedEvent> match = e -> e.getEventType().getName().equals("shmem4j." + type)
                && e.getInt("pe") == pe && e.getString("routine").equals(routine);
        return events.stream().filter(match).toList();
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 3})
    void levelOneRecordsCollectivesWaitsTeamsHeapAndLargeTransfers(int npes) throws Exception {
        // no duration threshold in effect: only size decides which RMA/AMO a loaded machine records
        List<RecordedEvent> events = record(npes, 1, InProcessTestSupport.env("SHMEM_JFR_RMA_US", "1000000000"));
        for (int pe = 0; pe < npes; pe++) {
            List<RecordedEvent> barriers = of(events, pe, "Collective", "shmem_barrier_all");
            assertTrue(barriers.size() >= 2, "PE " + pe + " barriers: " + barriers);
            for (RecordedEvent b : barriers) {
                assertEquals(npes, b.getInt("teamSize"));
                assertFalse(b.getString("algorithm").isBlank(), b.toString());
            }
            RecordedEvent reduce = of(events, pe, "Collective", "shmem_sum_reduce").getFirst();
            assertEquals(BIG * 8L, reduce.getLong("bytes"));
            assertEquals(npes, reduce.getInt("teamSize"));
            List<RecordedEvent> callocs = of(events, pe, "Heap", "shmem_calloc");
            assertEquals(List.of(BIG * 8L, BIG * 8L, 4L), callocs.stream().map(e -> e.getLong("bytes")).toList());
            assertEquals(3, of(events, pe, "Heap", "shmem_free").size());
            RecordedEvent split = of(events, pe, "TeamCreate", "shmem_team_split_strided").getFirst();
            assertEquals(npes, split.getInt("parentSize"));
            assertEquals(pe % 2 == 0 ? (npes + 1) / 2 : 0, split.getInt("size"));
            RecordedEvent wait = of(events, pe, "Wait", "shmem_wait_until").getFirst();
            // JFR's clock can skew between CPUs on a loaded VM (seen: 0.03 ms for a 20 ms wait): no lower bound
            assertTrue(wait.getDuration().toNanos() > 0, wait.toString());
            List<RecordedEvent> puts = of(events, pe, "Rma", "shmem_put");
            assertEquals(1, puts.size(), puts.toString());
            assertEquals(BIG * 8L, puts.getFirst().getLong("bytes"));
            assertEquals((pe + 1) % npes, puts.getFirst().getInt("target"));
            assertEquals(List.of(), of(events, pe, "Rma", "shmem_p"), "small puts are not recorded at level 1");
            assertEquals(List.of(), of(events, pe, "Amo", "shmem_atomic_fetch_add"));
        }
    }

    @Test
    void levelTwoRecordsEveryRmaAndAmo() throws Exception {
        List<RecordedEvent> events = record(3, 2, InProcessTestSupport.env());
        for (int pe = 0; pe < 3; pe++) {
            List<RecordedEvent> ps = of(events, pe, "Rma", "shmem_p");
            assertEquals(5, ps.size(), ps.toString());
            for (RecordedEvent p : ps) {
                assertEquals(8, p.getLong("bytes"));
                assertEquals((pe + 1) % 3, p.getInt("target"));
            }
            RecordedEvent amo = of(events, pe, "Amo", "shmem_atomic_fetch_add").getFirst();
            assertEquals(0, amo.getInt("target"));
            assertEquals(1, of(events, pe, "Collective", "shmem_sum_reduce").size());
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, -1})
    void levelZeroOrBelowRecordsNothing(int level) throws Exception {
        assertEquals(List.of(), record(3, level, InProcessTestSupport.env()));
    }

    /**
     * Without a recording an instrumented operation allocates no event: 200,000 of them allocate
     * less than one byte each, where an event object alone takes dozens of bytes.
     */
    @Test
    void withoutARecordingOperationsAllocateNoEvents() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        AtomicLong allocated = new AtomicLong();
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.pcontrol(2); // the most detailed level, still nothing without a recording
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int i = 0; i < 200_000; i++) { // warm-up: the measured loop runs compiled
                    shmem.p(x, 0, i, 0);
                    shmem.atomicFetchAdd(x, 0, 1L, 0);
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 100_000; i++) {
                    shmem.p(x, 0, i, 0);
                    shmem.atomicFetchAdd(x, 0, 1L, 0);
                }
                allocated.set(threads.getCurrentThreadAllocatedBytes() - before);
                x.close();
            }
        });
        assertTrue(allocated.get() < 200_000, allocated.get() + " bytes allocated by 200,000 operations");
    }
}
