package org.shmem4j.transport;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * One destination's batch: small operations of a {@code SESSION_BATCH} session (spec 9.9) written
 * one after another into native memory and sent to the destination as one message, where
 * {@link #apply} replays them in order. {@link Batches} fills and recycles them; an engine sends
 * {@link #header()} and {@link #records()}.
 *
 * <p>A record is 8-byte aligned: a word holding the kind (bits 0-3), a length (bits 4-19: a put's
 * bytes, an atomic's word size) and the offset in the destination's region (bits 20-63), then a put's
 * data padded to 8 bytes or an atomic's operand word. The target applies each record after a
 * release fence, so a waiter that sees a record's store also sees every earlier record's: a fence
 * between operations batched together costs nothing.
 */
public final class Batch {
    static final int PUT = 1, ADD = 2, AND = 3, OR = 4, XOR = 5, SET = 6, SIGNAL = 7;
    private static final int KIND_BITS = 4, LENGTH_BITS = 16;
    /** Largest put a record holds, and the largest offset it names (16 TiB). */
    static final long MAX_LENGTH = (1L << LENGTH_BITS) - 1, MAX_OFFSET = (1L << (64 - KIND_BITS - LENGTH_BITS)) - 1;

    private final MemorySegment buffer;
    private final long headerBytes;
    private long used;
    private int records;
    int pe = -1;
    long openedAt;
    boolean fenced;
    /** The open batches, oldest first ({@link Batches}). */
    Batch older, newer;

    Batch(MemorySegment buffer, long headerBytes) {
        this.buffer = buffer;
        this.headerBytes = headerBytes;
    }

    /** The destination's world rank. */
    public int pe() {
        return pe;
    }

    /** Whether a fence was issued while this batch was open: its records precede what follows it to {@link #pe()}. */
    public boolean fenced() {
        return fenced;
    }

    /** How many operations it holds. */
    public int size() {
        return records;
    }

    /** Room the engine keeps in front of the records for its message header (sent from the same memory). */
    public MemorySegment header() {
        return buffer.asSlice(0, headerBytes);
    }

    /** The records written so far. */
    public MemorySegment records() {
        return buffer.asSlice(headerBytes, used);
    }

    /** The bytes a put of {@code length} takes. */
    static long putBytes(long length) {
        return 8 + ((length + 7) & ~7L);
    }

    static final long ATOMIC_BYTES = 16;

    long room() {
        return buffer.byteSize() - headerBytes - used;
    }

    void reset() {
        used = 0;
        records = 0;
        pe = -1;
        fenced = false;
    }

    private long word(int kind, long length, long offset) {
        return offset << (KIND_BITS + LENGTH_BITS) | length << KIND_BITS | kind;
    }

    void put(long offset, MemorySegment src) {
        long at = headerBytes + used;
        long length = src.byteSize();
        buffer.set(JAVA_LONG_UNALIGNED, at, word(PUT, length, offset));
        MemorySegment.copy(src, 0, buffer, at + 8, length);
        used += putBytes(length);
        records++;
    }

    void word(int kind, int bytes, long offset, long operand) {
        long at = headerBytes + used;
        buffer.set(JAVA_LONG_UNALIGNED, at, word(kind, bytes, offset));
        buffer.set(JAVA_LONG_UNALIGNED, at + 8, operand);
        used += ATOMIC_BYTES;
        records++;
    }

    static int kind(AtomicOp op) {
        return switch (op) {
            case ADD -> ADD;
            case AND -> AND;
            case OR -> OR;
            case XOR -> XOR;
            case SWAP -> SET;
            case COMPARE_SWAP -> throw new IllegalArgumentException("a compare-and-swap fetches: it is never batched");
        };
    }

    /**
     * Replays {@code records} (a batch's, as sent) on {@code region} in order: puts as copies, atomics
     * as CPU atomics (one atomicity domain with the node's), a signal as a release store.
     *
     * @return how many operations it applied
     * @throws IllegalArgumentException for a malformed record (those before it stay applied)
     */
    public static int apply(MemorySegment region, MemorySegment records) {
        int applied = 0;
        for (long at = 0, end = records.byteSize(); at < end; applied++) {
            if (end - at < 16) {
                throw new IllegalArgumentException("a batch record cut short at byte " + at + " of " + end);
            }
            long w = records.get(JAVA_LONG_UNALIGNED, at);
            int kind = (int) (w & ((1 << KIND_BITS) - 1));
            int length = (int) (w >>> KIND_BITS & MAX_LENGTH);
            long offset = w >>> (KIND_BITS + LENGTH_BITS);
            VarHandle.releaseFence(); // the records before this one are visible first
            if (kind == PUT) {
                if (putBytes(length) > end - at) {
                    throw new IllegalArgumentException("a batched put of " + length + " bytes overruns its batch at byte " + at);
                }
                MemorySegment.copy(records, at + 8, region, offset, length);
                at += putBytes(length);
                continue;
            }
            long operand = records.get(JAVA_LONG_UNALIGNED, at + 8); // a 4-byte word's operand in its low half
            switch (kind) {
                case ADD -> CpuAtomics.apply(region, AtomicOp.ADD, length, offset, operand, 0);
                case AND -> CpuAtomics.apply(region, AtomicOp.AND, length, offset, operand, 0);
                case OR -> CpuAtomics.apply(region, AtomicOp.OR, length, offset, operand, 0);
                case XOR -> CpuAtomics.apply(region, AtomicOp.XOR, length, offset, operand, 0);
                case SET -> CpuAtomics.apply(region, AtomicOp.SWAP, length, offset, operand, 0);
                case SIGNAL -> CpuAtomics.setSignal(region, offset, operand);
                default -> throw new IllegalArgumentException("an unknown batch record kind " + kind + " at byte " + at);
            }
            at += ATOMIC_BYTES;
        }
        return applied;
    }
}
