package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    /**
     * Fence orders the AMOs and puts with signal that go through the network (to mapped PEs too)
     * before later plain stores to those PEs (spec 9.12.1, Table 14). Each PE sends its right
     * neighbour, round after round, an add, a put with signal (data and signal) and, after a fence,
     * the round's number as a flag; the neighbour, while it sends, reads the flag and must find
     * everything of that round already there.
     */
    @ParameterizedTest(name = "{0} PEs on {1} node(s) over {2}")
    @CsvSource({"2, 1, deferred-nic", "4, 1, deferred-nic", "4, 2, deferred-nic", "5, 2, deferred-nic", "3, 1, ucx", "4, 2, ucx"})
    void fenceOrdersNetworkUpdatesBeforeLaterStores(int npes, int nodes, String network) {
        if (network.equals("ucx")) {
            UcxAvailable.requireUcx("SHMEM_NETWORK_ATOMICS over UCX");
        }
        InProcessTestSupport.runWith(npes, env(nodes, network, true), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, rounds = 300, width = 64;
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray signal = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, width);
                SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                long[] payload = new long[width];
                shmem.barrierAll();
                List<String> early = new ArrayList<>();
                for (int k = 1; k <= rounds; k++) {
                    Arrays.fill(payload, k);
                    shmem.atomicAdd(counter, 0, 1, right);
                    shmem.putSignal(data, 0, payload, 0, width, signal, 0, 1, SignalOp.ADD, right);
                    shmem.fence();
                    shmem.p(flag, 0, k, right);
                    long seen = shmem.atomicFetch(flag, 0, me); // what the left neighbour's flag says arrived
                    long c = shmem.atomicFetch(counter, 0, me), s = shmem.atomicFetch(signal, 0, me);
                    long d = data.get(width - 1);
                    if ((c < seen || s < seen || d < seen) && early.size() < 5) {
                        early.add("round " + k + ": flag " + seen + " before counter " + c + ", signal " + s + ", data " + d);
                    }
                }
                shmem.barrierAll();
                assertTrue(early.isEmpty(), () -> "PE " + me + " saw its flag before what the fence ordered before it: " + early);
                assertEquals(rounds, counter.get(0), "adds at PE " + me);
                assertEquals(rounds, signal.get(0), "signal adds at PE " + me);
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
