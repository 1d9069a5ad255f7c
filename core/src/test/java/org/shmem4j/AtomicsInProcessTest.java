package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Atomic memory operations (spec 9.7) between PEs that are threads of this JVM: uniqueness of
 * fetched values under contention, every operation and carrier against Java arithmetic, the nbi
 * forms, and argument checking.
 */
@Timeout(180)
class AtomicsInProcessTest {
    private static final int ITER = 500;

    /**
     * Every PE fetch-adds (or fetch-incs, blocking or nbi) ITER times on one counter of PE 0; each
     * PE puts the values it fetched into PE 0's {@code seen} array at {@code me * ITER}. PE 0 then
     * checks the counter and that the fetched values are exactly {0 .. total-1}.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void concurrentFetchAddReturnsEveryValueExactlyOnce(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), total = n * ITER;
                SymmetricLongArray lc = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricIntArray ic = shmem.calloc(ValueLayout.JAVA_INT, 4);
                SymmetricLongArray lseen = shmem.calloc(ValueLayout.JAVA_LONG, total);
                SymmetricIntArray iseen = shmem.calloc(ValueLayout.JAVA_INT, total);

                // 0: long fetchAdd(1); 1: long fetchInc; 2: long fetchAddNbi; 3: long fetchIncNbi
                for (int variant = 0; variant < 4; variant++) {
                    long[] mine = new long[ITER];
                    for (int k = 0; k < ITER; k++) {
                        switch (variant) {
                            case 0 -> mine[k] = shmem.atomicFetchAdd(lc, variant, 1L, 0);
                            case 1 -> mine[k] = shmem.atomicFetchInc(lc, variant, 0);
                            case 2 -> shmem.atomicFetchAddNbi(mine, k, lc, variant, 1L, 0);
                            default -> shmem.atomicFetchIncNbi(mine, k, lc, variant, 0);
                        }
                    }
                    shmem.quiet();
                    shmem.put(lseen, (long) me * ITER, mine, 0, ITER, 0);
                    shmem.barrierAll();
                    if (me == 0) {
                        assertEquals(total, lc.get(variant), "long variant " + variant);
                        long[] all = lseen.toArray();
                        Arrays.sort(all);
                        for (int v = 0; v < total; v++) {
                            assertEquals(v, all[v], "long variant " + variant + ": fetched values are not {0.." + (total - 1) + "}");
                        }
                    }
                    shmem.barrierAll();
                }
                // the same for int
                for (int variant = 0; variant < 4; variant++) {
                    int[] mine = new int[ITER];
                    for (int k = 0; k < ITER; k++) {
                        switch (variant) {
                            case 0 -> mine[k] = shmem.atomicFetchAdd(ic, variant, 1, 0);
                            case 1 -> mine[k] = shmem.atomicFetchInc(ic, variant, 0);
                            case 2 -> shmem.atomicFetchAddNbi(mine, k, ic, variant, 1, 0);
                            default -> shmem.atomicFetchIncNbi(mine, k, ic, variant, 0);
                        }
                    }
                    shmem.quiet();
                    shmem.put(iseen, (long) me * ITER, mine, 0, ITER, 0);
                    shmem.barrierAll();
                    if (me == 0) {
                        assertEquals(total, ic.get(variant), "int variant " + variant);
                        int[] all = iseen.toArray();
                        Arrays.sort(all);
                        for (int v = 0; v < total; v++) {
                            assertEquals(v, all[v], "int variant " + variant + ": fetched values are not {0.." + (total - 1) + "}");
                        }
                    }
                    shmem.barrierAll();
                }
                iseen.close();
                lseen.close();
                ic.close();
                lc.close();
            }
        });
    }

    /** Non-fetching add/inc from every PE: the total is exact (atomicity without a return value). */
    @ParameterizedTest
    @ValueSource(ints = {2, 5, 8})
    void concurrentAddAndIncAreNotLost(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 2);
                for (int k = 0; k < ITER; k++) {
                    shmem.atomicAdd(l, 0, me + 1L, n - 1);
                    shmem.atomicInc(l, 1, n - 1);
                    shmem.atomicAdd(i, 0, -(me + 1), n - 1);
                    shmem.atomicInc(i, 1, n - 1);
                }
                shmem.barrierAll();
                if (me == n - 1) {
                    long sum = (long) ITER * n * (n + 1) / 2;
                    assertEquals(sum, l.get(0));
                    assertEquals((long) ITER * n, l.get(1));
                    assertEquals((int) -sum, i.get(0));
                    assertEquals(ITER * n, i.get(1));
                }
                shmem.barrierAll();
                i.close();
                l.close();
            }
        });
    }

    /** Concurrent xor of distinct bits and or/and of per-PE bit masks: every bit lands exactly once. */
    @ParameterizedTest
    @ValueSource(ints = {3, 8})
    void concurrentBitwiseOperationsCompose(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 3);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 3);
                l.set(1, -1L);
                i.set(1, -1);
                shmem.barrierAll();
                // PE me owns bits me, me+8, ..., of the long (and bits me, me+8, ... of the int)
                for (int b = me; b < 64; b += 8) {
                    shmem.atomicOr(l, 0, 1L << b, 0);
                    shmem.atomicAnd(l, 1, ~(1L << b), 0);
                    // xor twice = no change, three times = set
                    shmem.atomicXor(l, 2, 1L << b, 0);
                    shmem.atomicFetchXor(l, 2, 1L << b, 0);
                    shmem.atomicXor(l, 2, 1L << b, 0);
                    if (b < 32) {
                        shmem.atomicFetchOr(i, 0, 1 << b, 0);
                        shmem.atomicFetchAnd(i, 1, ~(1 << b), 0);
                        shmem.atomicXor(i, 2, 1 << b, 0);
                    }
                }
                shmem.barrierAll();
                if (me == 0) {
                    long lmask = 0;
                    int imask = 0;
                    for (int p = 0; p < n; p++) {
                        for (int b = p; b < 64; b += 8) {
                            lmask |= 1L << b;
                            if (b < 32) {
                                imask |= 1 << b;
                            }
                        }
                    }
                    assertEquals(lmask, l.get(0));
                    assertEquals(~lmask, l.get(1));
                    assertEquals(lmask, l.get(2));
                    assertEquals(imask, i.get(0));
                    assertEquals(~imask, i.get(1));
                    assertEquals(imask, i.get(2));
                }
                shmem.barrierAll();
                i.close();
                l.close();
            }
        });
    }

    private static final long[] LONG_SPECIALS = {0, 1, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFF_FFFFL,
            0xFFFF_FFFF_0000_0000L, 0x5555_5555_5555_5555L, 0xAAAA_AAAA_AAAA_AAAAL, 0x8000_0000L, Integer.MAX_VALUE,
            Integer.MIN_VALUE};
    private static final int[] INT_SPECIALS = {0, 1, -1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF, 0xFFFF_0000,
            0x5555_5555, 0xAAAA_AAAA, 0x8000_0000, 0x7FFF_FFFF};

    private static long pick(Random r, long[] specials) {
        return r.nextInt(3) == 0 ? r.nextLong() : specials[r.nextInt(specials.length)];
    }

    private static int pick(Random r, int[] specials) {
        return r.nextInt(3) == 0 ? r.nextInt() : specials[r.nextInt(specials.length)];
    }

    /**
     * A random sequence of every long AMO (blocking and nbi) on the right neighbour's word, checked
     * step by step against a Java model; the target then checks its own copy.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void everyLongOperationMatchesJavaArithmetic(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, n);
                Random r = new Random(42 + me);
                long model = 0;
                long[] fetch = new long[3];
                // the fixed edge cases first
                shmem.atomicSet(x, me, Long.MAX_VALUE, right);
                model = Long.MAX_VALUE;
                assertEquals(Long.MAX_VALUE, shmem.atomicFetchAdd(x, me, 1L, right));
                assertEquals(Long.MIN_VALUE, shmem.atomicFetch(x, me, right), "MAX_VALUE + 1 wraps");
                assertEquals(Long.MIN_VALUE, shmem.atomicFetchInc(x, me, right));
                shmem.atomicAdd(x, me, -2L, right);
                assertEquals(Long.MAX_VALUE, shmem.atomicFetch(x, me, right), "MIN_VALUE + 1 - 2 wraps");
                shmem.atomicInc(x, me, right);
                assertEquals(Long.MIN_VALUE, shmem.atomicSwap(x, me, -1L, right));
                assertEquals(-1L, shmem.atomicFetchAnd(x, me, 0xFFFF_FFFFL, right));
                assertEquals(0xFFFF_FFFFL, shmem.atomicFetchOr(x, me, 0xFFFF_FFFF_0000_0000L, right));
                assertEquals(-1L, shmem.atomicFetchXor(x, me, 0x8000_0000_0000_0001L, right));
                assertEquals(0x7FFF_FFFF_FFFF_FFFEL, shmem.atomicFetch(x, me, right));
                assertEquals(0x7FFF_FFFF_FFFF_FFFEL, shmem.atomicCompareSwap(x, me, 5L, 6L, right), "failing CAS returns current");
                assertEquals(0x7FFF_FFFF_FFFF_FFFEL, shmem.atomicFetch(x, me, right), "failing CAS leaves the value");
                assertEquals(0x7FFF_FFFF_FFFF_FFFEL, shmem.atomicCompareSwap(x, me, 0x7FFF_FFFF_FFFF_FFFEL, Long.MIN_VALUE, right));
                assertEquals(Long.MIN_VALUE, shmem.atomicFetch(x, me, right), "successful CAS stores");
                model = Long.MIN_VALUE;

                for (int step = 0; step < 400; step++) {
                    int op = r.nextInt(23);
                    long v = pick(r, LONG_SPECIALS);
                    long old = model;
                    String what = "step " + step + " op " + op + " value " + v + " from " + old;
                    switch (op) {
                        case 0 -> assertEquals(old, shmem.atomicFetch(x, me, right), what);
                        case 1 -> {
                            shmem.atomicSet(x, me, v, right);
                            model = v;
                        }
                        case 2 -> {
                            assertEquals(old, shmem.atomicSwap(x, me, v, right), what);
                            model = v;
                        }
                        case 3 -> { // successful CAS
                            assertEquals(old, shmem.atomicCompareSwap(x, me, old, v, right), what);
                            model = v;
                        }
                        case 4 -> { // failing CAS
                            long cond = old ^ (1L << r.nextInt(64));
                            assertEquals(old, shmem.atomicCompareSwap(x, me, cond, v, right), what);
                        }
                        case 5 -> {
                            assertEquals(old, shmem.atomicFetchInc(x, me, right), what);
                            model = old + 1;
                        }
                        case 6 -> {
                            shmem.atomicInc(x, me, right);
                            model = old + 1;
                        }
                        case 7 -> {
                            assertEquals(old, shmem.atomicFetchAdd(x, me, v, right), what);
                            model = old + v;
                        }
                        case 8 -> {
                            shmem.atomicAdd(x, me, v, right);
                            model = old + v;
                        }
                        case 9 -> {
                            assertEquals(old, shmem.atomicFetchAnd(x, me, v, right), what);
                            model = old & v;
                        }
                        case 10 -> {
                            shmem.atomicAnd(x, me, v, right);
                            model = old & v;
                        }
                        case 11 -> {
                            assertEquals(old, shmem.atomicFetchOr(x, me, v, right), what);
                            model = old | v;
                        }
                        case 12 -> {
                            shmem.atomicOr(x, me, v, right);
                            model = old | v;
                        }
                        case 13 -> {
                            assertEquals(old, shmem.atomicFetchXor(x, me, v, right), what);
                            model = old ^ v;
                        }
                        case 14 -> {
                            shmem.atomicXor(x, me, v, right);
                            model = old ^ v;
                        }
                        default -> { // nbi forms, into fetch[1], checked after quiet
                            fetch[1] = 0x1234;
                            switch (op) {
                                case 15 -> shmem.atomicFetchNbi(fetch, 1, x, me, right);
                                case 16 -> {
                                    shmem.atomicSwapNbi(fetch, 1, x, me, v, right);
                                    model = v;
                                }
                                case 17 -> {
                                    boolean succeed = r.nextBoolean();
                                    shmem.atomicCompareSwapNbi(fetch, 1, x, me, succeed ? old : ~old, v, right);
                                    model = succeed ? v : old;
                                }
                                case 18 -> {
                                    shmem.atomicFetchIncNbi(fetch, 1, x, me, right);
                                    model = old + 1;
                                }
                                case 19 -> {
                                    shmem.atomicFetchAddNbi(fetch, 1, x, me, v, right);
                                    model = old + v;
                                }
                                case 20 -> {
                                    shmem.atomicFetchAndNbi(fetch, 1, x, me, v, right);
                                    model = old & v;
                                }
                                case 21 -> {
                                    shmem.atomicFetchOrNbi(fetch, 1, x, me, v, right);
                                    model = old | v;
                                }
                                default -> {
                                    shmem.atomicFetchXorNbi(fetch, 1, x, me, v, right);
                                    model = old ^ v;
                                }
                            }
                            shmem.quiet();
                            assertEquals(old, fetch[1], what + " (nbi)");
                            assertEquals(0, fetch[0], "nbi wrote outside fetch[fetchIndex]");
                            assertEquals(0, fetch[2], "nbi wrote outside fetch[fetchIndex]");
                        }
                    }
                    assertEquals(model, shmem.atomicFetch(x, me, right), what + " -> state");
                }
                shmem.barrierAll();
                int left = (me - 1 + n) % n;
                for (int k = 0; k < n; k++) {
                    if (k != left) {
                        assertEquals(0L, x.get(k), "element " + k + " was touched");
                    }
                }
                shmem.barrierAll();
                x.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void everyIntOperationMatchesJavaArithmetic(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricIntArray x = shmem.calloc(ValueLayout.JAVA_INT, n);
                Random r = new Random(7 + me);
                int[] fetch = new int[3];
                shmem.atomicSet(x, me, Integer.MAX_VALUE, right);
                assertEquals(Integer.MAX_VALUE, shmem.atomicFetchAdd(x, me, 1, right));
                assertEquals(Integer.MIN_VALUE, shmem.atomicFetch(x, me, right), "MAX_VALUE + 1 wraps");
                assertEquals(Integer.MIN_VALUE, shmem.atomicFetchInc(x, me, right));
                shmem.atomicAdd(x, me, -2, right);
                assertEquals(Integer.MAX_VALUE, shmem.atomicFetch(x, me, right));
                shmem.atomicInc(x, me, right);
                assertEquals(Integer.MIN_VALUE, shmem.atomicSwap(x, me, 0xFFFF_FFFF, right));
                assertEquals(-1, shmem.atomicFetchAnd(x, me, 0x0000_FFFF, right));
                assertEquals(0xFFFF, shmem.atomicFetchOr(x, me, 0xFFFF_0000, right));
                assertEquals(-1, shmem.atomicFetchXor(x, me, 0x8000_0001, right));
                assertEquals(0x7FFF_FFFE, shmem.atomicCompareSwap(x, me, 0x7FFF_FFFF, 3, right), "failing CAS returns current");
                assertEquals(0x7FFF_FFFE, shmem.atomicCompareSwap(x, me, 0x7FFF_FFFE, 0x8000_0000, right));
                assertEquals(0x8000_0000, shmem.atomicFetch(x, me, right));
                int model = 0x8000_0000;
                for (int step = 0; step < 400; step++) {
                    int op = r.nextInt(23);
                    int v = pick(r, INT_SPECIALS);
                    int old = model;
                    String what = "step " + step + " op " + op + " value " + v + " from " + old;
                    switch (op) {
                        case 0 -> assertEquals(old, shmem.atomicFetch(x, me, right), what);
                        case 1 -> {
                            shmem.atomicSet(x, me, v, right);
                            model = v;
                        }
                        case 2 -> {
                            assertEquals(old, shmem.atomicSwap(x, me, v, right), what);
                            model = v;
                        }
                        case 3 -> {
                            assertEquals(old, shmem.atomicCompareSwap(x, me, old, v, right), what);
                            model = v;
                        }
                        case 4 -> assertEquals(old, shmem.atomicCompareSwap(x, me, old ^ (1 << r.nextInt(32)), v, right), what);
                        case 5 -> {
                            assertEquals(old, shmem.atomicFetchInc(x, me, right), what);
                            model = old + 1;
                        }
                        case 6 -> {
                            shmem.atomicInc(x, me, right);
                            model = old + 1;
                        }
                        case 7 -> {
                            assertEquals(old, shmem.atomicFetchAdd(x, me, v, right), what);
                            model = old + v;
                        }
                        case 8 -> {
                            shmem.atomicAdd(x, me, v, right);
                            model = old + v;
                        }
                        case 9 -> {
                            assertEquals(old, shmem.atomicFetchAnd(x, me, v, right), what);
                            model = old & v;
                        }
                        case 10 -> {
                            shmem.atomicAnd(x, me, v, right);
                            model = old & v;
                        }
                        case 11 -> {
                            assertEquals(old, shmem.atomicFetchOr(x, me, v, right), what);
                            model = old | v;
                        }
                        case 12 -> {
                            shmem.atomicOr(x, me, v, right);
                            model = old | v;
                        }
                        case 13 -> {
                            assertEquals(old, shmem.atomicFetchXor(x, me, v, right), what);
                            model = old ^ v;
                        }
                        case 14 -> {
                            shmem.atomicXor(x, me, v, right);
                            model = old ^ v;
                        }
                        default -> {
                            fetch[1] = 0x1234;
                            switch (op) {
                                case 15 -> shmem.atomicFetchNbi(fetch, 1, x, me, right);
                                case 16 -> {
                                    shmem.atomicSwapNbi(fetch, 1, x, me, v, right);
                                    model = v;
                                }
                                case 17 -> {
                                    boolean succeed = r.nextBoolean();
                                    shmem.atomicCompareSwapNbi(fetch, 1, x, me, succeed ? old : ~old, v, right);
                                    model = succeed ? v : old;
                                }
                                case 18 -> {
                                    shmem.atomicFetchIncNbi(fetch, 1, x, me, right);
                                    model = old + 1;
                                }
                                case 19 -> {
                                    shmem.atomicFetchAddNbi(fetch, 1, x, me, v, right);
                                    model = old + v;
                                }
                                case 20 -> {
                                    shmem.atomicFetchAndNbi(fetch, 1, x, me, v, right);
                                    model = old & v;
                                }
                                case 21 -> {
                                    shmem.atomicFetchOrNbi(fetch, 1, x, me, v, right);
                                    model = old | v;
                                }
                                default -> {
                                    shmem.atomicFetchXorNbi(fetch, 1, x, me, v, right);
                                    model = old ^ v;
                                }
                            }
                            shmem.quiet();
                            assertEquals(old, fetch[1], what + " (nbi)");
                            assertEquals(0, fetch[0]);
                            assertEquals(0, fetch[2]);
                        }
                    }
                    assertEquals(model, shmem.atomicFetch(x, me, right), what + " -> state");
                }
                shmem.barrierAll();
                // a 32-bit AMO never touches the neighbouring elements (written by no one here)
                int left = (me - 1 + n) % n;
                for (int k = 0; k < n; k++) {
                    if (k != left) {
                        assertEquals(0, x.get(k), "element " + k + " was touched");
                    }
                }
                shmem.barrierAll();
                x.close();
            }
        });
    }

    /** Float and double fetch/set/swap (and nbi) preserve every bit pattern, incl. -0.0, NaN and infinities. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void floatingPointFetchSetSwap(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricFloatArray f = shmem.calloc(ValueLayout.JAVA_FLOAT, n);
                SymmetricDoubleArray d = shmem.calloc(ValueLayout.JAVA_DOUBLE, n);
                float[] fs = {-0.0f, Float.NaN, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, -1.5f, me + 0.25f,
                        Float.intBitsToFloat(0x8000_0001)};
                double[] ds = {-0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE, 1e-300,
                        me - 0.125, Double.longBitsToDouble(0x8000_0000_0000_0001L)};
                float fmodel = 0f;
                double dmodel = 0.0;
                float[] ffetch = new float[2];
                double[] dfetch = new double[2];
                for (int k = 0; k < fs.length; k++) {
                    shmem.atomicSet(f, me, fs[k], right);
                    assertEquals(Float.floatToIntBits(fs[k]), Float.floatToIntBits(shmem.atomicFetch(f, me, right)));
                    float next = fs[(k + 3) % fs.length];
                    assertEquals(Float.floatToIntBits(fs[k]), Float.floatToIntBits(shmem.atomicSwap(f, me, next, right)));
                    shmem.atomicFetchNbi(ffetch, 1, f, me, right);
                    shmem.quiet();
                    assertEquals(Float.floatToIntBits(next), Float.floatToIntBits(ffetch[1]));
                    shmem.atomicSwapNbi(ffetch, 0, f, me, fs[k], right);
                    shmem.quiet();
                    assertEquals(Float.floatToIntBits(next), Float.floatToIntBits(ffetch[0]));
                    fmodel = fs[k];

                    shmem.atomicSet(d, me, ds[k], right);
                    assertEquals(Double.doubleToLongBits(ds[k]), Double.doubleToLongBits(shmem.atomicFetch(d, me, right)));
                    double dnext = ds[(k + 5) % ds.length];
                    assertEquals(Double.doubleToLongBits(ds[k]), Double.doubleToLongBits(shmem.atomicSwap(d, me, dnext, right)));
                    shmem.atomicFetchNbi(dfetch, 0, d, me, right);
                    shmem.quiet();
                    assertEquals(Double.doubleToLongBits(dnext), Double.doubleToLongBits(dfetch[0]));
                    shmem.atomicSwapNbi(dfetch, 1, d, me, ds[k], right);
                    shmem.quiet();
                    assertEquals(Double.doubleToLongBits(dnext), Double.doubleToLongBits(dfetch[1]));
                    dmodel = ds[k];
                }
                shmem.barrierAll();
                // my element "left" holds the left neighbour's last values (same sequences but for the me-dependent one)
                int left = (me - 1 + n) % n;
                assertEquals(Float.floatToIntBits(fs[fs.length - 1]), Float.floatToIntBits(f.get(left)));
                assertEquals(Double.doubleToLongBits(ds[ds.length - 1]), Double.doubleToLongBits(d.get(left)));
                assertEquals(Float.floatToIntBits(fmodel), Float.floatToIntBits(shmem.atomicFetch(f, me, right)));
                assertEquals(Double.doubleToLongBits(dmodel), Double.doubleToLongBits(shmem.atomicFetch(d, me, right)));
                shmem.barrierAll();
                d.close();
                f.close();
            }
        });
    }

    /** Concurrent swaps on one word form a chain: every value swapped in is swapped out exactly once (or is last). */
    @ParameterizedTest
    @ValueSource(ints = {2, 5})
    void concurrentSwapsFormAChain(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), per = 200, total = n * per;
                SymmetricLongArray word = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray out = shmem.calloc(ValueLayout.JAVA_LONG, total);
                if (me == 0) {
                    word.set(0, -1L); // initial value
                }
                shmem.barrierAll();
                long[] got = new long[per];
                for (int k = 0; k < per; k++) {
                    got[k] = shmem.atomicSwap(word, 0, (long) me * per + k, 0);
                }
                shmem.put(out, (long) me * per, got, 0, per, 0);
                shmem.barrierAll();
                if (me == 0) {
                    long[] all = out.toArray();
                    long last = word.get(0);
                    // swapped out: the initial -1 and every value but the last one, each once
                    long[] expected = new long[total];
                    expected[0] = -1;
                    int e = 1;
                    for (long v = 0; v < total; v++) {
                        if (v != last) {
                            expected[e++] = v;
                        }
                    }
                    assertEquals(total, e);
                    Arrays.sort(all);
                    Arrays.sort(expected);
                    assertTrue(Arrays.equals(expected, all), "swap chain broken");
                }
                shmem.barrierAll();
                out.close();
                word.close();
            }
        });
    }

    private static void assertThrowsNaming(Class<? extends Throwable> type, String routine, Executable call) {
        Throwable t = assertThrows(type, call::execute);
        assertTrue(t.getMessage() != null && t.getMessage().contains(routine),
                () -> "message of " + t + " does not name " + routine);
    }

    @FunctionalInterface
    private interface Executable {
        void execute() throws Throwable;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void badArgumentsAreRejectedWithoutSideEffects(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 4);
                SymmetricDoubleArray d = shmem.calloc(ValueLayout.JAVA_DOUBLE, 4);
                shmem.barrierAll();
                // PE out of range
                for (int bad : new int[] {-1, n, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_fetch_add", () -> shmem.atomicFetchAdd(l, 0, 1L, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_add", () -> shmem.atomicAdd(i, 0, 1, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_compare_swap",
                            () -> shmem.atomicCompareSwap(l, 0, 0L, 1L, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_fetch", () -> shmem.atomicFetch(d, 0, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_set", () -> shmem.atomicSet(d, 0, 1.0, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_swap", () -> shmem.atomicSwap(i, 0, 1, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_fetch_xor",
                            () -> shmem.atomicFetchXor(i, 0, 1, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic_fetch_add",
                            () -> shmem.atomicFetchAddNbi(new long[1], 0, l, 0, 1L, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic", () -> shmem.atomicFetchIncNbi(new int[1], 0, i, 0, bad));
                    assertThrowsNaming(IllegalArgumentException.class, "shmem_atomic", () -> shmem.atomicInc(l, 0, bad));
                }
                // element index out of bounds
                for (long bad : new long[] {-1, 4, Long.MAX_VALUE, Long.MIN_VALUE}) {
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_fetch_add",
                            () -> shmem.atomicFetchAdd(l, bad, 1L, 0));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic", () -> shmem.atomicOr(i, bad, 1, 0));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_swap", () -> shmem.atomicSwap(d, bad, 1.0, 0));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_compare_swap",
                            () -> shmem.atomicCompareSwap(i, bad, 0, 1, 0));
                }
                // fetch index out of range for the nbi forms: nothing happens to the target
                long[] lf = new long[2];
                int[] ifetch = new int[2];
                for (int bad : new int[] {-1, 2, Integer.MAX_VALUE}) {
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_fetch_add_nbi",
                            () -> shmem.atomicFetchAddNbi(lf, bad, l, 1, 1L, me));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_swap_nbi",
                            () -> shmem.atomicSwapNbi(ifetch, bad, i, 1, 5, me));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_compare_swap_nbi",
                            () -> shmem.atomicCompareSwapNbi(lf, bad, l, 1, 0L, 5L, me));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "nbi", () -> shmem.atomicFetchIncNbi(ifetch, bad, i, 1, me));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_fetch_or_nbi",
                            () -> shmem.atomicFetchOrNbi(lf, bad, l, 1, 5L, me));
                    assertThrowsNaming(IndexOutOfBoundsException.class, "shmem_atomic_fetch_nbi",
                            () -> shmem.atomicFetchNbi(new double[1], bad, d, 1, me));
                }
                // a null fetch array is rejected before the operation happens
                assertThrows(RuntimeException.class, () -> shmem.atomicFetchAddNbi((long[]) null, 0, l, 1, 1L, me));
                assertThrows(RuntimeException.class, () -> shmem.atomicSwapNbi((int[]) null, 0, i, 1, 7, me));
                shmem.quiet();
                assertEquals(0L, l.get(1), "a rejected nbi AMO changed the target");
                assertEquals(0, i.get(1), "a rejected nbi AMO changed the target");
                // a null comparison/op argument elsewhere is not our business here; a freed object is
                shmem.barrierAll();
                SymmetricLongArray freed = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray ifreed = shmem.calloc(ValueLayout.JAVA_INT, 1);
                freed.close();
                shmem.free(ifreed);
                assertThrowsNaming(IllegalStateException.class, "shmem_atomic_fetch_add", () -> shmem.atomicFetchAdd(freed, 0, 1L, 0));
                assertThrowsNaming(IllegalStateException.class, "shmem_atomic_compare_swap",
                        () -> shmem.atomicCompareSwap(ifreed, 0, 0, 1, 0));
                assertThrowsNaming(IllegalStateException.class, "shmem_atomic_fetch", () -> shmem.atomicFetch(freed, 0, 0));
                assertThrowsNaming(IllegalStateException.class, "shmem_atomic_set", () -> shmem.atomicSet(ifreed, 0, 1, 0));
                assertThrows(IllegalStateException.class, () -> shmem.atomicFetchIncNbi(new long[1], 0, freed, 0, 0));
                shmem.barrierAll();
                d.close();
                i.close();
                l.close();
            }
        });
    }

    /**
     * The non-fetching bitwise forms and the inc forms are implemented through another AMO; their
     * error messages must still name the routine that was called (as every other routine does).
     */
    @Test
    void derivedAmosNameTheirOwnRoutineInErrors() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 1);
                var wrong = new java.util.ArrayList<String>();
                record Call(String routine, Executable call) {}
                for (Call c : new Call[] {
                        new Call("shmem_atomic_or", () -> shmem.atomicOr(i, 0, 1, 5)),
                        new Call("shmem_atomic_and", () -> shmem.atomicAnd(l, 0, 1L, 5)),
                        new Call("shmem_atomic_xor", () -> shmem.atomicXor(i, 0, 1, 5)),
                        new Call("shmem_atomic_inc", () -> shmem.atomicInc(l, 0, 5)),
                        new Call("shmem_atomic_fetch_inc", () -> shmem.atomicFetchInc(i, 0, 5)),
                        new Call("shmem_atomic_fetch_inc_nbi", () -> shmem.atomicFetchIncNbi(new long[1], 3, l, 0, 0)),
                        new Call("shmem_atomic_or", () -> shmem.atomicOr(l, 7, 1L, 0)),
                        new Call("shmem_atomic_inc", () -> shmem.atomicInc(i, -1, 0))}) {
                    try {
                        c.call().execute();
                        wrong.add(c.routine() + ": no exception");
                    } catch (Throwable t) {
                        String m = String.valueOf(t.getMessage());
                        if (!m.startsWith(c.routine() + ":")) {
                            wrong.add(c.routine() + " -> " + t);
                        }
                    }
                }
                assertEquals(java.util.List.of(), wrong, "messages that do not name the routine called");
                i.close();
                l.close();
            }
        });
    }

    /** An AMO targeting this PE itself is an AMO like any other (same atomicity domain). */
    @Test
    void selfTargetedAmosOnOnePe() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                var threads = new Thread[4];
                for (int t = 0; t < threads.length; t++) {
                    threads[t] = Thread.ofPlatform().start(() -> {
                        for (int k = 0; k < 1000; k++) {
                            shmem.atomicFetchAdd(l, 0, 3L, 0);
                        }
                    });
                }
                for (Thread t : threads) {
                    t.join();
                }
                assertEquals(12_000L, l.get(0));
                l.close();
            }
        });
    }
}
