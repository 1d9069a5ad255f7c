package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The named barrier, broadcast, collect and alltoall algorithms, each selected through its
 * {@code SHMEM_*_ALGORITHM} variable, against sequential reference values: several team sizes
 * (including 1 and non-powers of two), long and byte elements, message sizes from 0 to beyond
 * the 16 KiB collective scratch, different roots, per-PE counts and strides; plus long mixed
 * sequences on one team and concurrent collectives on several teams.
 */
@Tag("exhaustive") // every algorithm x every case: run by .ci/run after the README's test command
@Timeout(300)
class CollectiveAlgorithmsATest {
    private static final long SENTINEL = 0x5A5A5A5A5A5A5A5AL;
    private static final byte BYTE_SENTINEL = (byte) 0x5A;

    /** The reference value of element i of PE pe's contribution (salted per call). */
    private static long f(int pe, long i, int salt) {
        return pe * 1_000_003L + i * 7919L + salt * 31L + 1;
    }

    private static byte fb(int pe, long i, int salt) {
        return (byte) (f(pe, i, salt) ^ (f(pe, i, salt) >>> 13));
    }

    private static Stream<Arguments> cases(String... names) {
        List<Arguments> out = new ArrayList<>();
        for (String name : names) {
            for (int n : new int[] {1, 2, 3, 5, 8}) {
                out.add(Arguments.of(name, n));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> barriers() {
        return Stream.concat(cases("tree", "linear", "dissemination"), Stream.of(Arguments.of("tree", 12)));
    }

    static Stream<Arguments> broadcasts() {
        return Stream.concat(cases("binomial", "scatter_allgather", "linear", "push"),
                Stream.of(Arguments.of("binomial", 12), Arguments.of("scatter_allgather", 12)));
    }

    static Stream<Arguments> collects() {
        return Stream.concat(cases("ring", "recursive_doubling", "bruck", "linear", "push"),
                Stream.of(Arguments.of("recursive_doubling", 12), Arguments.of("bruck", 12)));
    }

    static Stream<Arguments> alltoalls() {
        return Stream.concat(cases("pairwise", "linear", "push"),
                Stream.of(Arguments.of("pairwise", 12), Arguments.of("push", 12)));
    }

    private static void run(int npes, Map<String, String> env, Body program) {
        InProcessTestSupport.runWith(npes, env, program::run).orThrow();
    }

    /** A test body on one PE (the job's program). */
    interface Body {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------ barrier

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("barriers")
    void barrierSeparatesPhases(String name, int npes) {
        run(npes, InProcessTestSupport.env("SHMEM_BARRIER_ALGORITHM", name), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int n = world.nPes();
                SymmetricLongArray word = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int it = 1; it <= 300; it++) {
                    word.set(0, it);
                    world.sync();
                    for (int j = 0; j < n; j++) {
                        assertEquals(it, shmem.g(word, 0, j), "PE " + j + " in iteration " + it);
                    }
                    world.sync();
                }
                word.close();
            }
        });
    }

    // ------------------------------------------------------------------ broadcast

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("broadcasts")
    void broadcastMatchesReference(String name, int npes) {
        run(npes, InProcessTestSupport.env("SHMEM_BCAST_ALGORITHM", name), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = world.myPe(), n = world.nPes();
                int maxLongs = 2600, maxBytes = 20011;
                SymmetricLongArray ls = shmem.calloc(ValueLayout.JAVA_LONG, maxLongs + 1);
                SymmetricLongArray ld = shmem.calloc(ValueLayout.JAVA_LONG, maxLongs + 1);
                SymmetricByteArray bs = shmem.calloc(ValueLayout.JAVA_BYTE, maxBytes + 1);
                SymmetricByteArray bd = shmem.calloc(ValueLayout.JAVA_BYTE, maxBytes + 1);
                int salt = 0;
                for (int root : new int[] {0, n - 1, n / 2}) {
                    for (int count : new int[] {0, 1, 7, 2600}) {
                        salt++;
                        for (int i = 0; i <= count; i++) {
                            ls.set(i, f(me, i, salt));
                        }
                        ld.fill(SENTINEL);
                        world.broadcast(ld, ls, count, root);
                        for (int i = 0; i < count; i++) {
                            assertEquals(f(root, i, salt), ld.get(i), "long element " + i + " of " + count);
                        }
                        assertEquals(SENTINEL, ld.get(count), "wrote past nelems");
                        // in place
                        world.broadcast(ls, ls, count, root);
                        for (int i = 0; i < count; i++) {
                            assertEquals(f(root, i, salt), ls.get(i), "in-place element " + i);
                        }
                        assertEquals(f(me, count, salt), ls.get(count), "in place wrote past nelems");
                    }
                    for (int count : new int[] {0, 1, 13, 16384, maxBytes}) {
                        salt++;
                        for (int i = 0; i < count; i++) {
                            bs.set(i, fb(me, i, salt));
                        }
                        bd.fill(BYTE_SENTINEL);
                        world.broadcast(bd, bs, count, root);
                        for (int i = 0; i < count; i++) {
                            assertEquals(fb(root, i, salt), bd.get(i), "byte element " + i + " of " + count);
                        }
                        assertEquals(BYTE_SENTINEL, bd.get(count), "wrote past nelems");
                    }
                }
                bd.close();
                bs.close();
                ld.close();
                ls.close();
            }
        });
    }

    // ------------------------------------------------------------------ collect / fcollect

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("collects")
    void collectAndFcollectMatchReference(String name, int npes) {
        run(npes, InProcessTestSupport.env("SHMEM_COLLECT_ALGORITHM", name, "SHMEM_FCOLLECT_ALGORITHM", name), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = world.myPe(), n = world.nPes();
                int maxLongs = 2200, maxBytes = 17000;
                SymmetricLongArray ls = shmem.calloc(ValueLayout.JAVA_LONG, maxLongs + 3L * n);
                SymmetricLongArray ld = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * (maxLongs + 3L * n) + 1);
                SymmetricByteArray bs = shmem.calloc(ValueLayout.JAVA_BYTE, maxBytes + 3L * n);
                SymmetricByteArray bd = shmem.calloc(ValueLayout.JAVA_BYTE, (long) n * (maxBytes + 3L * n) + 1);
                int salt = 0;
                // fcollect
                for (int count : new int[] {0, 1, 5, maxLongs}) {
                    salt++;
                    for (int i = 0; i < count; i++) {
                        ls.set(i, f(me, i, salt));
                    }
                    ld.fill(SENTINEL);
                    world.fcollect(ld, ls, count);
                    for (int pe = 0; pe < n; pe++) {
                        for (int i = 0; i < count; i++) {
                            assertEquals(f(pe, i, salt), ld.get((long) pe * count + i), "block of PE " + pe + ", count " + count);
                        }
                    }
                    assertEquals(SENTINEL, ld.get((long) n * count), "wrote past the blocks");
                }
                for (int count : new int[] {0, 1, 3, maxBytes}) {
                    salt++;
                    for (int i = 0; i < count; i++) {
                        bs.set(i, fb(me, i, salt));
                    }
                    bd.fill(BYTE_SENTINEL);
                    world.fcollect(bd, bs, count);
                    for (int pe = 0; pe < n; pe++) {
                        for (int i = 0; i < count; i++) {
                            assertEquals(fb(pe, i, salt), bd.get((long) pe * count + i), "byte block of PE " + pe);
                        }
                    }
                    assertEquals(BYTE_SENTINEL, bd.get((long) n * count), "wrote past the blocks");
                }
                // collect with per-PE counts
                List<java.util.function.IntUnaryOperator> patterns = List.of(pe -> pe + 1, pe -> pe % 2 == 0 ? 0 : 5,
                        pe -> 0, pe -> pe == n - 1 ? 3 : 0, pe -> maxLongs - 2 * n + 3 * pe);
                for (var pattern : patterns) {
                    salt++;
                    int mine = pattern.applyAsInt(me);
                    for (int i = 0; i < mine; i++) {
                        ls.set(i, f(me, i, salt));
                        bs.set(i, fb(me, i, salt));
                    }
                    ld.fill(SENTINEL);
                    bd.fill(BYTE_SENTINEL);
                    world.collect(ld, ls, mine);
                    world.collect(bd, bs, mine);
                    long at = 0;
                    for (int pe = 0; pe < n; pe++) {
                        int c = pattern.applyAsInt(pe);
                        for (int i = 0; i < c; i++, at++) {
                            assertEquals(f(pe, i, salt), ld.get(at), "collect block of PE " + pe);
                            assertEquals(fb(pe, i, salt), bd.get(at), "byte collect block of PE " + pe);
                        }
                    }
                    assertEquals(SENTINEL, ld.get(at), "collect wrote past the total");
                    assertEquals(BYTE_SENTINEL, bd.get(at), "byte collect wrote past the total");
                }
                bd.close();
                bs.close();
                ld.close();
                ls.close();
            }
        });
    }

    // ------------------------------------------------------------------ alltoall(s)

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("alltoalls")
    void alltoallAndAlltoallsMatchReference(String name, int npes) {
        run(npes, InProcessTestSupport.env("SHMEM_ALLTOALL_ALGORITHM", name), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = world.myPe(), n = world.nPes();
                int maxLongs = 2100, maxBytes = 16500;
                SymmetricLongArray ls = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * maxLongs * 3 + 1);
                SymmetricLongArray ld = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * maxLongs * 3 + 1);
                SymmetricByteArray bs = shmem.calloc(ValueLayout.JAVA_BYTE, (long) n * maxBytes + 1);
                SymmetricByteArray bd = shmem.calloc(ValueLayout.JAVA_BYTE, (long) n * maxBytes + 1);
                int salt = 0;
                int fits = n > 1 ? (16 << 10) / 8 / (n - 1) : 1; // push: exactly the scratch's n - 1 slots
                for (int count : new int[] {0, 1, 3, fits, fits + 1, maxLongs}) {
                    salt++;
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < count; i++) {
                            ls.set((long) j * count + i, f(me, j * 100_000L + i, salt));
                        }
                    }
                    ld.fill(SENTINEL);
                    world.alltoall(ld, ls, count);
                    for (int pe = 0; pe < n; pe++) {
                        for (int i = 0; i < count; i++) {
                            assertEquals(f(pe, me * 100_000L + i, salt), ld.get((long) pe * count + i), "block from PE " + pe);
                        }
                    }
                    assertEquals(SENTINEL, ld.get((long) n * count), "wrote past the blocks");
                }
                for (int count : new int[] {1, 7, maxBytes}) {
                    salt++;
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < count; i++) {
                            bs.set((long) j * count + i, fb(me, j * 100_000L + i, salt));
                        }
                    }
                    bd.fill(BYTE_SENTINEL);
                    world.alltoall(bd, bs, count);
                    for (int pe = 0; pe < n; pe++) {
                        for (int i = 0; i < count; i++) {
                            assertEquals(fb(pe, me * 100_000L + i, salt), bd.get((long) pe * count + i), "byte block from PE " + pe);
                        }
                    }
                    assertEquals(BYTE_SENTINEL, bd.get((long) n * count), "wrote past the blocks");
                }
                // strided
                for (int[] strides : new int[][] {{1, 1}, {2, 3}, {3, 1}, {1, 2}}) {
                    int dst = strides[0], sst = strides[1];
                    for (int count : new int[] {0, 1, 4, 700}) {
                        salt++;
                        ls.fill(-1);
                        for (int j = 0; j < n; j++) {
                            for (int i = 0; i < count; i++) {
                                ls.set(((long) j * count + i) * sst, f(me, j * 100_000L + i, salt));
                            }
                        }
                        ld.fill(SENTINEL);
                        world.alltoalls(ld, ls, dst, sst, count);
                        long[] want = new long[n * count * dst + 1];
                        java.util.Arrays.fill(want, SENTINEL);
                        for (int pe = 0; pe < n; pe++) {
                            for (int i = 0; i < count; i++) {
                                want[(pe * count + i) * dst] = f(pe, me * 100_000L + i, salt);
                            }
                        }
                        for (int k = 0; k < want.length; k++) {
                            assertEquals(want[k], ld.get(k), "strided (" + dst + ", " + sst + ") count " + count + " at " + k);
                        }
                    }
                }
                bd.close();
                bs.close();
                ld.close();
                ls.close();
            }
        });
    }

    /**
     * Push alltoall and alltoalls on the world and on strided teams (the even and the odd PEs),
     * back to back with push broadcast, fcollect and reduction, which take the team's scratch
     * buffers in turn with them: a fast member writes the scratch of a member still in an earlier
     * call (the last member lags now and then), and every result must be exact on every member.
     */
    @ParameterizedTest(name = "on {0} PEs")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void pushAlltoallOnStridedTeamsBackToBack(int npes) {
        run(npes, InProcessTestSupport.env("SHMEM_ALLTOALL_ALGORITHM", "push", "SHMEM_BCAST_ALGORITHM", "push",
                "SHMEM_FCOLLECT_ALGORITHM", "push", "SHMEM_REDUCE_ALGORITHM", "push"), () -> {
                    try (Shmem shmem = Shmem.init()) {
                        Team world = shmem.teamWorld();
                        int me = world.myPe();
                        Team evens = world.splitStrided(0, 2, (npes + 1) / 2, null, 0);
                        Team odds = npes > 1 ? world.splitStrided(1, 2, npes / 2, null, 0) : evens;
                        Team mine = me % 2 == 0 ? evens : odds;
                        assertTrue(mine.isValid());
                        int c = 3;
                        SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, (long) c * npes);
                        SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, (long) c * npes);
                        SymmetricLongArray src3 = shmem.calloc(ValueLayout.JAVA_LONG, 3L * c * npes);
                        SymmetricLongArray dst2 = shmem.calloc(ValueLayout.JAVA_LONG, 2L * c * npes);
                        SymmetricLongArray other = shmem.calloc(ValueLayout.JAVA_LONG, (long) c * npes);
                        for (int it = 0; it < 200; it++) {
                            for (Team t : new Team[] {world, mine}) {
                                pushRound(t, it, 1 + it % c, src, dst, src3, dst2, other);
                            }
                        }
                        world.sync();
                        for (SymmetricLongArray a : new SymmetricLongArray[] {other, dst2, src3, dst, src}) {
                            a.close();
                        }
                        evens.close();
                        if (odds != evens) {
                            odds.close();
                        }
                    }
                });
    }

    /** One round of {@link #pushAlltoallOnStridedTeamsBackToBack} on team {@code t}, {@code c} elements per block. */
    private static void pushRound(Team t, int it, int c, SymmetricLongArray src, SymmetricLongArray dst,
            SymmetricLongArray src3, SymmetricLongArray dst2, SymmetricLongArray other) {
        int me = t.myPe(), n = t.nPes();
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < c; i++) {
                src.set((long) j * c + i, f(me, j * 100_000L + i, it));
                src3.set(3L * (j * c + i), f(me, j * 100_000L + i, it + 1));
            }
        }
        t.alltoall(dst, src, c);
        dst2.fill(SENTINEL);
        t.alltoalls(dst2, src3, 2, 3, c);
        for (int pe = 0; pe < n; pe++) {
            for (int i = 0; i < c; i++) {
                assertEquals(f(pe, me * 100_000L + i, it), dst.get((long) pe * c + i), "alltoall from " + pe + ", round " + it);
                assertEquals(f(pe, me * 100_000L + i, it + 1), dst2.get(2L * (pe * c + i)), "alltoalls from " + pe);
                assertEquals(SENTINEL, dst2.get(2L * (pe * c + i) + 1), "alltoalls wrote between its elements");
            }
        }
        int root = it % n;
        t.broadcast(dst, src, c, root);
        if (it % 4 == 0) { // sometimes a run of broadcasts, whose root waits least
            t.broadcast(dst, src, c, root);
        }
        t.fcollect(other, src, c);
        for (int i = 0; i < c; i++) {
            assertEquals(f(root, i, it), dst.get(i), "broadcast from " + root + ", round " + it);
            for (int pe = 0; pe < n; pe++) {
                assertEquals(f(pe, i, it), other.get((long) pe * c + i), "fcollect block of " + pe + ", round " + it);
            }
        }
        t.sumReduce(dst, src, c);
        for (int i = 0; i < c; i++) {
            long sum = 0;
            for (int pe = 0; pe < n; pe++) {
                sum += f(pe, i, it);
            }
            assertEquals(sum, dst.get(i), "sum, round " + it);
        }
        if (me == n - 1 && it % 16 == 5) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // lag, so the others run ahead
        }
    }

    // ------------------------------------------------------------------ mixed sequences

    static Stream<Arguments> mixes() {
        return Stream.of(Arguments.of("tree", "binomial", "ring", "bruck", "pairwise", 3, 2000),
                Arguments.of("linear", "scatter_allgather", "recursive_doubling", "ring", "pairwise", 3, 2000),
                Arguments.of("tree", "binomial", "bruck", "recursive_doubling", "pairwise", 5, 400),
                Arguments.of("dissemination", "binomial", "recursive_doubling", "bruck", "linear", 4, 400),
                Arguments.of("dissemination", "push", "recursive_doubling", "push", "push", 5, 400),
                Arguments.of("linear", "push", "bruck", "push", "push", 8, 200));
    }

    /** Back-to-back collectives of different kinds on one team, every result exact. */
    @ParameterizedTest(name = "{0}/{1}/{2}/{3}/{4} on {5} PEs")
    @MethodSource("mixes")
    void mixedBackToBackCollectives(String barrier, String bcast, String collect, String fcollect, String alltoall,
            int npes, int iterations) {
        run(npes, InProcessTestSupport.env("SHMEM_BARRIER_ALGORITHM", barrier, "SHMEM_BCAST_ALGORITHM", bcast,
                "SHMEM_COLLECT_ALGORITHM", collect, "SHMEM_FCOLLECT_ALGORITHM", fcollect, "SHMEM_ALLTOALL_ALGORITHM",
                alltoall), () -> {
                    try (Shmem shmem = Shmem.init()) {
                        mixedLoop(shmem, shmem.teamWorld(), iterations);
                    }
                });
    }

    /** Collectives on disjoint teams at once, and on two teams per PE driven from two threads. */
    @Test
    void concurrentCollectivesOnDisjointTeams() {
        int npes = 6;
        run(npes, InProcessTestSupport.env("SHMEM_BARRIER_ALGORITHM", "tree", "SHMEM_BCAST_ALGORITHM", "binomial",
                "SHMEM_COLLECT_ALGORITHM", "ring", "SHMEM_FCOLLECT_ALGORITHM", "bruck", "SHMEM_ALLTOALL_ALGORITHM",
                "pairwise"), () -> {
                    try (Shmem shmem = Shmem.init()) {
                        Team world = shmem.teamWorld();
                        int me = world.myPe(), half = npes / 2;
                        Team lowA = world.splitStrided(0, 1, half, null, 0);
                        Team highA = world.splitStrided(half, 1, npes - half, null, 0);
                        Team lowB = world.splitStrided(0, 1, half, null, 0);
                        Team highB = world.splitStrided(half, 1, npes - half, null, 0);
                        Team a = me < half ? lowA : highA;
                        Team b = me < half ? lowB : highB;
                        assertTrue(a.isValid() && b.isValid());
                        Buffers bufA = new Buffers(shmem, a.nPes());
                        Buffers bufB = new Buffers(shmem, b.nPes());
                        AtomicReference<Throwable> failure = new AtomicReference<>();
                        Thread other = Thread.ofPlatform().start(() -> {
                            try {
                                mixedLoop(b, bufB, 300, 7);
                            } catch (Throwable t) {
                                failure.set(t);
                            }
                        });
                        mixedLoop(a, bufA, 300, 3);
                        other.join();
                        if (failure.get() != null) {
                            throw new AssertionError("second thread failed", failure.get());
                        }
                        world.sync();
                        bufA.close();
                        bufB.close();
                        for (Team t : new Team[] {lowA, highA, lowB, highB}) {
                            if (t.isValid()) {
                                t.close();
                            }
                        }
                    }
                });
    }

    /** Symmetric buffers for {@link #mixedLoop}, allocated collectively up front. */
    private static final class Buffers implements AutoCloseable {
        static final int COUNT = 3;
        final SymmetricLongArray src;
        final SymmetricLongArray dst;
        final SymmetricLongArray col;

        Buffers(Shmem shmem, int n) {
            src = shmem.calloc(ValueLayout.JAVA_LONG, (long) COUNT * n);
            dst = shmem.calloc(ValueLayout.JAVA_LONG, (long) COUNT * n);
            col = shmem.calloc(ValueLayout.JAVA_LONG, (long) COUNT * n);
        }

        @Override
        public void close() {
            col.close();
            dst.close();
            src.close();
        }
    }

    private static void mixedLoop(Shmem shmem, Team team, int iterations) {
        try (Buffers buf = new Buffers(shmem, team.nPes())) {
            mixedLoop(team, buf, iterations, 0);
        }
    }

    /** Broadcast, fcollect, alltoall, sync and collect over and over, each result checked exactly. */
    private static void mixedLoop(Team team, Buffers buf, int iterations, int salt0) {
        int me = team.myPe(), n = team.nPes(), c = Buffers.COUNT;
        for (int it = 0; it < iterations; it++) {
            int salt = salt0 + 10 * it;
            int root = it % n;
            for (int i = 0; i < c * n; i++) {
                buf.src.set(i, f(me, i, salt));
            }
            team.broadcast(buf.dst, buf.src, c, root);
            for (int i = 0; i < c; i++) {
                assertEquals(f(root, i, salt), buf.dst.get(i), "broadcast in iteration " + it);
            }
            team.fcollect(buf.col, buf.src, c);
            // Overwrite dest at once: a peer still reading it (as a relay) would see the garbage.
            long[] got = buf.col.toArray();
            buf.col.fill(-1);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < c; i++) {
                    assertEquals(f(pe, i, salt), got[pe * c + i], "fcollect in iteration " + it);
                }
            }
            team.alltoall(buf.dst, buf.src, c);
            // Overwrite the blocks other members pulled: a peer still reading them would see the garbage.
            for (int i = c; i < c * n; i++) {
                buf.src.set(i, -i);
            }
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < c; i++) {
                    assertEquals(f(pe, me * c + i, salt), buf.dst.get(pe * c + i), "alltoall in iteration " + it);
                }
            }
            team.sync();
            int mine = (me + it) % (c + 1);
            team.collect(buf.col, buf.src, mine);
            long at = 0;
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < (pe + it) % (c + 1); i++, at++) {
                    assertEquals(f(pe, i, salt), buf.col.get(at), "collect in iteration " + it);
                }
            }
            // in-place broadcast from the next root
            team.broadcast(buf.src, buf.src, c, (root + 1) % n);
            for (int i = 0; i < c; i++) {
                assertEquals(f((root + 1) % n, i, salt), buf.src.get(i), "in-place broadcast in iteration " + it);
            }
        }
    }
}
