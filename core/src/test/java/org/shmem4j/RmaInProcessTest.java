package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Blocking RMA, barrier and ptr between PEs that are threads of this JVM. */
@Timeout(120)
class RmaInProcessTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void ringPutOfLongsArrivesAfterBarrier(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                assertEquals(npes, n);
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 100);
                long[] src = new long[100];
                for (int i = 0; i < src.length; i++) {
                    src[i] = me * 1000L + i - 50;
                }
                shmem.put(dest, 0, src, 0, 100, (me + 1) % n);
                shmem.barrierAll();
                int left = (me - 1 + n) % n;
                for (int i = 0; i < 100; i++) {
                    assertEquals(left * 1000L + i - 50, dest.get(i));
                }
                dest.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void everyCarrierPutGetPG(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                SymmetricByteArray b = shmem.calloc(ValueLayout.JAVA_BYTE, 4);
                SymmetricShortArray s = shmem.calloc(ValueLayout.JAVA_SHORT, 4);
                SymmetricIntArray i = shmem.calloc(ValueLayout.JAVA_INT, 4);
                SymmetricFloatArray f = shmem.calloc(ValueLayout.JAVA_FLOAT, 4);
                SymmetricDoubleArray d = shmem.calloc(ValueLayout.JAVA_DOUBLE, 4);
                SymmetricCharArray c = shmem.calloc(ValueLayout.JAVA_CHAR, 4);
                SymmetricLongArray l = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                shmem.p(b, 1, (byte) (-me - 1), right);
                shmem.p(s, 1, (short) (-300 - me), right);
                shmem.p(i, 1, Integer.MIN_VALUE + me, right);
                shmem.p(f, 1, me + 0.5f, right);
                shmem.p(d, 1, -me - 0.25, right);
                shmem.p(c, 1, (char) ('A' + me), right);
                shmem.p(l, 1, Long.MIN_VALUE + me, right);
                shmem.put(i, 2, new int[] {7, me}, 0, 2, right);
                shmem.barrierAll();
                assertEquals((byte) (-left - 1), b.get(1));
                assertEquals((short) (-300 - left), s.get(1));
                assertEquals(Integer.MIN_VALUE + left, i.get(1));
                assertEquals(left + 0.5f, f.get(1));
                assertEquals(-left - 0.25, d.get(1));
                assertEquals((char) ('A' + left), c.get(1));
                assertEquals(Long.MIN_VALUE + left, l.get(1));
                assertEquals(left, i.get(3));
                // g and get read the right neighbour's copy, which its left neighbour (me) wrote
                assertEquals(Long.MIN_VALUE + me, shmem.g(l, 1, right));
                assertEquals((char) ('A' + me), shmem.g(c, 1, right));
                double[] dd = new double[4];
                shmem.get(dd, 0, d, 0, 4, right);
                assertArrayEquals(new double[] {0, -me - 0.25, 0, 0}, dd);
                shmem.barrierAll();
                for (SymmetricObject o : new SymmetricObject[] {l, c, d, f, i, s, b}) {
                    o.close();
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void stridedAndBlockStridedTransfers(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricIntArray dest = shmem.calloc(ValueLayout.JAVA_INT, 20);
                int[] src = new int[20];
                for (int k = 0; k < 20; k++) {
                    src[k] = 100 * me + k;
                }
                // every second element of src[1..] to every third of dest[2..]
                shmem.iput(dest, 2, 3, src, 1, 2, 5, right);
                shmem.barrierAll();
                int left = (me - 1 + n) % n;
                for (int k = 0; k < 5; k++) {
                    assertEquals(100 * left + 1 + 2 * k, dest.get(2 + 3 * k));
                }
                assertEquals(0, dest.get(3));
                int[] back = new int[10];
                shmem.iget(back, 0, 2, dest, 2, 3, 5, right); // right's dest holds my values
                for (int k = 0; k < 5; k++) {
                    assertEquals(100 * me + 1 + 2 * k, back[2 * k]);
                    assertEquals(0, back[2 * k + 1]);
                }
                shmem.barrierAll();
                // blocks of 2 with strides 5 (dest) and 3 (src)
                SymmetricIntArray blocks = shmem.calloc(ValueLayout.JAVA_INT, 20);
                shmem.ibput(blocks, 0, 5, src, 0, 3, 2, 3, right);
                shmem.barrierAll();
                assertArrayEquals(new int[] {100 * left, 100 * left + 1, 0, 0, 0, 100 * left + 3, 100 * left + 4, 0, 0, 0,
                        100 * left + 6, 100 * left + 7}, java.util.Arrays.copyOf(blocks.toArray(), 12));
                int[] got = new int[6];
                shmem.ibget(got, 0, 2, blocks, 0, 5, 2, 3, right);
                assertArrayEquals(new int[] {100 * me, 100 * me + 1, 100 * me + 3, 100 * me + 4, 100 * me + 6, 100 * me + 7}, got);
                shmem.barrierAll();
                blocks.close();
                dest.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void memAndSizedRoutines(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                SymmetricSegment seg = shmem.calloc(64, 16);
                MemorySegment src = arena.allocate(256);
                for (int k = 0; k < 256; k++) {
                    src.set(ValueLayout.JAVA_BYTE, k, (byte) (k + me));
                }
                shmem.putmem(seg, 0, src.asSlice(0, 100), right);
                shmem.put64(seg, 128, src, 4, right);           // 32 bytes at 128
                shmem.put128(seg, 512, src, 2, right);          // 32 bytes at 512
                shmem.iput32(seg, 256, 2, src, 1, 4, right);    // 4 ints, every 2nd int in dest, contiguous in src
                shmem.putmem(seg, 1000, new byte[] {9, 8, 7}, 1, 2, right);
                shmem.barrierAll();
                MemorySegment mine = seg.segment();
                for (int k = 0; k < 100; k++) {
                    assertEquals((byte) (k + left), mine.get(ValueLayout.JAVA_BYTE, k));
                }
                for (int k = 0; k < 32; k++) {
                    assertEquals((byte) (k + left), mine.get(ValueLayout.JAVA_BYTE, 128 + k), "put64 byte " + k);
                    assertEquals((byte) (k + left), mine.get(ValueLayout.JAVA_BYTE, 512 + k), "put128 byte " + k);
                }
                assertEquals(8, mine.get(ValueLayout.JAVA_BYTE, 1000));
                assertEquals(7, mine.get(ValueLayout.JAVA_BYTE, 1001));
                for (int k = 0; k < 4; k++) {
                    int expected = (int) (src.get(ValueLayout.JAVA_INT, 4L * k));
                    // src differs per PE by +me in every byte; compare against the left PE's pattern
                    assertEquals(expected, mine.get(ValueLayout.JAVA_INT, 256 + 8L * k) - bytesDelta(left - me));
                }
                MemorySegment got = arena.allocate(32);
                shmem.get128(got, seg, 512, 2, right);
                assertArrayEquals(src.asSlice(0, 32).toArray(ValueLayout.JAVA_BYTE), got.toArray(ValueLayout.JAVA_BYTE));
                byte[] raw = new byte[3];
                shmem.getmem(raw, 0, 3, seg, 1000, right);
                assertArrayEquals(new byte[] {8, 7, 0}, raw);
                shmem.barrierAll();
                seg.close();
            }
        });
    }

    /** Adding d to every byte of a little-endian int whose bytes do not carry. */
    private static int bytesDelta(int d) {
        return d * 0x01010101;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void ptrGivesDirectAccessToPeers(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricIntArray dest = shmem.calloc(ValueLayout.JAVA_INT, 4);
                if (me == 0) {
                    for (int pe = 0; pe < n; pe++) {
                        MemorySegment p = shmem.ptr(dest, pe);
                        int[] values = {pe * 10 + 1, pe * 10 + 2, pe * 10 + 3, pe * 10 + 4};
                        // Load/store reaches exactly the PEs of this PE's node (all of them on one node).
                        boolean sameNode = shmem.teamWorld().translatePe(pe, shmem.teamShared()) >= 0;
                        assertEquals(sameNode, p != null, "shmem_ptr to PE " + pe);
                        if (p == null) {
                            shmem.put(dest, 0, values, 0, 4, pe);
                            continue;
                        }
                        assertEquals(16, p.byteSize());
                        for (int k = 0; k < 4; k++) {
                            p.setAtIndex(ValueLayout.JAVA_INT, k, values[k]);
                        }
                    }
                }
                shmem.barrierAll();
                assertArrayEquals(new int[] {me * 10 + 1, me * 10 + 2, me * 10 + 3, me * 10 + 4}, dest.toArray());
                assertTrue(shmem.peAccessible(n - 1));
                assertTrue(shmem.addrAccessible(dest, n - 1));
                shmem.barrierAll();
                dest.close();
                assertTrue(!shmem.addrAccessible(dest, 0));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2})
    void badArgumentsNameTheRoutineAndValue(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                var e1 = assertThrows(IllegalArgumentException.class, () -> shmem.p(x, 0, 1L, 2));
                assertTrue(e1.getMessage().contains("shmem_p") && e1.getMessage().contains("PE 2"), e1.getMessage());
                assertThrows(IllegalArgumentException.class, () -> shmem.g(x, 0, -1));
                var e2 = assertThrows(IndexOutOfBoundsException.class, () -> shmem.put(x, 2, new long[4], 0, 3, 0));
                assertTrue(e2.getMessage().contains("shmem_put") && e2.getMessage().contains("[2, 2 + 3)"), e2.getMessage());
                var e3 = assertThrows(IndexOutOfBoundsException.class, () -> shmem.put(x, 0, new long[2], 1, 2, 0));
                assertTrue(e3.getMessage().contains("source"), e3.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.get(new long[4], 0, x, 1, 4, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.getmem(new byte[8], 0, 8, x, 30, 1));
                assertThrows(IllegalArgumentException.class, () -> shmem.iput(x, 0, 0, new long[4], 0, 1, 2, 1));
                assertNull(null);
                shmem.barrierAll();
                x.close();
                var e4 = assertThrows(IllegalStateException.class, () -> shmem.p(x, 0, 1L, 1));
                assertTrue(e4.getMessage().contains("freed"), e4.getMessage());
                assertThrows(IllegalStateException.class, x::close);
            }
        });
    }
}
