package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.sync.DisseminationBarrier;

/**
 * The team slot pool ({@code SHMEM_TEAMS_MAX}): exhaustion and recovery, agreement on failure
 * across PEs, no leaks over many create/destroy rounds, and the slot layout (slots are disjoint,
 * inside the reserved region; disjoint teams may share a slot, overlapping teams never do).
 */
@Timeout(180)
class TeamPoolInProcessTest {
    private static final Map<String, String> ENV = InProcessTestSupport.env("SHMEM_TEAMS_MAX", "16");
    private static final int USER_SLOTS = 16 - 4;

    private static PeRuntime init() {
        return (PeRuntime) Shmem.init();
    }

    private static int slotOf(Team t) {
        return ((TeamImpl) t).slot();
    }

    // ------------------------------------------------------------------ exhaustion

    @Test
    void exhaustingThePoolGivesAnInvalidTeamEverywhereAndADestroyRecovers() {
        InProcessTestSupport.runWith(3, ENV, () -> {
            try (PeRuntime shmem = init()) {
                Team world = shmem.teamWorld();
                assertEquals(USER_SLOTS, shmem.freeTeamSlots());
                List<Team> teams = new ArrayList<>();
                Set<Integer> slots = new HashSet<>();
                for (int i = 0; i < USER_SLOTS; i++) {
                    Team t = world.splitStrided(0, 1, shmem.nPes(), null, 0);
                    assertTrue(t.isValid(), () -> "team " + teams.size() + ": " + t.invalidReason());
                    assertTrue(slots.add(slotOf(t)), "slot handed out twice");
                    teams.add(t);
                    assertEquals(USER_SLOTS - teams.size(), shmem.freeTeamSlots());
                }
                assertEquals(Set.of(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), slots);
                Team none = world.splitStrided(0, 1, shmem.nPes(), null, 0);
                assertFalse(none.isValid());
                assertEquals(-1, none.myPe());
                assertTrue(none.invalidReason().contains("SHMEM_TEAMS_MAX"), none::invalidReason);
                assertTrue(none.invalidReason().contains("shmem_team_split_strided"), none::invalidReason);
                Team.Split2d none2d = world.split2d(2, null, 0, null, 0);
                assertFalse(none2d.xAxis().isValid());
                assertFalse(none2d.yAxis().isValid());
                assertTrue(none2d.xAxis().invalidReason().contains("SHMEM_TEAMS_MAX"), none2d.xAxis()::invalidReason);
                // a failed split takes nothing
                assertEquals(0, shmem.freeTeamSlots());
                // every existing team still works
                for (Team t : teams) {
                    t.sync();
                }
                // destroy one in the middle: the next split gets exactly its slot
                Team victim = teams.remove(5);
                int freed = slotOf(victim);
                victim.close();
                assertEquals(1, shmem.freeTeamSlots());
                Team again = world.splitStrided(0, 1, shmem.nPes(), null, 0);
                assertTrue(again.isValid(), again::invalidReason);
                assertEquals(freed, slotOf(again));
                again.sync();
                teams.add(again);
                for (Team t : teams) {
                    t.close();
                }
                assertEquals(USER_SLOTS, shmem.freeTeamSlots());
            }
        }).orThrow();
    }

    @Test
    void aMemberWithoutFreeSlotsFailsTheSplitOnEveryPe() {
        InProcessTestSupport.runWith(3, ENV, () -> {
            try (PeRuntime shmem = init()) {
                int me = shmem.myPe();
                Team world = shmem.teamWorld();
                // PE 0 alone takes every slot of its own
                List<Team> mine = new ArrayList<>();
                for (int i = 0; i < USER_SLOTS; i++) {
                    Team t = world.splitStrided(0, 0, 1, null, 0);
                    assertEquals(me == 0, t.isValid(), () -> String.valueOf(t.invalidReason()));
                    mine.add(t);
                }
                assertEquals(me == 0 ? 0 : USER_SLOTS, shmem.freeTeamSlots());
                // a team of PEs 1 and 2 only needs their masks: it succeeds
                Team pair = world.splitStrided(1, 1, 2, null, 0);
                assertEquals(me != 0, pair.isValid());
                if (me != 0) {
                    assertEquals(4, slotOf(pair)); // disjoint from PE 0's teams: the lowest slot is fine
                    pair.sync();
                }
                // a team that includes PE 0 fails on every PE, also those with free slots
                Team all = world.splitStrided(0, 1, 3, null, 0);
                assertFalse(all.isValid());
                assertTrue(all.invalidReason().contains("SHMEM_TEAMS_MAX"), all::invalidReason);
                Team zeroAndTwo = world.splitStrided(0, 2, 2, null, 0);
                assertFalse(zeroAndTwo.isValid());
                assertTrue(zeroAndTwo.invalidReason().contains("SHMEM_TEAMS_MAX"), zeroAndTwo::invalidReason);
                for (Team t : mine) {
                    t.close();
                }
                pair.close();
                assertEquals(USER_SLOTS, shmem.freeTeamSlots());
                Team ok = world.splitStrided(0, 1, 3, null, 0);
                assertTrue(ok.isValid(), ok::invalidReason);
                ok.close();
            }
        }).orThrow();
    }

    @Test
    void thousandRoundsOfCreateMaxDestroyAllLeakNothing() {
        InProcessTestSupport.runWith(2, ENV, () -> {
            try (PeRuntime shmem = init()) {
                Team world = shmem.teamWorld();
                Team[] teams = new Team[USER_SLOTS];
                for (int round = 0; round < 1000; round++) {
                    for (int i = 0; i < USER_SLOTS; i++) {
                        // alternate dups and reversed dups so both orders are exercised
                        teams[i] = i % 2 == 0 ? world.splitStrided(0, 1, 2, null, 0) : world.splitStrided(1, -1, 2, null, 0);
                        if (!teams[i].isValid()) {
                            throw new AssertionError("round " + round + " team " + i + ": " + teams[i].invalidReason());
                        }
                    }
                    if (shmem.freeTeamSlots() != 0) {
                        throw new AssertionError("round " + round + ": " + shmem.freeTeamSlots() + " slots free when full");
                    }
                    if (round % 100 == 0) {
                        Team extra = world.splitStrided(0, 1, 2, null, 0);
                        assertFalse(extra.isValid());
                        teams[round % USER_SLOTS].sync();
                    }
                    // destroy in a round-dependent order
                    for (int i = 0; i < USER_SLOTS; i++) {
                        teams[(i * 5 + round) % USER_SLOTS].close();
                    }
                    if (shmem.freeTeamSlots() != USER_SLOTS) {
                        throw new AssertionError("round " + round + ": leaked " + (USER_SLOTS - shmem.freeTeamSlots()) + " slots");
                    }
                }
            }
        }).orThrow();
    }

    // ------------------------------------------------------------------ slot sharing

    @Test
    void disjointTeamsMayShareASlotOverlappingTeamsNever() {
        InProcessTestSupport.runWith(4, ENV, () -> {
            try (PeRuntime shmem = init()) {
                int me = shmem.myPe();
                Team world = shmem.teamWorld();
                Team dup = world.splitStrided(0, 1, 4, null, 0);
                Team.Split2d grid = world.split2d(2, null, 0, null, 0); // rows {0,1} {2,3}, columns {0,2} {1,3}
                Team row = grid.xAxis(), col = grid.yAxis();
                // the two rows are disjoint and agree on the same lowest slot; so do the columns
                assertEquals(5, slotOf(row));
                assertEquals(6, slotOf(col));
                // overlapping teams on this PE: all slots distinct
                List<Team> mine = new ArrayList<>(List.of(world, shmem.teamShared(), shmem.teamHost(), dup, row, col));
                if (me == 0) {
                    mine.add(shmem.teamLeaders());
                }
                Set<Integer> slots = new HashSet<>();
                for (Team t : mine) {
                    assertTrue(slots.add(slotOf(t)), "slot " + slotOf(t) + " used twice on PE " + me);
                }
                // syncs of the teams sharing a slot do not interfere: each sync must publish the
                // partner's value of the same iteration
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                int rowPartner = 1 - row.myPe(), colPartner = 1 - col.myPe();
                try (var rowCtx = row.createCtx(0); var colCtx = col.createCtx(0)) {
                    for (long i = 1; i <= 500; i++) {
                        rowCtx.p(x, 0, i, rowPartner);
                        rowCtx.quiet();
                        row.sync();
                        assertEquals(i, x.get(0), "row sync " + i);
                        colCtx.p(x, 1, -i, colPartner);
                        colCtx.quiet();
                        col.sync();
                        assertEquals(-i, x.get(1), "column sync " + i);
                        row.sync(); // the partner has read before the next write
                        col.sync();
                    }
                }
                assertNotEquals(slotOf(row), slotOf(dup));
                col.close();
                row.close();
                dup.close();
                assertEquals(USER_SLOTS, shmem.freeTeamSlots());
                shmem.barrierAll();
                x.close();
            }
        }).orThrow();
    }

    // ------------------------------------------------------------------ layout (unit)

    private static SymmetricHeap heap(MemorySegment region, long reserved) {
        return new SymmetricHeap(region, reserved, Profiler.NONE, new SymmetricHeap.HeapSync() {
            @Override
            public void barrier() {
            }

            @Override
            public void agree(String call) {
            }
        });
    }

    @ParameterizedTest
    @CsvSource({"8, 1", "16, 2", "64, 7", "65, 64", "200, 3", "256, 1000"})
    void slotsAreDisjointAndInsideTheReservedRegion(int capacity, int npes) {
        long reserved = 64L << 20;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(reserved + 4096, 64);
            SymmetricHeap heap = heap(region, reserved);
            long before = heap.allocateReserved("before", 100);
            TeamPool pool = new TeamPool(heap, capacity, npes, 1024);
            long after = heap.allocateReserved("after", 100);
            long barrierBytes = DisseminationBarrier.bytesNeeded(npes);
            long maskBytes = pool.maskWords() * 8L;
            assertEquals((capacity + 63) / 64, pool.maskWords());
            for (int i = 0; i < capacity; i++) {
                long s = pool.slotStart(i), e = pool.slotEnd(i);
                assertTrue(s >= 0 && s < e && e <= reserved, "slot " + i + " [" + s + ", " + e + ") outside the reserved region");
                assertTrue(e <= before || s >= before + 100, "slot " + i + " overlaps the earlier reserved block");
                assertTrue(e <= after || s >= after + 100, "slot " + i + " overlaps the later reserved block");
                // the slot's parts lie inside it and do not overlap each other
                long b = pool.barrierOffset(i);
                long g0 = pool.gatherOffset(i, 0), g1 = pool.gatherOffset(i, 1);
                assertEquals(g0, pool.gatherOffset(i, 2));
                assertEquals(g1, pool.gatherOffset(i, 7));
                assertTrue(b >= s && b + barrierBytes <= g0 && g0 + maskBytes <= g1 && g1 + maskBytes <= e,
                        "slot " + i + " parts: barrier " + b + ", gathers " + g0 + ", " + g1 + ", end " + e);
                assertEquals(0, b % 64, "barrier words not on a cache line");
                // the collective flags follow the gather buffers, the scratch buffers end the slot
                long firstFlag = Math.min(pool.senderFlag(i, 0), pool.ackFlag(i, 0));
                long lastFlag = Math.max(pool.senderFlag(i, npes - 1), pool.ackFlag(i, npes - 1));
                assertTrue(firstFlag >= g1 + maskBytes && lastFlag + 64 <= pool.scratchOffset(i),
                        "slot " + i + " flags [" + firstFlag + ", " + (lastFlag + 64) + ") overlap its neighbours");
                assertTrue(pool.senderFlag(i, npes - 1) < pool.ackFlag(i, 0), "slot " + i + " sender and ack flags overlap");
                assertEquals(e, pool.scratchOffset(i) + TeamPool.SCRATCH_BUFFERS * pool.scratchBytes(),
                        "slot " + i + " scratch does not end the slot");
            }
            for (int i = 0; i < capacity; i++) {
                for (int j = i + 1; j < capacity; j++) {
                    boolean disjoint = pool.slotEnd(i) <= pool.slotStart(j) || pool.slotEnd(j) <= pool.slotStart(i);
                    if (!disjoint) {
                        throw new AssertionError("slots " + i + " and " + j + " overlap");
                    }
                }
            }
        }
    }

    @Test
    void takeAndReleaseKeepTheFreeMask() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(1 << 21, 64);
            TeamPool pool = new TeamPool(heap(region, 1 << 20), 70, 4, 1024);
            assertEquals(70, pool.capacity());
            assertEquals(66, pool.freeCount());
            long[] mask = pool.freeMask();
            assertEquals(2, mask.length);
            assertEquals(-1L << 4, mask[0]); // predefined slots 0..3 are never free
            assertEquals((1L << 6) - 1, mask[1]); // slots 64..69
            assertThrows(IllegalStateException.class, () -> pool.take(0));
            pool.take(69);
            assertThrows(IllegalStateException.class, () -> pool.take(69));
            assertEquals(65, pool.freeCount());
            // release zeroes this PE's barrier words of the slot
            region.set(ValueLayout.JAVA_LONG, pool.barrierOffset(69), 42L);
            pool.release(69, region);
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, pool.barrierOffset(69)));
            assertEquals(66, pool.freeCount());
            mask[0] = 0; // the copy is the caller's
            assertEquals(-1L << 4, pool.freeMask()[0]);
        }
    }
}
