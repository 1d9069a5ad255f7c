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

    /**
     * Applies {@code op} to the 4- or 8-byte word at {@code offset}; returns its old value,
     * sign-extended for 4-byte words. If chains on purpose: a caller with a constant width and
     * operation (the typed AMOs once inlined) keeps one atomic instruction, since the JIT folds
     * comparisons with constants, where an enum switch still looks its case up at run time.
     */
    public static long apply(MemorySegment region, AtomicOp op, int bytes, long offset, long operand, long compare) {
        if (bytes == Long.BYTES) {
            return apply64(region, op, offset, operand, compare);
        }
        if (bytes != Integer.BYTES) {
            throw new IllegalArgumentException("atomic operations are on 4- or 8-byte words, not " + bytes);
        }
        int v = (int) operand;
        if (op == AtomicOp.ADD) {
            return (int) INT.getAndAdd(region, offset, v);
        } else if (op == AtomicOp.AND) {
            return (int) INT.getAndBitwiseAnd(region, offset, v);
        } else if (op == AtomicOp.OR) {
            return (int) INT.getAndBitwiseOr(region, offset, v);
        } else if (op == AtomicOp.XOR) {
            return (int) INT.getAndBitwiseXor(region, offset, v);
        } else if (op == AtomicOp.SWAP) {
            return (int) INT.getAndSet(region, offset, v);
        }
        return (int) INT.compareAndExchange(region, offset, (int) compare, v);
    }

    private static long apply64(MemorySegment region, AtomicOp op, long offset, long operand, long compare) {
        if (op == AtomicOp.ADD) {
            return (long) LONG.getAndAdd(region, offset, operand);
        } else if (op == AtomicOp.AND) {
            return (long) LONG.getAndBitwiseAnd(region, offset, operand);
        } else if (op == AtomicOp.OR) {
            return (long) LONG.getAndBitwiseOr(region, offset, operand);
        } else if (op == AtomicOp.XOR) {
            return (long) LONG.getAndBitwiseXor(region, offset, operand);
        } else if (op == AtomicOp.SWAP) {
            return (long) LONG.getAndSet(region, offset, operand);
        }
        return (long) LONG.compareAndExchange(region, offset, compare, operand);
    }

    /**
     * Updates the 8-byte signal word after its data: {@link AtomicOp#ADD} is a locked add (itself a
     * full barrier), any other (a set, {@link AtomicOp#SWAP}) a release store; either way the data
     * stored before it is visible first.
     */
    public static void updateSignal(MemorySegment region, long offset, AtomicOp op, long value) {
        if (op == AtomicOp.ADD) {
            LONG.getAndAdd(region, offset, value);
        } else {
            setSignal(region, offset, value);
        }
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
