package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Local element access to symmetric arrays: get/set, bulk copies to and from Java arrays, the segment view. */
@Timeout(120)
class LocalAccessInProcessTest {

    /** Enough calls for the JIT to compile the loop (C2 at 10000 invocations/back-edges by default). */
    private static final int HOT = 20_000;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void bulkCopiesAndElementsSeeWhatPeersPut(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricDoubleArray x = shmem.calloc(ValueLayout.JAVA_DOUBLE, 4L * n);
                double[] mine = {me, me + 0.25, me + 0.5, me + 0.75, -1};
                // my four values into slot [4 me, 4 me + 4) of every PE, from the Java array's element 0
                for (int pe = 0; pe < n; pe++) {
                    shmem.put(x, 4L * me, mine, 0, 4, pe);
                }
                shmem.barrierAll();
                double[] all = new double[4 * n + 2];
                x.copyTo(0, all, 1, 4 * n);
                for (int pe = 0; pe < n; pe++) {
                    for (int k = 0; k < 4; k++) {
                        assertEquals(pe + 0.25 * k, all[1 + 4 * pe + k]);
                        assertEquals(pe + 0.25 * k, x.get(4L * pe + k));
                        assertEquals(pe + 0.25 * k, x.elements().getAtIndex(ValueLayout.JAVA_DOUBLE, 4L * pe + k));
                    }
                }
                assertEquals(0.0, all[0]);
                shmem.barrierAll(); // everyone has read before anyone overwrites
                x.copyFrom(1, new double[] {7, 8, 9}, 1, 2); // elements 1, 2 := 8, 9
                assertEquals(8.0, x.get(1));
                assertEquals(9.0, x.get(2));
                assertEquals(0.0, x.get(0)); // the neighbours are untouched (PE 0's values)
                assertEquals(0.75, x.get(3));
                x.close();
            }
        });
    }

    @Test
    void elementAccessMatchesTheSegmentView() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricIntArray a = shmem.malloc(ValueLayout.JAVA_INT, 100);
                SymmetricSegment pad = shmem.malloc(64);
                SymmetricIntArray b = shmem.malloc(ValueLayout.JAVA_INT, 100);
                a.fill(3);
                b.fill(-1);
                for (int i = 0; i < 100; i++) {
                    a.set(i, a.get(i) * i);
                }
                assertSame(a.elements(), a.elements()); // one view per object, not a slice per call
                assertEquals(100 * 4, a.elements().byteSize());
                int[] expect = new int[100];
                for (int i = 0; i < 100; i++) {
                    expect[i] = 3 * i;
                    assertEquals(3 * i, a.elements().getAtIndex(ValueLayout.JAVA_INT, i));
                }
                assertArrayEquals(expect, a.toArray());
                int[] minusOnes = new int[100];
                java.util.Arrays.fill(minusOnes, -1);
                assertArrayEquals(minusOnes, b.toArray()); // a's writes stayed inside a
                b.close();
                pad.close();
                a.close();
            }
        });
    }

    @Test
    void badIndicesAndRangesAreNamed() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 10);
                var e = assertThrows(IndexOutOfBoundsException.class, () -> x.get(10));
                assertTrue(e.getMessage().contains("SymmetricLongArray.get") && e.getMessage().contains("index 10"), e.getMessage());
                e = assertThrows(IndexOutOfBoundsException.class, () -> x.set(-1, 5));
                assertTrue(e.getMessage().contains("SymmetricLongArray.set") && e.getMessage().contains("index -1"), e.getMessage());
                e = assertThrows(IndexOutOfBoundsException.class, () -> x.copyFrom(8, new long[5], 0, 3));
                assertTrue(e.getMessage().contains("SymmetricLongArray.copyFrom") && e.getMessage().contains("[8, 8 + 3)"), e.getMessage());
                e = assertThrows(IndexOutOfBoundsException.class, () -> x.copyTo(0, new long[5], 3, 3));
                assertTrue(e.getMessage().contains("SymmetricLongArray.copyTo") && e.getMessage().contains("[3, 3 + 3)")
                        && e.getMessage().contains("length 5"), e.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> x.copyTo(0, new long[5], 0, -1));
                var npe = assertThrows(NullPointerException.class, () -> x.copyFrom(0, null, 0, 1));
                assertTrue(npe.getMessage().contains("SymmetricLongArray.copyFrom"), npe.getMessage());
                assertArrayEquals(new long[10], x.toArray()); // nothing moved
                x.close();
            }
        });
    }

    /**
     * The checks the JIT hoists out of a loop must still hold: a loop compiled while the object was
     * live fails with the clear message once the object is freed, and after finalize.
     */
    @Test
    void useAfterFreeFailsAlsoFromCompiledLoops() {
        InProcessTestSupport.run(1, () -> {
            Shmem shmem = Shmem.init();
            SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 64);
            for (int round = 0; round < HOT; round++) {
                assertEquals(64L * round, touchAll(x));
            }
            x.close();
            var e = assertThrows(IllegalStateException.class, () -> touchAll(x));
            assertTrue(e.getMessage().contains("SymmetricLongArray.get") && e.getMessage().contains("freed"), e.getMessage());
            e = assertThrows(IllegalStateException.class, () -> x.copyTo(0, new long[1], 0, 1));
            assertTrue(e.getMessage().contains("copyTo") && e.getMessage().contains("freed"), e.getMessage());
            e = assertThrows(IllegalStateException.class, x::elements);
            assertTrue(e.getMessage().contains("freed"), e.getMessage());
            SymmetricLongArray y = shmem.calloc(ValueLayout.JAVA_LONG, 64);
            for (int round = 0; round < HOT; round++) {
                touchAll(y);
            }
            shmem.close();
            e = assertThrows(IllegalStateException.class, () -> touchAll(y));
            assertTrue(e.getMessage().contains("finalized"), e.getMessage());
        });
    }

    /** Increments every element; returns the sum of the elements before. */
    private static long touchAll(SymmetricLongArray x) {
        long sum = 0;
        for (long i = 0; i < x.length(); i++) {
            long v = x.get(i);
            sum += v;
            x.set(i, v + 1);
        }
        return sum;
    }
}
