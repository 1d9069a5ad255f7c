package org.shmem4j.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link Channel} contract as tests every transport runs: each implementation's test class
 * extends this one and supplies a {@link Fixture} of a few PEs with their regions. PE 0 issues;
 * the tests read the targets' regions locally, as the target PE itself would.
 */
@Timeout(120)
public abstract class ChannelContract {
    protected static final long REGION = 1 << 20;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** A few PEs, each with a region of {@link #REGION} bytes and a channel of its own. */
    public interface Fixture extends AutoCloseable {
        int npes();

        /** The channel PE {@code pe} issues on. */
        Channel channel(int pe);

        /** PE {@code pe}'s own region, as it reads it locally. */
        MemorySegment region(int pe);

        @Override
        void close();
    }

    protected abstract Fixture open(int npes);

    private Fixture f;
    private Channel ch;
    private final Arena arena = Arena.ofShared();

    @BeforeEach
    void setUp() {
        f = open(3);
        ch = f.channel(0);
    }

    @AfterEach
    void tearDown() {
        f.close();
        arena.close();
    }

    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private byte[] read(int pe, long offset, int n) {
        return f.region(pe).asSlice(offset, n).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void putFromHeapAndNativeIsDeliveredByQuiet() {
        for (int n : new int[] {1, 8, 4096, (int) REGION / 2}) {
            byte[] data = pattern(n, n);
            ch.put(1, 0, MemorySegment.ofArray(data));
            MemorySegment nat = arena.allocate(n);
            nat.copyFrom(MemorySegment.ofArray(pattern(n, n + 1)));
            ch.put(2, 64, nat);
            ch.quiet();
            assertArrayEquals(data, read(1, 0, n), "heap source, " + n + " bytes");
            assertArrayEquals(pattern(n, n + 1), read(2, 64, n), "native source, " + n + " bytes");
        }
    }

    @Test
    void putNbiCopiesAHeapSourceBeforeReturning() {
        byte[] data = pattern(65536, 7);
        ch.putNbi(1, 128, MemorySegment.ofArray(data));
        java.util.Arrays.fill(data, (byte) 0);
        ch.quiet();
        assertArrayEquals(pattern(65536, 7), read(1, 128, 65536));
    }

    /**
     * Many non-blocking operations on Java arrays between two quiets (more than a transport may
     * stage in one region), and again after the quiet that reclaimed their staging.
     */
    @Test
    void manyNbiOperationsOnHeapArraysAllCompleteByQuiet() {
        int count = 80, n = 8192; // 640 KiB each way
        for (int round = 0; round < 2; round++) {
            byte[][] later = new byte[count][];
            for (int i = 0; i < count; i++) {
                byte[] data = pattern(n, i + round);
                ch.putNbi(1, (long) i * n, MemorySegment.ofArray(data));
                java.util.Arrays.fill(data, (byte) 0);
                f.region(2).asSlice((long) i * n, n).copyFrom(MemorySegment.ofArray(pattern(n, 3 * i + round)));
                later[i] = new byte[n];
                ch.getNbi(MemorySegment.ofArray(later[i]), 2, (long) i * n);
            }
            ch.quiet();
            for (int i = 0; i < count; i++) {
                assertArrayEquals(pattern(n, i + round), read(1, (long) i * n, n), "round " + round + ", put " + i);
                assertArrayEquals(pattern(n, 3 * i + round), later[i], "round " + round + ", get " + i);
            }
        }
    }

    /** Sets and adds are not awaited one by one: many in a row (unordered without a fence), then quiet, leave every value and the full sum. */
    @Test
    void manyNonFetchingSetsAndAddsCompleteByQuiet() {
        for (int i = 0; i < 1000; i++) {
            ch.atomic(AtomicOp.SWAP, 8, 1, 4096 + 8L * i, i + 1);
            ch.atomic(AtomicOp.ADD, 8, 2, 2048, i + 1);
        }
        ch.quiet();
        for (int i = 0; i < 1000; i++) {
            assertEquals(i + 1, load(1, 4096 + 8L * i, 8), "word " + i);
        }
        assertEquals(500_500, load(2, 2048, 8));
    }

    @Test
    void getsReturnOrDeliverByQuiet() {
        f.region(1).asSlice(256, 4096).copyFrom(MemorySegment.ofArray(pattern(4096, 3)));
        byte[] heap = new byte[4096];
        ch.get(MemorySegment.ofArray(heap), 1, 256);
        assertArrayEquals(pattern(4096, 3), heap);
        byte[] later = new byte[4096];
        MemorySegment nat = arena.allocate(4096);
        ch.getNbi(MemorySegment.ofArray(later), 1, 256);
        ch.getNbi(nat, 1, 256);
        ch.quiet();
        assertArrayEquals(pattern(4096, 3), later);
        assertArrayEquals(pattern(4096, 3), nat.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void everyAtomicOnBothWidthsReturnsTheOldValueAndLeavesTheNewOne() {
        for (int bytes : new int[] {4, 8}) {
            long base = bytes == 4 ? 0xFFFF_FFF0L : 0x8000_0000_0000_00F0L;
            for (AtomicOp op : AtomicOp.values()) {
                long off = 512;
                store(1, off, bytes, base);
                long operand = 0x5A, compare = base;
                long old = ch.fetchingAtomic(op, bytes, 1, off, operand, compare);
                ch.quiet();
                assertEquals(widen(base, bytes), old, op + " " + bytes);
                assertEquals(widen(expected(op, base, operand, compare), bytes), load(1, off, bytes), op + " " + bytes);
                old = ch.fetchingAtomic(AtomicOp.COMPARE_SWAP, bytes, 1, off, 1, compare ^ 1); // fails
                assertEquals(load(1, off, bytes), old);
            }
        }
    }

    @Test
    void nonFetchingAndNbiFetchingAtomicsCompleteByQuiet() {
        store(2, 1024, 8, 10);
        store(2, 1032, 4, -3);
        for (int i = 0; i < 100; i++) {
            ch.atomic(AtomicOp.ADD, 8, 2, 1024, 1);
            ch.atomic(AtomicOp.ADD, 4, 2, 1032, -1);
        }
        long[] fetched = new long[1];
        MemorySegment heapResult = MemorySegment.ofArray(fetched);
        ch.fence(); // AMOs to one PE are only ordered by a fence (spec 9.12.1)
        ch.fetchingAtomicNbi(heapResult, AtomicOp.ADD, 8, 2, 1024, 5, 0);
        ch.quiet();
        assertEquals(115, load(2, 1024, 8));
        assertEquals(-103, load(2, 1032, 4));
        assertEquals(110, fetched[0]);
    }

    /** Small payloads travel with their signal (one message on a network), large ones separately. */
    @ParameterizedTest
    @ValueSource(ints = {0, 8, 4096, 16384})
    void aSignalIsNeverSeenBeforeItsData(int n) throws InterruptedException {
        int rounds = 200; // < 256: a round's byte value is its number
        long data = 4096, sig = 2048;
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread target = Thread.ofPlatform().start(() -> {
            MemorySegment r = f.region(1);
            long seen = 0;
            while (seen < rounds) {
                long s = (long) LONG.getAcquire(r, sig);
                if (s > seen) {
                    seen = s;
                    // payloads only grow (round k writes k), so seeing signal s means data >= s
                    for (long i = 0; i < n; i += 512) {
                        if ((r.get(ValueLayout.JAVA_BYTE, data + i) & 0xFF) < s && wrong.get() == null) {
                            wrong.set("signal " + s + " seen before byte " + i + " of its data");
                        }
                    }
                }
                Thread.onSpinWait();
            }
        });
        byte[] payload = new byte[n];
        for (int k = 1; k <= rounds; k++) {
            java.util.Arrays.fill(payload, (byte) k);
            boolean add = k % 2 == 0;
            AtomicOp update = add ? AtomicOp.ADD : AtomicOp.SWAP;
            if (k % 3 == 0) {
                ch.putSignalNbi(1, data, MemorySegment.ofArray(payload), sig, add ? 1 : k, update);
            } else {
                ch.putSignal(1, data, MemorySegment.ofArray(payload), sig, add ? 1 : k, update);
            }
            ch.quiet(1); // the next payload may only overwrite a delivered one
        }
        target.join(60_000);
        assertEquals(null, wrong.get());
    }

    /** A signal is set (SWAP) or added (ADD); any other operation is refused, named with the routine, and nothing is sent. */
    @Test
    void aSignalIsUpdatedOnlyBySetOrAdd() {
        MemorySegment word = MemorySegment.ofArray(new long[] {7});
        for (AtomicOp op : new AtomicOp[] {AtomicOp.AND, AtomicOp.OR, AtomicOp.XOR, AtomicOp.COMPARE_SWAP}) {
            String set = assertThrows(IllegalArgumentException.class, () -> ch.putSignal(1, 8192, word, 2048, 1, op)).getMessage();
            assertTrue(set.startsWith("put_signal:") && set.endsWith(" " + op), set);
            String nbi = assertThrows(IllegalArgumentException.class, () -> ch.putSignalNbi(1, 8192, word, 2048, 1, op)).getMessage();
            assertTrue(nbi.startsWith("put_signal_nbi:") && nbi.endsWith(" " + op), nbi);
        }
        ch.quiet();
        assertEquals(0L, (long) LONG.getAcquire(f.region(1), 8192L), "a refused put with signal put nothing");
    }

    @Test
    void aRaiseComesAfterThePutsBeforeItAndItsDataAndKeepsTheLargestValue() {
        MemorySegment none = MemorySegment.ofArray(new byte[0]);
        // above what a network sends in one message (UCX: two messages ahead of the raise; a put the raise flushes)
        byte[][] large = {new byte[12000], new byte[40000]};
        for (int i = 1; i <= 300; i++) {
            ch.put(1, 8192, MemorySegment.ofArray(new long[] {i}));
            ch.putRaise(1, 0, none, 2048, i);
            ch.putRaise(1, 8256, MemorySegment.ofArray(new long[] {i, i}), 2056, i);
            ch.putRaise(1, 0, none, 2056, i - 1); // smaller: changes nothing, however it is delivered
            if (i % 50 == 0) {
                for (int k = 0; k < large.length; k++) {
                    java.util.Arrays.fill(large[k], (byte) (i / 50));
                    ch.putRaise(1, 16384 + 65536L * k, MemorySegment.ofArray(large[k]), 2064 + 8 * k, i / 50);
                }
            }
            long raised = (long) LONG.getAcquire(f.region(1), 2056L);
            long itsData = (long) LONG.getAcquire(f.region(1), 8264L);
            assertEquals(true, raised < i || itsData >= i, "round " + i + ": raise " + raised + " before its data " + itsData);
            long flag = (long) LONG.getAcquire(f.region(1), 2048L);
            long earlier = (long) LONG.getAcquire(f.region(1), 8192L);
            assertEquals(true, flag < i || earlier >= i, "round " + i + ": raise " + flag + " before the put " + earlier);
            for (int k = 0; k < large.length; k++) {
                long largeFlag = (long) LONG.getAcquire(f.region(1), 2064L + 8 * k);
                for (int at : new int[] {0, 8191, 8192, 11999, large[k].length - 1}) { // each part, wherever it is cut
                    byte got = f.region(1).get(ValueLayout.JAVA_BYTE, 16384 + 65536L * k + at);
                    assertEquals(true, largeFlag <= got, "round " + i + ": raise " + largeFlag + " before its data of "
                            + large[k].length + " bytes at " + at + ": " + got);
                }
            }
        }
        // raises complete without quiet (their receivers wait for them), and quiet need not complete them
        ch.quiet();
        awaitValue(1, 2048L, 300L);
        awaitValue(1, 2056L, 300L);
        awaitValue(1, 2064L, 6L);
        awaitValue(1, 2072L, 6L);
    }

    /** settle completes raises, which quiet does not: the words hold their last values when it returns. */
    @Test
    void settleCompletesRaisesToThePesNamed() {
        MemorySegment none = MemorySegment.ofArray(new byte[0]);
        for (int round = 1; round <= 20; round++) {
            for (int i = 1; i <= 30; i++) {
                long v = 100L * round + i;
                ch.putRaise(1, 0, none, 2048, v);
                ch.putRaise(2, 8192, MemorySegment.ofArray(new long[] {v}), 2048, v);
            }
            ch.settle(new int[] {1, 2});
            assertEquals(100L * round + 30, (long) LONG.getAcquire(f.region(1), 2048L), "round " + round + " at PE 1");
            assertEquals(100L * round + 30, (long) LONG.getAcquire(f.region(2), 2048L), "round " + round + " at PE 2");
            assertEquals(100L * round + 30, (long) LONG.getAcquire(f.region(2), 8192L), "round " + round + ": PE 2's data");
        }
    }

    /** Waits, progressing the channel, until the word at {@code offset} on {@code pe} holds {@code expected} (the class's timeout bounds it). */
    private void awaitValue(int pe, long offset, long expected) {
        while ((long) LONG.getAcquire(f.region(pe), offset) != expected) {
            if (!ch.progress()) {
                Thread.yield();
            }
        }
    }

    @Test
    void fenceOrdersPutsWithSignalAndPutsBothWays() {
        for (int i = 1; i <= 300; i++) {
            ch.putSignalNbi(1, 8192, MemorySegment.ofArray(new long[] {i}), 2048, i, AtomicOp.SWAP);
            ch.fence();
            ch.putNbi(1, 8200, MemorySegment.ofArray(new long[] {i}));
            ch.fence();
            if (i % 2 == 0) {
                ch.putSignalNbi(1, 8208, MemorySegment.ofArray(new long[] {i}), 2056, i, AtomicOp.SWAP);
            } else {
                ch.putSignal(1, 8208, MemorySegment.ofArray(new long[] {i}), 2056, i, AtomicOp.SWAP);
            }
            long third = (long) LONG.getAcquire(f.region(1), 8208L);
            long second = (long) LONG.getAcquire(f.region(1), 8200L);
            long first = (long) LONG.getAcquire(f.region(1), 8192L);
            assertEquals(true, third < i || second >= i, "round " + i + ": put-with-signal overtook the put before it");
            assertEquals(true, second < i || first >= i, "round " + i + ": put overtook the put-with-signal before it");
        }
        ch.quiet();
        assertEquals(300L, (long) LONG.getAcquire(f.region(1), 2056L));
        assertEquals(300L, (long) LONG.getAcquire(f.region(1), 8208L));
    }

    @Test
    void fenceOrdersDeliveriesToOnePe() {
        for (int i = 1; i <= 500; i++) {
            ch.put(1, 8192, MemorySegment.ofArray(new long[] {i}));
            ch.fence();
            ch.putNbi(1, 8200, MemorySegment.ofArray(new long[] {i}));
            ch.fence();
            // whenever the second word shows i, the first shows at least i
            long second = (long) LONG.getAcquire(f.region(1), 8200L);
            long first = (long) LONG.getAcquire(f.region(1), 8192L);
            if (second == i) {
                assertEquals(true, first >= i, "round " + i);
            }
        }
        ch.quiet();
    }

    private void store(int pe, long off, int bytes, long v) {
        if (bytes == 4) {
            f.region(pe).set(ValueLayout.JAVA_INT, off, (int) v);
        } else {
            f.region(pe).set(ValueLayout.JAVA_LONG, off, v);
        }
        VarHandle.fullFence();
    }

    private long load(int pe, long off, int bytes) {
        VarHandle.fullFence();
        return bytes == 4 ? f.region(pe).get(ValueLayout.JAVA_INT, off) : f.region(pe).get(ValueLayout.JAVA_LONG, off);
    }

    private static long widen(long v, int bytes) {
        return bytes == 4 ? (long) (int) v : v;
    }

    private static long expected(AtomicOp op, long old, long operand, long compare) {
        return switch (op) {
            case ADD -> old + operand;
            case AND -> old & operand;
            case OR -> old | operand;
            case XOR -> old ^ operand;
            case SWAP -> operand;
            case COMPARE_SWAP -> old == compare ? operand : old;
        };
    }
}
