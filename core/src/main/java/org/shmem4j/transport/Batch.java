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
 * or get's bytes, an atomic's word size) and the offset in the destination's region (bits 20-63),
 * then a put's data padded to 8 bytes or an atomic's operand word (a get has nothing more). The
 * target applies each record after a release fence, so a waiter that sees a record's store also
 * sees every earlier record's: a fence between operations batched together costs nothing. The
 * gets' data goes back in one reply, each padded to 8 bytes, in the records' order; the sender
 * keeps their destinations ({@link #destinations()}).
 */
public final class Batch {
    static final int PUT = 1, ADD = 2, AND = 3, OR = 4, XOR = 5, SET = 6, SIGNAL = 7, GET = 8;
    private static final int KIND_BITS = 4, LENGTH_BITS = 16;
    /** Largest put a record holds, and the largest offset it names (16 TiB). */
    static final long MAX_LENGTH = (1L << LENGTH_BITS) - 1, MAX_OFFSET = (1L << (64 - KIND_BITS - LENGTH_BITS)) - 1;

    private final MemorySegment buffer;
    private final long headerBytes;
    private long used, replyBytes;
    private int records;
    private final java.util.List<MemorySegment> destinations = new java.util.ArrayList<>();
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

    /** Bytes of the reply its gets ask for (0: no gets). */
    public long replyBytes() {
        return replyBytes;
    }

    /** Where its gets' data goes, in the order of the reply; the engine takes them when it sends the batch. */
    public java.util.List<MemorySegment> destinations() {
        return destinations;
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
        replyBytes = 0;
        destinations.clear();
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

    void get(long offset, MemorySegment dst) {
        buffer.set(JAVA_LONG_UNALIGNED, headerBytes + used, word(GET, dst.byteSize(), offset));
        used += 8;
        replyBytes += (dst.byteSize() + 7) & ~7L;
        destinations.add(dst);
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
     * as CPU atomics (one atomicity domain with the node's), a signal as a release store, a get as a
     * copy into {@code reply} (its {@link #replyBytes()} long; null when it has no gets).
     *
     * @return how many operations it applied
     * @throws IllegalArgumentException for a malformed record (those before it stay applied)
     */
    public static int apply(MemorySegment region, MemorySegment records, MemorySegment reply) {
        int applied = 0;
        long replied = 0;
        for (long at = 0, end = records.byteSize(); at < end; applied++) {
            long first = records.get(JAVA_LONG_UNALIGNED, at);
            if ((first & ((1 << KIND_BITS) - 1)) == GET) {
                long length = first >>> KIND_BITS & MAX_LENGTH;
                if (reply == null || replied + length > reply.byteSize()) {
                    throw new IllegalArgumentException("a batched get of " + length + " bytes overruns its reply at byte " + at);
                }
                MemorySegment.copy(region, first >>> (KIND_BITS + LENGTH_BITS), reply, replied, length);
                replied += (length + 7) & ~7L;
                at += 8;
                continue;
            }
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
