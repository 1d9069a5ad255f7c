package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.sync.DisseminationBarrier;

/**
 * The pool of team synchronization slots ({@code SHMEM_TEAMS_MAX} of them) in every PE's reserved
 * region. Slot {@code i} is the same fixed-size block on every PE, so slots can never overlap
 * (the bug of SOS issue 1225 cannot happen by construction), and a team owns one slot on each of
 * its members. A slot holds the team's barrier words (one cache line per dissemination round), a
 * double-buffered area where members publish their free-slot masks when the team is split, the
 * collectives' flag lines (one per sender and one acknowledgement line per member)
 * and the collectives' {@link #SCRATCH_BUFFERS} scratch buffers (see {@code CollectiveSupport} for why four).
 *
 * <p>Which slots are free is this PE's own knowledge; a split agrees on a slot by AND-ing the
 * masks of the new team's members (see {@link TeamImpl}).
 */
final class TeamPool {
    static final int WORLD = 0;
    static final int SHARED = 1;
    static final int HOST = 2;
    static final int LEADERS = 3;
    private static final int PREDEFINED = 4;
    private static final long LINE = 64;
    /** Scratch buffers per slot, used by collectives in turn (sequence number modulo this). */
    static final int SCRATCH_BUFFERS = 4;

    private final int capacity;
    private final long base;
    private final long barrierBytes;
    private final long gatherBytes;
    private final int flagLines;
    private final long scratchBytes;
    private final long slotBytes;
    private final long[] free;

    TeamPool(SymmetricHeap heap, int capacity, int npes, long scratchBytes) {
        this.capacity = capacity;
        this.barrierBytes = roundUp(DisseminationBarrier.bytesNeeded(npes), LINE);
        this.gatherBytes = roundUp(maskWords() * 8L, LINE);
        this.flagLines = 2 * npes;
        this.scratchBytes = roundUp(scratchBytes, LINE);
        this.slotBytes = barrierBytes + 2 * gatherBytes + flagLines * LINE + SCRATCH_BUFFERS * this.scratchBytes;
        this.base = heap.allocateReserved("the team pool (SHMEM_TEAMS_MAX=" + capacity + ")", slotBytes * capacity);
        this.free = new long[maskWords()];
        for (int slot = PREDEFINED; slot < capacity; slot++) {
            free[slot >>> 6] |= 1L << slot;
        }
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }

    int capacity() {
        return capacity;
    }

    int maskWords() {
        return (capacity + 63) >>> 6;
    }

    /** Region offset of slot {@code slot}'s first byte. */
    long slotStart(int slot) {
        return base + slot * slotBytes;
    }

    /** Region offset just past slot {@code slot}. */
    long slotEnd(int slot) {
        return slotStart(slot) + slotBytes;
    }

    /** Region offset of the slot's barrier words. */
    long barrierOffset(int slot) {
        return slotStart(slot);
    }

    /** Region offset of the mask buffer the {@code seq}-th split of the slot's team uses. */
    long gatherOffset(int slot, long seq) {
        return slotStart(slot) + barrierBytes + (seq & 1) * gatherBytes;
    }

    /** Region offset of the flag line a collective's sender {@code sender} (team number) signals this PE on. */
    long senderFlag(int slot, int sender) {
        return flagsStart(slot) + (long) sender * LINE;
    }

    /** Region offset of the flag line on which {@code sender} acknowledges to this PE. */
    long ackFlag(int slot, int sender) {
        return flagsStart(slot) + (long) (flagLines / 2 + sender) * LINE;
    }

    private long flagsStart(int slot) {
        return slotStart(slot) + barrierBytes + 2 * gatherBytes;
    }

    /** Region offset of the slot's first collective scratch buffer (the others follow it). */
    long scratchOffset(int slot) {
        return flagsStart(slot) + flagLines * LINE;
    }

    /** Bytes in each of a slot's scratch buffers. */
    long scratchBytes() {
        return scratchBytes;
    }

    /** A copy of this PE's free-slot mask. */
    synchronized long[] freeMask() {
        return free.clone();
    }

    /** Marks {@code slot} used by a team this PE is a member of. */
    synchronized void take(int slot) {
        if ((free[slot >>> 6] & (1L << slot)) == 0) {
            throw new IllegalStateException("team slot " + slot + " is already in use on this PE");
        }
        free[slot >>> 6] &= ~(1L << slot);
    }

    /**
     * Returns {@code slot} to the pool after zeroing this PE's barrier and flag words of it (the
     * team's last barrier has completed, and every member settled what it sent before it, so no
     * member writes them any more).
     */
    synchronized void release(int slot, MemorySegment local) {
        local.asSlice(barrierOffset(slot), barrierBytes).fill((byte) 0);
        local.asSlice(flagsStart(slot), flagLines * LINE).fill((byte) 0);
        free[slot >>> 6] |= 1L << slot;
    }

    /** Number of slots free on this PE. */
    synchronized int freeCount() {
        int n = 0;
        for (long w : free) {
            n += Long.bitCount(w);
        }
        return n;
    }
}
