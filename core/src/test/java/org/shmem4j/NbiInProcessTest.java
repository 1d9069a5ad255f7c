package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Non-blocking RMA (spec 9.6.2) and per-PE quiet (9.12.3).
 *
 * <p>Library guarantee under test (documented in {@code Context}): a Java array given as the
 * source of a non-blocking put is copied before the call returns, so it may be modified at once
 * without affecting the data delivered (the garbage collector may move an array, so the library
 * cannot read it later). A {@code MemorySegment} source, like C's buffer, must stay unchanged
 * until quiet.
 */
@Timeout(180)
class NbiInProcessTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void putNbiAndGetNbiOfArraysAreDefinedAfterQuiet(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                int len = 4096;
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, len);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, len);
                SymmetricDoubleArray d = shmem.calloc(ValueLayout.JAVA_DOUBLE, 16);
                long[] ls = new long[len];
                int[] is = new int[len];
                for (int k = 0; k < len; k++) {
                    ls[k] = ((long) me << 32) | k;
                    is[k] = -(me * len + k);
                }
                for (int rep = 0; rep < 10; rep++) {
                    shmem.putNbi(l, 0, ls, 0, len, right);
                    Arrays.fill(ls, 0xDEADL); // modified right after the call returned
                    shmem.putNbi(i, 1, is, 1, len - 1, right);
                    Arrays.fill(is, 0xBEEF);
                    shmem.putNbi(d, 3, new double[] {me + 0.5, -me}, 0, 2, right);
                    shmem.quiet();
                    shmem.barrierAll();
                    for (int k = 0; k < len; k++) {
                        if (l.get(k) != (((long) left << 32) | k)) {
                            throw new AssertionError("rep " + rep + " long " + k + ": " + l.get(k));
                        }
                        if (k > 0 && i.get(k) != -(left * len + k)) {
                            throw new AssertionError("rep " + rep + " int " + k + ": " + i.get(k));
                        }
                    }
                    assertEquals(0, i.get(0), "putNbi wrote before destIndex");
                    assertEquals(left + 0.5, d.get(3));
                    assertEquals(-left, d.get(4));
                    // get the right neighbour's copy (which holds my original data) back
                    long[] lg = new long[len + 2];
                    int[] ig = new int[len];
                    shmem.getNbi(lg, 1, l, 0, len, right);
                    shmem.getNbi(ig, 0, i, 0, len, right);
                    shmem.quiet();
                    assertEquals(0L, lg[0]);
                    assertEquals(0L, lg[len + 1]);
                    for (int k = 0; k < len; k++) {
                        ls[k] = ((long) me << 32) | k;
                        is[k] = -(me * len + k);
                        assertEquals(ls[k], lg[k + 1]);
                        if (k > 0) {
                            assertEquals(is[k], ig[k]);
                        }
                    }
                    shmem.barrierAll(); // nobody overwrites a copy that is being read
                }
                d.close();
                i.close();
                l.close();
            }
        });
    }

    /** Many small putNbi to all PEs, each with a freshly scribbled array, are all delivered in full after quiet. */
    @ParameterizedTest
    @ValueSource(ints = {2, 5})
    void manyOutstandingPutsToEveryPe(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), per = 64;
                SymmetricIntArray box = shmem.calloc(ValueLayout.JAVA_INT, (long) n * per);
                int[] src = new int[1];
                for (int k = 0; k < per; k++) {
                    for (int p = 0; p < n; p++) {
                        src[0] = me * 10_000 + k;
                        shmem.putNbi(box, (long) me * per + k, src, 0, 1, p);
                        src[0] = -1;
                    }
                }
                shmem.quiet();
                shmem.barrierAll();
                for (int p = 0; p < n; p++) {
                    for (int k = 0; k < per; k++) {
                        assertEquals(p * 10_000 + k, box.get((long) p * per + k));
                    }
                }
                shmem.barrierAll();
                box.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void putmemGetmemAndSizedNbi(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                int bytes = 1 << 16;
                SymmetricSegment raw = shmem.calloc(6, bytes); // one region per routine
                MemorySegment src = arena.allocate(bytes, 16);
                for (int k = 0; k < bytes; k++) {
                    src.set(ValueLayout.JAVA_BYTE, k, (byte) (k * 31 + me));
                }
                shmem.putmemNbi(raw, 0, src, right);
                shmem.put8Nbi(raw, bytes, src, bytes, right);
                shmem.put16Nbi(raw, 2L * bytes, src, bytes / 2, right);
                shmem.put32Nbi(raw, 3L * bytes, src, bytes / 4, right);
                shmem.put64Nbi(raw, 4L * bytes, src, bytes / 8, right);
                shmem.put128Nbi(raw, 5L * bytes, src, bytes / 16 - 1, right); // all but the last 16 bytes
                shmem.quiet(); // only now may src change
                shmem.barrierAll();
                MemorySegment local = raw.segment();
                for (int region = 0; region < 6; region++) {
                    long len = region == 5 ? bytes - 16 : bytes;
                    for (long k = 0; k < len; k++) {
                        byte want = (byte) (k * 31 + left);
                        if (local.get(ValueLayout.JAVA_BYTE, region * (long) bytes + k) != want) {
                            throw new AssertionError("region " + region + " byte " + k);
                        }
                    }
                }
                for (long k = 6L * bytes - 16; k < 6L * bytes; k++) {
                    assertEquals(0, local.get(ValueLayout.JAVA_BYTE, k), "put128Nbi wrote past nelems");
                }
                // gets from the right neighbour, which holds my bytes
                MemorySegment[] dst = new MemorySegment[6];
                for (int r = 0; r < 6; r++) {
                    dst[r] = arena.allocate(bytes, 16);
                }
                shmem.getmemNbi(dst[0], raw, 0, right);
                shmem.get8Nbi(dst[1], raw, bytes, bytes, right);
                shmem.get16Nbi(dst[2], raw, 2L * bytes, bytes / 2, right);
                shmem.get32Nbi(dst[3], raw, 3L * bytes, bytes / 4, right);
                shmem.get64Nbi(dst[4], raw, 4L * bytes, bytes / 8, right);
                shmem.get128Nbi(dst[5], raw, 5L * bytes, bytes / 16 - 1, right);
                shmem.quiet();
                for (int r = 0; r < 6; r++) {
                    long len = r == 5 ? bytes - 16 : bytes;
                    assertEquals(-1L, MemorySegment.mismatch(dst[r], 0, len, src, 0, len), "get region " + r);
                }
                // typed nbi through segments
                SymmetricLongArray la = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                MemorySegment ls = arena.allocate(ValueLayout.JAVA_LONG, 8);
                for (int k = 0; k < 8; k++) {
                    ls.setAtIndex(ValueLayout.JAVA_LONG, k, Long.MIN_VALUE + me * 8L + k);
                }
                shmem.putNbi(la, 0, ls, right);
                shmem.quiet();
                shmem.barrierAll();
                for (int k = 0; k < 8; k++) {
                    assertEquals(Long.MIN_VALUE + left * 8L + k, la.get(k));
                }
                MemorySegment lg = arena.allocate(ValueLayout.JAVA_LONG, 4);
                shmem.getNbi(lg, la, 4, right);
                shmem.quiet();
                for (int k = 0; k < 4; k++) {
                    assertEquals(Long.MIN_VALUE + me * 8L + 4 + k, lg.getAtIndex(ValueLayout.JAVA_LONG, k));
                }
                shmem.barrierAll();
                la.close();
                raw.close();
            }
        });
    }

    /** put_nbi, fence, flag: the receiver that sees the flag sees the data (the pattern of spec example 39). */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void fenceOrdersNbiPutsBeforeALaterFlag(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 1024);
                SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                long[] src = new long[1024];
                for (int r = 1; r <= 50; r++) {
                    Arrays.fill(src, r * 1000L + me);
                    shmem.putNbi(data, 0, src, 0, src.length, right);
                    shmem.fence();
                    shmem.atomicSet(flag, 0, r, right);
                    shmem.waitUntil(flag, 0, Cmp.EQ, r);
                    assertEquals(r * 1000L + left, data.get(1023), "round " + r);
                    assertEquals(r * 1000L + left, data.get(0), "round " + r);
                    shmem.atomicSet(flag, 1, r, left); // ack
                    shmem.waitUntil(flag, 1, Cmp.EQ, r);
                }
                shmem.barrierAll();
                flag.close();
                data.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 5})
    void peQuietCompletesPutsToTheNamedPes(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricIntArray box = shmem.calloc(ValueLayout.JAVA_INT, n);
                SymmetricIntArray flag = shmem.calloc(ValueLayout.JAVA_INT, n);
                shmem.putNbi(box, me, new int[] {me + 100}, 0, 1, right);
                shmem.peQuiet(right);
                shmem.atomicSet(flag, me, 1, right);
                int left = (me - 1 + n) % n;
                shmem.waitUntil(flag, left, Cmp.EQ, 1);
                assertEquals(left + 100, box.get(left));
                shmem.barrierAll(); // everyone has checked before box is overwritten
                // every PE, none, duplicates
                int[] all = new int[n];
                for (int p = 0; p < n; p++) {
                    all[p] = p;
                    shmem.putNbi(box, me, new int[] {me + 200}, 0, 1, p);
                }
                shmem.peQuiet(all);
                shmem.peQuiet();
                shmem.peQuiet(me, me, right);
                shmem.barrierAll();
                for (int p = 0; p < n; p++) {
                    assertEquals(p + 200, box.get(p));
                }
                // bad PE numbers are rejected, naming the routine
                for (int[] bad : new int[][] {{-1}, {n}, {0, n}, {Integer.MIN_VALUE}}) {
                    Throwable t = assertThrows(IllegalArgumentException.class, () -> shmem.peQuiet(bad));
                    assertTrue(t.getMessage().contains("shmem_pe_quiet"), t::toString);
                }
                // bad PE numbers on the nbi routines themselves
                assertThrows(IllegalArgumentException.class, () -> shmem.putNbi(box, 0, new int[1], 0, 1, n));
                assertThrows(IllegalArgumentException.class, () -> shmem.getNbi(new int[1], 0, box, 0, 1, -1));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.putNbi(box, n, new int[1], 0, 1, 0));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.getNbi(new int[1], 0, box, 0, 2, 0));
                shmem.barrierAll();
                flag.close();
                box.close();
            }
        });
    }

    /** A long[] source of several MiB, scribbled at once after putNbi, arrives intact. */
    @ParameterizedTest
    @ValueSource(ints = {2})
    void largeArraySourceReusableAtOnce(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                int len = 512 * 1024; // 4 MiB
                SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, len);
                long[] src = new long[len];
                Arrays.setAll(src, k -> k ^ ((long) me << 48));
                long[] expected = new long[len];
                Arrays.setAll(expected, k -> k ^ ((long) left << 48));
                shmem.putNbi(dest, 0, src, 0, len, right);
                Arrays.fill(src, -1L);
                shmem.quiet();
                shmem.barrierAll();
                assertArrayEquals(expected, dest.toArray());
                shmem.barrierAll();
                dest.close();
            }
        });
    }
}
