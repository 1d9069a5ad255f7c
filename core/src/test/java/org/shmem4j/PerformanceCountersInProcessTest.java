package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * {@link Shmem#performanceCounters}: what a PE sent over the network, counted by the UCX engine,
 * and what its sessions batched. Counts are exact, so the tests compare them with the operations
 * made, between two points of one PE with nothing else of that PE in between.
 */
class PerformanceCountersInProcessTest {
    private static final List<String> NAMES = List.of("network.puts", "network.gets", "network.atomics", "network.messages",
            "network.bytes", "session.operations", "session.batches");

    private static Map<String, String> ucxNodes(int k) {
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(k), "SHMEM_NETWORK", "ucx");
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        return after.get(name) - before.get(name);
    }

    @Test
    void oneNodeSendsNothingOverTheNetworkAndNamesEveryCounter() {
        InProcessTestSupport.runWith(2, InProcessTestSupport.oneNodeEnv(), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 16);
                shmem.barrierAll();
                shmem.put(x, 0, new long[] {1, 2, 3}, 0, 3, 1 - shmem.myPe());
                shmem.atomicAdd(x, 8, 1, 1 - shmem.myPe());
                shmem.barrierAll();
                Map<String, Long> counts = shmem.performanceCounters();
                assertEquals(NAMES, List.copyOf(counts.keySet()), "the counters' names, in order");
                counts.forEach((name, value) -> assertEquals(0L, value, name + " on a one-node job"));
                assertThrows(UnsupportedOperationException.class, () -> counts.put("network.puts", 1L), "a read-only view");
            }
        }).orThrow();
    }

    /**
     * A get counts one get and the bytes it fetched; AMOs count one atomic each; puts of a block
     * count its bytes (as an RMA put, or as a message where the target's CPU carries RMA, as on
     * tcp); operations to a PE of the same node count nothing.
     */
    @ParameterizedTest(name = "{0} PEs on 2 nodes")
    @ValueSource(ints = {2, 4})
    void theEngineCountsWhatThisPeSends(int npes) {
        UcxAvailable.requireUcx("network counters");
        InProcessTestSupport.runWith(npes, ucxNodes(2), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1024);
                shmem.barrierAll();
                if (me == 0) {
                    int remote = n - 1; // the last PE is on node 1, PE 0 on node 0
                    Map<String, Long> start = shmem.performanceCounters();
                    long[] back = new long[1000];
                    shmem.get(back, 0, x, 0, back.length, remote);
                    Map<String, Long> afterGet = shmem.performanceCounters();
                    assertEquals(1, delta(start, afterGet, "network.gets"), "one get");
                    assertEquals(8000, delta(start, afterGet, "network.bytes"), "the bytes the get fetched");

                    assertEquals(0, shmem.atomicFetchAdd(x, 1000, 5, remote), "fetch-add");
                    assertEquals(5, shmem.atomicCompareSwap(x, 1000, 5, 7, remote), "compare-swap");
                    Map<String, Long> afterAmos = shmem.performanceCounters();
                    assertEquals(2, delta(afterGet, afterAmos, "network.atomics"), "two fetching AMOs");
                    assertEquals(16, delta(afterGet, afterAmos, "network.bytes"), "two 8-byte operands");

                    long[] block = java.util.stream.LongStream.range(0, 512).toArray();
                    shmem.put(x, 0, block, 0, block.length, remote);
                    shmem.quiet();
                    Map<String, Long> afterPut = shmem.performanceCounters();
                    long carriers = delta(afterAmos, afterPut, "network.puts") + delta(afterAmos, afterPut, "network.messages");
                    assertTrue(carriers >= 1, "the put went out as a put or a message: " + afterPut);
                    assertTrue(delta(afterAmos, afterPut, "network.bytes") >= 4096, "the put's 4096 bytes: " + afterPut);
                    if (n > 2) {
                        shmem.put(x, 0, block, 0, block.length, 1); // PE 1 is on node 0 with PE 0
                        shmem.atomicAdd(x, 1000, 1, 1);
                        shmem.quiet();
                        assertEquals(afterPut, shmem.performanceCounters(), "operations to a PE of this node");
                    }
                }
                shmem.barrierAll();
            }
        });
    }

    @Test
    void sessionCountersSayWhatWasBatched() {
        UcxAvailable.requireUcx("session counters");
        InProcessTestSupport.runWith(2, ucxNodes(2), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 64);
                shmem.barrierAll();
                if (shmem.myPe() == 0) {
                    Context ctx = shmem.ctxCreate(0);
                    ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                    for (int i = 0; i < 64; i++) {
                        ctx.atomicAdd(x, i, 1, 1);
                    }
                    ctx.sessionStop();
                    ctx.quiet();
                    Map<String, Long> counts = shmem.performanceCounters();
                    assertEquals(64, counts.get("session.operations"), "operations batched: " + counts);
                    assertTrue(counts.get("session.batches") >= 1 && counts.get("session.batches") <= 64,
                            "batches: " + counts);
                    ctx.close();
                }
                shmem.barrierAll();
                if (shmem.myPe() == 1) {
                    for (int i = 0; i < 64; i++) {
                        assertEquals(1, x.get(i), "word " + i + " after the session");
                    }
                }
            }
        });
    }
}
