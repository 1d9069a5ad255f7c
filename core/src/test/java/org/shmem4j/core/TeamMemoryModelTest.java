package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.param.Params;

/**
 * The formula of docs/scale.md for the library's memory in a PE's reserved region, computed here
 * on its own and held against the pool's layout, and the default reserved region checked to hold
 * a 65,536-PE job's predefined teams with room for the teams a program makes.
 */
class TeamMemoryModelTest {
    private static final long RESERVED = Params.RESERVED_SIZE.defaultValue();
    private static final long SCRATCH = Params.COLLECTIVE_SCRATCH.defaultValue();
    private static final int TEAMS_MAX = Params.TEAMS_MAX.defaultValue();

    /**
     * docs/scale.md: bytes(n) = 64 max(1, r) + 2 r 320 + 2 line(n f) + (112 + K - 1) b + (line(8 n)
     * where 8 n &gt; K b), r = ceil(log2 n), f = 64 up to 64 members, else 8, line(x) = x rounded up
     * to a multiple of 64, b = line(S / 16) (S / 16 rounded up) the scratch buffer, K = S / b
     * rounded up the buffers one collective stages.
     */
    private static long documentedBytes(int n, long scratch) {
        int r = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
        long f = n <= 64 ? 64 : 8;
        long buffer = ceil(ceil(scratch, 16), 64) * 64;
        long staged = ceil(scratch, buffer);
        long sizes = 8L * n > staged * buffer ? ceil(8L * n, 64) * 64 : 0;
        return 64L * Math.max(1, r) + 2L * r * 320 + 2 * ceil(n * f, 64) * 64 + (112 + staged - 1) * buffer + sizes;
    }

    /** A PE's reserved region as init lays it out: the finalize announcements, then the team area. */
    private static TeamPool poolOf(MemorySegment region, long reserved, int npes) {
        return poolOf(region, reserved, npes, SCRATCH);
    }

    private static TeamPool poolOf(MemorySegment region, long reserved, int npes, long scratch) {
        SymmetricHeap heap = new SymmetricHeap(region, reserved, Profiler.NONE, new SymmetricHeap.HeapSync() {
            @Override
            public void barrier() {
            }

            @Override
            public void agree(String call) {
            }
        });
        heap.allocateReserved("finalize announcements", npes * 8L);
        return new TeamPool(heap, TEAMS_MAX, scratch);
    }

    @ParameterizedTest(name = "{0} members, SHMEM_COLLECTIVE_SCRATCH={1}")
    @CsvSource({"1, 16384", "2, 16384", "3, 16384", "8, 16384", "64, 16384", "65, 16384", "256, 16384",
        "1024, 16384", "2048, 16384", "2049, 16384", "4096, 16384", "65536, 16384",
        "8, 128", "17, 128", "20, 100", "1024, 1048576", "65536, 1048576", "3, 1000"})
    void aTeamsBytesFollowTheDocumentedFormula(int n, long scratch) {
        try (Arena arena = Arena.ofConfined()) {
            TeamPool pool = poolOf(arena.allocate(RESERVED + 4096, 64), RESERVED, 8, scratch);
            assertEquals(documentedBytes(n, scratch), pool.layout(n).bytes(), "bytes of a team of " + n);
        }
    }

    @Test
    void theDefaultReservedRegionHoldsA65536PeJobWithRoomForItsTeams() {
        int npes = 65_536, perHost = 64, hosts = npes / perHost;
        try (Arena arena = Arena.ofConfined()) {
            TeamPool pool = poolOf(arena.allocate(RESERVED + 4096, 64), RESERVED, npes);
            // the unit: a power of two, at least 4 KiB, at most 2,048 of them
            long area = RESERVED - npes * 8L;
            assertEquals(32 << 10, pool.unitBytes());
            assertEquals(area / pool.unitBytes(), pool.units());
            TeamPool.Block world = pool.predefined(npes, true);
            TeamPool.Block leaders = pool.predefined(hosts, true);
            TeamPool.Block shared = pool.predefined(perHost, true);
            TeamPool.Block host = pool.predefined(perHost, true);
            int predefinedUnits = world.units() + leaders.units() + shared.units() + host.units();
            assertEquals(ceil(documentedBytes(npes, SCRATCH), pool.unitBytes()), world.units());
            long predefinedBytes = predefinedUnits * pool.unitBytes();
            // 53 + 5 + 5 + 5 units of 32 KiB: 2.1 MiB, with the finalize announcements' 512 KiB 2.6 MiB
            assertEquals(68, predefinedUnits);
            assertTrue(predefinedBytes + npes * 8L <= 3L << 20, predefinedBytes + " bytes");
            // what is left: a 256 x 256 grid's row and column, and SHMEM_TEAMS_MAX's other teams of 64
            long[] agreed = pool.offer();
            int row = pool.claim(agreed, pool.unitsFor(256));
            int column = pool.claim(agreed, pool.unitsFor(256));
            assertTrue(row >= 0 && column >= 0);
            int small = 0;
            while (small < TEAMS_MAX - TeamPool.PREDEFINED - 2 && pool.claim(agreed, pool.unitsFor(64)) >= 0) {
                small++;
            }
            assertEquals(TEAMS_MAX - TeamPool.PREDEFINED - 2, small, "teams of 64 after the grid");
            // and 37 more teams of the whole world fit beside the predefined ones
            long[] fresh = pool.offer();
            int worlds = 0;
            while (pool.claim(fresh, world.units()) >= 0) {
                worlds++;
            }
            assertEquals(37, worlds);
        }
    }

    private static long ceil(long bytes, long unit) {
        return (bytes + unit - 1) / unit;
    }
}
