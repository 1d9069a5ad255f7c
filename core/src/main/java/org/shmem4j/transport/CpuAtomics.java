package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The atomic operations of spec 9.7 done by this CPU on a word of a region it maps: what the
 * mapped route does for a peer on the node, and what a message's handler does for a sender
 * elsewhere (one atomicity domain with the node's CPU atomics).
 */
public final class CpuAtomics {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private CpuAtomics() {}

    /** Applies {@code op} to the 4- or 8-byte word at {@code offset}; returns its old value, sign-extended for 4-byte words. */
    public static long apply(MemorySegment region, AtomicOp op, int bytes, long offset, long operand, long compare) {
        if (bytes == 4) {
            int v = (int) operand;
            return switch (op) {
                case ADD -> (int) INT.getAndAdd(region, offset, v);
                case AND -> (int) INT.getAndBitwiseAnd(region, offset, v);
                case OR -> (int) INT.getAndBitwiseOr(region, offset, v);
                case XOR -> (int) INT.getAndBitwiseXor(region, offset, v);
                case SWAP -> (int) INT.getAndSet(region, offset, v);
                case COMPARE_SWAP -> (int) INT.compareAndExchange(region, offset, (int) compare, v);
            };
        }
        if (bytes != 8) {
            throw new IllegalArgumentException("atomic operations are on 4- or 8-byte words, not " + bytes);
        }
        return switch (op) {
            case ADD -> (long) LONG.getAndAdd(region, offset, operand);
            case AND -> (long) LONG.getAndBitwiseAnd(region, offset, operand);
            case OR -> (long) LONG.getAndBitwiseOr(region, offset, operand);
            case XOR -> (long) LONG.getAndBitwiseXor(region, offset, operand);
            case SWAP -> (long) LONG.getAndSet(region, offset, operand);
            case COMPARE_SWAP -> (long) LONG.compareAndExchange(region, offset, compare, operand);
        };
    }

    /** Stores the 8-byte signal word at {@code offset}: a release store, so the data stored before it is visible first. */
    public static void setSignal(MemorySegment region, long offset, long value) {
        LONG.setRelease(region, offset, value);
    }

    /** Raises the word at {@code offset} to at least {@code value} (a full fence: earlier stores are visible first). */
    public static void raise(MemorySegment region, long offset, long value) {
        long current = (long) LONG.getVolatile(region, offset);
        while (current < value) {
            long witness = (long) LONG.compareAndExchange(region, offset, current, value);
            if (witness == current) {
                return;
            }
            current = witness;
        }
    }
}
