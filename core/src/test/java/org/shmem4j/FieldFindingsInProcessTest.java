package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The defects an outside validation found (issue 9), each as it was reported: silent corruption
 * through raw types, overlapping collective buffers, zero-length null buffers, errors naming the
 * wrong routine, unknown allocation hints, put-with-signal from a symmetric source, and signals
 * compared as the unsigned words they are.
 */
@Timeout(120)
class FieldFindingsInProcessTest {

    private static void assertNames(String routine, Class<? extends Throwable> type, Executable call) {
        Throwable e = assertThrows(type, call, routine);
        assertTrue(String.valueOf(e.getMessage()).startsWith(routine + ":"), () -> routine + " reported as: " + e.getMessage());
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void rawTypesCannotMixElementTypes() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray longs = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricIntArray ints = shmem.calloc(ValueLayout.JAVA_INT, 8);
                SymmetricArray rawLongs = longs, rawInts = ints;
                int peer = (shmem.myPe() + 1) % shmem.nPes();
                assertNames("shmem_put", IllegalArgumentException.class, () -> shmem.put(rawLongs, 0L, rawInts, 0L, 2L, peer));
                assertNames("shmem_get", IllegalArgumentException.class, () -> shmem.get(rawLongs, 0L, rawInts, 0L, 2L, peer));
                assertNames("shmem_put", IllegalArgumentException.class, () -> shmem.put(rawLongs, 0L, new int[4], 0, 2, peer));
                assertNames("shmem_get", IllegalArgumentException.class, () -> shmem.get(new int[4], 0, rawLongs, 0L, 2, peer));
                assertNames("shmem_iput", IllegalArgumentException.class, () -> shmem.iput(rawLongs, 0L, 1L, new int[4], 0, 1L, 2L, peer));
                assertNames("shmem_put_signal", IllegalArgumentException.class,
                        () -> shmem.putSignal(rawLongs, 0L, rawInts, 0L, 2L, longs, 3L, 1L, SignalOp.SET, peer));
                assertNames("shmem_fcollect", IllegalArgumentException.class, () -> shmem.teamWorld().fcollect(rawLongs, rawInts, 1));
                assertNames("shmem_broadcast", IllegalArgumentException.class, () -> shmem.teamWorld().broadcast(rawLongs, rawInts, 1, 0));
                shmem.barrierAll();
                assertEquals(0, longs.get(0), "nothing was copied");
                longs.close();
                ints.close();
            }
        });
    }

    @Test
    void collectsAndAllToAllsRefuseOverlappingBuffers() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                SymmetricLongArray y = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                assertNames("shmem_fcollect", IllegalArgumentException.class, () -> world.fcollect(x, x, 1));
                assertNames("shmem_collect", IllegalArgumentException.class, () -> world.collect(x, x, 1));
                assertNames("shmem_alltoall", IllegalArgumentException.class, () -> world.alltoall(x, x, 1));
                assertNames("shmem_alltoalls", IllegalArgumentException.class, () -> world.alltoalls(x, x, 1, 1, 1));
                assertNames("shmem_fcollectmem", IllegalArgumentException.class, () -> world.fcollectmem(x, x, 8));
                assertNames("shmem_alltoallmem", IllegalArgumentException.class, () -> world.alltoallmem(x, x, 8));
                // disjoint buffers still work, and the refused calls left the team usable
                x.set(0, 10 + shmem.myPe());
                world.fcollect(y, x, 1);
                assertEquals(10, y.get(0));
                assertEquals(11, y.get(1));
                x.close();
                y.close();
            }
        });
    }

    @Test
    void zeroLengthOperationsAcceptNullBuffers() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                int peer = (shmem.myPe() + 1) % shmem.nPes();
                SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                shmem.put(a, 0, (long[]) null, 0, 0, peer);
                shmem.get((long[]) null, 0, a, 0, 0, peer);
                shmem.putNbi(a, 0, (long[]) null, 0, 0, peer);
                shmem.getNbi((long[]) null, 0, a, 0, 0, peer);
                shmem.iput(a, 0, 1, (long[]) null, 0, 1, 0, peer);
                shmem.iget((long[]) null, 0, 1, a, 0, 1, 0, peer);
                shmem.ibput(a, 0, 1, (long[]) null, 0, 1, 1, 0, peer);
                shmem.putmem(a, 0, (byte[]) null, 0, 0, peer);
                shmem.getmem((byte[]) null, 0, 0, a, 0, peer);
                shmem.putmem(a, 0, MemorySegment.NULL, peer);
                shmem.getmem(MemorySegment.NULL, a, 0, peer);
                shmem.putmemNbi(a, 0, MemorySegment.NULL, peer);
                shmem.put8(a, 0, null, 0, peer);
                shmem.put64Nbi(a, 0, null, 0, peer);
                shmem.putSignal(a, 0, (long[]) null, 0, 0, sig, 0, 7, SignalOp.SET, peer);
                shmem.putmemSignal(a, 0, MemorySegment.NULL, sig, 0, 1, SignalOp.ADD, peer);
                assertEquals(0, shmem.testSome((SymmetricLongArray) null, 0, 0, null, null, Cmp.EQ, 0));
                shmem.waitUntilAll((SymmetricLongArray) null, 0, 0, null, Cmp.EQ, 0);
                assertEquals(-1, shmem.waitUntilAny((SymmetricLongArray) null, 0, 0, null, Cmp.EQ, 0));
                shmem.peQuiet((int[]) null);
                shmem.peQuiet();
                shmem.barrierAll();
                assertEquals(8, sig.get(0), "the signal of a zero-length put-with-signal is still delivered");
                // null with elements to move is an error naming the routine
                assertNames("shmem_put", NullPointerException.class, () -> shmem.put(a, 0, (long[]) null, 0, 1, peer));
                assertNames("shmem_get_nbi", NullPointerException.class, () -> shmem.getNbi((long[]) null, 0, a, 0, 2, peer));
                assertNames("shmem_putmem", NullPointerException.class, () -> shmem.putmem(a, 0, (byte[]) null, 0, 3, peer));
                assertNames("shmem_put8", NullPointerException.class, () -> shmem.put8(a, 0, null, 1, peer));
                // a segment that carries the length: null is an error (MemorySegment.NULL is the empty one)
                assertNames("shmem_putmem", NullPointerException.class, () -> shmem.putmem(a, 0, (MemorySegment) null, peer));
                assertNames("shmem_getmem", NullPointerException.class, () -> shmem.getmem((MemorySegment) null, a, 0, peer));
                assertNames("shmem_put", NullPointerException.class, () -> shmem.put(a, 0, (MemorySegment) null, peer));
                assertNames("shmem_putmem_signal", NullPointerException.class,
                        () -> shmem.putmemSignal(a, 0, null, sig, 0, 1, SignalOp.ADD, peer));
                // a null symmetric object, with elements to move or not
                assertNames("shmem_put", NullPointerException.class, () -> shmem.put((SymmetricLongArray) null, 0, new long[2], 0, 2, peer));
                assertNames("shmem_get", NullPointerException.class, () -> shmem.get(new long[2], 0, (SymmetricLongArray) null, 0, 2, peer));
                assertNames("shmem_putmem", NullPointerException.class, () -> shmem.putmem((SymmetricObject) null, 0, new byte[3], 0, 3, peer));
                assertNames("shmem_atomic_fetch_add", NullPointerException.class, () -> shmem.atomicFetchAdd((SymmetricLongArray) null, 0, 1L, peer));
                assertNames("shmem_put", NullPointerException.class, () -> shmem.put(a, 0, (SymmetricLongArray) null, 0, 1, peer));
                Team world = shmem.teamWorld();
                assertNames("shmem_broadcast", NullPointerException.class, () -> world.broadcast((SymmetricLongArray) null, a, 1, 0));
                assertNames("shmem_sum_reduce", NullPointerException.class, () -> world.sumReduce((SymmetricLongArray) null, a, 1));
                assertNames("shmem_wait_until", NullPointerException.class, () -> shmem.waitUntil((SymmetricLongArray) null, 0, Cmp.EQ, 0L));
                assertNames("shmem_test", NullPointerException.class, () -> shmem.test((SymmetricLongArray) null, 0, Cmp.EQ, 0L));
                assertNames("shmem_signal_fetch", NullPointerException.class, () -> shmem.signalFetch(null, 0));
                assertNames("shmem_set_lock", NullPointerException.class, () -> shmem.setLock(null, 0));
                assertNames("shmem_ptr", NullPointerException.class, () -> shmem.ptr(null, 0));
                assertNames("shmem_team_ptr", NullPointerException.class, () -> world.ptr(null, 0));
                assertNames("shmem_test_some", IllegalArgumentException.class, () -> shmem.testSome(a, 0, 2, null, null, Cmp.EQ, 0));
                assertNames("shmem_put", IllegalArgumentException.class, () -> shmem.put(a, 0, (long[]) null, 0, 0, 99));
                a.close();
                sig.close();
            }
        });
    }

    @Test
    void errorsNameTheRoutineThatWasCalled() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                MemorySegment eight = MemorySegment.ofArray(new long[1]);
                MemorySegment big = MemorySegment.ofArray(new long[64]);
                Class<IllegalArgumentException> badPe = IllegalArgumentException.class;
                Class<IndexOutOfBoundsException> outside = IndexOutOfBoundsException.class;
                assertNames("shmem_put_signal", badPe, () -> shmem.putSignal(a, 0, new long[1], 0, 1, sig, 0, 1, SignalOp.SET, 5));
                assertNames("shmem_put_signal_nbi", badPe, () -> shmem.putSignalNbi(a, 0, new long[1], 0, 1, sig, 0, 1, SignalOp.SET, 5));
                assertNames("shmem_put_signal", outside, () -> shmem.putSignal(a, 3, new long[2], 0, 2, sig, 0, 1, SignalOp.SET, 0));
                assertNames("shmem_putmem_signal", badPe, () -> shmem.putmemSignal(a, 0, eight, sig, 0, 1, SignalOp.SET, 5));
                assertNames("shmem_putmem_signal_nbi", outside, () -> shmem.putmemSignalNbi(a, 0, big, sig, 0, 1, SignalOp.SET, 0));
                assertNames("shmem_put64_signal", outside, () -> shmem.put64Signal(a, 0, big, 64, sig, 0, 1, SignalOp.SET, 0));
                assertNames("shmem_put32_signal_nbi", badPe, () -> shmem.put32SignalNbi(a, 0, eight, 2, sig, 0, 1, SignalOp.SET, -1));
                assertNames("shmem_put_nbi", badPe, () -> shmem.putNbi(a, 0, new long[1], 0, 1, 5));
                assertNames("shmem_get_nbi", badPe, () -> shmem.getNbi(new long[1], 0, a, 0, 1, 5));
                assertNames("shmem_putmem_nbi", outside, () -> shmem.putmemNbi(a, 8, big, 0));
                assertNames("shmem_getmem_nbi", badPe, () -> shmem.getmemNbi(eight, a, 0, 5));
                assertNames("shmem_put16_nbi", outside, () -> shmem.put16Nbi(a, 0, big, 256, 0));
                assertNames("shmem_get128_nbi", badPe, () -> shmem.get128Nbi(big, a, 0, 1, 7));
                assertNames("shmem_atomic_fetch_add_nbi", badPe, () -> shmem.atomicFetchAddNbi(new long[1], 0, a, 0, 1L, 5));
                assertNames("shmem_atomic_compare_swap_nbi", outside, () -> shmem.atomicCompareSwapNbi(new long[1], 0, a, 9, 1L, 2L, 0));
                assertNames("shmem_atomic_fetch_nbi", badPe, () -> shmem.atomicFetchNbi(new long[1], 0, a, 0, -1));
                a.close();
                sig.close();
            }
        });
    }

    @Test
    void unknownAllocationHintsGiveAnOrdinaryAllocation() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricSegment any = shmem.mallocWithHints(64, -1L);
                SymmetricLongArray longs = shmem.mallocWithHints(ValueLayout.JAVA_LONG, 4, 1L << 40);
                int peer = (shmem.myPe() + 1) % shmem.nPes();
                shmem.p(longs, 1, 40L + shmem.myPe(), peer);
                shmem.putmem(any, 0, new byte[] {1, 2, 3}, 0, 3, peer);
                shmem.barrierAll();
                assertEquals(40L + (shmem.myPe() + shmem.nPes() - 1) % shmem.nPes(), longs.get(1));
                assertArrayEquals(new byte[] {1, 2, 3}, any.segment().asSlice(0, 3).toArray(ValueLayout.JAVA_BYTE));
                any.close();
                longs.close();
            }
        });
    }

    /** Spec Example 27's ring, forwarding what arrived in a symmetric buffer with putSignal. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void putSignalForwardsFromASymmetricSource(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), next = (me + 1) % n;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 16);
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                if (me == 0) {
                    for (int i = 0; i < 16; i++) {
                        data.set(i, 1000 + i);
                    }
                    shmem.putSignal(data, 0, data, 0, 16, sig, 0, 1, SignalOp.SET, next);
                    shmem.signalWaitUntil(sig, 0, Cmp.EQ, 1);
                } else {
                    shmem.signalWaitUntil(sig, 0, Cmp.EQ, 1);
                    shmem.putSignalNbi(data, 0, data, 0, 16, sig, 0, 1, SignalOp.SET, next);
                    shmem.quiet();
                }
                for (int i = 0; i < 16; i++) {
                    assertEquals(1000 + i, data.get(i), "PE " + me + " element " + i);
                }
                shmem.barrierAll();
                data.close();
                sig.close();
            }
        });
    }

    /** Signals are uint64_t: the ordering operators compare them unsigned. */
    @Test
    void signalWaitsCompareUnsigned() {
        var result = InProcessTestSupport.runWith(1, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                sig.set(0, -1L); // 2^64 - 1
                assertEquals(-1L, shmem.signalWaitUntil(sig, 0, Cmp.GT, 5)); // signed, -1 > 5 would wait forever
                sig.set(0, 3);
                assertEquals(3, shmem.signalWaitUntil(sig, 0, Cmp.LT, Long.MIN_VALUE)); // 3 < 2^63 unsigned
                assertEquals(3, shmem.signalWaitUntil(sig, 0, Cmp.LE, -2L));
                sig.set(0, Long.MIN_VALUE);
                assertEquals(Long.MIN_VALUE, shmem.signalWaitUntil(sig, 0, Cmp.GE, Long.MAX_VALUE));
                sig.close();
            }
        });
        assertEquals(0, result.status(), () -> result.failures() + " (timed out: " + result.timedOut() + ")");
    }
}
