package org.shmem4j.core.heap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Deterministic best-fit allocator for the offsets of one symmetric heap {@code [0, capacity)}.
 *
 * <p>OpenSHMEM allocation is collective: every PE issues the same sequence of allocate, free and
 * reallocate calls and must obtain the same offsets. This class is therefore a pure function of the
 * call sequence: decisions depend only on sizes and offsets held in sorted maps, never on identity
 * hashes, time, randomness or hash-map iteration order.
 *
 * <p>Every block starts on a {@value #GRANULE}-byte boundary and every size is rounded up to a
 * multiple of {@value #GRANULE}, so no two objects share a cache line. Placement is best fit: the
 * smallest free block that can hold the (aligned) request, ties broken by the lowest offset; the
 * leading and trailing remainders go back to the free set. Freed blocks coalesce with free
 * neighbours, so the free set never holds two adjacent blocks.
 *
 * <p>The allocator only hands out offsets; it never touches memory. It is <strong>not
 * thread-safe</strong>: the runtime serialises calls under its heap lock.
 */
public final class SymmetricAllocator {

    /** Granularity of block starts and sizes in bytes (one cache line). */
    public static final long GRANULE = 64;

    /** A block of the heap: {@code [offset, offset + size)}. */
    public record Block(long offset, long size) {
        /** The first offset past the block. */
        public long end() {
            return offset + size;
        }
    }

    /**
     * A snapshot of the heap's occupancy. {@link #toString()} reads like
     * {@code "65536 free (largest free block 65536) of 33554432"} so a caller can write
     * {@code "heap exhausted: requested " + n + " bytes, " + stats}.
     *
     * @param capacity         heap size in bytes
     * @param bytesInUse       sum of the (rounded) sizes of live blocks
     * @param bytesFree        {@code capacity - bytesInUse}
     * @param largestFreeBlock size of the largest free block, 0 if none
     * @param liveBlocks       number of live blocks
     */
    public record Stats(long capacity, long bytesInUse, long bytesFree, long largestFreeBlock,
                        long liveBlocks) {
        @Override
        public String toString() {
            return bytesFree + " free (largest free block " + largestFreeBlock + ") of " + capacity;
        }
    }

    // Best fit needs "smallest size, then lowest offset"; the offset tie-break also makes the order total.
    private static final Comparator<Block> BY_SIZE_THEN_OFFSET =
            Comparator.comparingLong(Block::size).thenComparingLong(Block::offset);

    private final long capacity;
    /** Free blocks by start offset: finds neighbours when coalescing. */
    private final TreeMap<Long, Long> freeByOffset = new TreeMap<>();
    /** The same free blocks by (size, offset): finds the best fit. */
    private final TreeSet<Block> freeBySize = new TreeSet<>(BY_SIZE_THEN_OFFSET);
    /** Live blocks by start offset, with their rounded sizes. */
    private final TreeMap<Long, Long> live = new TreeMap<>();
    private long bytesInUse;

    /**
     * Creates an allocator whose whole heap is one free block.
     *
     * @param capacity heap size in bytes; non-negative multiple of {@value #GRANULE}
     * @throws IllegalArgumentException if {@code capacity} is negative or not a multiple of {@value #GRANULE}
     */
    public SymmetricAllocator(long capacity) {
        if (capacity < 0 || capacity % GRANULE != 0) {
            throw new IllegalArgumentException(
                    "symmetric heap capacity must be a non-negative multiple of " + GRANULE
                            + ": capacity=" + capacity);
        }
        this.capacity = capacity;
        if (capacity > 0) {
            addFree(0, capacity);
        }
    }

    /** Heap size in bytes. */
    public long capacity() {
        return capacity;
    }

    /**
     * Allocates a block of at least {@code size} bytes starting at a multiple of
     * {@code max(alignment, 64)}.
     *
     * <p>Cost: O(log n) for the default alignment. For larger alignments the search may also
     * visit free blocks that are big enough but cannot host the aligned start; it stops at the
     * first block of at least {@code size + alignment - 64} bytes, which always fits.
     *
     * @param size      requested bytes, positive (the caller handles size 0)
     * @param alignment required alignment of the start, a power of two
     * @return the offset of the new block, or -1 if no free block fits (state is then unchanged)
     * @throws IllegalArgumentException if {@code size <= 0} or {@code alignment} is not a power of two
     */
    public long allocate(long size, long alignment) {
        requirePositiveSize(size);
        requirePowerOfTwo(alignment);
        if (size > capacity) {
            return -1; // also keeps the rounding below from overflowing
        }
        long rounded = roundUp(size);
        long align = Math.max(alignment, GRANULE);
        Block fit = bestFit(rounded, align);
        if (fit == null) {
            return -1;
        }
        long start = alignUp(fit.offset(), align);
        removeFree(fit);
        // fit was coalesced, so its neighbours are live: the remainders need no merging.
        if (start > fit.offset()) {
            addFree(fit.offset(), start - fit.offset());
        }
        long end = start + rounded;
        if (end < fit.end()) {
            addFree(end, fit.end() - end);
        }
        markLive(start, rounded);
        return start;
    }

    /**
     * Allocates with the default {@value #GRANULE}-byte alignment.
     *
     * @see #allocate(long, long)
     */
    public long allocate(long size) {
        return allocate(size, GRANULE);
    }

    /**
     * Returns a live block to the free set, merging it with free neighbours.
     *
     * @param offset the start of a live block
     * @throws IllegalArgumentException if {@code offset} is not the start of a live block
     *                                  (including a second free of the same block)
     */
    public void free(long offset) {
        long size = requireLive(offset);
        live.remove(offset);
        bytesInUse -= size;
        addFreeCoalescing(offset, size);
    }

    /**
     * Resizes a live block. Shrinking always happens in place, and so does growing when the block
     * right after it is free and large enough. Otherwise a new block is chosen by best fit while
     * the old one still counts as allocated (so the two never overlap and the caller can copy
     * {@code min(sizeOf(old), newSize)} bytes from old to new), and the old block is then freed.
     *
     * <p>A moved block gets the default {@value #GRANULE}-byte alignment, like C {@code realloc}:
     * a larger alignment from {@link #allocate(long, long)} is not preserved.
     *
     * @param offset  the start of a live block
     * @param newSize requested bytes, positive
     * @return the block's (possibly new) offset, or -1 if it can neither be resized in place nor
     *         moved; the old block then stays live and unchanged
     * @throws IllegalArgumentException if {@code offset} is not the start of a live block or
     *                                  {@code newSize <= 0}
     */
    public long reallocate(long offset, long newSize) {
        long oldSize = requireLive(offset);
        requirePositiveSize(newSize);
        if (newSize > capacity) {
            return -1;
        }
        long rounded = roundUp(newSize);
        if (rounded == oldSize) {
            return offset;
        }
        if (rounded < oldSize) {
            live.put(offset, rounded);
            bytesInUse -= oldSize - rounded;
            addFreeCoalescing(offset + rounded, oldSize - rounded);
            return offset;
        }
        long oldEnd = offset + oldSize;
        Long nextFree = freeByOffset.get(oldEnd);
        long extra = rounded - oldSize;
        if (nextFree != null && nextFree >= extra) {
            removeFree(new Block(oldEnd, nextFree));
            if (nextFree > extra) {
                addFree(oldEnd + extra, nextFree - extra);
            }
            live.put(offset, rounded);
            bytesInUse += extra;
            return offset;
        }
        // The old block is still live here, so the best fit cannot overlap it.
        long moved = allocate(rounded, GRANULE);
        if (moved >= 0) {
            free(offset);
        }
        return moved;
    }

    /**
     * The rounded size of a live block: how many bytes the caller may use (and must copy when
     * {@link #reallocate} moves it).
     *
     * @throws IllegalArgumentException if {@code offset} is not the start of a live block
     */
    public long sizeOf(long offset) {
        return requireLive(offset);
    }

    /** Whether {@code offset} is the start of a live block. */
    public boolean isLive(long offset) {
        return live.containsKey(offset);
    }

    /** Number of live blocks. */
    public long liveBlockCount() {
        return live.size();
    }

    /** A snapshot of the heap's occupancy. */
    public Stats stats() {
        long largest = freeBySize.isEmpty() ? 0 : freeBySize.last().size();
        return new Stats(capacity, bytesInUse, capacity - bytesInUse, largest, live.size());
    }

    /** The free blocks in ascending offset order (a copy, for diagnostics and tests). */
    public List<Block> freeBlocks() {
        var blocks = new ArrayList<Block>(freeByOffset.size());
        freeByOffset.forEach((off, size) -> blocks.add(new Block(off, size)));
        return blocks;
    }

    /** The live blocks in ascending offset order (a copy, for diagnostics and tests). */
    public List<Block> liveBlocks() {
        var blocks = new ArrayList<Block>(live.size());
        live.forEach((off, size) -> blocks.add(new Block(off, size)));
        return blocks;
    }

    /**
     * Verifies the internal invariants in O(n): the two free indexes agree; live and free blocks
     * are {@value #GRANULE}-aligned, non-empty and tile {@code [0, capacity)} exactly with no
     * overlap or gap; no two free blocks are adjacent (fully coalesced); the byte counters add up.
     *
     * @throws IllegalStateException describing the first violated invariant
     */
    public void checkInvariants() {
        if (freeByOffset.size() != freeBySize.size()) {
            throw broken("free indexes differ in size: byOffset=" + freeByOffset.size()
                    + " bySize=" + freeBySize.size());
        }
        long freeSum = 0;
        for (var e : freeByOffset.entrySet()) {
            if (!freeBySize.contains(new Block(e.getKey(), e.getValue()))) {
                throw broken("free block missing from size index: offset=" + e.getKey()
                        + " size=" + e.getValue());
            }
            freeSum += e.getValue();
        }
        long liveSum = 0;
        for (long size : live.values()) {
            liveSum += size;
        }
        if (liveSum != bytesInUse) {
            throw broken("bytesInUse=" + bytesInUse + " but live blocks sum to " + liveSum);
        }
        if (freeSum + liveSum != capacity) {
            throw broken("free " + freeSum + " + used " + liveSum + " != capacity " + capacity);
        }
        // Merge-walk both maps in offset order; each block must begin where the previous ended.
        Iterator<Map.Entry<Long, Long>> f = freeByOffset.entrySet().iterator();
        Iterator<Map.Entry<Long, Long>> l = live.entrySet().iterator();
        Map.Entry<Long, Long> nf = f.hasNext() ? f.next() : null;
        Map.Entry<Long, Long> nl = l.hasNext() ? l.next() : null;
        long cursor = 0;
        boolean previousFree = false;
        while (nf != null || nl != null) {
            boolean takeFree = nl == null || (nf != null && nf.getKey() < nl.getKey());
            var e = takeFree ? nf : nl;
            long off = e.getKey();
            long size = e.getValue();
            String kind = takeFree ? "free" : "live";
            if (off != cursor) {
                throw broken(kind + " block at offset=" + off + " but previous block ends at " + cursor
                        + (off < cursor ? " (overlap)" : " (gap)"));
            }
            if (size <= 0 || off % GRANULE != 0 || size % GRANULE != 0) {
                throw broken(kind + " block not " + GRANULE + "-aligned or empty: offset=" + off
                        + " size=" + size);
            }
            if (takeFree && previousFree) {
                throw broken("adjacent free blocks not coalesced at offset=" + off);
            }
            previousFree = takeFree;
            cursor = off + size;
            if (takeFree) {
                nf = f.hasNext() ? f.next() : null;
            } else {
                nl = l.hasNext() ? l.next() : null;
            }
        }
        if (cursor != capacity) {
            throw broken("blocks end at " + cursor + " but capacity is " + capacity);
        }
    }

    @Override
    public String toString() {
        return "SymmetricAllocator[" + stats() + ", " + live.size() + " live blocks]";
    }

    // ---- internals ----

    /** Smallest free block (lowest offset on ties) that can hold {@code size} bytes at {@code align}. */
    private Block bestFit(long size, long align) {
        NavigableSet<Block> candidates = freeBySize.tailSet(new Block(Long.MIN_VALUE, size), true);
        for (Block b : candidates) {
            long start = alignUp(b.offset(), align);
            // start < offset signals overflow of alignUp: that block cannot host the alignment.
            if (start >= b.offset() && start - b.offset() <= b.size() - size) {
                return b;
            }
        }
        return null;
    }

    private void addFreeCoalescing(long offset, long size) {
        var prev = freeByOffset.lowerEntry(offset);
        if (prev != null && prev.getKey() + prev.getValue() == offset) {
            removeFree(new Block(prev.getKey(), prev.getValue()));
            offset = prev.getKey();
            size += prev.getValue();
        }
        Long nextSize = freeByOffset.get(offset + size);
        if (nextSize != null) {
            removeFree(new Block(offset + size, nextSize));
            size += nextSize;
        }
        addFree(offset, size);
    }

    private void addFree(long offset, long size) {
        freeByOffset.put(offset, size);
        freeBySize.add(new Block(offset, size));
    }

    private void removeFree(Block b) {
        freeByOffset.remove(b.offset());
        freeBySize.remove(b);
    }

    private void markLive(long offset, long size) {
        live.put(offset, size);
        bytesInUse += size;
    }

    private long requireLive(long offset) {
        Long size = live.get(offset);
        if (size == null) {
            throw new IllegalArgumentException(
                    "symmetric heap: not the start of a live allocation: offset=" + offset);
        }
        return size;
    }

    private static void requirePositiveSize(long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("symmetric allocation size must be positive: size=" + size);
        }
    }

    private static void requirePowerOfTwo(long alignment) {
        if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
            throw new IllegalArgumentException(
                    "symmetric allocation alignment must be a power of two: alignment=" + alignment);
        }
    }

    /** Rounds up to a multiple of {@link #GRANULE}; callers guarantee no overflow. */
    private static long roundUp(long size) {
        return (size + GRANULE - 1) & -GRANULE;
    }

    /** Next multiple of {@code align} (a power of two) at or above {@code offset}; negative on overflow. */
    private static long alignUp(long offset, long align) {
        return (offset & (align - 1)) == 0 ? offset : (offset | (align - 1)) + 1;
    }

    private static IllegalStateException broken(String what) {
        return new IllegalStateException("symmetric allocator invariant violated: " + what);
    }
}
