package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.shmem4j.ShmemException;
import org.shmem4j.core.coll.DisseminationBarrier;
import org.shmem4j.core.heap.SymmetricHeap;

/**
 * The team area: what is left of every PE's reserved region after init's fixed blocks, cut into
 * equal units, from which each team takes a {@link Block} of consecutive units sized by its own
 * member count (its {@link Layout}). A team's block lies at the same offset on all its members, so
 * teams that overlap on some PE never share a unit there (the bug of SOS issue 1225 cannot happen),
 * while disjoint teams may use the same units.
 *
 * <p>Which units are free is this PE's own knowledge (a bit per unit). A new team's members agree
 * on its block with an AND of their {@linkplain #offer masks} (see {@link TeamImpl} and
 * {@link MaskAgreement}), whose first word says how many more teams each may make
 * ({@code SHMEM_TEAMS_MAX} counts the teams alive on a PE, the predefined ones included).
 *
 * <p>Memory per PE (n a team's members, r = ceil(log2 n), S the most scratch one collective
 * stages, U the unit): a team takes ceil(bytes(n) / U) units, bytes(n) = 64 max(1, r) (barrier)
 * + 2 r {@link #CELL_BYTES} (split agreement) + 2 line(n f) (flags, f = 64 bytes up to
 * {@link #LINE_FLAGS_UP_TO} members, else 8; line rounds up to 64) + (112 + K - 1) b (scratch:
 * a ring of 112 buffers of b = line(S / 16) and K - 1 after it, K = S / b rounded up, of which a
 * collective stages in up to K) + line(8 n) where 8 n &gt; K b (collect passes 8 bytes per member,
 * in a team too large for the scratch through an area of its own). The world's block at 65,536
 * PEs is about 1.7 MiB; docs/scale.md has the whole formula and its figures.
 */
final class TeamPool {
    /** Teams every PE counts from init: world, leaders (counted also where invalid), shared, host. */
    static final int PREDEFINED = 4;
    /**
     * Scratch buffers in a team's ring, used by collectives in turn (sequence number modulo this; one
     * that stages k buffers takes k numbers and k consecutive buffers, the ring's last continuing
     * into up to {@link #MAX_STAGED_BUFFERS} - 1 more after it). The slack of the push broadcast is
     * this less the buffers a collective may stage, less one (CollectiveSupport): with 112 and 16, a
     * root may run 95 one-buffer broadcasts ahead of a member. With a ring of 4 (slack 2) a run of
     * broadcasts on 4 PEs on 2 pseudo-nodes of a 2-core machine took 27-33 us per call of 1 long,
     * with 8 (slack 6) 13.6-18.9 (docs/decisions/0042); at 8 PEs on 2 pseudo-nodes slack 13 took
     * 14.5-17.9 us, slack 95 9.6-15.1 (0045).
     */
    static final int SCRATCH_BUFFERS = 112;
    /**
     * Most buffers one collective stages: {@code SHMEM_COLLECTIVE_SCRATCH} is cut into this many
     * (of a cache line at least), so that small collectives take a small part of the ring.
     */
    static final int MAX_STAGED_BUFFERS = 16;
    /** Most units an area is cut into: bounds the agreement masks (and a legacy pSync). */
    static final int MAX_UNITS = 2048;
    /** Words of an agreement mask at most: the room word and one bit per unit. */
    static final int MAX_MASK_WORDS = 1 + MAX_UNITS / 64;
    /** Bytes of one agreement cell: a mask and the word that says it arrived, on its own lines. */
    static final long CELL_BYTES = roundUp((MAX_MASK_WORDS + 1) * 8L, 64);
    /** Teams up to this size give each sender a cache line; larger ones a word, to stay O(n) small. */
    static final int LINE_FLAGS_UP_TO = 64;
    private static final long LINE = 64;
    private static final long MIN_UNIT = 4096;

    /** Units {@code [first, first + units)} of the area. */
    record Block(int first, int units) {
        boolean overlaps(Block other) {
            return first < other.first + other.units && other.first < first + units;
        }
    }

    /**
     * Where a team of {@code members} keeps its words, as offsets from its block's start: barrier
     * lines (one per dissemination round), agreement cells (two sets of one per round, for splits
     * in turn), sender and acknowledgement flags ({@code flagStride} apart), the scratch buffers,
     * then where the scratch cannot hold 8 bytes per member the collect's area for them
     * ({@code sizes}; else -1).
     */
    record Layout(int members, long barrier, long cells, int rounds, long senderFlags, long ackFlags, long flagStride,
            long scratch, long bufferBytes, int stagedBuffers, long sizes, long bytes) {
        /** Offset of the agreement cell of round {@code round} of the {@code split}-th split. */
        long cell(long split, int round) {
            return cells + ((split & 1) * rounds + round) * CELL_BYTES;
        }
    }

    private final int capacity;
    private final long base;
    private final long unit;
    private final int units;
    /** Bytes of one scratch buffer: a sixteenth of what a collective may stage, a cache line at least. */
    private final long bufferBytes;
    /** Buffers one collective may stage: together at least {@code SHMEM_COLLECTIVE_SCRATCH}. */
    private final int stagedBuffers;
    private final long[] free;
    private int teams;
    private int predefinedCursor;

    /** Takes the rest of {@code heap}'s reserved part as the team area. */
    TeamPool(SymmetricHeap heap, int capacity, long scratchBytes) {
        this.capacity = capacity;
        this.bufferBytes = roundUp((scratchBytes + MAX_STAGED_BUFFERS - 1) / MAX_STAGED_BUFFERS, LINE);
        this.stagedBuffers = (int) Math.max(1, (scratchBytes + bufferBytes - 1) / bufferBytes);
        long area = heap.reservedRemaining();
        this.unit = Math.max(MIN_UNIT, Long.highestOneBit(Math.max(1, (area + MAX_UNITS - 1) / MAX_UNITS) * 2 - 1));
        this.units = (int) (area / unit);
        this.base = heap.allocateReserved("the team area (SHMEM_TEAMS_MAX=" + capacity + ")", units * unit);
        this.free = new long[(units + 63) >>> 6];
        for (int u = 0; u < units; u++) {
            free[u >>> 6] |= 1L << u;
        }
        this.teams = PREDEFINED;
    }

    private static long roundUp(long v, long to) {
        return (v + to - 1) / to * to;
    }

    private static int rounds(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** The layout of a team of {@code n} members (the same on every PE). */
    Layout layout(int n) {
        int r = rounds(n);
        long barrier = 0;
        long cells = roundUp(DisseminationBarrier.bytesNeeded(n), LINE);
        long stride = n <= LINE_FLAGS_UP_TO ? LINE : 8;
        long senders = cells + 2 * r * CELL_BYTES;
        long acks = roundUp(senders + n * stride, LINE);
        long scratch = roundUp(acks + n * stride, LINE);
        long end = scratch + (SCRATCH_BUFFERS + stagedBuffers - 1L) * bufferBytes;
        if (8L * n <= stagedBuffers * bufferBytes) { // collect exchanges its members' sizes, 8 bytes each, in the scratch
            return new Layout(n, barrier, cells, r, senders, acks, stride, scratch, bufferBytes, stagedBuffers, -1, end);
        }
        return new Layout(n, barrier, cells, r, senders, acks, stride, scratch, bufferBytes, stagedBuffers, end,
                end + roundUp(8L * n, LINE));
    }

    /** Units a team of {@code n} members takes. */
    int unitsFor(int n) {
        return (int) ((layout(n).bytes() + unit - 1) / unit);
    }

    int capacity() {
        return capacity;
    }

    long unitBytes() {
        return unit;
    }

    int units() {
        return units;
    }

    /** Region offset of {@code block}'s first byte. */
    long start(Block block) {
        return base + block.first() * unit;
    }

    /** Words of this pool's agreement masks. */
    int maskWords() {
        return 1 + free.length;
    }

    /**
     * This PE's contribution to an agreement on blocks for new teams it joins: word 0 has bit j
     * set while it may make j + 1 more teams, the rest are its free units.
     */
    synchronized long[] offer() {
        long[] mask = new long[maskWords()];
        int room = Math.min(63, capacity - teams);
        mask[0] = room <= 0 ? 0 : -1L >>> (64 - room);
        System.arraycopy(free, 0, mask, 1, free.length);
        return mask;
    }

    /** The contribution of a PE that joins no new team: changes nothing in the AND. */
    long[] neutral() {
        long[] mask = new long[maskWords()];
        Arrays.fill(mask, -1L);
        return mask;
    }

    /** True when the AND {@code agreed} lets every member make {@code joins} more teams. */
    static boolean roomFor(long[] agreed, int joins) {
        return (agreed[0] >>> (joins - 1) & 1) != 0;
    }

    /**
     * The lowest run of {@code count} units free in {@code agreed} (an AND of offers), or -1. Marks
     * it used in {@code agreed}, so the next team placed from the same AND does not overlap it.
     */
    int claim(long[] agreed, int count) {
        int run = 0;
        for (int u = 0; u < units; u++) {
            run = (agreed[1 + (u >>> 6)] >>> u & 1) != 0 ? run + 1 : 0;
            if (run == count) {
                int first = u - count + 1;
                for (int v = first; v <= u; v++) {
                    agreed[1 + (v >>> 6)] &= ~(1L << v);
                }
                return first;
            }
        }
        return -1;
    }

    /** The block of the next predefined team of {@code n} members, taken on this PE only if it is a member. */
    synchronized Block predefined(int n, boolean member) {
        Block block = new Block(predefinedCursor, unitsFor(n));
        if (block.first() + block.units() > units) {
            throw new ShmemException("the predefined teams need " + (block.first() + block.units()) * unit
                    + " bytes of the team area but it has " + units * unit + "; raise SHMEM_RESERVED_SIZE");
        }
        predefinedCursor += block.units();
        if (member) {
            mark(block, false);
        }
        return block;
    }

    /** Takes {@code block} for a new team of this PE (agreed free on every member). */
    synchronized void take(Block block) {
        if (teams >= capacity) {
            throw new IllegalStateException("this PE has " + teams + " teams, SHMEM_TEAMS_MAX=" + capacity);
        }
        for (int u = block.first(); u < block.first() + block.units(); u++) {
            if ((free[u >>> 6] >>> u & 1) == 0) {
                throw new IllegalStateException("team area unit " + u + " is already in use on this PE");
            }
        }
        mark(block, false);
        teams++;
    }

    /**
     * Returns {@code block} after zeroing it on this PE (the team's last barrier has completed and
     * every member settled what it sent before it, so no member writes it any more; the next team
     * in these units may lay its flags where this one had scratch).
     */
    synchronized void release(Block block, MemorySegment local) {
        local.asSlice(start(block), block.units() * unit).fill((byte) 0);
        mark(block, true);
        teams--;
    }

    private void mark(Block block, boolean isFree) {
        for (int u = block.first(); u < block.first() + block.units(); u++) {
            if (isFree) {
                free[u >>> 6] |= 1L << u;
            } else {
                free[u >>> 6] &= ~(1L << u);
            }
        }
    }

    /** How many more teams this PE may make. */
    synchronized int freeTeams() {
        return capacity - teams;
    }

    /** Units free on this PE. */
    synchronized int freeUnits() {
        int n = 0;
        for (long w : free) {
            n += Long.bitCount(w);
        }
        return n;
    }
}
