package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Team splits (spec 9.4.6, 9.4.7), translation (9.4.5), configuration (9.4.3, 9.4.4), invalid and
 * destroyed teams, and the predefined teams, on in-process PEs.
 */
@Timeout(180)
class TeamSplitsInProcessTest {

    /** The world numbers of {@code team}'s members, in team order (by translation). */
    static int[] worldMembers(Team team, Team world) {
        return IntStream.range(0, team.nPes()).map(i -> team.translatePe(i, world)).toArray();
    }

    static int[] strided(int start, int stride, int size) {
        return IntStream.range(0, size).map(i -> start + i * stride).toArray();
    }

    static void assertInvalid(Team t, String routine) {
        assertFalse(t.isValid(), () -> "expected an invalid team, got " + t);
        assertEquals(-1, t.myPe());
        assertEquals(-1, t.nPes());
        assertNotNull(t.invalidReason());
        assertTrue(t.invalidReason().contains(routine), t::invalidReason);
    }

    // ------------------------------------------------------------------ split_strided

    @Test
    void splitStridedExamplesOfTheSpec() {
        InProcessTestSupport.run(8, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();

                // Example 11 / 10: the even PEs, numbered me / 2, translating back to me.
                Team even = world.splitStrided(0, 2, (n + 1) / 2, null, 0);
                if (me % 2 == 0) {
                    assertTrue(even.isValid());
                    assertNull(even.invalidReason());
                    assertEquals(me / 2, even.myPe());
                    assertEquals((n + 1) / 2, even.nPes());
                    assertEquals(me, even.translatePe(even.myPe(), world));
                    assertArrayEquals(strided(0, 2, (n + 1) / 2), worldMembers(even, world));
                } else {
                    assertFalse(even.isValid());
                    assertEquals(-1, even.myPe());
                    assertEquals(-1, even.nPes());
                    assertTrue(even.invalidReason().contains("not a member"), even::invalidReason);
                }

                // A negative stride reverses the order: start at the highest PE.
                Team reversed = world.splitStrided(n - 1, -1, n, null, 0);
                assertEquals(n - 1 - me, reversed.myPe());
                assertEquals(n, reversed.nPes());
                assertArrayEquals(strided(n - 1, -1, n), worldMembers(reversed, world));

                // Negative stride 2: the odd PEs from the top, 7, 5, 3, 1.
                Team oddDown = world.splitStrided(n - 1, -2, n / 2, null, 0);
                if (me % 2 == 1) {
                    assertEquals((n - 1 - me) / 2, oddDown.myPe());
                    assertArrayEquals(strided(n - 1, -2, n / 2), worldMembers(oddDown, world));
                } else {
                    assertFalse(oddDown.isValid());
                }

                // Stride 0 with size 1: just the starting PE.
                Team single = world.splitStrided(3, 0, 1, null, 0);
                if (me == 3) {
                    assertEquals(0, single.myPe());
                    assertEquals(1, single.nPes());
                    assertEquals(3, single.translatePe(0, world));
                    single.sync(); // a team of one synchronizes with itself
                } else {
                    assertFalse(single.isValid());
                }

                // Every new team is usable at once: sync on each without a barrier in between.
                if (even.isValid()) {
                    even.sync();
                }
                reversed.sync();
                if (oddDown.isValid()) {
                    oddDown.sync();
                }
                for (Team t : new Team[] {single, oddDown, reversed, even}) {
                    t.close(); // a no-op on the invalid ones
                }
            }
        });
    }

    @Test
    void invalidTripletsGiveAnInvalidTeamOnEveryPeWithAReason() {
        InProcessTestSupport.run(8, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int[][] bad = {
                    {0, 1, 0}, // size 0
                    {0, 1, -3}, // negative size
                    {0, 0, 2}, // stride 0 needs size 1
                    {3, 3, 3}, // 3, 6, 9: the spec's wrap-around example
                    {-1, 1, 2}, // negative start
                    {8, 1, 1}, // start past the end
                    {1, -1, 3}, // 1, 0, -1
                    {0, 1, 9}, // one too many
                };
                for (int[] b : bad) {
                    Team t = world.splitStrided(b[0], b[1], b[2], null, 0);
                    assertInvalid(t, "shmem_team_split_strided");
                    assertFalse(t.invalidReason().contains("not a member"), t::invalidReason);
                    assertEquals(-1, world.translatePe(0, t));
                    assertEquals(-1, t.translatePe(0, world));
                    t.close(); // destroying SHMEM_TEAM_INVALID does nothing
                }
                // split_2d with a non-positive xrange: both teams invalid everywhere
                for (int xrange : new int[] {0, -2}) {
                    Team.Split2d s = world.split2d(xrange, null, 0, null, 0);
                    assertInvalid(s.xAxis(), "shmem_team_split_2d");
                    assertInvalid(s.yAxis(), "shmem_team_split_2d");
                }
                // An unknown config mask bit is refused (on every PE, before any communication).
                assertThrows(IllegalArgumentException.class, () -> world.splitStrided(0, 1, 8, TeamConfig.DEFAULT, 2));
                assertThrows(IllegalArgumentException.class, () -> world.splitStrided(0, 1, 8, null, Team.NUM_CONTEXTS));
                assertThrows(IllegalArgumentException.class, () -> new TeamConfig(-1));
                // The parent is still in step after all the failures.
                Team dup = world.splitStrided(0, 1, 8, null, 0);
                assertEquals(shmem.myPe(), dup.myPe());
                dup.sync();
                dup.close();
            }
        });
    }

    @Test
    void splitsOfAnInvalidTeamAreInvalid() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team lone = shmem.teamWorld().splitStrided(0, 0, 1, null, 0);
                if (shmem.myPe() == 1) {
                    assertInvalid(lone.splitStrided(0, 1, 1, null, 0), "shmem_team_split_strided");
                    Team.Split2d s = lone.split2d(1, null, 0, null, 0);
                    assertInvalid(s.xAxis(), "shmem_team_split_2d");
                    assertInvalid(s.yAxis(), "shmem_team_split_2d");
                    assertThrows(IllegalStateException.class, lone::sync);
                    assertThrows(IllegalStateException.class, () -> lone.createCtx(0));
                    assertNull(lone.ptr(null, 0));
                } else {
                    lone.close();
                }
            }
        });
    }

    // ------------------------------------------------------------------ split_2d

    private static void check2d(Shmem shmem, int xrange, int[][] rows, int[][] cols) {
        Team world = shmem.teamWorld();
        int me = shmem.myPe();
        Team.Split2d s = world.split2d(xrange, null, 0, null, 0);
        assertTrue(s.xAxis().isValid() && s.yAxis().isValid());
        int xr = Math.min(xrange, shmem.nPes());
        int x = me % xr, y = me / xr;
        assertEquals(x, s.xAxis().myPe(), "x coordinate");
        assertEquals(y, s.yAxis().myPe(), "y coordinate");
        assertArrayEquals(rows[y], worldMembers(s.xAxis(), world), "row " + y);
        assertArrayEquals(cols[x], worldMembers(s.yAxis(), world), "column " + x);
        // and back: every world PE not in the row/column translates to -1
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            int inRow = world.translatePe(pe, s.xAxis());
            int inCol = world.translatePe(pe, s.yAxis());
            int p = pe;
            assertEquals(IntStream.range(0, rows[y].length).filter(i -> rows[y][i] == p).findFirst().orElse(-1), inRow);
            assertEquals(IntStream.range(0, cols[x].length).filter(i -> cols[x][i] == p).findFirst().orElse(-1), inCol);
        }
        // row <-> column: only this PE is in both
        assertEquals(y, s.xAxis().translatePe(x, s.yAxis()));
        assertEquals(x, s.yAxis().translatePe(y, s.xAxis()));
        s.xAxis().sync();
        s.yAxis().sync();
        s.xAxis().close();
        s.yAxis().close();
    }

    @Test
    void split2dOf22PesXrange5MatchesTheTeamsPaper() {
        // rows (start, stride, size): (0,1,5) (5,1,5) (10,1,5) (15,1,5) (20,1,2);
        // columns: (0,5,5) (1,5,5) (2,5,4) (3,5,4) (4,5,4)
        int[][] rows = {strided(0, 1, 5), strided(5, 1, 5), strided(10, 1, 5), strided(15, 1, 5), strided(20, 1, 2)};
        int[][] cols = {strided(0, 5, 5), strided(1, 5, 5), strided(2, 5, 4), strided(3, 5, 4), strided(4, 5, 4)};
        InProcessTestSupport.run(22, () -> {
            try (Shmem shmem = Shmem.init()) {
                check2d(shmem, 5, rows, cols);
            }
        });
    }

    @Test
    void split2dOf10PesXrange3IsTheSpecGrid() {
        int[][] rows = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}};
        int[][] cols = {{0, 3, 6, 9}, {1, 4, 7}, {2, 5, 8}};
        InProcessTestSupport.run(10, () -> {
            try (Shmem shmem = Shmem.init()) {
                check2d(shmem, 3, rows, cols);
            }
        });
    }

    @Test
    void split2dWithXrangeAboveTheTeamSizeActsAsXrangeEqualToIt() {
        InProcessTestSupport.run(5, () -> {
            try (Shmem shmem = Shmem.init()) {
                int[][] rows = {strided(0, 1, 5)};
                int[][] cols = IntStream.range(0, 5).mapToObj(i -> new int[] {i}).toArray(int[][]::new);
                check2d(shmem, 5, rows, cols);
                check2d(shmem, 6, rows, cols);
                check2d(shmem, 1000, rows, cols);
                // xrange 1: rows of one, one column of everyone
                check2d(shmem, 1, cols, rows);
            }
        });
    }

    // ------------------------------------------------------------------ nested and back-to-back splits

    @Test
    void nestedBackToBackSplitsAreUsableWithoutABarrier() {
        InProcessTestSupport.run(8, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                Team world = shmem.teamWorld();
                SymmetricLongArray box = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                for (int round = 0; round < 20; round++) {
                    // halves, then quarters of each half, then a 2x1 grid of each quarter, with no
                    // synchronization between the splits
                    Team half = world.splitStrided(me < 4 ? 0 : 4, 1, 4, null, 0);
                    Team lowHalf = me < 4 ? half : null;
                    Team upper = world.splitStrided(4, 1, 4, null, 0); // same triplet everywhere: invalid on 0..3
                    assertEquals(me >= 4, upper.isValid());
                    assertEquals(4, half.nPes());
                    assertEquals(me % 4, half.myPe());
                    Team quarter = half.splitStrided(half.myPe() < 2 ? 0 : 2, 1, 2, null, 0);
                    Team reversedHalf = half.splitStrided(3, -1, 4, null, 0);
                    Team.Split2d grid = quarter.split2d(1, null, 0, null, 0);
                    assertEquals(me % 2, quarter.myPe());
                    assertEquals(3 - me % 4, reversedHalf.myPe());
                    assertEquals(1, grid.xAxis().nPes());
                    assertEquals(2, grid.yAxis().nPes());
                    assertEquals(me, grid.yAxis().translatePe(grid.yAxis().myPe(), world));
                    assertEquals(me, reversedHalf.translatePe(reversedHalf.myPe(), world));
                    assertEquals(me % 2, quarter.translatePe(quarter.myPe(), grid.yAxis()));
                    // now sync on the children (the deepest first) and use them to exchange data
                    grid.yAxis().sync();
                    grid.xAxis().sync();
                    reversedHalf.sync();
                    quarter.sync();
                    // through a context of the reversed half: team PE 0 is the half's top PE
                    try (Context ctx = reversedHalf.createCtx(0)) {
                        ctx.p(box, reversedHalf.myPe(), 1000L * round + me, 0);
                        ctx.quiet();
                    }
                    half.sync();
                    if (reversedHalf.myPe() == 0) {
                        int base = lowHalf != null ? 0 : 4;
                        for (int i = 0; i < 4; i++) {
                            assertEquals(1000L * round + base + 3 - i, box.get(i), "round " + round + " slot " + i);
                        }
                    }
                    half.sync();
                    grid.yAxis().close();
                    grid.xAxis().close();
                    reversedHalf.close();
                    quarter.close();
                    half.close();
                    upper.close();
                }
                shmem.barrierAll();
                box.close();
            }
        });
    }

    // ------------------------------------------------------------------ translation

    @Test
    void translatePeBothWaysIncludingNonMembersAndInvalidTeams() {
        InProcessTestSupport.run(6, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                Team odd = world.splitStrided(1, 2, 3, null, 0); // world 1, 3, 5
                Team top = world.splitStrided(5, -1, 4, null, 0); // world 5, 4, 3, 2
                for (int pe = 0; pe < n; pe++) {
                    assertEquals(pe, world.translatePe(pe, world));
                    // world -> odd / top (valid on members only; -1 on others since the destination is invalid)
                    int expectOdd = odd.isValid() && pe % 2 == 1 ? pe / 2 : -1;
                    int expectTop = top.isValid() && pe >= 2 ? 5 - pe : -1;
                    assertEquals(expectOdd, world.translatePe(pe, odd), "world " + pe + " -> odd");
                    assertEquals(expectTop, world.translatePe(pe, top), "world " + pe + " -> top");
                }
                // out-of-range source PEs
                assertEquals(-1, world.translatePe(-1, world));
                assertEquals(-1, world.translatePe(n, world));
                if (odd.isValid()) {
                    assertArrayEquals(new int[] {1, 3, 5}, worldMembers(odd, world));
                    assertEquals(-1, odd.translatePe(3, world));
                    if (top.isValid()) { // PEs 3 and 5: odd -> top: 1 -> -1, 3 -> 2, 5 -> 0
                        assertEquals(-1, odd.translatePe(0, top));
                        assertEquals(2, odd.translatePe(1, top));
                        assertEquals(0, odd.translatePe(2, top));
                        assertEquals(1, top.translatePe(2, odd)); // world 3
                        assertEquals(-1, top.translatePe(1, odd)); // world 4
                    }
                }
                // the invalid team on either side gives -1
                Team evens = world.splitStrided(0, 2, 3, null, 0); // world 0, 2, 4
                Team notMine = odd.isValid() ? evens : odd;
                assertFalse(notMine.isValid());
                for (int pe = -1; pe <= n; pe++) {
                    assertEquals(-1, world.translatePe(pe, notMine));
                    assertEquals(-1, notMine.translatePe(pe, world));
                }
                evens.close();
                top.close();
                odd.close();
            }
        });
    }

    // ------------------------------------------------------------------ configuration

    @Test
    void getConfigReturnsNumContextsOnlyWithItsMask() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                assertEquals(TeamConfig.DEFAULT, world.getConfig());
                assertEquals(0, TeamConfig.DEFAULT.numContexts());
                Team withMask = world.splitStrided(0, 1, 3, new TeamConfig(7), Team.NUM_CONTEXTS);
                Team withoutMask = world.splitStrided(0, 1, 3, new TeamConfig(7), 0);
                Team nullConfig = world.splitStrided(0, 1, 3, null, 0);
                assertEquals(7, withMask.getConfig().numContexts());
                assertEquals(0, withoutMask.getConfig().numContexts());
                assertEquals(0, nullConfig.getConfig().numContexts());
                // split_2d: x and y configs apply to their own axes
                Team.Split2d s = world.split2d(3, new TeamConfig(2), Team.NUM_CONTEXTS, new TeamConfig(5), 0);
                assertEquals(2, s.xAxis().getConfig().numContexts());
                assertEquals(0, s.yAxis().getConfig().numContexts());
                Team.Split2d t = world.split2d(1, new TeamConfig(2), 0, new TeamConfig(5), Team.NUM_CONTEXTS);
                assertEquals(0, t.xAxis().getConfig().numContexts());
                assertEquals(5, t.yAxis().getConfig().numContexts());
                for (Team team : new Team[] {t.yAxis(), t.xAxis(), s.yAxis(), s.xAxis(), nullConfig, withoutMask, withMask}) {
                    team.close();
                }
            }
        });
    }

    // ------------------------------------------------------------------ predefined teams

    @Test
    void predefinedTeamsInProcess() {
        InProcessTestSupport.runWith(4, InProcessTestSupport.oneNodeEnv(), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                assertSame(world, shmem.team());
                assertEquals(me, world.myPe());
                assertEquals(n, world.nPes());
                int[] all = IntStream.range(0, n).toArray();
                // one host: shared and host hold every PE in world order
                for (Team t : new Team[] {world, shmem.teamShared(), shmem.teamHost()}) {
                    assertTrue(t.isValid());
                    assertEquals(me, t.myPe());
                    assertEquals(n, t.nPes());
                    assertArrayEquals(all, worldMembers(t, world));
                    t.sync();
                }
                Team leaders = shmem.teamLeaders();
                if (me == 0) {
                    assertTrue(leaders.isValid());
                    assertEquals(0, leaders.myPe());
                    assertEquals(1, leaders.nPes());
                    assertEquals(0, leaders.translatePe(0, world));
                    leaders.sync();
                } else {
                    assertFalse(leaders.isValid());
                    assertEquals(-1, leaders.myPe());
                    assertNotNull(leaders.invalidReason());
                    assertEquals(-1, world.translatePe(0, leaders));
                }
                for (Team t : new Team[] {world, shmem.teamShared(), shmem.teamHost()}) {
                    assertEquals(TeamConfig.DEFAULT, t.getConfig());
                    IllegalStateException e = assertThrows(IllegalStateException.class, t::close);
                    assertTrue(e.getMessage().contains("shmem_team_destroy"), e::getMessage);
                    assertTrue(t.isValid());
                }
                if (me == 0) {
                    assertThrows(IllegalStateException.class, leaders::close);
                } else {
                    leaders.close(); // the invalid handle: nothing happens
                }
                // the predefined teams still work
                world.sync();
                shmem.teamShared().sync();
                shmem.barrierAll();
            }
        }).orThrow();
    }

    // ------------------------------------------------------------------ destroyed teams

    @Test
    void usingADestroyedTeamThrowsNamingTheRoutine() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                Team t = world.splitStrided(0, 1, 2, null, 0);
                t.close();
                assertFalse(t.isValid());
                assertNotNull(t.invalidReason());
                String[] uses = {"shmem_team_sync", "shmem_team_create_ctx", "shmem_team_split_strided",
                    "shmem_team_split_2d", "shmem_team_get_config"};
                Runnable[] calls = {t::sync, () -> t.createCtx(0), () -> t.splitStrided(0, 1, 1, null, 0),
                    () -> t.split2d(1, null, 0, null, 0), t::getConfig};
                for (int i = 0; i < calls.length; i++) {
                    IllegalStateException e = assertThrows(IllegalStateException.class, calls[i]::run, uses[i]);
                    assertTrue(e.getMessage().contains(uses[i]), e::getMessage);
                }
                // a destroyed destination translates to -1
                assertEquals(-1, world.translatePe(0, t));
                shmem.barrierAll();
            }
        });
    }

    /**
     * {@link Team}'s contract: an invalid team's {@code myPe()}/{@code nPes()} return -1 and its
     * {@code translatePe} gives -1, and "destroyed teams behave the same".
     */
    @Test
    void destroyedTeamAnswersMinusOneLikeAnInvalidTeam() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team t = shmem.teamWorld().splitStrided(0, 1, 2, null, 0);
                t.close();
                assertEquals(-1, t.myPe());
                assertEquals(-1, t.nPes());
                assertEquals(-1, t.translatePe(0, shmem.teamWorld()));
            }
        });
    }
}
