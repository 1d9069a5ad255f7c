package org.shmem4j.transport;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Batches without a network: an engine that applies each batch to the destination's region when
 * it is sent (or, holding its handle, when the test completes it), so what the targets see can be
 * held against the same operations done directly.
 */
class BatchesTest {
    private static final long HEADER = 48;
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void close() {
        arena.close();
    }

    /** Applies batches to {@code regions}; with {@code hold}, keeps each send in flight until {@link #completeAll}. */
    private final class Targets implements Batches.Engine<Integer> {
        final MemorySegment[] regions;
        final boolean hold;
        final List<String> log = new ArrayList<>();
        final List<Integer> inFlight = new ArrayList<>();
        int awaited;

        Targets(int npes, long bytes, boolean hold) {
            regions = new MemorySegment[npes];
            for (int pe = 0; pe < npes; pe++) {
                regions[pe] = arena.allocate(bytes, 8);
            }
            this.hold = hold;
        }

        @Override
        public Integer send(Batch batch) {
            assertEquals(HEADER, batch.header().byteSize());
            MemorySegment reply = batch.replyBytes() == 0 ? null : arena.allocate(batch.replyBytes(), 8);
            int applied = Batch.apply(regions[batch.pe()], batch.records(), reply);
            assertEquals(batch.size(), applied);
            long at = 0;
            for (MemorySegment dst : batch.destinations()) { // what the engine does when the reply arrives
                MemorySegment.copy(reply, at, dst, 0, dst.byteSize());
                at += (dst.byteSize() + 7) & ~7L;
            }
            log.add(batch.pe() + ":" + applied + (batch.fenced() ? "f" : ""));
            if (!hold) {
                return null;
            }
            inFlight.add(log.size());
            return log.size();
        }

        @Override
        public boolean completed(Integer handle) {
            return !inFlight.contains(handle);
        }

        @Override
        public void await(Integer handle) {
            awaited++;
            inFlight.remove(handle);
        }
    }

    private Batches<Integer> batches(Targets t, int batchBytes, long memory) {
        return new Batches<>(t.regions.length, new Batches.Limits(batchBytes, memory, Long.MAX_VALUE), HEADER,
                bytes -> arena.allocate(bytes, 8), t);
    }

    private static MemorySegment longs(long... values) {
        return MemorySegment.ofArray(values);
    }

    @Test
    void randomOperationsReachTheirTargetsAsIfDoneDirectly() {
        int npes = 5;
        long bytes = 4096;
        Targets t = new Targets(npes, bytes, false);
        MemorySegment[] expected = new MemorySegment[npes];
        for (int pe = 0; pe < npes; pe++) {
            expected[pe] = arena.allocate(bytes, 8);
        }
        Batches<Integer> b = batches(t, 512, 1 << 20);
        b.start(Long.MAX_VALUE);
        Random random = new Random(7);
        AtomicOp[] ops = {AtomicOp.ADD, AtomicOp.AND, AtomicOp.OR, AtomicOp.XOR, AtomicOp.SWAP};
        for (int i = 0; i < 20_000; i++) {
            int pe = random.nextInt(npes);
            long offset = 8L * random.nextInt((int) (bytes / 8) - 8);
            switch (random.nextInt(4)) {
                case 0 -> {
                    MemorySegment src = longs(random.nextLong(), random.nextLong(), random.nextLong()).asSlice(0, 1 + random.nextInt(24));
                    assertTrue(b.put(pe, offset, src));
                    MemorySegment.copy(src, 0, expected[pe], offset, src.byteSize());
                }
                case 1 -> {
                    AtomicOp op = ops[random.nextInt(ops.length)];
                    long operand = random.nextLong();
                    assertTrue(b.atomic(pe, op, 8, offset, operand));
                    CpuAtomics.apply(expected[pe], op, 8, offset, operand, 0);
                }
                case 2 -> {
                    AtomicOp op = ops[random.nextInt(ops.length)];
                    long operand = random.nextLong();
                    assertTrue(b.atomic(pe, op, 4, offset + 4, operand));
                    CpuAtomics.apply(expected[pe], op, 4, offset + 4, operand, 0);
                }
                default -> {
                    boolean add = random.nextBoolean();
                    long signal = random.nextLong();
                    MemorySegment src = longs(random.nextLong());
                    assertTrue(b.putSignal(pe, offset, src, offset + 8, signal, add ? AtomicOp.ADD : AtomicOp.SWAP));
                    MemorySegment.copy(src, 0, expected[pe], offset, 8);
                    if (add) {
                        CpuAtomics.apply(expected[pe], AtomicOp.ADD, 8, offset + 8, signal, 0);
                    } else {
                        expected[pe].set(JAVA_LONG, offset + 8, signal);
                    }
                }
            }
        }
        Batches.Counts counts = b.stop();
        assertFalse(b.anyOpen());
        for (int pe = 0; pe < npes; pe++) {
            assertArrayEquals(expected[pe].toArray(JAVA_LONG), t.regions[pe].toArray(JAVA_LONG), "PE " + pe);
        }
        assertEquals(20_000, counts.ops());
        assertEquals(t.log.size(), counts.batches());
        assertTrue(counts.batches() > 20_000 / 40, "512-byte batches hold at most 29 operations: " + counts.batches());
    }

    @Test
    void aBatchLeavesWhenFullAtSendAndAtTheSessionsTotal() {
        Targets t = new Targets(2, 1024, false);
        Batches<Integer> b = batches(t, 256, 1 << 20); // (256 - 48) / 16 = 13 atomics
        b.start(Long.MAX_VALUE);
        for (int i = 0; i < 14; i++) {
            b.atomic(1, AtomicOp.ADD, 8, 0, 1);
        }
        assertEquals(List.of("1:13"), t.log);
        b.atomic(0, AtomicOp.ADD, 8, 0, 1);
        b.send(0);
        assertEquals(List.of("1:13", "0:1"), t.log);
        b.start(3); // a session that expects 3 operations sends them after the third
        b.atomic(0, AtomicOp.ADD, 8, 0, 1);
        b.atomic(0, AtomicOp.ADD, 8, 0, 1);
        assertEquals(2, t.log.size());
        b.atomic(0, AtomicOp.ADD, 8, 0, 1);
        assertEquals(List.of("1:13", "0:1", "1:1", "0:3"), t.log);
        assertEquals(14, t.regions[1].get(JAVA_LONG, 0));
        assertEquals(4, t.regions[0].get(JAVA_LONG, 0));
    }

    @Test
    void getsReadAfterTheRecordsBeforeThemAndTheirRepliesFitABatch() {
        Targets t = new Targets(2, 4096, false);
        for (int i = 0; i < 512; i++) {
            t.regions[1].set(JAVA_LONG, 8L * i, 1000 + i);
        }
        Batches<Integer> b = batches(t, 256, 1 << 20); // a reply of at most 208 bytes: 26 8-byte gets
        b.start(Long.MAX_VALUE);
        long[] into = new long[40];
        byte[] odd = new byte[3];
        b.put(1, 8, longs(-1));
        for (int i = 0; i < into.length; i++) {
            assertTrue(b.get(1, 8L * i, MemorySegment.ofArray(into).asSlice(8L * i, 8)));
        }
        assertTrue(b.get(1, 16, MemorySegment.ofArray(odd)));
        b.sendAll();
        assertEquals(1000, into[0]);
        assertEquals(-1, into[1], "a get reads after the put batched before it");
        for (int i = 2; i < into.length; i++) {
            assertEquals(1000 + i, into[i]);
        }
        assertArrayEquals(new byte[] {(byte) 1002, (byte) (1002 >> 8), 0}, odd);
        for (String sent : t.log) {
            assertTrue(Integer.parseInt(sent.split(":")[1]) <= 27, "one batch's reply outgrew it: " + t.log);
        }
    }

    @Test
    void aFenceMarksTheOpenBatchesOnly() {
        Targets t = new Targets(3, 1024, false);
        Batches<Integer> b = batches(t, 1024, 1 << 20);
        b.start(Long.MAX_VALUE);
        b.put(0, 0, longs(1));
        b.put(1, 0, longs(1));
        b.fence();
        b.put(2, 0, longs(1));
        b.sendAll();
        assertEquals(List.of("0:1f", "1:1f", "2:1"), t.log);
    }

    @Test
    void batchesOlderThanTheDelayLeave() {
        Targets t = new Targets(2, 1024, false);
        Batches<Integer> b = new Batches<>(2, new Batches.Limits(1024, 1 << 20, 1_000_000), HEADER,
                bytes -> arena.allocate(bytes, 8), t);
        b.start(Long.MAX_VALUE);
        b.put(0, 0, longs(1));
        long opened = System.nanoTime();
        assertFalse(b.sendAged(opened - 1_000_000)); // younger than the delay
        assertTrue(b.anyOpen());
        assertTrue(b.sendAged(opened + 2_000_000));
        assertEquals(List.of("0:1"), t.log);
    }

    @Test
    void memoryIsBoundedAndReusedAfterSendsComplete() {
        Targets t = new Targets(8, 1024, true);
        Batches<Integer> b = batches(t, 256, 512); // room for two batches only
        b.start(Long.MAX_VALUE);
        for (int pe = 0; pe < 8; pe++) {
            b.atomic(pe, AtomicOp.ADD, 8, 0, 1);
        }
        // each new destination past the second sent the oldest open batch and awaited its send
        assertEquals(6, t.log.size());
        assertEquals(6, t.awaited);
        t.inFlight.clear();
        b.sendAll();
        b.reclaim();
        for (int pe = 0; pe < 8; pe++) {
            assertEquals(1, t.regions[pe].get(JAVA_LONG, 0));
        }
    }

    @Test
    void operationsABatchCannotHoldAreDeclined() {
        Targets t = new Targets(2, 1 << 16, false);
        Batches<Integer> b = batches(t, 1024, 1 << 20);
        assertFalse(b.put(0, 0, longs(1)), "not started");
        b.start(Long.MAX_VALUE);
        assertFalse(b.put(0, 0, MemorySegment.ofArray(new byte[(1024 - 48) / 8 + 1])), "a put over an eighth of a batch");
        assertTrue(b.put(0, 0, MemorySegment.ofArray(new byte[(1024 - 48) / 8])));
        assertFalse(b.atomic(0, AtomicOp.COMPARE_SWAP, 8, 0, 1));
        assertFalse(b.atomic(0, AtomicOp.ADD, 8, Batch.MAX_OFFSET + 1, 1));
        b.stop();
        assertFalse(b.active());
        assertFalse(b.anyOpen());
        assertFalse(b.atomic(0, AtomicOp.ADD, 8, 0, 1), "stopped");
        assertThrows(IllegalArgumentException.class, () -> batches(t, 64, 1 << 20));
    }

    @Test
    void malformedRecordsAreRefused() {
        MemorySegment region = arena.allocate(64, 8);
        MemorySegment unknownKind = longs(15, 0);
        assertThrows(IllegalArgumentException.class, () -> Batch.apply(region, unknownKind, null));
        MemorySegment overrun = longs(64L << 4 | 1, 0); // a put of 64 bytes with 8 present
        assertThrows(IllegalArgumentException.class, () -> Batch.apply(region, overrun, null));
        MemorySegment cut = longs(1).asSlice(0, 8);
        assertThrows(IllegalArgumentException.class, () -> Batch.apply(region, cut, null));
        assertEquals(0, region.get(JAVA_INT, 0));
    }
}
