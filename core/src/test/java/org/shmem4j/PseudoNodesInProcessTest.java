package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * PEs spread over pseudo-nodes: peers of other nodes are not mapped and are reached through the
 * network engine, here the deferred test network (late delivery, any order within a fence epoch).
 * These are the properties shared memory could never get wrong: completion only at quiet, ordering
 * only by fence, pe_quiet per PE, nbi fetches delivered at quiet, a signal never before its data.
 */
class PseudoNodesInProcessTest {
    /** The engine between nodes: the deferred test network, or the one {@code SHMEM_NETWORK} names (CI: ucx). */
    private static final String NETWORK = System.getenv().getOrDefault("SHMEM_NETWORK", "deferred");

    private static Map<String, String> nodes(int k) {
        return nodes(k, NETWORK);
    }

    private static Map<String, String> nodes(int k, String network) {
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(k), "SHMEM_NETWORK", network);
    }

    /** The pseudo-node of {@code pe} among {@code n} PEs on {@code k} nodes (block placement). */
    private static int node(int pe, int n, int k) {
        return pe * k / n;
    }

    /** The next PE after {@code pe} (cyclically) that is on another node: certainly remote. */
    private static int remotePeer(int pe, int n, int k) {
        for (int d = 1; d < n; d++) {
            int q = (pe + d) % n;
            if (node(q, n, k) != node(pe, n, k)) {
                return q;
            }
        }
        throw new AssertionError("PE " + pe + " has no peer on another node");
    }

    /**
     * The last finalize completes what shareable contexts carry before it tells the peers this PE
     * entered it (spec 9.1.4: it completes pending communication and destroys those contexts).
     * The PEs of node 0 put with signal to every PE of the other nodes on a created context, never
     * quiet it, and finalize; the receivers wait for the signals. Over {@code deferred-lazy},
     * which delivers a context's puts only when it is drained, the announcement would otherwise
     * arrive first and the receivers would wait for signals no PE will send.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2", "5, 3"})
    void finalizeCompletesCreatedContextsBeforeAnnouncingItself(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k, "deferred-lazy"), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray signal = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                int senders = (int) java.util.stream.IntStream.range(0, n).filter(pe -> node(pe, n, k) == 0).count();
                shmem.barrierAll();
                if (node(me, n, k) == 0) {
                    Context ctx = shmem.teamWorld().createCtx(0);
                    for (int pe = senders; pe < n; pe++) {
                        ctx.putSignal(data, me, new long[] {me + 1}, 0, 1, signal, 0, 1, SignalOp.ADD, pe);
                    }
                } else {
                    shmem.waitUntil(signal, 0, Cmp.EQ, senders);
                    for (int pe = 0; pe < senders; pe++) {
                        assertEquals(pe + 1, data.get(pe), "PE " + pe + "'s data at PE " + me);
                    }
                }
            }
        }).orThrow();
    }

    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2", "5, 3", "8, 2", "8, 3"})
    void nodesDoNotMapEachOtherButReachEachOther(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, n);
                for (int pe = 0; pe < n; pe++) {
                    boolean sameNode = node(pe, n, k) == node(me, n, k);
                    assertEquals(sameNode, shmem.ptr(x, pe) != null, "shmem_ptr from PE " + me + " to PE " + pe);
                    assertTrue(shmem.peAccessible(pe), "shmem_pe_accessible " + pe);
                    shmem.p(x, me, me + 1, pe);
                }
                long mates = java.util.stream.IntStream.range(0, n).filter(pe -> node(pe, n, k) == node(me, n, k)).count();
                assertEquals(mates, shmem.teamShared().nPes(), "SHARED is this node's PEs");
                shmem.barrierAll(); // quiets, so every p has arrived
                for (int pe = 0; pe < n; pe++) {
                    assertEquals(pe + 1, x.get(pe), "PE " + pe + "'s value at PE " + me);
                }
                x.close();
            }
        }).orThrow();
    }

    /**
     * Broadcasts from a changing root back to back with other collectives, no barrier between:
     * the push broadcast's root leaves once every member entered the collective 95 sequence
     * numbers before, so a member may still be collectives behind when the root starts the next
     * one; the scratch buffers in turn must keep every call's data apart (checked on every PE,
     * every call). The alltoall pushes into the same buffers (a slot per writer), and every fifth
     * iteration a reduction of 300 longs stages more than a buffer where hosts have several
     * members (several buffers, a sequence number each).
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2", "5, 3", "8, 2"})
    void collectivesBackToBackKeepTheirDataApart(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray bcast = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray all = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray blocks = shmem.calloc(ValueLayout.JAVA_LONG, 2L * n);
                SymmetricLongArray got = shmem.calloc(ValueLayout.JAVA_LONG, 2L * n);
                SymmetricLongArray wide = shmem.calloc(ValueLayout.JAVA_LONG, 300);
                SymmetricLongArray wideSum = shmem.calloc(ValueLayout.JAVA_LONG, 300);
                for (int i = 0; i < 150; i++) {
                    int root = i % n;
                    for (int j = 0; j < 4; j++) {
                        src.set(j, 1000L * i + 10L * me + j);
                    }
                    world.broadcast(bcast, src, 4, root);
                    for (int j = 0; j < 4; j++) {
                        assertEquals(1000L * i + 10L * root + j, bcast.get(j), "broadcast " + i + " from " + root + " at PE " + me);
                    }
                    if (i % 3 != 2) { // sometimes two broadcasts in a row
                        world.fcollect(all, src, 1);
                        for (int pe = 0; pe < n; pe++) {
                            assertEquals(1000L * i + 10L * pe, all.get(pe), "fcollect " + i + " at PE " + me);
                        }
                        world.sumReduce(sum, src, 1);
                        assertEquals(1000L * i * n + 10L * n * (n - 1) / 2, sum.get(0), "reduce " + i + " at PE " + me);
                    }
                    if (i % 5 == 1) {
                        for (int j = 0; j < 300; j++) {
                            wide.set(j, i + me + j);
                        }
                        world.sumReduce(wideSum, wide, 300);
                        for (int j = 0; j < 300; j++) {
                            assertEquals((long) n * (i + j) + (long) n * (n - 1) / 2, wideSum.get(j), "reduce of 300 " + i + " at PE " + me);
                        }
                    }
                    if (i % 4 != 3) {
                        for (int e = 0; e < 2 * n; e++) {
                            blocks.set(e, 1000L * i + 100L * me + e);
                        }
                        world.alltoall(got, blocks, 2);
                        for (int pe = 0; pe < n; pe++) {
                            for (int j = 0; j < 2; j++) {
                                assertEquals(1000L * i + 100L * pe + 2 * me + j, got.get(2L * pe + j),
                                        "alltoall " + i + " from " + pe + " at PE " + me);
                            }
                        }
                    }
                }
                wideSum.close();
                wide.close();
                got.close();
                blocks.close();
                sum.close();
                all.close();
                bcast.close();
                src.close();
            }
        }).orThrow();
    }

    /**
     * fcollects of blocks too large for the scratch go through the leaders' dest: a leader writes
     * another leader's dest once that one entered the call, reads its members' sources, and its
     * members read its dest. Every PE overwrites its dest and its source as soon as a call returns
     * (the user owns them again), with broadcasts (which read the same acknowledgement lines) and
     * small fcollects between, and checks every block of every call: a read of a source or dest
     * after its owner returned, or a write before its owner entered, shows as a wrong block. The
     * alltoall of 1,024-long blocks (too large for the scratch from 3 PEs on) puts straight into
     * the receivers' dest once they entered, checked the same way.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2", "4, 2", "5, 3", "8, 2"})
    void largeFcollectsAndAlltoallsIntoDestBackToBack(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                long block = 3000; // 24 KiB: past the 16 KiB scratch at any team size
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, block);
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, block * n);
                SymmetricLongArray small = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray one = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray got = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                long piece = 1024;
                SymmetricLongArray toAll = shmem.calloc(ValueLayout.JAVA_LONG, piece * n);
                SymmetricLongArray fromAll = shmem.calloc(ValueLayout.JAVA_LONG, piece * n);
                for (int i = 0; i < 40; i++) {
                    for (long e = 0; e < block; e++) {
                        src.set(e, 1_000_000L * i + 10_000L * me + e);
                    }
                    world.fcollect(dest, src, block);
                    for (int pe = 0; pe < n; pe++) {
                        for (long e = 0; e < block; e += 97) {
                            assertEquals(1_000_000L * i + 10_000L * pe + e, dest.get(pe * block + e),
                                    "fcollect " + i + ", block of PE " + pe + ", element " + e + " at PE " + me);
                        }
                        assertEquals(1_000_000L * i + 10_000L * pe + block - 1, dest.get((pe + 1) * block - 1),
                                "fcollect " + i + ", last element of PE " + pe + "'s block at PE " + me);
                    }
                    dest.fill(-1);
                    src.fill(-2);
                    for (int twice = 0; twice < 2; twice++) { // back to back: a write before its receiver entered shows
                        long v = 1_000_000L * (2 * i + twice);
                        for (long e = 0; e < piece * n; e++) {
                            toAll.set(e, v + 10_000L * me + e);
                        }
                        world.alltoall(fromAll, toAll, piece);
                        for (int pe = 0; pe < n; pe++) {
                            for (long e = 0; e < piece; e += 31) {
                                assertEquals(v + 10_000L * pe + me * piece + e, fromAll.get(pe * piece + e),
                                        "alltoall " + i + "." + twice + ", block from PE " + pe + ", element " + e + " at PE " + me);
                            }
                            assertEquals(v + 10_000L * pe + (me + 1) * piece - 1, fromAll.get((pe + 1) * piece - 1),
                                    "alltoall " + i + "." + twice + ", last element from PE " + pe + " at PE " + me);
                        }
                        fromAll.fill(-3);
                        toAll.fill(-4);
                    }
                    if (i % 3 == 1) {
                        one.set(0, 7L * i + me);
                        world.broadcast(got, one, 1, i % n);
                        assertEquals(7L * i + i % n, got.get(0), "broadcast " + i + " at PE " + me);
                        world.fcollect(small, got, 1);
                        for (int pe = 0; pe < n; pe++) {
                            assertEquals(7L * i + i % n, small.get(pe), "small fcollect " + i + " at PE " + me);
                        }
                    }
                }
                fromAll.close();
                toAll.close();
                got.close();
                one.close();
                small.close();
                dest.close();
                src.close();
            }
        }).orThrow();
    }

    /**
     * Runs of broadcasts from one root, the root changing every 7 calls, then every 40: a push
     * broadcast's root waits only until each member entered the collective 95 sequence numbers
     * before, and a host's representative says so about every 47th with what its members' lines
     * show (the long runs reach those words), so a root runs calls ahead of a slow member (the
     * last PE pauses now and then to be one; a representative that spoke for a lagging member
     * without looking failed here over UCX). Every fifth call stages more than one
     * scratch buffer (1,500 longs: twelve buffers and sequence numbers; every tenth 2,048 longs,
     * the sixteen a collective stages at most), whose first falls on every fourth buffer of the
     * ring in turn, so at times the ring's last continues into the buffers after it; every call's
     * data must still arrive intact at every PE.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2", "5, 3", "8, 2"})
    void runsOfBroadcastsKeepTheirDataApart(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                int most = 2048;
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, most);
                SymmetricLongArray bcast = shmem.calloc(ValueLayout.JAVA_LONG, most);
                for (int i = 0; i < 360; i++) {
                    int root = (i < 120 ? i / 7 : i / 40) % n;
                    int length = i % 10 == 9 ? most : i % 5 == 4 ? 1500 : 16;
                    for (int j = 0; j < length; j++) {
                        src.set(j, 1000L * i + 10L * me + j);
                    }
                    world.broadcast(bcast, src, length, root);
                    if (me == n - 1 && i % 16 == 5) {
                        java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // lag, so roots run ahead
                    }
                    for (int j = 0; j < length; j++) {
                        assertEquals(1000L * i + 10L * root + j, bcast.get(j), "broadcast " + i + " from " + root + " at PE " + me);
                    }
                }
                bcast.close();
                src.close();
            }
        }).orThrow();
    }

    /** Rounds of put, fence, flag to a remote PE: the target must never see the flag before the data. */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "4, 2", "5, 3"})
    void fenceOrdersPutsToEachPe(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), rounds = 300;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 8L * n);
                SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, n);
                int to = remotePeer(me, n, k);
                shmem.barrierAll();
                long[] block = new long[8];
                for (long r = 1; r <= rounds; r++) {
                    java.util.Arrays.fill(block, r);
                    shmem.put(data, 8L * me, block, 0, 8, to);
                    shmem.fence();
                    shmem.p(flag, me, r, to);
                }
                // Every PE that targets me: its flag's final value comes after its data's.
                for (int from = 0; from < n; from++) {
                    if (remotePeer(from, n, k) != me) {
                        continue;
                    }
                    for (long seen = 0; seen < rounds; ) {
                        long f = shmem.g(flag, from, me);
                        if (f > seen) {
                            for (int i = 0; i < 8; i++) {
                                long d = data.get(8L * from + i);
                                assertTrue(d >= f, "data " + d + " from PE " + from + " behind its flag " + f);
                            }
                            seen = f;
                        }
                        Thread.onSpinWait();
                    }
                }
                shmem.barrierAll();
            }
        }).orThrow();
    }

    /** pe_quiet(j) completes what went to j: a flag issued after it never overtakes the data. */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "4, 2", "6, 3"})
    void peQuietCompletesWhatWentToItsPes(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), rounds = 100;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 64L * n);
                SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, n);
                int to = remotePeer(me, n, k);
                shmem.barrierAll();
                long[] block = new long[64];
                for (long r = 1; r <= rounds; r++) {
                    java.util.Arrays.fill(block, r);
                    shmem.put(data, 64L * me, block, 0, 64, to);
                    shmem.peQuiet(to);
                    shmem.atomicSet(flag, me, r, to);
                }
                for (int from = 0; from < n; from++) {
                    if (remotePeer(from, n, k) != me) {
                        continue;
                    }
                    for (long r = 1; r <= rounds; r++) {
                        shmem.waitUntil(flag, from, Cmp.GE, r);
                        long f = flag.get(from);
                        for (int i = 0; i < 64; i++) {
                            assertTrue(data.get(64L * from + i) >= f, "data from PE " + from + " behind its flag " + f);
                        }
                    }
                }
                shmem.barrierAll();
            }
        }).orThrow();
    }

    /** Fetching AMOs issued nbi land in their Java arrays by quiet: the old values of m increments are 0..m-1. */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "5, 3"})
    void nbiFetchesAreDeliveredByQuiet(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), m = 200;
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricIntArray small = shmem.calloc(ValueLayout.JAVA_INT, n);
                int to = remotePeer(me, n, k);
                shmem.barrierAll();
                long[] fetched = new long[m];
                int[] fetchedInts = new int[m];
                java.util.Arrays.fill(fetched, -1);
                for (int i = 0; i < m; i++) {
                    shmem.atomicFetchIncNbi(fetched, i, counter, me, to);
                    shmem.atomicFetchAddNbi(fetchedInts, i, small, me, 2, to);
                }
                shmem.quiet();
                long[] sorted = fetched.clone();
                java.util.Arrays.sort(sorted);
                assertArrayEquals(java.util.stream.LongStream.range(0, m).toArray(), sorted, "old values of the increments");
                int[] sortedInts = fetchedInts.clone();
                java.util.Arrays.sort(sortedInts);
                assertArrayEquals(java.util.stream.IntStream.range(0, m).map(i -> 2 * i).toArray(), sortedInts);
                assertEquals(m, shmem.atomicFetch(counter, me, to));
                shmem.barrierAll();
            }
        }).orThrow();
    }

    /**
     * put-with-signal: each round's data goes to its own slot, and the spec only orders a signal
     * after its own data, so a target that sees signal value s (SET: round s) finds round s's slot
     * filled, and one that has counted s signals (ADD) finds at least s slots filled.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, {2}")
    @CsvSource({"2, 2, SET", "2, 2, ADD", "5, 3, SET", "4, 2, ADD"})
    void aSignalNeverArrivesBeforeItsData(int npes, int k, SignalOp op) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), rounds = 150, width = 4;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * rounds * width);
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, n);
                int to = remotePeer(me, n, k);
                shmem.barrierAll();
                long[] block = new long[width];
                for (int r = 1; r <= rounds; r++) {
                    java.util.Arrays.fill(block, r);
                    long slot = ((long) me * rounds + r - 1) * width;
                    shmem.putSignalNbi(data, slot, block, 0, width, sig, me, op == SignalOp.SET ? r : 1, op, to);
                }
                for (int from = 0; from < n; from++) {
                    if (remotePeer(from, n, k) != me) {
                        continue;
                    }
                    long base = (long) from * rounds * width;
                    for (long s = 0; s < rounds; ) {
                        shmem.waitUntil(sig, from, Cmp.GT, s);
                        s = sig.get(from);
                        if (op == SignalOp.SET) {
                            assertEquals(s, data.get(base + (s - 1) * width + width - 1), "round " + s + " of PE " + from);
                        } else {
                            long filled = 0;
                            for (int r = 1; r <= rounds; r++) {
                                filled += data.get(base + (long) (r - 1) * width + width - 1) == r ? 1 : 0;
                            }
                            assertTrue(filled >= s, filled + " rounds of PE " + from + " have arrived but " + s + " signals");
                        }
                    }
                }
                shmem.quiet();
                shmem.barrierAll();
            }
        }).orThrow();
    }

    /**
     * Passive progress (spec 9.5 and 9.7: the target need not call the library): PE 1 waits on a
     * plain Java latch, outside the library, while PE 0 puts to it, gets from it, and applies
     * fetching and non-fetching AMOs and a quiet. Over UCX's tcp transport every one of them is a
     * message the target's worker must handle, so without a progress agent PE 0 never finishes.
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"deferred", "ucx"})
    void operationsCompleteWhileTheTargetIsOutsideTheLibrary(String network) {
        if (network.equals("ucx")) {
            UcxAvailable.requireUcx("passive progress over UCX");
        }
        var done = new CountDownLatch(1);
        InProcessTestSupport.runWith(2, nodes(2, network), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1024);
                shmem.barrierAll();
                if (shmem.myPe() == 1) {
                    // outside the library until PE 0 is done; the bound turns a hang into a failure
                    assertTrue(done.await(60, TimeUnit.SECONDS),
                            "PE 0's operations to PE 1 did not complete while PE 1 was outside the library");
                } else {
                    long[] block = java.util.stream.LongStream.range(0, 1000).toArray();
                    shmem.put(x, 0, block, 0, block.length, 1);
                    shmem.quiet();
                    long[] back = new long[block.length];
                    shmem.get(back, 0, x, 0, back.length, 1);
                    assertArrayEquals(block, back, "get after put and quiet");
                    shmem.atomicAdd(x, 1000, 5, 1);
                    assertEquals(5, shmem.atomicFetchAdd(x, 1000, 1, 1), "fetch-add after add");
                    assertEquals(6, shmem.atomicCompareSwap(x, 1000, 6, 7, 1), "compare-swap");
                    long[] old = {-1};
                    shmem.atomicFetchIncNbi(old, 0, x, 1001, 1);
                    shmem.quiet();
                    assertEquals(0, old[0], "nbi fetch-increment delivered by quiet");
                    assertEquals(1, shmem.atomicFetch(x, 1001, 1), "the word after the nbi increment");
                    done.countDown();
                }
                shmem.barrierAll();
                if (shmem.myPe() == 1) {
                    assertEquals(7, x.get(1000), "PE 1's word after PE 0's AMOs");
                }
            }
        }).orThrow();
    }
}
