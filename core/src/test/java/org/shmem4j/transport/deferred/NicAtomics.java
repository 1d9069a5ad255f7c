package org.shmem4j.transport.deferred;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.transport.AtomicOp;

/**
 * AMOs as a NIC does them, for the tests of {@code SHMEM_NETWORK_ATOMICS}: atomic with respect to
 * each other (one lock stands for the NIC of every in-process PE) but not to CPU atomics on the same
 * word, since the word is read, changed and written back with plain accesses and a yield between,
 * so a CPU atomic that slips in is lost. A job that mixes these with CPU atomics on one word loses
 * updates; one that sends every AMO through the network loses none.
 */
final class NicAtomics {
    private NicAtomics() {}

    private static final ReentrantLock NIC = new ReentrantLock();

    /** Applies {@code op} to the 4- or 8-byte word at {@code offset} of {@code region}; returns its old value. */
    static long apply(MemorySegment region, AtomicOp op, int bytes, long offset, long operand, long compare) {
        NIC.lock();
        try {
            long old = bytes == 4 ? region.get(ValueLayout.JAVA_INT, offset) : region.get(ValueLayout.JAVA_LONG, offset);
            long updated = switch (op) {
                case ADD -> old + operand;
                case AND -> old & operand;
                case OR -> old | operand;
                case XOR -> old ^ operand;
                case SWAP -> operand;
                case COMPARE_SWAP -> (bytes == 4 ? (int) old == (int) compare : old == compare) ? operand : old;
            };
            Thread.yield(); // the window in which a CPU atomic on the word is lost
            if (bytes == 4) {
                region.set(ValueLayout.JAVA_INT, offset, (int) updated);
            } else {
                region.set(ValueLayout.JAVA_LONG, offset, updated);
            }
            return old;
        } finally {
            NIC.unlock();
        }
    }
}
