package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * Progress of every context while a thread of the PE waits (spec 9.12: what a PE issued is
 * delivered without further calls of its own). Over UCX a created context has a worker of its own,
 * which may still hold data it accepted; the waiting thread progresses the default context and
 * the home worker, so someone else must progress that one, also while peers keep the waiter busy.
 */
class NetworkProgressInProcessTest {
    /**
     * PE 0 puts a large block with a signal to PE 1 on a created context and waits for PE 1's
     * answer, which PE 1 sends once the signal and data arrived; meanwhile the other PEs keep PE 0
     * busy with gets, so its waiter never parks. PE 0 never quiets the context before the answer (spec 4.1: communication
     * progresses without further calls).
     */
    @ParameterizedTest(name = "{0} PEs on {0} nodes, {1} KiB, nbi {2}")
    @CsvSource({"3, 16384, false", "3, 16384, true", "5, 16384, true", "3, 64, true"})
    void aCreatedContextProgressesWhileAWaiterIsKeptBusy(int npes, int kib, boolean nbi) {
        UcxAvailable.requireUcx("progress of created contexts over UCX");
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(npes), "SHMEM_NETWORK",
                "ucx", "SHMEM_SYMMETRIC_SIZE", "40m"), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), longs = kib * 128;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, longs);
                SymmetricLongArray signal = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray answer = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray done = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray served = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                shmem.barrierAll();
                if (me == 0) {
                    try (Context ctx = shmem.ctxCreate(0)) {
                        long[] block = new long[longs];
                        Arrays.fill(block, 42);
                        if (nbi) {
                            ctx.putSignalNbi(data, 0, block, 0, longs, signal, 0, 1, SignalOp.SET, 1);
                        } else {
                            ctx.putSignal(data, 0, block, 0, longs, signal, 0, 1, SignalOp.SET, 1);
                        }
                        shmem.waitUntil(answer, 0, Cmp.EQ, 1);
                        for (int pe = 2; pe < n; pe++) {
                            shmem.p(done, 0, 1, pe);
                        }
                    }
                } else if (me == 1) {
                    shmem.waitUntil(signal, 0, Cmp.EQ, 1);
                    assertEquals(42, data.get(longs - 1), "the block's last word at PE 1");
                    shmem.p(answer, 0, 1, 0);
                } else {
                    while (!shmem.test(done, 0, Cmp.EQ, 1)) {
                        shmem.g(served, 0, 0);
                    }
                }
                shmem.barrierAll();
            }
        }).orThrow();
    }
}
