package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Put-with-signal and the signal routines (spec 9.8): whoever sees the signal sees the whole
 * payload, for large payloads over many rounds, with SET and ADD; signalFetch; concurrent signal
 * updates; the unsigned order of signal words.
 */
@Timeout(180)
class SignalsInProcessTest {
    private static final int MIB = 1 << 20;
    private static final int ROUNDS = 8;

    private static long pattern(int round, int pe, long i) {
        return ((long) round << 40) ^ ((long) pe << 32) ^ (i * 0x9E37_79B9L);
    }

    private static void fill(MemorySegment s, int round, int pe) {
        long n = s.byteSize() / 8;
        for (long i = 0; i < n; i++) {
            s.setAtIndex(ValueLayout.JAVA_LONG, i, pattern(round, pe, i));
        }
    }

    /**
     * A ring: every PE sends 1 MiB to its right neighbour with one put-with-signal per round (the
     * four flavours in turn: putmemSignal, putmemSignalNbi, put64Signal, put64SignalNbi), waits
     * for its left neighbour's signal, checks every byte, and acknowledges with a signal of its own.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void signalImpliesTheWholeMebibytePayload(int npes) {
        for (SignalOp op : SignalOp.values()) {
            InProcessTestSupport.run(npes, () -> {
                try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
                    int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                    SymmetricSegment dest = shmem.malloc(MIB);
                    SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 2); // [0] data, [1] ack
                    MemorySegment src = arena.allocate(MIB, 8);
                    MemorySegment expect = arena.allocate(MIB, 8);
                    for (int r = 1; r <= ROUNDS; r++) {
                        fill(src, r, me);
                        long signal = op == SignalOp.SET ? r : 1;
                        switch (r % 4) {
                            case 0 -> shmem.putmemSignal(dest, 0, src, sig, 0, signal, op, right);
                            case 1 -> shmem.putmemSignalNbi(dest, 0, src, sig, 0, signal, op, right);
                            case 2 -> shmem.put64Signal(dest, 0, src, MIB / 8, sig, 0, signal, op, right);
                            default -> shmem.put64SignalNbi(dest, 0, src, MIB / 8, sig, 0, signal, op, right);
                        }
                        long seen = shmem.signalWaitUntil(sig, 0, Cmp.GE, r);
                        assertEquals(r, seen, "signal value in round " + r);
                        fill(expect, r, left);
                        long mismatch = MemorySegment.mismatch(dest.segment(), 0, MIB, expect, 0, MIB);
                        if (mismatch != -1) {
                            throw new AssertionError(op + " round " + r + ": payload differs at byte " + mismatch
                                    + " although the signal was seen");
                        }
                        shmem.quiet(); // the nbi source may be reused after quiet
                        if (op == SignalOp.SET) {
                            shmem.signalSet(sig, 1, r, left);
                        } else {
                            shmem.signalAdd(sig, 1, 1, left);
                        }
                        shmem.signalWaitUntil(sig, 1, Cmp.EQ, r); // right has read my round r
                    }
                    assertEquals(ROUNDS, shmem.signalFetch(sig, 0));
                    assertEquals(ROUNDS, shmem.signalFetch(sig, 1));
                    shmem.barrierAll();
                    sig.close();
                    dest.close();
                }
            });
        }
    }

    /**
     * Typed putSignal/putSignalNbi of long arrays of varying length: the Java source array is
     * scribbled over right after the call returns, and the receiver still sees the original data.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void typedPutSignalOfLongArrays(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                int max = 64 * 1024;
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, max);
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                long[] src = new long[max + 3];
                int rounds = 20;
                for (int r = 1; r <= rounds; r++) {
                    int count = r == rounds ? max : 1 + (int) ((long) r * 7919 % max);
                    for (int i = 0; i < count; i++) {
                        src[3 + i] = pattern(r, me, i);
                    }
                    if (r % 2 == 0) {
                        shmem.putSignal(dest, 0, src, 3, count, sig, 0, 1, SignalOp.ADD, right);
                    } else {
                        shmem.putSignalNbi(dest, 0, src, 3, count, sig, 0, 1, SignalOp.ADD, right);
                    }
                    java.util.Arrays.fill(src, -1L); // the library copied a Java source before returning
                    assertEquals(r, shmem.signalWaitUntil(sig, 0, Cmp.EQ, r));
                    for (int i = count - 1; i >= 0; i--) { // last word first: the most likely to be late
                        if (dest.get(i) != pattern(r, left, i)) {
                            throw new AssertionError("round " + r + ": element " + i + " of " + count + " is "
                                    + dest.get(i) + ", expected " + pattern(r, left, i));
                        }
                    }
                    shmem.signalAdd(sig, 1, 1, left);
                    shmem.signalWaitUntil(sig, 1, Cmp.EQ, r);
                }
                shmem.barrierAll();
                sig.close();
                dest.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void signalAddAndSetFromSeveralPes(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), k = 100;
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 3);
                for (int j = 0; j < k; j++) {
                    shmem.signalAdd(sig, 0, me + 1, 0);
                }
                shmem.signalSet(sig, 1, 1000L + me, 0);
                if (me == 0) {
                    long total = (long) k * n * (n + 1) / 2;
                    assertEquals(total, shmem.signalWaitUntil(sig, 0, Cmp.EQ, total));
                }
                shmem.barrierAll();
                if (me == 0) {
                    long last = shmem.signalFetch(sig, 1);
                    assertTrue(last >= 1000 && last < 1000 + n, "signal_set left " + last);
                    assertEquals(last, sig.get(1));
                    assertEquals(0L, shmem.signalFetch(sig, 2));
                }
                shmem.barrierAll();
                // put-with-signal ADD from everyone to PE 0's one signal, payloads in distinct slots
                SymmetricLongArray slots = shmem.calloc(ValueLayout.JAVA_LONG, n);
                shmem.putSignal(slots, me, new long[] {~(long) me}, 0, 1, sig, 2, 1L << me, SignalOp.ADD, 0);
                if (me == 0) {
                    long all = (n == 64 ? 0 : 1L << n) - 1;
                    assertEquals(all, shmem.signalWaitUntil(sig, 2, Cmp.EQ, all));
                    for (int p = 0; p < n; p++) {
                        assertEquals(~(long) p, slots.get(p));
                    }
                }
                shmem.barrierAll();
                slots.close();
                sig.close();
            }
        });
    }

    /** Signals are uint64_t: a word with the top bit set is greater than 0, GT and UGT alike. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void signalComparisonsAreUnsigned(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                shmem.barrierAll();
                shmem.signalSet(sig, 0, 0x8000_0000_0000_0001L, right);
                assertEquals(0x8000_0000_0000_0001L, shmem.signalWaitUntil(sig, 0, Cmp.GT, 0));
                assertEquals(0x8000_0000_0000_0001L, shmem.signalWaitUntil(sig, 0, Cmp.UGT, Long.MAX_VALUE));
                assertEquals(0x8000_0000_0000_0001L, shmem.signalWaitUntil(sig, 0, Cmp.GE, 0x8000_0000_0000_0000L));
                assertEquals(0x8000_0000_0000_0001L, shmem.signalWaitUntil(sig, 0, Cmp.GT, Long.MAX_VALUE));
                assertEquals(0x8000_0000_0000_0001L, shmem.signalWaitUntil(sig, 0, Cmp.NE, 0));
                // ADD wraps like uint64_t: 0 - 1 = UINT64_MAX, the largest signal value
                shmem.signalAdd(sig, 1, -1L, right);
                assertEquals(-1L, shmem.signalWaitUntil(sig, 1, Cmp.GT, 1));
                assertEquals(-1L, shmem.signalWaitUntil(sig, 1, Cmp.GE, -2L));
                shmem.signalAdd(sig, 1, 2L, me);
                assertEquals(1L, shmem.signalWaitUntil(sig, 1, Cmp.EQ, 1));
                // LT / LE: 5 is below every value with the top bit set
                shmem.signalSet(sig, 2, 5, me);
                assertEquals(5L, shmem.signalWaitUntil(sig, 2, Cmp.LT, -1L));
                assertEquals(5L, shmem.signalWaitUntil(sig, 2, Cmp.LE, 0x8000_0000_0000_0000L));
                assertEquals(5L, shmem.signalWaitUntil(sig, 2, Cmp.ULT, 6));
                assertEquals(0L, shmem.signalWaitUntil(sig, 3, Cmp.LE, 0));
                shmem.barrierAll();
                sig.close();
            }
        });
    }

    /** A receiver already blocked in signalWaitUntil wakes when the signal arrives much later. */
    @Test
    void blockedWaiterWakesOnALateSignal() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 1024);
                shmem.barrierAll();
                if (me == 1) {
                    // Only makes it likely that the waiter has reached its parking back-off; the
                    // assertions hold whenever the signal arrives.
                    Thread.sleep(300);
                    long[] payload = new long[1024];
                    java.util.Arrays.fill(payload, 77L);
                    shmem.putSignal(data, 0, payload, 0, 1024, sig, 0, 1, SignalOp.SET, 0);
                } else {
                    assertEquals(1L, shmem.signalWaitUntil(sig, 0, Cmp.EQ, 1));
                    for (int i = 0; i < 1024; i++) {
                        assertEquals(77L, data.get(i));
                    }
                }
                shmem.barrierAll();
                data.close();
                sig.close();
            }
        });
    }

    @Test
    void badSignalArguments() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray sig = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                for (int bad : new int[] {-1, 2}) {
                    Throwable t = assertThrows(IllegalArgumentException.class, () -> shmem.signalAdd(sig, 0, 1, bad));
                    assertTrue(t.getMessage().contains("shmem_signal_add"), t::toString);
                    t = assertThrows(IllegalArgumentException.class, () -> shmem.signalSet(sig, 0, 1, bad));
                    assertTrue(t.getMessage().contains("shmem_signal_set"), t::toString);
                    assertThrows(IllegalArgumentException.class,
                            () -> shmem.putSignal(data, 0, new long[1], 0, 1, sig, 0, 1, SignalOp.SET, bad));
                }
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.signalFetch(sig, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> shmem.signalAdd(sig, -1, 1, 0));
                assertThrows(IndexOutOfBoundsException.class,
                        () -> shmem.putSignal(data, 0, new long[1], 0, 1, sig, 1, 1, SignalOp.SET, 0));
                assertThrows(IllegalArgumentException.class, () -> shmem.signalWaitUntil(sig, 0, null, 0));
                shmem.barrierAll();
                assertEquals(0L, sig.get(0), "a rejected call changed the signal");
                shmem.barrierAll();
                data.close();
                sig.close();
                assertThrows(IllegalStateException.class, () -> shmem.signalFetch(sig, 0));
            }
        });
    }

}
