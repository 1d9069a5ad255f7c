package org.shmem4j.core.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.core.heap.SymmetricAllocator.Block;

class SymmetricAllocatorTest {

    private static final long G = SymmetricAllocator.GRANULE;

    // ---- validation ----

    @ParameterizedTest
    @ValueSource(longs = {-64, 1, 63, 65, 100})
    void rejectsBadCapacity(long capacity) {
        var e = assertThrows(IllegalArgumentException.class, () -> new SymmetricAllocator(capacity));
        assertTrue(e.getMessage().contains("capacity=" + capacity), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -64, 3, 96, 65, Long.MIN_VALUE})
    void rejectsAlignmentThatIsNotAPowerOfTwo(long alignment) {
        var a = new SymmetricAllocator(64 * G);
        var e = assertThrows(IllegalArgumentException.class, () -> a.allocate(G, alignment));
        assertTrue(e.getMessage().contains("alignment=" + alignment), e.getMessage());
        assertEquals(0, a.liveBlockCount());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void rejectsNonPositiveSize(long size) {
        var a = new SymmetricAllocator(64 * G);
        assertThrows(IllegalArgumentException.class, () -> a.allocate(size, G));
        long off = a.allocate(G, G);
        assertThrows(IllegalArgumentException.class, () -> a.reallocate(off, size));
        assertEquals(G, a.sizeOf(off));
    }

    @Test
    void freeOfNonStartOffsetIsRejected() {
        var a = new SymmetricAllocator(64 * G);
        long off = a.allocate(4 * G, G);
        for (long bad : new long[] {off + 1, off + G, off + 4 * G, -1, 64 * G}) {
            var e = assertThrows(IllegalArgumentException.class, () -> a.free(bad));
            assertTrue(e.getMessage().contains("not the start of a live allocation: offset=" + bad),
                    e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> a.sizeOf(off + G));
        assertThrows(IllegalArgumentException.class, () -> a.reallocate(off + G, G));
        a.checkInvariants();
        assertEquals(1, a.liveBlockCount());
    }

    @Test
    void doubleFreeIsRejectedAndLeavesStateIntact() {
        var a = new SymmetricAllocator(64 * G);
        long x = a.allocate(G, G);
        long y = a.allocate(G, G);
        a.free(x);
        var before = a.freeBlocks();
        assertThrows(IllegalArgumentException.class, () -> a.free(x));
        assertEquals(before, a.freeBlocks());
        assertTrue(a.isLive(y));
        assertFalse(a.isLive(x));
        a.checkInvariants();
    }

    // ---- alignment and rounding ----

    @Test
    void everyOffsetIsAlignedAndSizesAreRounded() {
        var a = new SymmetricAllocator(1 << 20);
        var rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            long size = 1 + rnd.nextInt(2000);
            long alignment = 1L << rnd.nextInt(13); // 1 .. 4096
            long off = a.allocate(size, alignment);
            assertTrue(off >= 0, "heap is large enough");
            assertEquals(0, off % Math.max(alignment, G), "offset " + off + " alignment " + alignment);
            long rounded = a.sizeOf(off);
            assertEquals(0, rounded % G);
            assertTrue(rounded >= size && rounded < size + G, "rounded " + rounded + " for " + size);
            a.checkInvariants();
        }
    }

    @Test
    void largeAlignmentCarvesLeadingAndTrailingRemainders() {
        var a = new SymmetricAllocator(64 * G);
        long first = a.allocate(1, G);
        assertEquals(0, first);
        long aligned = a.allocate(100, 1024);
        assertEquals(1024, aligned);
        assertEquals(List.of(new Block(G, 1024 - G), new Block(1024 + 2 * G, 64 * G - 1024 - 2 * G)),
                a.freeBlocks());
        a.checkInvariants();
    }

    @Test
    void hugeAlignmentFitsOnlyAtOffsetZero() {
        var a = new SymmetricAllocator(64 * G);
        assertEquals(0, a.allocate(G, 1L << 62));
        assertEquals(-1, a.allocate(G, 1L << 62), "no other offset is a multiple of 2^62");
        a.checkInvariants();
    }

    // ---- best-fit policy ----

    @Test
    void bestFitPicksSmallestHoleThenLowestAddress() {
        var a = new SymmetricAllocator(64 * G);
        // Layout by granule: hole3 | L | hole1 | L | hole2 | L | hole1 | L | rest
        long h3 = a.allocate(3 * G, G);
        a.allocate(G, G);
        long h1a = a.allocate(G, G);
        a.allocate(G, G);
        long h2 = a.allocate(2 * G, G);
        a.allocate(G, G);
        long h1b = a.allocate(G, G);
        a.allocate(G, G);
        a.free(h3);
        a.free(h1b); // free the higher 1-granule hole first: order of frees must not matter
        a.free(h1a);
        a.free(h2);
        a.checkInvariants();

        assertEquals(h1a, a.allocate(10, G), "smallest hole, lowest address");
        assertEquals(h1b, a.allocate(G, G), "next smallest: the other 1-granule hole");
        assertEquals(h2, a.allocate(G + 1, G), "2-granule request goes to the 2-granule hole");
        assertEquals(h3, a.allocate(G, G), "3-granule hole beats the large tail");
        assertEquals(h3 + G, a.allocate(G, G), "its remainder is now the smallest");
        a.checkInvariants();
    }

    @Test
    void alignedBestFitSkipsHolesThatCannotHostTheAlignment() {
        var a = new SymmetricAllocator(128 * G); // 8192 bytes
        // Hole A: [64, 256) is the smaller hole but its only 256-multiple is its end.
        // Hole B: [512, 832) is larger and hosts the block at 512.
        long[] all = new long[128];
        for (int i = 0; i < 128; i++) {
            all[i] = a.allocate(G, G);
            assertEquals(i * G, all[i]);
        }
        for (int i = 1; i <= 3; i++) a.free(all[i]);   // [64, 256)
        for (int i = 8; i <= 12; i++) a.free(all[i]);  // [512, 832)
        a.checkInvariants();
        assertEquals(512, a.allocate(2 * G, 256));
        assertEquals(List.of(new Block(64, 192), new Block(640, 192)), a.freeBlocks());
        // Two 192-byte holes remain; neither hosts 128 bytes at a 256-multiple
        // ([640, 832) contains 768, but 768 + 128 > 832), though 6 granules are free.
        assertEquals(-1, a.allocate(2 * G, 256));
        assertEquals(128, a.allocate(G, 128), "first 192-byte hole hosts 64 bytes at 128");
        a.checkInvariants();
    }

    // ---- coalescing ----

    @Test
    void freeingEverythingInRandomOrderRestoresOneFreeBlock() {
        for (long seed = 1; seed <= 20; seed++) {
            var rnd = new Random(seed);
            long cap = 4096 * G;
            var a = new SymmetricAllocator(cap);
            var offsets = new ArrayList<Long>();
            long off;
            while ((off = a.allocate(1 + rnd.nextInt(8 * (int) G), 1L << rnd.nextInt(9))) >= 0) {
                offsets.add(off);
            }
            assertTrue(offsets.size() > 100);
            Collections.shuffle(offsets, rnd);
            for (long o : offsets) {
                a.free(o);
                a.checkInvariants();
            }
            assertEquals(List.of(new Block(0, cap)), a.freeBlocks(), "seed " + seed);
            assertEquals(new SymmetricAllocator.Stats(cap, 0, cap, cap, 0), a.stats());
        }
    }

    // ---- exhaustion ----

    @Test
    void exhaustionReturnsMinusOneAndLeavesStateUnchanged() {
        var a = new SymmetricAllocator(16 * G);
        a.allocate(4 * G, G);
        long y = a.allocate(4 * G, G);
        a.allocate(4 * G, G);
        a.free(y); // free: [256,512) and [768,1024), each 4 granules
        var free = a.freeBlocks();
        var live = a.liveBlocks();
        var stats = a.stats();

        assertEquals(-1, a.allocate(5 * G, G));
        assertEquals(-1, a.allocate(8 * G, G), "total free is 8 granules but fragmented");
        assertEquals(-1, a.allocate(Long.MAX_VALUE, G));
        assertEquals(-1, a.allocate(16 * G + 1, G));
        assertEquals(-1, a.allocate(G, 2048), "the only 2048-aligned offset, 0, is live");
        assertEquals(-1, a.allocate(G, 512), "both 512-multiples, 0 and 512, are live");
        assertEquals(free, a.freeBlocks());
        assertEquals(live, a.liveBlocks());
        assertEquals(stats, a.stats());
        a.checkInvariants();
    }

    @Test
    void statsDescribeTheHeapForAnErrorMessage() {
        long cap = 33554432;
        var a = new SymmetricAllocator(cap);
        assertEquals(0, a.allocate(cap - 65536, G));
        var s = a.stats();
        assertEquals(new SymmetricAllocator.Stats(cap, cap - 65536, 65536, 65536, 1), s);
        assertEquals("heap exhausted: requested 1048576 bytes, 65536 free (largest free block 65536) of 33554432",
                "heap exhausted: requested 1048576 bytes, " + s);
        assertEquals(0, new SymmetricAllocator(0).stats().largestFreeBlock());
    }

    // ---- reallocate ----

    @Test
    void reallocShrinksInPlaceAndCoalescesTheTail() {
        var a = new SymmetricAllocator(16 * G);
        long x = a.allocate(8 * G, G);
        assertEquals(x, a.reallocate(x, 3 * G - 5));
        assertEquals(3 * G, a.sizeOf(x));
        assertEquals(List.of(new Block(3 * G, 13 * G)), a.freeBlocks());
        assertEquals(x, a.reallocate(x, 3 * G), "same rounded size is a no-op");
        a.checkInvariants();
    }

    @Test
    void reallocGrowsInPlaceIntoFollowingFreeBlock() {
        var a = new SymmetricAllocator(16 * G);
        long x = a.allocate(2 * G, G);
        long y = a.allocate(2 * G, G);
        a.allocate(G, G);
        a.free(y);
        assertEquals(x, a.reallocate(x, 3 * G));
        assertEquals(List.of(new Block(3 * G, G), new Block(5 * G, 11 * G)), a.freeBlocks());
        assertEquals(x, a.reallocate(x, 4 * G), "exactly consumes the following free block");
        assertEquals(List.of(new Block(5 * G, 11 * G)), a.freeBlocks());
        assertEquals(4 * G, a.sizeOf(x));
        a.checkInvariants();
    }

    @Test
    void reallocMovesWithoutOverlappingTheOldBlock() {
        var a = new SymmetricAllocator(16 * G);
        long pad = a.allocate(G, G);     // [0, 64)
        long b = a.allocate(2 * G, G);   // [64, 192)
        a.allocate(G, G);                // [192, 256) blocks in-place growth
        a.free(pad);
        // Were b freed first, [0, 192) would be the exact best fit and overlap b. It must not be chosen.
        long moved = a.reallocate(b, 3 * G);
        assertEquals(4 * G, moved);
        assertEquals(3 * G, a.sizeOf(moved));
        assertFalse(a.isLive(b));
        assertEquals(List.of(new Block(0, 3 * G), new Block(7 * G, 9 * G)), a.freeBlocks());
        a.checkInvariants();
    }

    @Test
    void reallocImpossibleKeepsOldBlockLive() {
        var a = new SymmetricAllocator(8 * G);
        long x = a.allocate(3 * G, G);
        a.allocate(G, G);
        var free = a.freeBlocks();
        var stats = a.stats();
        // 4 granules free after, 7 in total with x: neither in place nor elsewhere.
        assertEquals(-1, a.reallocate(x, 5 * G));
        assertEquals(-1, a.reallocate(x, Long.MAX_VALUE));
        assertTrue(a.isLive(x));
        assertEquals(3 * G, a.sizeOf(x));
        assertEquals(free, a.freeBlocks());
        assertEquals(stats, a.stats());
        a.checkInvariants();
    }

    // ---- randomised: reference model and determinism ----

    @Test
    void randomSequencesMatchNaiveReferenceModel() {
        for (long seed = 1; seed <= 8; seed++) {
            long cap = 512 * G;
            var a = new SymmetricAllocator(cap);
            var model = new ReferenceModel(cap);
            var rnd = new Random(seed);
            var liveList = new ArrayList<Long>();
            for (int step = 0; step < 3000; step++) {
                int op = rnd.nextInt(10);
                String where = "seed " + seed + " step " + step;
                if (op < 5 || liveList.isEmpty()) {
                    long size = 1 + (rnd.nextBoolean() ? rnd.nextInt(200) : rnd.nextInt(4000));
                    long alignment = rnd.nextInt(4) == 0 ? 1L << rnd.nextInt(12) : 1;
                    long got = a.allocate(size, alignment);
                    assertEquals(model.allocate(size, alignment), got, where + " allocate");
                    if (got >= 0) {
                        liveList.add(got);
                    }
                } else if (op < 8) {
                    long off = liveList.remove(rnd.nextInt(liveList.size()));
                    a.free(off);
                    model.free(off);
                } else {
                    int i = rnd.nextInt(liveList.size());
                    long off = liveList.get(i);
                    long newSize = 1 + rnd.nextInt(6000);
                    long got = a.reallocate(off, newSize);
                    assertEquals(model.reallocate(off, newSize), got, where + " reallocate");
                    if (got >= 0) {
                        liveList.set(i, got);
                    }
                }
                a.checkInvariants();
                assertEquals(model.live, new TreeMap<>(toMap(a.liveBlocks())), where);
                assertEquals(liveList.size(), a.liveBlockCount());
            }
        }
    }

    @Test
    void sameCallSequenceGivesSameOffsetsOnEveryPe() {
        var rnd0 = new Random(42);
        var rnd1 = new Random(42);
        var pe0 = new SymmetricAllocator(1024 * G);
        var pe1 = new SymmetricAllocator(1024 * G);
        List<Long> trace0 = drive(pe0, rnd0, 5000);
        List<Long> trace1 = drive(pe1, rnd1, 5000);
        assertEquals(trace0, trace1);
        assertEquals(pe0.freeBlocks(), pe1.freeBlocks());
        assertEquals(pe0.liveBlocks(), pe1.liveBlocks());
        // Sanity: the trace is informative (a different sequence diverges).
        assertNotEquals(trace0, drive(new SymmetricAllocator(1024 * G), new Random(43), 5000));
    }

    /** Runs a random call sequence and records every result (offsets or -1). */
    private static List<Long> drive(SymmetricAllocator a, Random rnd, int steps) {
        var trace = new ArrayList<Long>();
        var liveList = new ArrayList<Long>();
        for (int step = 0; step < steps; step++) {
            int op = rnd.nextInt(10);
            if (op < 5 || liveList.isEmpty()) {
                long got = a.allocate(1 + rnd.nextInt(3000), 1L << rnd.nextInt(11));
                trace.add(got);
                if (got >= 0) liveList.add(got);
            } else if (op < 8) {
                a.free(liveList.remove(rnd.nextInt(liveList.size())));
            } else {
                int i = rnd.nextInt(liveList.size());
                long got = a.reallocate(liveList.get(i), 1 + rnd.nextInt(5000));
                trace.add(got);
                if (got >= 0) liveList.set(i, got);
            }
        }
        return trace;
    }

    private static TreeMap<Long, Long> toMap(List<Block> blocks) {
        var m = new TreeMap<Long, Long>();
        for (Block b : blocks) m.put(b.offset(), b.size());
        return m;
    }

    /**
     * An obviously-correct O(capacity) model of the same policy: one flag per granule. It asserts
     * that it never marks an already-used granule, which catches overlap independently of the
     * allocator's own invariants.
     */
    private static final class ReferenceModel {
        final boolean[] used;
        final TreeMap<Long, Long> live = new TreeMap<>();

        ReferenceModel(long capacity) {
            used = new boolean[(int) (capacity / G)];
        }

        long allocate(long size, long alignment) {
            if (size > used.length * G) return -1;
            long granules = (size + G - 1) / G;
            long alignG = Math.max(alignment, G) / G;
            long bestStart = -1, bestLen = Long.MAX_VALUE;
            int i = 0;
            while (i < used.length) {
                if (used[i]) { i++; continue; }
                int runStart = i;
                while (i < used.length && !used[i]) i++;
                long runLen = i - runStart;
                long start = (runStart + alignG - 1) / alignG * alignG;
                // Strictly smaller wins; runs are visited by address so ties keep the lowest.
                if (start + granules <= i && runLen < bestLen) {
                    bestStart = start;
                    bestLen = runLen;
                }
            }
            if (bestStart < 0) return -1;
            mark(bestStart, granules, true);
            live.put(bestStart * G, granules * G);
            return bestStart * G;
        }

        void free(long offset) {
            long size = live.remove(offset);
            mark(offset / G, size / G, false);
        }

        long reallocate(long offset, long newSize) {
            if (newSize > used.length * G) return -1;
            long old = live.get(offset) / G;
            long want = (newSize + G - 1) / G;
            long first = offset / G;
            if (want <= old) {
                mark(first + want, old - want, false);
                live.put(offset, want * G);
                return offset;
            }
            boolean room = first + want <= used.length;
            for (long g = first + old; room && g < first + want; g++) room = !used[(int) g];
            if (room) {
                mark(first + old, want - old, true);
                live.put(offset, want * G);
                return offset;
            }
            long moved = allocate(newSize, G);
            if (moved >= 0) free(offset);
            return moved;
        }

        private void mark(long from, long count, boolean value) {
            for (long g = from; g < from + count; g++) {
                assertEquals(!value, used[(int) g], "granule " + g + " already " + (value ? "used" : "free"));
                used[(int) g] = value;
            }
        }
    }
}
