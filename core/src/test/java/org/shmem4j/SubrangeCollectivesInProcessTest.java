package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.inprocess.InProcessJob;

/**
 * Sub-range collectives (C's {@code &dest[i]}): every collective, typed and {@code *mem}, with dest
 * and source starting at different non-zero indices (odd byte offsets for {@code *mem}) inside
 * arrays whose elements around the range hold guard values that must survive; each with every
 * algorithm the collective has, forced through its {@code SHMEM_*_ALGORITHM} variable, at 1, 2, 3,
 * 5 and 8 PEs, with counts that fit the collective scratch and one that does not. Hierarchical
 * algorithms run on two pseudo-hosts. Plus the bad-index errors and the symmetric-source forms of
 * putmem/getmem.
 */
@Timeout(300)
class SubrangeCollectivesInProcessTest {
    private static final long GUARD = 0x6B6B6B6B6B6B6B6BL;
    private static final byte BYTE_GUARD = (byte) 0x6B;
    private static final int DI = 3; // dest index
    private static final int SI = 5; // source index (differs from dest's, so an offset mix-up shows)
    private static final int PAD = 4; // guard elements after the range
    private static final int[] COUNTS = {1, 7, 2100}; // 2100 longs > the 16 KiB scratch

    private static long f(int pe, long i) {
        return pe * 1_000_003L + i * 7919L + 11;
    }

    private static byte fb(int pe, long i) {
        return (byte) (f(pe, i) ^ (f(pe, i) >>> 11));
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        String[][] table = {
            {"broadcast", "SHMEM_BCAST_ALGORITHM", "linear", "push", "binomial", "scatter_allgather", "hierarchical"},
            {"collect", "SHMEM_COLLECT_ALGORITHM", "linear", "push", "ring", "recursive_doubling", "bruck"},
            {"alltoall", "SHMEM_ALLTOALL_ALGORITHM", "linear", "pairwise", "push"},
            {"reduce", "SHMEM_REDUCE_ALGORITHM", "linear", "push", "push_ring", "tree", "recursive_doubling", "ring",
                "rabenseifner", "hierarchical"},
            {"scan", "SHMEM_SCAN_ALGORITHM", "linear", "log"},
        };
        for (String[] row : table) {
            for (int a = 2; a < row.length; a++) {
                for (int n : new int[] {1, 2, 3, 5, 8}) {
                    out.add(Arguments.of(row[0], row[1], row[a], n));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2} on {3} PEs")
    @MethodSource("cases")
    void subRangesLeaveTheGuardsAlone(String collective, String variable, String algorithm, int npes) {
        Map<String, String> env = InProcessTestSupport.oneNodeEnv(variable, algorithm, "SHMEM_SYMMETRIC_SIZE", "16m");
        if (collective.equals("collect")) {
            env.put("SHMEM_FCOLLECT_ALGORITHM", algorithm);
        }
        int hosts = algorithm.equals("hierarchical") && npes > 1 ? 2 : 1;
        InProcessJob.run(npes, hosts, env, Duration.ofSeconds(240), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                switch (collective) {
                    case "broadcast" -> broadcasts(shmem, world);
                    case "collect" -> collects(shmem, world);
                    case "alltoall" -> alltoalls(shmem, world);
                    case "reduce" -> reductions(shmem, world);
                    case "scan" -> scans(shmem, world);
                    default -> throw new AssertionError(collective);
                }
            }
        }).orThrow();
    }

    // ------------------------------------------------------------------ helpers

    /** A long array of {@code length} elements whose element j on this PE is f(me, j). */
    private static SymmetricLongArray source(Shmem shmem, long length) {
        SymmetricLongArray a = shmem.malloc(ValueLayout.JAVA_LONG, length);
        for (long j = 0; j < length; j++) {
            a.set(j, f(shmem.myPe(), j));
        }
        return a;
    }

    private static SymmetricByteArray byteSource(Shmem shmem, long length) {
        SymmetricByteArray a = shmem.malloc(ValueLayout.JAVA_BYTE, length);
        for (long j = 0; j < length; j++) {
            a.set(j, fb(shmem.myPe(), j));
        }
        return a;
    }

    /** Frees symmetric objects (collective), in the order given. */
    private static void free(SymmetricObject... objects) {
        for (SymmetricObject o : objects) {
            o.close();
        }
    }

    /** The source is unchanged: collectives read it only. */
    private static void assertSourceIntact(SymmetricLongArray src, int me) {
        for (long j = 0; j < src.length(); j++) {
            assertEquals(f(me, j), src.get(j), "source element " + j + " changed");
        }
    }

    /**
     * Every element of {@code dest} outside the written positions still holds the guard;
     * {@code written(j)} says which positions the collective wrote.
     */
    private static void assertGuards(SymmetricLongArray dest, java.util.function.LongPredicate written, String what) {
        for (long j = 0; j < dest.length(); j++) {
            if (!written.test(j)) {
                assertEquals(GUARD, dest.get(j), what + ": guard element " + j + " was overwritten");
            }
        }
    }

    private static void assertByteGuards(SymmetricByteArray dest, java.util.function.LongPredicate written, String what) {
        for (long j = 0; j < dest.length(); j++) {
            if (!written.test(j)) {
                assertEquals(BYTE_GUARD, dest.get(j), what + ": guard byte " + j + " was overwritten");
            }
        }
    }

    // ------------------------------------------------------------------ broadcast

    private static void broadcasts(Shmem shmem, Team team) {
        int me = team.myPe(), n = team.nPes();
        int max = COUNTS[COUNTS.length - 1];
        SymmetricLongArray src = source(shmem, SI + max + PAD);
        SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, DI + max + PAD);
        SymmetricByteArray bsrc = byteSource(shmem, 8L * max + 16);
        SymmetricByteArray bdest = shmem.malloc(ValueLayout.JAVA_BYTE, 8L * max + 16);
        for (int root : new int[] {0, n - 1, n / 2}) {
            for (int count : COUNTS) {
                dest.fill(GUARD);
                team.sync();
                team.broadcast(dest, DI, src, SI, count, root);
                for (int i = 0; i < count; i++) {
                    assertEquals(f(root, SI + i), dest.get(DI + i), "element " + i + " of " + count + " from root " + root);
                }
                assertGuards(dest, j -> j >= DI && j < DI + count, "broadcast of " + count);
                assertSourceIntact(src, me);

                long nbytes = 8L * count + 1; // odd offsets and length
                bdest.fill(BYTE_GUARD);
                team.sync();
                team.broadcastmem(bdest, 7, bsrc, 3, nbytes, root);
                for (long i = 0; i < nbytes; i++) {
                    assertEquals(fb(root, 3 + i), bdest.get(7 + i), "byte " + i + " of " + nbytes);
                }
                assertByteGuards(bdest, j -> j >= 7 && j < 7 + nbytes, "broadcastmem of " + nbytes);
            }
        }
        free(bdest, bsrc, dest, src);
    }

    // ------------------------------------------------------------------ collect / fcollect

    private static void collects(Shmem shmem, Team team) {
        int me = team.myPe(), n = team.nPes();
        int max = COUNTS[COUNTS.length - 1];
        SymmetricLongArray src = source(shmem, SI + max + n + PAD);
        SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, DI + (long) n * (max + n) + PAD);
        SymmetricByteArray bsrc = byteSource(shmem, 3 + max + n + PAD);
        SymmetricByteArray bdest = shmem.malloc(ValueLayout.JAVA_BYTE, 7 + (long) n * (max + n) + PAD);
        for (int count : COUNTS) {
            // fcollect: block pe at DI + pe * count
            dest.fill(GUARD);
            team.sync();
            team.fcollect(dest, DI, src, SI, count);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < count; i++) {
                    assertEquals(f(pe, SI + i), dest.get(DI + (long) pe * count + i), "fcollect block of PE " + pe);
                }
            }
            assertGuards(dest, j -> j >= DI && j < DI + (long) n * count, "fcollect of " + count);
            assertSourceIntact(src, me);

            bdest.fill(BYTE_GUARD);
            team.sync();
            team.fcollectmem(bdest, 7, bsrc, 3, count);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < count; i++) {
                    assertEquals(fb(pe, 3 + i), bdest.get(7 + (long) pe * count + i), "fcollectmem block of PE " + pe);
                }
            }
            assertByteGuards(bdest, j -> j >= 7 && j < 7 + (long) n * count, "fcollectmem of " + count);

            // collect: PE pe contributes count + pe elements (none for an odd PE when count is 1)
            java.util.function.IntUnaryOperator mine = pe -> count == 1 && pe % 2 == 1 ? 0 : count + pe;
            long[] at = new long[n + 1];
            for (int pe = 0; pe < n; pe++) {
                at[pe + 1] = at[pe] + mine.applyAsInt(pe);
            }
            dest.fill(GUARD);
            team.sync();
            team.collect(dest, DI, src, SI, mine.applyAsInt(me));
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < mine.applyAsInt(pe); i++) {
                    assertEquals(f(pe, SI + i), dest.get(DI + at[pe] + i), "collect block of PE " + pe);
                }
            }
            assertGuards(dest, j -> j >= DI && j < DI + at[n], "collect of " + count);

            bdest.fill(BYTE_GUARD);
            team.sync();
            team.collectmem(bdest, 7, bsrc, 3, mine.applyAsInt(me));
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < mine.applyAsInt(pe); i++) {
                    assertEquals(fb(pe, 3 + i), bdest.get(7 + at[pe] + i), "collectmem block of PE " + pe);
                }
            }
            assertByteGuards(bdest, j -> j >= 7 && j < 7 + at[n], "collectmem of " + count);
        }
        free(bdest, bsrc, dest, src);
    }

    // ------------------------------------------------------------------ alltoall / alltoalls

    private static void alltoalls(Shmem shmem, Team team) {
        int me = team.myPe(), n = team.nPes();
        int max = COUNTS[COUNTS.length - 1];
        int dst = 2, sst = 3;
        SymmetricLongArray src = source(shmem, SI + (long) n * max * sst + PAD);
        SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, DI + (long) n * max * dst + PAD);
        SymmetricByteArray bsrc = byteSource(shmem, 3 + (long) n * max + PAD);
        SymmetricByteArray bdest = shmem.malloc(ValueLayout.JAVA_BYTE, 7 + (long) n * max + PAD);
        for (int count : COUNTS) {
            long c = count;
            dest.fill(GUARD);
            team.sync();
            team.alltoall(dest, DI, src, SI, count);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < count; i++) {
                    assertEquals(f(pe, SI + me * c + i), dest.get(DI + pe * c + i), "alltoall block from PE " + pe);
                }
            }
            assertGuards(dest, j -> j >= DI && j < DI + n * c, "alltoall of " + count);
            assertSourceIntact(src, me);

            // strided: the gaps between dest's elements are guards too
            dest.fill(GUARD);
            team.sync();
            team.alltoalls(dest, DI, src, SI, dst, sst, count);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < count; i++) {
                    assertEquals(f(pe, SI + (me * c + i) * sst), dest.get(DI + (pe * c + i) * dst),
                            "alltoalls element " + i + " from PE " + pe);
                }
            }
            assertGuards(dest, j -> j >= DI && j < DI + n * c * dst && (j - DI) % dst == 0, "alltoalls of " + count);
            assertSourceIntact(src, me);

            bdest.fill(BYTE_GUARD);
            team.sync();
            team.alltoallmem(bdest, 7, bsrc, 3, count);
            for (int pe = 0; pe < n; pe++) {
                for (int i = 0; i < count; i++) {
                    assertEquals(fb(pe, 3 + me * c + i), bdest.get(7 + pe * c + i), "alltoallmem block from PE " + pe);
                }
            }
            assertByteGuards(bdest, j -> j >= 7 && j < 7 + n * c, "alltoallmem of " + count);

            if (count <= 7) { // byte strides: every other byte of dest, every third of source
                bdest.fill(BYTE_GUARD);
                team.sync();
                team.alltoallsmem(bdest, 7, bsrc, 3, 2, 3, count);
                for (int pe = 0; pe < n; pe++) {
                    for (int i = 0; i < count; i++) {
                        assertEquals(fb(pe, 3 + (me * c + i) * 3), bdest.get(7 + (pe * c + i) * 2), "alltoallsmem from PE " + pe);
                    }
                }
                assertByteGuards(bdest, j -> j >= 7 && j < 7 + n * c * 2 && (j - 7) % 2 == 0, "alltoallsmem of " + count);
            }
        }
        free(bdest, bsrc, dest, src);
    }

    // ------------------------------------------------------------------ reductions

    private static void reductions(Shmem shmem, Team team) {
        int me = team.myPe(), n = team.nPes();
        int max = COUNTS[COUNTS.length - 1];
        SymmetricLongArray src = source(shmem, SI + max + PAD);
        SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, DI + max + PAD);
        SymmetricDoubleArray dsrc = shmem.malloc(ValueLayout.JAVA_DOUBLE, SI + max + PAD);
        SymmetricDoubleArray ddest = shmem.malloc(ValueLayout.JAVA_DOUBLE, DI + max + PAD);
        SymmetricShortArray ssrc = shmem.malloc(ValueLayout.JAVA_SHORT, SI + max + PAD);
        SymmetricShortArray sdest = shmem.malloc(ValueLayout.JAVA_SHORT, DI + max + PAD);
        for (int j = 0; j < SI + max + PAD; j++) {
            dsrc.set(j, (me * 37 + j * 11) % 101 - 50.5);
            ssrc.set(j, (short) f(me, j));
        }
        for (int count : COUNTS) {
            dest.fill(GUARD);
            team.sync();
            team.sumReduce(dest, DI, src, SI, count);
            for (int i = 0; i < count; i++) {
                long sum = 0;
                for (int pe = 0; pe < n; pe++) {
                    sum += f(pe, SI + i);
                }
                assertEquals(sum, dest.get(DI + i), "sum element " + i + " of " + count);
            }
            assertGuards(dest, j -> j >= DI && j < DI + count, "sum_reduce of " + count);
            assertSourceIntact(src, me);

            ddest.fill(-1e300);
            team.sync();
            team.maxReduce(ddest, DI, dsrc, SI, count);
            for (int j = 0; j < ddest.length(); j++) {
                double expected = -1e300;
                if (j >= DI && j < DI + count) {
                    expected = Double.NEGATIVE_INFINITY;
                    for (int pe = 0; pe < n; pe++) {
                        expected = Math.max(expected, (pe * 37 + (SI + j - DI) * 11) % 101 - 50.5);
                    }
                }
                assertEquals(expected, ddest.get(j), "double max_reduce position " + j + " of " + count);
            }

            sdest.fill((short) 0x6B6B);
            team.sync();
            team.andReduce(sdest, DI, ssrc, SI, count);
            for (int j = 0; j < sdest.length(); j++) {
                short expected = (short) 0x6B6B;
                if (j >= DI && j < DI + count) {
                    expected = -1;
                    for (int pe = 0; pe < n; pe++) {
                        expected &= (short) f(pe, SI + j - DI);
                    }
                }
                assertEquals(expected, sdest.get(j), "short and_reduce position " + j + " of " + count);
            }

            // in place at the same non-zero index: dest[SI..] = prod over PEs of dest[SI..]
            SymmetricLongArray inplace = source(shmem, SI + count + PAD);
            team.sync();
            team.prodReduce(inplace, SI, inplace, SI, count);
            for (int j = 0; j < inplace.length(); j++) {
                long expected = f(me, j);
                if (j >= SI && j < SI + count) {
                    expected = 1;
                    for (int pe = 0; pe < n; pe++) {
                        expected *= f(pe, j);
                    }
                }
                assertEquals(expected, inplace.get(j), "in-place prod position " + j + " of " + count);
            }
            inplace.close();
        }
        free(sdest, ssrc, ddest, dsrc, dest, src);
    }

    // ------------------------------------------------------------------ scans

    private static void scans(Shmem shmem, Team team) {
        int me = team.myPe();
        int max = COUNTS[COUNTS.length - 1];
        SymmetricLongArray src = source(shmem, SI + max + PAD);
        SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, DI + max + PAD);
        for (int count : COUNTS) {
            for (boolean inclusive : new boolean[] {true, false}) {
                dest.fill(GUARD);
                team.sync();
                if (inclusive) {
                    team.sumInscan(dest, DI, src, SI, count);
                } else {
                    team.sumExscan(dest, DI, src, SI, count);
                }
                for (int i = 0; i < count; i++) {
                    long sum = 0;
                    for (int pe = 0; pe < (inclusive ? me + 1 : me); pe++) {
                        sum += f(pe, SI + i);
                    }
                    assertEquals(sum, dest.get(DI + i), (inclusive ? "inscan" : "exscan") + " element " + i + " of " + count);
                }
                assertGuards(dest, j -> j >= DI && j < DI + count, "scan of " + count);
                assertSourceIntact(src, me);
            }
        }
        dest.close();
        src.close();
    }

    // ------------------------------------------------------------------ bad indices

    /** Asserts that {@code call} throws IndexOutOfBoundsException naming {@code routine} and {@code value}. */
    private static void assertBadIndex(String routine, String value, Executable call) {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, call, routine);
        assertTrue(e.getMessage().contains(routine) && e.getMessage().contains(value),
                "message should name " + routine + " and " + value + ": " + e.getMessage());
    }

    @Test
    void badIndicesNameTheRoutineAndTheValue() {
        InProcessTestSupport.runWith(3, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team w = shmem.teamWorld();
                SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, 10);
                SymmetricLongArray b = shmem.calloc(ValueLayout.JAVA_LONG, 40);
                SymmetricIntArray ia = shmem.calloc(ValueLayout.JAVA_INT, 10);
                SymmetricIntArray ib = shmem.calloc(ValueLayout.JAVA_INT, 10);
                assertBadIndex("shmem_broadcast", "-1", () -> w.broadcast(b, -1, a, 0, 2, 0));
                assertBadIndex("shmem_broadcast", "9", () -> w.broadcast(b, 0, a, 9, 2, 0));
                assertBadIndex("shmem_broadcastmem", "-3", () -> w.broadcastmem(b, 0, a, -3, 8, 0));
                assertBadIndex("shmem_broadcastmem", "75", () -> w.broadcastmem(b, 0, a, 75, 8, 0));
                assertBadIndex("shmem_fcollect", "20", () -> w.fcollect(b, 20, a, 0, 7)); // 3 * 7 > 40 - 20
                assertBadIndex("shmem_fcollect", "-2", () -> w.fcollect(b, 0, a, -2, 1));
                assertBadIndex("shmem_fcollectmem", "312", () -> w.fcollectmem(b, 312, a, 0, 3)); // 312 + 9 > 320 bytes
                assertBadIndex("shmem_collect", "-1", () -> w.collect(b, -1, a, 0, 1));
                assertBadIndex("shmem_collect", "8", () -> w.collect(b, 0, a, 8, 3));
                assertBadIndex("shmem_collectmem", "81", () -> w.collectmem(b, 0, a, 81, 0));
                assertBadIndex("shmem_alltoall", "2", () -> w.alltoall(b, 0, a, 2, 3)); // 2 + 3 * 3 > 10
                assertBadIndex("shmem_alltoall", "-5", () -> w.alltoall(b, -5, a, 0, 1));
                assertBadIndex("shmem_alltoallmem", "9", () -> w.alltoallmem(b, 0, a, 9, 24));
                assertBadIndex("shmem_alltoalls", "4", () -> w.alltoalls(b, 0, a, 4, 1, 3, 1)); // 4 + (3 - 1) * 3 + 1 > 10
                assertBadIndex("shmem_alltoallsmem", "-1", () -> w.alltoallsmem(b, -1, a, 0, 1, 1, 1));
                assertBadIndex("shmem_sum_reduce", "8", () -> w.sumReduce(b, 0, a, 8, 3));
                assertBadIndex("shmem_sum_reduce", "-1", () -> w.sumReduce(b, -1, a, 0, 3));
                assertBadIndex("shmem_max_reduce", "11", () -> w.maxReduce(ib, 0, ia, 11, 0));
                assertBadIndex("shmem_xor_reduce", "-4", () -> w.xorReduce(ib, -4, ia, 0, 1));
                assertBadIndex("shmem_sum_inscan", "6", () -> w.sumInscan(ib, 6, ia, 0, 5));
                assertBadIndex("shmem_sum_exscan", "-7", () -> w.sumExscan(ib, 0, ia, -7, 5));
                // in place is allowed only for the very same range
                IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class,
                        () -> w.sumReduce(a, 1, a, 0, 3));
                assertTrue(overlap.getMessage().contains("shmem_sum_reduce"), overlap.getMessage());
                // the team still works after every refused call
                a.set(2, shmem.myPe() + 1);
                w.sumReduce(b, 5, a, 2, 1);
                assertEquals(6, b.get(5));
                // collect learns the total only from the exchange; every member refuses it alike
                assertBadIndex("shmem_collect", "35", () -> w.collect(b, 35, a, 0, 2)); // 3 * 2 > 40 - 35
                free(ib, ia, b, a);
            }
        }).orThrow();
    }

    // ------------------------------------------------------------------ putmem / getmem from symmetric objects

    /**
     * {@code dest} holds {@code nbytes} of PE {@code from}'s byte source from {@code srcAt} at
     * {@code destAt}, {@code ldest} holds {@code count} of its long source from {@code lsrcAt} at
     * {@code ldestAt}, and every other position holds its guard.
     */
    private static void assertCopied(String what, int from, SymmetricByteArray dest, long destAt, long srcAt, long nbytes,
            SymmetricLongArray ldest, long ldestAt, long lsrcAt, long count) {
        for (long i = 0; i < nbytes; i++) {
            assertEquals(fb(from, srcAt + i), dest.get(destAt + i), what + "mem byte " + i);
        }
        assertByteGuards(dest, j -> j >= destAt && j < destAt + nbytes, what + "mem");
        for (long i = 0; i < count; i++) {
            assertEquals(f(from, lsrcAt + i), ldest.get(ldestAt + i), what + " element " + i);
        }
        assertGuards(ldest, j -> j >= ldestAt && j < ldestAt + count, what);
    }

    @ParameterizedTest(name = "{0} PEs")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 3, 5})
    void putmemAndGetmemTakeSymmetricObjectsAndByteOffsets(int npes) {
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                int right = (me + 1) % n, left = (me + n - 1) % n;
                SymmetricByteArray src = byteSource(shmem, 64);
                SymmetricByteArray dest = shmem.malloc(ValueLayout.JAVA_BYTE, 64);
                SymmetricLongArray lsrc = source(shmem, 16);
                SymmetricLongArray ldest = shmem.malloc(ValueLayout.JAVA_LONG, 16);
                for (boolean nbi : new boolean[] {false, true}) {
                    dest.fill(BYTE_GUARD);
                    ldest.fill(GUARD);
                    shmem.barrierAll();
                    if (nbi) {
                        shmem.putmemNbi(dest, 5, src, 11, 21, right);
                        shmem.putNbi(ldest, 3, lsrc, 6, 4, right);
                    } else {
                        shmem.putmem(dest, 5, src, 11, 21, right);
                        shmem.put(ldest, 3, lsrc, 6, 4, right);
                    }
                    shmem.barrierAll();
                    assertCopied("put", left, dest, 5, 11, 21, ldest, 3, 6, 4);

                    dest.fill(BYTE_GUARD);
                    ldest.fill(GUARD);
                    shmem.barrierAll();
                    if (nbi) {
                        shmem.getmemNbi(dest, 40, src, 1, 13, right);
                        shmem.getNbi(ldest, 9, lsrc, 2, 5, right);
                        shmem.quiet();
                    } else {
                        shmem.getmem(dest, 40, src, 1, 13, right);
                        shmem.get(ldest, 9, lsrc, 2, 5, right);
                    }
                    assertCopied("get", right, dest, 40, 1, 13, ldest, 9, 2, 5);
                    shmem.barrierAll();
                }
                assertBadIndex("shmem_putmem", "60", () -> shmem.putmem(dest, 0, src, 60, 5, right));
                assertBadIndex("shmem_getmem_nbi", "-1", () -> shmem.getmemNbi(dest, -1, src, 0, 5, right));
                assertBadIndex("shmem_put_nbi", "14", () -> shmem.putNbi(ldest, 14, lsrc, 0, 3, right));
                assertBadIndex("shmem_get_nbi", "-2", () -> shmem.getNbi(ldest, 0, lsrc, -2, 3, right));
                shmem.barrierAll();
                free(ldest, lsrc, dest, src);
            }
        }).orThrow();
    }
}
