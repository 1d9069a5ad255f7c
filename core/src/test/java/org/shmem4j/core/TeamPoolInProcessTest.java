package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;
import org.shmem4j.core.coll.DisseminationBarrier;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;

/**
 * The team area ({@code SHMEM_TEAMS_MAX} teams per PE, blocks sized by team): exhaustion and
 * recovery, agreement on failure across PEs, no leaks over many create/destroy rounds, and the
 * layout (blocks inside the reserved region, parts of a block disjoint; disjoint teams may share
 * units, overlapping teams never do).
 */
@Timeout(180)
class TeamPoolInProcessTest {
    private static final Map<String, String> ENV = InProcessTestSupport.env("SHMEM_TEAMS_MAX", "16");
    private static final int USER_SLOTS = 16 - 4;

    private static PeRuntime init() {
        return (PeRuntime) Shmem.init();
    }

    private static TeamPool.Block blockOf(Team t) {
        return ((TeamImpl) t).block();
    }

    /** Fails if two of {@code teams} (all on this PE) share a unit. */
    private static void assertDisjoint(List<Team> teams, int me) {
        for (int i = 0; i < teams.size(); i++) {
            for (int j = i + 1; j < teams.size(); j++) {
                assertFalse(blockOf(teams.get(i)).overlaps(blockOf(teams.get(j))), "PE " + me + ": teams " + teams.get(i)
                        + " and " + teams.get(j) + " share units");
            }
        }
    }

    private static List<Team> predefined(PeRuntime shmem) {
        List<Team> teams = new ArrayList<>(List.of(shmem.teamWorld(), shmem.teamShared(), shmem.teamHost()));
        if (shmem.teamLeaders().isValid()) {
            teams.add(shmem.teamLeaders());
        }
        return teams;
    }

    // ------------------------------------------------------------------ exhaustion

    @Test
    void exhaustingThePoolGivesAnInvalidTeamEverywhereAndADestroyRecovers() {
        InProcessTestSupport.runWith(3, ENV, () -> {
            try (PeRuntime shmem = init()) {
                Team world = shmem.teamWorld();
                assertEquals(USER_SLOTS, shmem.freeTeamSlots());
                List<Team> teams = new ArrayList<>();
                for (int i = 0; i < USER_SLOTS; i++) {
                    Team t = world.splitStrided(0, 1, shmem.nPes(), null, 0);
                    assertTrue(t.isValid(), () -> "team " + teams.size() + ": " + t.invalidReason());
                    teams.add(t);
                    assertEquals(USER_SLOTS - teams.size(), shmem.freeTeamSlots());
                }
                List<Team> all = new ArrayList<>(teams);
                all.addAll(predefined(shmem));
                assertDisjoint(all, shmem.myPe());
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
                // destroy one in the middle: the next split of that size gets exactly its block
                Team victim = teams.remove(5);
                TeamPool.Block freed = blockOf(victim);
                victim.close();
                assertEquals(1, shmem.freeTeamSlots());
                Team again = world.splitStrided(0, 1, shmem.nPes(), null, 0);
                assertTrue(again.isValid(), again::invalidReason);
                assertEquals(freed, blockOf(again));
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
                    List<Team> own = predefined(shmem);
                    own.add(pair);
                    assertDisjoint(own, me);
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
                // the two rows are disjoint and start at the same unit; so do the columns
                SymmetricLongArray firsts = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                firsts.set(0, blockOf(row).first());
                firsts.set(1, blockOf(col).first());
                shmem.barrierAll();
                for (int pe = 0; pe < 4; pe++) {
                    assertEquals(blockOf(row).first(), shmem.g(firsts, 0, pe), "row of PE " + pe + " seen from PE " + me);
                    assertEquals(blockOf(col).first(), shmem.g(firsts, 1, pe), "column of PE " + pe + " seen from PE " + me);
                }
                shmem.barrierAll();
                firsts.close();
                // overlapping teams on this PE: no unit shared
                List<Team> mine = predefined(shmem);
                mine.addAll(List.of(dup, row, col));
                assertDisjoint(mine, me);
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

    @ParameterizedTest(name = "{1} PEs, {0} reserved bytes")
    @CsvSource({"1048576, 1", "1048576, 2", "33554432, 7", "33554432, 64", "33554432, 65", "33554432, 1000",
            "33554432, 65536", "1073741824, 65536"})
    void blocksAreInsideTheReservedRegionAndTheirPartsAreDisjoint(long reserved, int npes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(reserved + 4096, 64);
            SymmetricHeap heap = heap(region, reserved);
            long before = heap.allocateReserved("before", 100);
            TeamPool pool = new TeamPool(heap, 256, 1024);
            assertTrue(pool.units() <= TeamPool.MAX_UNITS, "units " + pool.units());
            assertTrue(pool.maskWords() <= TeamPool.MAX_MASK_WORDS);
            assertTrue(pool.units() * pool.unitBytes() > reserved - 100 - 2 * pool.unitBytes(),
                    "the area leaves more than a unit of the reserved region unused");
            for (int n : new int[] {1, 2, 3, 64, 65, npes}) {
                TeamPool.Layout l = pool.layout(n);
                long barrierEnd = l.barrier() + DisseminationBarrier.bytesNeeded(n);
                long cellsEnd = l.cell(1, Math.max(0, l.rounds() - 1)) + (l.rounds() == 0 ? 0 : TeamPool.CELL_BYTES);
                assertTrue(barrierEnd <= l.cells() && l.cell(0, 0) == l.cells() && cellsEnd <= l.senderFlags(),
                        n + " members: barrier ends at " + barrierEnd + ", cells at [" + l.cells() + ", " + cellsEnd + ")");
                assertTrue(l.senderFlags() + n * l.flagStride() <= l.ackFlags()
                        && l.ackFlags() + n * l.flagStride() <= l.scratch(), n + " members: flags overlap");
                long ring = l.scratch() + (TeamPool.SCRATCH_BUFFERS + l.stagedBuffers() - 1L) * l.bufferBytes();
                if (8L * n <= l.stagedBuffers() * l.bufferBytes()) { // collect's sizes fit the scratch
                    assertEquals(-1, l.sizes(), n + " members");
                    assertEquals(l.bytes(), ring, n + " members");
                } else {
                    assertEquals(ring, l.sizes(), n + " members");
                    assertTrue(l.bytes() >= l.sizes() + 8L * n && l.bytes() < l.sizes() + 8L * n + 64, n + " members");
                }
                assertEquals(n <= TeamPool.LINE_FLAGS_UP_TO ? 64 : 8, l.flagStride());
                assertEquals(0, l.barrier() % 64);
                assertEquals(0, l.cells() % 64);
                assertEquals(0, l.scratch() % 64);
                assertTrue(pool.unitsFor(n) * pool.unitBytes() >= l.bytes());
            }
            // the predefined teams are laid end to end from unit 0, and inside the region
            TeamPool.Block world = pool.predefined(npes, true);
            TeamPool.Block leaders = pool.predefined(Math.max(1, npes / 64), false);
            assertEquals(0, world.first());
            assertEquals(world.units(), leaders.first());
            long end = pool.start(leaders) + leaders.units() * pool.unitBytes();
            assertTrue(pool.start(world) >= before + 100 && end <= reserved, "[" + pool.start(world) + ", " + end + ")");
            // a member's units are taken, a non-member's are not
            assertEquals(pool.units() - world.units(), pool.freeUnits());
        }
    }

    @Test
    void offersClaimsTakesAndReleases() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(2L << 20, 64);
            TeamPool pool = new TeamPool(heap(region, 1 << 20), 6, 1024);
            assertEquals(2, pool.freeTeams()); // six less the four predefined
            int units = pool.unitsFor(4);
            TeamPool.Block world = pool.predefined(4, true);
            long[] offer = pool.offer();
            assertEquals(0b11L, offer[0]); // room for two more teams
            assertTrue(TeamPool.roomFor(offer, 2));
            assertFalse(TeamPool.roomFor(offer, 3));
            // the lowest run after the world's block; claiming marks it in the AND, not on the PE
            int first = pool.claim(offer, units);
            assertEquals(world.units(), first);
            assertEquals(first + units, pool.claim(offer, units));
            assertEquals(pool.units() - world.units(), pool.freeUnits());
            TeamPool.Block b = new TeamPool.Block(first, units);
            pool.take(b);
            assertThrows(IllegalStateException.class, () -> pool.take(b));
            assertThrows(IllegalStateException.class, () -> pool.take(world));
            assertEquals(1, pool.freeTeams());
            assertEquals(0b1L, pool.offer()[0]);
            // a run that does not fit anywhere
            assertEquals(-1, pool.claim(pool.offer(), pool.units()));
            // release zeroes the block on this PE and frees it
            region.set(ValueLayout.JAVA_LONG, pool.start(b) + 8, 42L);
            region.set(ValueLayout.JAVA_LONG, pool.start(b) + units * pool.unitBytes() - 8, 43L);
            pool.release(b, region);
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, pool.start(b) + 8));
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, pool.start(b) + units * pool.unitBytes() - 8));
            assertEquals(2, pool.freeTeams());
            assertEquals(pool.units() - world.units(), pool.freeUnits());
            long[] neutral = pool.neutral();
            for (long w : neutral) {
                assertEquals(-1L, w);
            }
        }
    }
}
