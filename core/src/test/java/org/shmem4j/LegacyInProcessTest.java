package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deprecated API ({@link Legacy}): active-set collectives over several active sets (the world,
 * the even PEs, the odd PEs, a stride of 4) at 1, 2, 3, 5 and 8 PEs, against reference values,
 * with sub-ranges; pSync left at SHMEM_SYNC_VALUE; the root's dest left alone by the active-set
 * broadcast; pSync, pWrk and active-set errors; the 1.4 AMO and wait names; start_pes with
 * implicit finalization.
 */
@Timeout(300)
@SuppressWarnings("deprecation")
class LegacyInProcessTest {
    private static final long GUARD = -7;

    private static long f(int pe, long i) {
        return pe * 10_007L + i * 31 + 5;
    }

    /** One active set: PEs start + i * 2^logStride, i < size. */
    record ActiveSet(int start, int logStride, int size) {
        int pe(int i) {
            return start + (i << logStride);
        }

        int indexOf(int pe) {
            int d = pe - start;
            return d >= 0 && d % (1 << logStride) == 0 && (d >> logStride) < size ? d >> logStride : -1;
        }
    }

    private static List<ActiveSet> sets(int n) {
        List<ActiveSet> out = new ArrayList<>();
        out.add(new ActiveSet(0, 0, n));
        out.add(new ActiveSet(0, 1, (n + 1) / 2));
        if (n >= 2) {
            out.add(new ActiveSet(1, 1, n / 2));
        }
        if (n >= 5) {
            out.add(new ActiveSet(1, 2, (n - 2) / 4 + 1));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void activeSetCollectivesMatchReferences(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                Legacy legacy = shmem.legacy();
                int me = shmem.myPe(), n = shmem.nPes();
                assertEquals(me, legacy.myPe());
                assertEquals(n, legacy.numPes());
                SymmetricLongArray pSync = shmem.calloc(ValueLayout.JAVA_LONG, Legacy.SYNC_SIZE);
                SymmetricLongArray src = shmem.malloc(ValueLayout.JAVA_LONG, 64);
                SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, 64);
                SymmetricIntArray isrc = shmem.malloc(ValueLayout.JAVA_INT, 64);
                SymmetricIntArray idest = shmem.malloc(ValueLayout.JAVA_INT, 64);
                SymmetricLongArray pWrk = shmem.malloc(ValueLayout.JAVA_LONG, 8);
                SymmetricDoubleArray dsrc = shmem.malloc(ValueLayout.JAVA_DOUBLE, 8);
                SymmetricDoubleArray ddest = shmem.malloc(ValueLayout.JAVA_DOUBLE, 8);
                SymmetricDoubleArray dWrk = shmem.malloc(ValueLayout.JAVA_DOUBLE, 8);
                for (int round = 0; round < 2; round++) { // the second round runs on the cached teams
                    for (ActiveSet as : sets(n)) {
                        int k = as.indexOf(me);
                        if (k >= 0) {
                            exercise(shmem, legacy, as, k, pSync, src, dest, isrc, idest, pWrk, dsrc, ddest, dWrk);
                        }
                        shmem.barrierAll();
                    }
                }
                for (long i = 0; i < pSync.length(); i++) {
                    assertEquals(Legacy.SYNC_VALUE, pSync.get(i), "pSync[" + i + "] was not restored");
                }
                pSync.close();
            }
        });
    }

    private static void exercise(Shmem shmem, Legacy legacy, ActiveSet as, int k, SymmetricLongArray pSync,
            SymmetricLongArray src, SymmetricLongArray dest, SymmetricIntArray isrc, SymmetricIntArray idest,
            SymmetricLongArray pWrk, SymmetricDoubleArray dsrc, SymmetricDoubleArray ddest, SymmetricDoubleArray dWrk) {
        int me = shmem.myPe(), size = as.size();
        int s = as.start(), l = as.logStride();
        for (int i = 0; i < 64; i++) {
            src.set(i, f(me, i));
            isrc.set(i, (int) f(me, i));
        }
        // shmem_barrier: a put before it is visible after it
        dest.fill(GUARD);
        legacy.barrier(s, l, size, pSync);
        shmem.p(dest, 0, (long) me, as.pe((k + 1) % size));
        legacy.barrier(s, l, size, pSync);
        assertEquals(as.pe((k + size - 1) % size), dest.get(0), "value put before shmem_barrier");
        legacy.sync(s, l, size, pSync);

        // broadcast64 from the last member, into dest[2..5] from src[1..4]; the root's dest stays
        int root = size - 1;
        dest.fill(GUARD);
        legacy.sync(s, l, size, pSync);
        legacy.broadcast64(dest, 2, src, 1, 4, root, s, l, size, pSync);
        for (int i = 0; i < 64; i++) {
            long expected = k != root && i >= 2 && i < 6 ? f(as.pe(root), i - 1) : GUARD;
            assertEquals(expected, dest.get(i), "broadcast64 dest[" + i + "] on member " + k);
        }

        // fcollect64 of 3 elements from src[5..] into dest[1..]
        dest.fill(GUARD);
        legacy.sync(s, l, size, pSync);
        legacy.fcollect64(dest, 1, src, 5, 3, s, l, size, pSync);
        for (int i = 0; i < 64; i++) {
            int j = i - 1;
            long expected = j >= 0 && j < 3 * size ? f(as.pe(j / 3), 5 + j % 3) : GUARD;
            assertEquals(expected, dest.get(i), "fcollect64 dest[" + i + "]");
        }

        // collect32: member j contributes j + 1 ints
        idest.fill((int) GUARD);
        legacy.sync(s, l, size, pSync);
        legacy.collect32(idest, 0, isrc, 0, k + 1, s, l, size, pSync);
        int at = 0;
        for (int j = 0; j < size; j++) {
            for (int i = 0; i <= j; i++) {
                assertEquals((int) f(as.pe(j), i), idest.get(at++), "collect32 block of member " + j);
            }
        }
        assertEquals((int) GUARD, idest.get(at), "collect32 wrote past the blocks");

        // alltoall64 of 2 elements per member; alltoalls32 with strides 2 (dest) and 3 (source)
        dest.fill(GUARD);
        legacy.sync(s, l, size, pSync);
        legacy.alltoall64(dest, 0, src, 0, 2, s, l, size, pSync);
        for (int j = 0; j < size; j++) {
            for (int i = 0; i < 2; i++) {
                assertEquals(f(as.pe(j), 2L * k + i), dest.get(2L * j + i), "alltoall64 from member " + j);
            }
        }
        idest.fill((int) GUARD);
        legacy.sync(s, l, size, pSync);
        legacy.alltoalls32(idest, 0, isrc, 0, 2, 3, 1, s, l, size, pSync);
        for (int j = 0; j < size; j++) {
            assertEquals((int) f(as.pe(j), 3L * k), idest.get(2L * j), "alltoalls32 from member " + j);
            assertEquals((int) GUARD, idest.get(2L * j + 1), "alltoalls32 wrote a stride gap");
        }

        // sum_to_all(&x[1], &x[0], 1, ...) as in C codes that reduce one element in place of another
        src.set(0, me + 1);
        legacy.sync(s, l, size, pSync);
        legacy.sumToAll(src, 1, src, 0, 1, s, l, size, pWrk, pSync);
        long sum = 0;
        for (int j = 0; j < size; j++) {
            sum += as.pe(j) + 1;
        }
        assertEquals(sum, src.get(1), "long_sum_to_all into element 1");
        for (int i = 0; i < 8; i++) {
            dsrc.set(i, (me * 7 + i * 3) % 11 - 4.5);
        }
        legacy.maxToAll(ddest, dsrc, 8, s, l, size, dWrk, pSync);
        for (int i = 0; i < 8; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < size; j++) {
                max = Math.max(max, (as.pe(j) * 7 + i * 3) % 11 - 4.5);
            }
            assertEquals(max, ddest.get(i), "double_max_to_all element " + i);
        }
        legacy.sync(s, l, size, pSync); // src and dsrc are rewritten by the next round
    }

    private static void assertFails(Class<? extends Throwable> type, String routine, String detail, Executable call) {
        Throwable e = assertThrows(type, call, routine);
        assertTrue(e.getMessage().contains(routine) && e.getMessage().contains(detail),
                "message should name " + routine + " and " + detail + ": " + e.getMessage());
    }

    @Test
    void badWorkArraysAndActiveSetsAreNamed() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                Legacy legacy = shmem.legacy();
                SymmetricLongArray pSync = shmem.calloc(ValueLayout.JAVA_LONG, Legacy.SYNC_SIZE);
                SymmetricLongArray shortSync = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                SymmetricLongArray pWrk = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                assertFails(IllegalArgumentException.class, "shmem_barrier", "4 elements",
                        () -> legacy.barrier(0, 0, 3, shortSync));
                assertFails(IllegalArgumentException.class, "shmem_sum_to_all", "pWrk has 1",
                        () -> legacy.sumToAll(a, a, 6, 0, 0, 3, pWrk, pSync)); // needs 6 / 2 + 1
                assertFails(IllegalArgumentException.class, "shmem_broadcast64", "PE_size=4",
                        () -> legacy.broadcast64(a, a, 1, 0, 0, 0, 4, pSync));
                assertFails(IllegalArgumentException.class, "shmem_sync", "logPE_stride=-1",
                        () -> legacy.sync(0, -1, 1, pSync));
                if (shmem.myPe() != 0) {
                    assertFails(IllegalArgumentException.class, "shmem_collect64", "not in the active set",
                            () -> legacy.collect64(a, a, 1, 0, 0, 1, pSync));
                }
                assertFails(IndexOutOfBoundsException.class, "shmem_sum_to_all", "-1",
                        () -> legacy.sumToAll(a, -1, a, 0, 1, 0, 0, 3, pWrk, pSync));
                shmem.barrierAll();
                pSync.set(Legacy.SYNC_SIZE - 1, 99); // a pSync not at SHMEM_SYNC_VALUE
                assertFails(IllegalArgumentException.class, "shmem_barrier", "not SHMEM_SYNC_VALUE",
                        () -> legacy.barrier(0, 0, 3, pSync));
                pSync.set(Legacy.SYNC_SIZE - 1, Legacy.SYNC_VALUE);
                legacy.barrier(0, 0, 3, pSync); // still usable after the refusals
                shmem.free(pWrk);
                legacy.shfree(a);
                shortSync.close();
                pSync.close();
            }
        });
    }

    @Test
    void oldAmoAndWaitNamesAndMemoryRoutinesWork() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                Legacy legacy = shmem.legacy();
                int me = shmem.myPe(), other = 1 - me;
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                SymmetricIntArray y = shmem.calloc(ValueLayout.JAVA_INT, 1);
                SymmetricShortArray flag = shmem.calloc(ValueLayout.JAVA_SHORT, 1);
                SymmetricSegment seg = legacy.shmemalign(128, 100);
                assertEquals(0, seg.offset() % 128);
                seg = legacy.shrealloc(seg, 300);
                assertEquals(300, seg.byteSize());
                legacy.clearCacheInv();
                legacy.setCacheInv();
                legacy.udcflush();
                legacy.clearCacheLineInv(x);
                legacy.setCacheLineInv(x);
                legacy.udcflushLine(x);
                shmem.barrierAll();
                legacy.add(x, 0, 5L, 0);
                assertTrue(legacy.fadd(x, 0, 1L, 0) >= 0);
                legacy.inc(x, 0, 0);
                legacy.finc(y, 0, other);
                shmem.barrierAll();
                assertEquals(14, legacy.fetch(x, 0, 0)); // 2 * (5 + 1 + 1)
                assertEquals(1, legacy.fetch(y, 0, me));
                shmem.barrierAll();
                if (me == 0) {
                    assertEquals(14, legacy.swap(x, 0, 100L, 0));
                    assertEquals(100, legacy.cswap(x, 0, 100L, 7L, 0));
                    legacy.set(x, 1, 42L, 1);
                }
                shmem.barrierAll();
                assertEquals(7, legacy.fetch(x, 0, 0));
                if (me == 1) {
                    legacy.wait(x, 1, 0L); // set 42 above, before the barrier
                    assertEquals(42, x.get(1));
                    legacy.waitUntil(flag, 0, Cmp.EQ, (short) -3); // PE 0 sets it after the barrier
                    assertTrue(legacy.test(flag, 0, Cmp.UGT, (short) 5), "0xFFFD is above 5 unsigned");
                    assertFalse(legacy.test(flag, 0, Cmp.GT, (short) 5));
                } else {
                    shmem.p(flag, 0, (short) -3, 1);
                }
                shmem.barrierAll();
                legacy.shfree(seg);
                flag.close();
                y.close();
                x.close();
            }
        });
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 3})
    void startPesFinalizesWhenTheProgramEnds(int npes) {
        InProcessTestSupport.run(npes, () -> {
            Shmem shmem = Legacy.startPes(0);
            assertSame(shmem, Legacy.startPes(0), "a second start_pes has no effect");
            Legacy legacy = shmem.legacy();
            SymmetricLongArray pSync = shmem.calloc(ValueLayout.JAVA_LONG, Legacy.BARRIER_SYNC_SIZE);
            legacy.barrier(0, 0, legacy.numPes(), pSync);
            assertTrue(Shmem.queryInitialized());
            // no close(): the job fails if the PE is still initialized when the program returns
        });
    }
}
