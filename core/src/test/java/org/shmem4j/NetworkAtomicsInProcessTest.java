package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.inprocess.InProcessJob;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * {@code SHMEM_NETWORK_ATOMICS=1}: one atomicity domain for network atomics that are not atomic
 * with CPU atomics. The test engine {@code deferred-nic} does its AMOs as such a NIC would (a
 * read-modify-write CPU atomics can slip into), so every AMO, signal add and lock operation of the
 * job must go through it, to this node's PEs and to the PE itself too, or updates are lost.
 */
class NetworkAtomicsInProcessTest {
    private static Map<String, String> env(int nodes, String network, boolean everyAmo) {
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(nodes), "SHMEM_NETWORK", network,
                "SHMEM_NETWORK_ATOMICS", everyAmo ? "1" : "0");
    }

    /**
     * Every PE adds to a counter on every PE (itself included) with fetch-add, add, signal add and
     * an increment under the global lock, interleaved; the totals are exact only if no update
     * took another path than the others.
     */
    @ParameterizedTest(name = "{0} PEs on {1} node(s) over {2}")
    @CsvSource({"1, 1, deferred-nic", "2, 1, deferred-nic", "3, 1, deferred-nic", "5, 2, deferred-nic", "8, 3, deferred-nic",
            "2, 1, ucx", "3, 2, ucx"})
    void everyUpdateGoesThroughTheNetwork(int npes, int nodes, String network) {
        if (network.equals("ucx")) {
            UcxAvailable.requireUcx("SHMEM_NETWORK_ATOMICS over UCX");
        }
        InProcessTestSupport.runWith(npes, env(nodes, network, true), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), rounds = 60;
                SymmetricLongArray counters = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricIntArray small = shmem.calloc(ValueLayout.JAVA_INT, 1);
                SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray guarded = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                shmem.barrierAll();
                for (int r = 0; r < rounds; r++) {
                    for (int d = 0; d < n; d++) {
                        int pe = (me + d) % n;
                        shmem.atomicFetchAdd(counters, 0, 1, pe);
                        shmem.atomicAdd(counters, 1, 2, pe);
                        shmem.signalAdd(counters, 2, 3, pe);
                        shmem.atomicFetchInc(small, 0, pe);
                    }
                    shmem.setLock(lock, 0);
                    long v = shmem.g(guarded, 0, 0);
                    shmem.p(guarded, 0, v + 1, 0);
                    shmem.quiet();
                    shmem.clearLock(lock, 0);
                }
                shmem.barrierAll();
                long total = (long) rounds * n;
                assertEquals(total, counters.get(0), "fetch-adds at PE " + me);
                assertEquals(2 * total, counters.get(1), "adds at PE " + me);
                assertEquals(3 * total, counters.get(2), "signal adds at PE " + me);
                assertEquals(total, small.get(0), "32-bit increments at PE " + me);
                if (me == 0) {
                    assertEquals(total, guarded.get(0), "increments under the lock");
                }
                shmem.barrierAll();
            }
        }).orThrow();
    }

    /** Without the setting, a job whose network atomics are not CPU-coherent does not start, and says what to set. */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2"})
    void nicAtomicsWithoutTheSettingFailAtInit(int npes, int nodes) {
        InProcessJob.Result r = InProcessTestSupport.runWith(npes, env(nodes, "deferred-nic", false), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll();
            }
        });
        assertEquals(1, r.status(), "exit status");
        assertTrue(r.failures().stream().anyMatch(f -> String.valueOf(f.getMessage()).contains("SHMEM_NETWORK_ATOMICS=1")),
                () -> "no failure names the setting: " + r.failures());
    }
}
