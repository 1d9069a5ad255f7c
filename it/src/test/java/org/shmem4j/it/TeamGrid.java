package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;

/**
 * A PE program for multi-JVM jobs: splits the world with {@code split_2d} (xrange = args[0]),
 * checks both teams' members by translation, exchanges data over team contexts (team-relative
 * PE numbers) with team syncs in between, and prints
 * {@code PE <me> x=<x> y=<y> row=[..] column=[..] ok}. Any mismatch throws (failing the job).
 */
public final class TeamGrid {
    private TeamGrid() {}

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    static int[] members(Team t, Team world) {
        return IntStream.range(0, t.nPes()).map(i -> t.translatePe(i, world)).toArray();
    }

    public static void main(String[] args) {
        int xrange = Integer.parseInt(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes();
            Team world = shmem.teamWorld();
            SymmetricLongArray slots = shmem.calloc(ValueLayout.JAVA_LONG, 2L * n);
            SymmetricLongArray counters = shmem.calloc(ValueLayout.JAVA_LONG, 2);
            SymmetricLongArray ring = shmem.calloc(ValueLayout.JAVA_LONG, 2);

            Team.Split2d grid = world.split2d(xrange, null, 0, null, 0);
            Team row = grid.xAxis(), col = grid.yAxis();
            check(row.isValid() && col.isValid(), "invalid: " + row.invalidReason() + " / " + col.invalidReason());
            int xr = Math.min(xrange, n), x = me % xr, y = me / xr;
            check(row.myPe() == x && col.myPe() == y, "coordinates " + row.myPe() + "," + col.myPe());
            int[] rowMembers = members(row, world), colMembers = members(col, world);
            int[] expectRow = IntStream.range(y * xr, Math.min(n, y * xr + xr)).toArray();
            int[] expectCol = IntStream.iterate(x, p -> p < n, p -> p + xr).toArray();
            check(Arrays.equals(rowMembers, expectRow), "row " + Arrays.toString(rowMembers));
            check(Arrays.equals(colMembers, expectCol), "column " + Arrays.toString(colMembers));

            try (Context rowCtx = row.createCtx(0); Context colCtx = col.createCtx(Context.CTX_PRIVATE)) {
                check(rowCtx.team() == row && colCtx.team() == col, "ctx.team()");
                // gather world numbers to each team's PE 0 (team-relative target 0)
                rowCtx.p(slots, x, me + 1, 0);
                long r = rowCtx.atomicFetchAdd(counters, 0, 1L, 0);
                colCtx.p(slots, n + y, me + 1, 0);
                long c = colCtx.atomicFetchAdd(counters, 1, 1L, 0);
                check(r >= 0 && r < row.nPes() && c >= 0 && c < col.nPes(), "fetched " + r + ", " + c);
                rowCtx.quiet();
                colCtx.quiet();
                row.sync();
                col.sync();
                if (x == 0) {
                    check(counters.get(0) == row.nPes(), "row counter " + counters.get(0));
                    for (int i = 0; i < row.nPes(); i++) {
                        check(slots.get(i) == rowMembers[i] + 1, "row slot " + i + " = " + slots.get(i));
                    }
                }
                if (y == 0) {
                    check(counters.get(1) == col.nPes(), "column counter " + counters.get(1));
                    for (int j = 0; j < col.nPes(); j++) {
                        check(slots.get(n + j) == colMembers[j] + 1, "column slot " + j + " = " + slots.get(n + j));
                    }
                }
                // rings inside each team, each step closed by the team's sync
                for (long k = 1; k <= rounds; k++) {
                    rowCtx.p(ring, 0, k * 1000 + x, (x + 1) % row.nPes());
                    rowCtx.quiet();
                    row.sync();
                    int left = (x - 1 + row.nPes()) % row.nPes();
                    check(ring.get(0) == k * 1000 + left, "row ring " + k + ": " + ring.get(0));
                    colCtx.p(ring, 1, k * 1000 + y, (y + 1) % col.nPes());
                    colCtx.quiet();
                    col.sync();
                    int up = (y - 1 + col.nPes()) % col.nPes();
                    check(ring.get(1) == k * 1000 + up, "column ring " + k + ": " + ring.get(1));
                    row.sync();
                    col.sync();
                }
            }
            System.out.printf("PE %d x=%d y=%d row=%s column=%s ok%n", me, x, y, Arrays.toString(rowMembers),
                    Arrays.toString(colMembers));
            col.close();
            row.close();
            shmem.barrierAll();
            ring.close();
            counters.close();
            slots.close();
        }
    }
}
