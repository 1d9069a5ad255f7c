package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;

/** Point-to-point synchronization (spec 9.11): wait and test on this PE's own symmetric words. */
@Timeout(180)
class WaitTestInProcessTest {

    /** {initial, final, cmp value}: initial does not satisfy cmp, final does. */
    private record Case(Cmp cmp, long initial, long last, long value) {}

    private static final Case[] LONG_CASES = {
            new Case(Cmp.EQ, 0, 5, 5),
            new Case(Cmp.NE, 5, 6, 5),
            new Case(Cmp.GT, -1, 2, 1), // -1 is not GT 1
            new Case(Cmp.GE, -4, -3, -3),
            new Case(Cmp.LT, 0, -4, -3),
            new Case(Cmp.LE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE),
            new Case(Cmp.UGT, 1, -1, 1), // -1 is UGT 1
            new Case(Cmp.UGE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE),
            new Case(Cmp.ULT, -1, -2, -1),
            new Case(Cmp.ULE, -1, 5, 5)};

    private static final Case[] INT_CASES = {
            new Case(Cmp.EQ, 0, 5, 5),
            new Case(Cmp.NE, 5, 6, 5),
            new Case(Cmp.GT, -1, 2, 1),
            new Case(Cmp.GE, -4, -3, -3),
            new Case(Cmp.LT, 0, -4, -3),
            new Case(Cmp.LE, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE),
            new Case(Cmp.UGT, 1, -1, 1),
            new Case(Cmp.UGE, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE), // 0x80000000 UGE
            new Case(Cmp.ULT, -1, -2, -1),
            new Case(Cmp.ULE, -1, 5, 5)};

    /** For every Cmp: test is false, the peer writes, waitUntil returns, test is true. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void waitUntilWithEveryComparison(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, LONG_CASES.length);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, INT_CASES.length);
                for (int k = 0; k < LONG_CASES.length; k++) {
                    Case lc = LONG_CASES[k], ic = INT_CASES[k];
                    if (me == 0) {
                        l.set(k, lc.initial());
                        i.set(k, (int) ic.initial());
                    }
                    shmem.barrierAll();
                    if (me == 0) {
                        assertFalse(shmem.test(l, k, lc.cmp(), lc.value()), "long " + lc);
                        assertFalse(shmem.test(i, k, ic.cmp(), (int) ic.value()), "int " + ic);
                    }
                    shmem.barrierAll();
                    if (me == n - 1) {
                        shmem.atomicSet(l, k, lc.last(), 0);
                        shmem.atomicSet(i, k, (int) ic.last(), 0);
                    } else if (me == 0) {
                        shmem.waitUntil(l, k, lc.cmp(), lc.value());
                        shmem.waitUntil(i, k, ic.cmp(), (int) ic.value());
                        assertTrue(shmem.test(l, k, lc.cmp(), lc.value()), "long " + lc);
                        assertTrue(shmem.test(i, k, ic.cmp(), (int) ic.value()), "int " + ic);
                        assertEquals(lc.last(), l.get(k));
                        assertEquals((int) ic.last(), i.get(k));
                    }
                    shmem.barrierAll();
                }
                i.close();
                l.close();
            }
        });
    }

    /** The truth table of the signed and unsigned comparisons on local values, via test. */
    @Test
    void signedAndUnsignedTruthTable() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 1);
                long[] lv = {0, 1, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFF_FFFFL, 0x8000_0000L};
                int[] iv = {0, 1, -1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF, 0x8000};
                for (long a : lv) {
                    l.set(0, a);
                    for (long b : lv) {
                        int s = Long.compare(a, b), u = Long.compareUnsigned(a, b);
                        boolean[] expect = {s == 0, s != 0, s > 0, s >= 0, s < 0, s <= 0, u > 0, u >= 0, u < 0, u <= 0};
                        for (Cmp c : Cmp.values()) {
                            assertEquals(expect[c.ordinal()], shmem.test(l, 0, c, b), a + " " + c + " " + b);
                        }
                    }
                }
                for (int a : iv) {
                    i.set(0, a);
                    for (int b : iv) {
                        int s = Integer.compare(a, b), u = Integer.compareUnsigned(a, b);
                        boolean[] expect = {s == 0, s != 0, s > 0, s >= 0, s < 0, s <= 0, u > 0, u >= 0, u < 0, u <= 0};
                        for (Cmp c : Cmp.values()) {
                            assertEquals(expect[c.ordinal()], shmem.test(i, 0, c, b), a + " " + c + " " + b + " (int)");
                        }
                    }
                }
                i.close();
                l.close();
            }
        });
    }

    /** Empty wait sets (all excluded, or nelems 0): all returns, any returns -1, some returns 0. */
    @Test
    void emptyWaitSetsReturnAtOnce() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 8);
                int[] all = {1, 1, 1, 1, 1, 1};
                int[] idx = new int[6];
                long[] lvals = new long[6];
                int[] ivals = new int[6];
                Arrays.fill(lvals, 9);
                Arrays.fill(ivals, 9);
                // every element is 0, so "EQ 9" can never hold: only the exclusion lets these return
                shmem.waitUntilAll(l, 1, 6, all, Cmp.EQ, 9L);
                shmem.waitUntilAll(i, 1, 6, all, Cmp.EQ, 9);
                shmem.waitUntilAll(l, 1, 0, null, Cmp.EQ, 9L);
                assertEquals(-1L, shmem.waitUntilAny(l, 1, 6, all, Cmp.EQ, 9L));
                assertEquals(-1L, shmem.waitUntilAny(i, 1, 6, all, Cmp.EQ, 9));
                assertEquals(-1L, shmem.waitUntilAny(i, 1, 0, null, Cmp.EQ, 9));
                assertEquals(0, shmem.waitUntilSome(l, 1, 6, idx, all, Cmp.EQ, 9L));
                assertEquals(0, shmem.waitUntilSome(i, 1, 6, idx, all, Cmp.EQ, 9));
                assertEquals(0, shmem.waitUntilSome(l, 1, 0, new int[0], null, Cmp.EQ, 9L));
                shmem.waitUntilAllVector(l, 1, 6, all, Cmp.EQ, lvals);
                shmem.waitUntilAllVector(i, 1, 6, all, Cmp.EQ, ivals);
                assertEquals(-1L, shmem.waitUntilAnyVector(l, 1, 6, all, Cmp.EQ, lvals));
                assertEquals(-1L, shmem.waitUntilAnyVector(i, 1, 6, all, Cmp.EQ, ivals));
                assertEquals(0, shmem.waitUntilSomeVector(l, 1, 6, idx, all, Cmp.EQ, lvals));
                assertEquals(0, shmem.waitUntilSomeVector(i, 1, 6, idx, all, Cmp.EQ, ivals));
                // the test forms agree
                assertTrue(shmem.testAll(l, 1, 6, all, Cmp.EQ, 9L));
                assertTrue(shmem.testAllVector(i, 1, 6, all, Cmp.EQ, ivals));
                assertEquals(-1L, shmem.testAny(l, 1, 6, all, Cmp.EQ, 9L));
                assertEquals(-1L, shmem.testAnyVector(i, 1, 6, all, Cmp.EQ, ivals));
                assertEquals(0, shmem.testSome(i, 1, 6, idx, all, Cmp.EQ, 9));
                assertEquals(0, shmem.testSomeVector(l, 1, 6, idx, all, Cmp.EQ, lvals));
                i.close();
                l.close();
            }
        });
    }

    /** test* on false conditions return false/-1/0 promptly; exclusions and indices are relative to start. */
    @Test
    void testFormsNeverBlockAndHonourExclusions() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 10);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 10);
                int[] idx = new int[5];
                long[] lvals = {1, 2, 3, 4, 5};
                int[] ivals = {1, 2, 3, 4, 5};
                // Nobody writes these words: a test form that blocked would never return (and the
                // test's timeout would name it), so finishing the loop is the check.
                for (int k = 0; k < 2000; k++) {
                    assertFalse(shmem.test(l, 3, Cmp.NE, 0L));
                    assertFalse(shmem.test(i, 3, Cmp.UGT, 0));
                    assertFalse(shmem.testAll(l, 2, 5, null, Cmp.GT, 0L));
                    assertEquals(-1L, shmem.testAny(i, 2, 5, null, Cmp.GT, 0));
                    assertEquals(0, shmem.testSome(l, 2, 5, idx, null, Cmp.GT, 0L));
                    assertFalse(shmem.testAllVector(i, 2, 5, null, Cmp.EQ, ivals));
                    assertEquals(-1L, shmem.testAnyVector(l, 2, 5, null, Cmp.EQ, lvals));
                    assertEquals(0, shmem.testSomeVector(i, 2, 5, idx, null, Cmp.EQ, ivals));
                }

                // elements 2..6 are the group; make group entries 1 and 3 satisfy "EQ vals[i]"
                l.set(3, 2);
                l.set(5, 4);
                i.set(3, 2);
                i.set(5, 4);
                assertEquals(1L, shmem.testAnyVector(l, 2, 5, null, Cmp.EQ, lvals));
                assertEquals(2, shmem.testSomeVector(i, 2, 5, idx, null, Cmp.EQ, ivals));
                assertArrayEquals(new int[] {1, 3}, sorted(idx, 2));
                int[] excl1 = {0, 1, 0, 0, 0};
                assertEquals(3L, shmem.testAnyVector(i, 2, 5, excl1, Cmp.EQ, ivals));
                assertEquals(1, shmem.testSomeVector(l, 2, 5, idx, excl1, Cmp.EQ, lvals));
                assertEquals(3, idx[0]);
                assertEquals(-1L, shmem.testAnyVector(l, 2, 5, new int[] {0, 1, 0, 7, 0}, Cmp.EQ, lvals));
                assertFalse(shmem.testAllVector(l, 2, 5, excl1, Cmp.EQ, lvals));
                assertTrue(shmem.testAllVector(l, 2, 5, new int[] {1, 0, 1, 0, 1}, Cmp.EQ, lvals));
                // scalar forms: elements 3 and 5 are non-zero
                assertEquals(1L, shmem.testAny(l, 2, 5, null, Cmp.NE, 0L));
                assertEquals(3L, shmem.testAny(l, 2, 5, new int[] {0, -1, 0, 0, 0}, Cmp.NE, 0L));
                assertEquals(2, shmem.testSome(i, 2, 5, idx, null, Cmp.GT, 0));
                assertArrayEquals(new int[] {1, 3}, sorted(idx, 2));
                assertTrue(shmem.testAll(i, 2, 5, new int[] {1, 0, 1, 0, 1}, Cmp.GT, 0));
                assertFalse(shmem.testAll(i, 2, 5, null, Cmp.GT, 0));
                // waits whose condition already holds return the same answers
                assertEquals(3L, shmem.waitUntilAny(l, 2, 5, new int[] {0, 1, 0, 0, 0}, Cmp.NE, 0L));
                assertEquals(2, shmem.waitUntilSome(l, 2, 5, idx, null, Cmp.NE, 0L));
                assertArrayEquals(new int[] {1, 3}, sorted(idx, 2));
                shmem.waitUntilAll(i, 2, 5, new int[] {1, 0, 1, 0, 1}, Cmp.NE, 0);
                // bad arguments
                assertThrows(IllegalArgumentException.class, () -> shmem.testSome(l, 2, 5, new int[4], null, Cmp.NE, 0L));
                assertThrows(IllegalArgumentException.class, () -> shmem.testAll(l, 2, 5, new int[4], Cmp.NE, 0L));
                assertThrows(IllegalArgumentException.class, () -> shmem.testAnyVector(l, 2, 5, null, Cmp.NE, new long[4]));
                assertThrows(IllegalArgumentException.class, () -> shmem.test(l, 0, null, 0L));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.testAll(l, 6, 5, null, Cmp.NE, 0L));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.test(i, 10, Cmp.NE, 0));
                i.close();
                l.close();
            }
        });
    }

    private static int[] sorted(int[] a, int n) {
        int[] c = Arrays.copyOf(a, n);
        Arrays.sort(c);
        return c;
    }

    /** Waits on groups whose entries a peer completes one at a time, some excluded. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void groupWaitsSeePeerUpdates(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 6);
                SymmetricIntArray go = shmem.calloc(ValueLayout.JAVA_INT, 1);
                int[] status = {0, 1, 0, 0, 1, 0}; // entries 1 and 4 are excluded and never written
                int[] idx = new int[6];
                if (me == 1) {
                    // write entries 5, 2, 0, 3 in turn, each after PE 0 asks for it
                    int[] order = {5, 2, 0, 3};
                    for (int s = 0; s < order.length; s++) {
                        shmem.waitUntil(go, 0, Cmp.GE, s + 1);
                        shmem.atomicSet(l, order[s], -7L, 0); // top bit set: UGT 0 and NE 0, but not GT 0
                    }
                } else if (me == 0) {
                    shmem.atomicSet(go, 0, 1, 1);
                    assertEquals(5L, shmem.waitUntilAny(l, 0, 6, status, Cmp.UGT, 0L));
                    status[5] = 1;
                    shmem.atomicSet(go, 0, 2, 1);
                    assertEquals(1, shmem.waitUntilSome(l, 0, 6, idx, status, Cmp.NE, 0L));
                    assertEquals(2, idx[0]);
                    status[2] = 1;
                    shmem.atomicSet(go, 0, 3, 1);
                    long[] want = {-7, 99, 99, -7, 99, -7};
                    assertEquals(0L, shmem.waitUntilAnyVector(l, 0, 6, status, Cmp.EQ, want));
                    assertFalse(shmem.testAll(l, 0, 6, new int[] {0, 1, 0, 0, 1, 0}, Cmp.ULT, 0L) , "-7 is not ULT 0");
                    shmem.atomicSet(go, 0, 4, 1);
                    shmem.waitUntilAll(l, 0, 6, new int[] {0, 1, 0, 0, 1, 0}, Cmp.UGE, 1L);
                    shmem.waitUntilAllVector(l, 0, 6, new int[] {0, 1, 0, 0, 1, 0}, Cmp.LT, new long[] {0, 0, 0, 0, 0, 0});
                    assertFalse(shmem.testAny(l, 0, 6, null, Cmp.GT, 0L) >= 0, "-7 is GT 0 only unsigned");
                    assertEquals(0L, l.get(1));
                    assertEquals(0L, l.get(4));
                }
                shmem.barrierAll();
                go.close();
                l.close();
            }
        });
    }

    /**
     * A timed wait that no PE can satisfy any more (every other PE entered finalize) fails as the
     * untimed one does, instead of sitting out its timeout.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void timedWaitFailsOnceEveryOtherPeFinalized(int npes) {
        InProcessJob.Result r = InProcessTestSupport.runWith(npes, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                shmem.barrierAll();
                if (shmem.myPe() == shmem.nPes() - 1) {
                    shmem.waitUntil(flag, 0, Cmp.EQ, 1L, Duration.ofMinutes(10));
                }
            }
        });
        assertTrue(r.failures().stream().anyMatch(f -> String.valueOf(f.getMessage()).contains("no PE can satisfy")),
                () -> "the waiter did not fail naming the cause: " + r.failures());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void timedWaitTimesOutWhenNobodyWrites(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 1);
                long t0 = System.nanoTime();
                assertFalse(shmem.waitUntil(l, 0, Cmp.NE, 0L, Duration.ofMillis(300)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 300, "a timed wait of 300 ms gave up after " + ms + " ms");
                t0 = System.nanoTime();
                assertFalse(shmem.waitUntil(i, 0, Cmp.UGT, 0, Duration.ofMillis(100)));
                ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 100, "a timed wait of 100 ms gave up after " + ms + " ms");
                // zero timeout: a test; a condition that holds returns true at once
                assertFalse(shmem.waitUntil(l, 0, Cmp.EQ, 1L, Duration.ZERO));
                assertTrue(shmem.waitUntil(l, 0, Cmp.EQ, 0L, Duration.ZERO));
                assertTrue(shmem.waitUntil(i, 0, Cmp.ULE, 0, Duration.ofDays(365)));
                shmem.barrierAll();
                i.close();
                l.close();
            }
        });
    }

    @Test
    void timedWaitReturnsTrueWhenAPeerWrites() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 1);
                shmem.barrierAll();
                if (me == 1) {
                    // The pauses only make it likely that PE 0 is already waiting (parked): a
                    // timed wait returns true only once the condition holds, whenever it started.
                    Thread.sleep(200);
                    shmem.atomicSet(l, 0, Long.MIN_VALUE, 0);
                    Thread.sleep(100);
                    shmem.atomicSet(i, 0, -1, 0);
                } else {
                    assertTrue(shmem.waitUntil(l, 0, Cmp.UGT, Long.MAX_VALUE, Duration.ofSeconds(60)));
                    assertEquals(Long.MIN_VALUE, l.get(0));
                    assertTrue(shmem.waitUntil(i, 0, Cmp.LT, 0, Duration.ofSeconds(60)));
                    assertEquals(-1, i.get(0));
                }
                shmem.barrierAll();
                i.close();
                l.close();
            }
        });
    }

    // ---- the examples of spec 9.11 at 4 PEs ------------------------------------------------

    private static final int N = 100;

    /** Example 39: all-to-all with put_nbi, fence, atomic_set flags, then wait_until_any. */
    @Test
    void specExampleWaitUntilAny() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int mype = shmem.myPe(), npes = shmem.nPes();
                int totalSum = 0;
                int[] myData = new int[N];
                SymmetricIntArray allData = shmem.malloc(ValueLayout.JAVA_INT, (long) N * npes);
                SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes);
                int[] status = new int[npes];
                for (int i = 0; i < N; i++) {
                    myData[i] = mype * N + i;
                }
                for (int i = 0; i < npes; i++) {
                    shmem.putNbi(allData, (long) mype * N, myData, 0, N, i);
                }
                shmem.fence();
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                for (int i = 0; i < npes; i++) {
                    long completed = shmem.waitUntilAny(flags, 0, npes, status, Cmp.NE, 0);
                    assertTrue(completed >= 0 && completed < npes && status[(int) completed] == 0, "index " + completed);
                    for (int j = 0; j < N; j++) {
                        totalSum += allData.get(completed * N + j);
                    }
                    status[(int) completed] = 1;
                }
                assertEquals(-1L, shmem.waitUntilAny(flags, 0, npes, status, Cmp.NE, 0));
                int m = N * npes - 1;
                assertEquals(m * (m + 1) / 2, totalSum);
                shmem.barrierAll();
                flags.close();
                allData.close();
            }
        });
    }

    /** Example 40: the same with wait_until_some, looping until it returns 0 (all excluded). */
    @Test
    void specExampleWaitUntilSome() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int mype = shmem.myPe(), npes = shmem.nPes();
                int totalSum = 0;
                int[] myData = new int[N];
                SymmetricIntArray allData = shmem.malloc(ValueLayout.JAVA_INT, (long) N * npes);
                SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes);
                int[] indices = new int[npes];
                int[] status = new int[npes];
                for (int i = 0; i < N; i++) {
                    myData[i] = mype * N + i;
                }
                for (int i = 0; i < npes; i++) {
                    shmem.putNbi(allData, (long) mype * N, myData, 0, N, i);
                }
                shmem.fence();
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                int ncompleted, loops = 0;
                while ((ncompleted = shmem.waitUntilSome(flags, 0, npes, indices, status, Cmp.NE, 0)) != 0) {
                    assertTrue(++loops <= npes, "wait_until_some reported more than npes times");
                    for (int i = 0; i < ncompleted; i++) {
                        assertEquals(0, status[indices[i]], "an excluded index was returned");
                        for (int j = 0; j < N; j++) {
                            totalSum += allData.get((long) indices[i] * N + j);
                        }
                        status[indices[i]] = 1;
                    }
                }
                int m = N * npes - 1;
                assertEquals(m * (m + 1) / 2, totalSum);
                shmem.barrierAll();
                flags.close();
                allData.close();
            }
        });
    }

    /** Example 38: wait_until_all as a linear barrier (status NULL). */
    @Test
    void specExampleWaitUntilAll() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int mype = shmem.myPe(), npes = shmem.nPes();
                SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes);
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                shmem.waitUntilAll(flags, 0, npes, null, Cmp.EQ, 1);
                assertArrayEquals(new int[] {1, 1, 1, 1}, flags.toArray());
                shmem.barrierAll();
                flags.close();
            }
        });
    }

    /** The wait_until_any_vector example: odd PEs put 2, even PEs put 1; the sum is npes + npes/2. */
    @Test
    void specExampleWaitUntilAnyVector() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int mype = shmem.myPe(), npes = shmem.nPes();
                int totalSum = 0;
                SymmetricIntArray ivars = shmem.calloc(ValueLayout.JAVA_INT, npes);
                int[] status = new int[npes];
                int[] cmpValues = new int[npes];
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(ivars, mype, mype % 2 + 1, i);
                    cmpValues[i] = i % 2 + 1;
                }
                for (int i = 0; i < npes; i++) {
                    long completed = shmem.waitUntilAnyVector(ivars, 0, npes, status, Cmp.EQ, cmpValues);
                    status[(int) completed] = 1;
                    totalSum += ivars.get(completed);
                }
                assertEquals(npes + npes / 2, totalSum);
                shmem.barrierAll();
                ivars.close();
            }
        });
    }

    /** The some_vector variant of the same, with the loop ending on 0. */
    @Test
    void specStyleWaitUntilSomeVectorAndAllVector() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int mype = shmem.myPe(), npes = shmem.nPes();
                SymmetricLongArray ivars = shmem.calloc(ValueLayout.JAVA_LONG, npes);
                int[] status = new int[npes];
                int[] indices = new int[npes];
                long[] cmpValues = new long[npes];
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(ivars, mype, mype % 2 + 1L, i);
                    cmpValues[i] = i % 2 + 1;
                }
                long totalSum = 0;
                int c;
                while ((c = shmem.waitUntilSomeVector(ivars, 0, npes, indices, status, Cmp.EQ, cmpValues)) != 0) {
                    for (int k = 0; k < c; k++) {
                        status[indices[k]] = 1;
                        totalSum += ivars.get(indices[k]);
                    }
                }
                assertEquals(npes + npes / 2, totalSum);
                shmem.waitUntilAllVector(ivars, 0, npes, null, Cmp.EQ, cmpValues);
                shmem.barrierAll();
                ivars.close();
            }
        });
    }
}
