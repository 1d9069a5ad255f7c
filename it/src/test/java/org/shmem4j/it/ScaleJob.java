package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;

/**
 * The scale program of issue 25 as a multi-JVM job: init, barrier, a sum reduction over the
 * world, a 2D split into the rows and columns of a grid (xrange = args[0]) with a sum reduction on
 * each row and each column, fcollect over the world, finalize. Every PE checks every result and
 * throws at the first wrong one (failing the job); PE 0 prints
 * {@code scale: <n> PEs ok, init <ms> ms} at the end.
 */
public final class ScaleJob {
    private ScaleJob() {}

    private static void check(long expected, long actual, String what) {
        if (expected != actual) {
            throw new IllegalStateException(what + ": expected " + expected + ", got " + actual);
        }
    }

    public static void main(String[] args) {
        int columns = Integer.parseInt(args[0]);
        long start = System.nanoTime();
        try (Shmem shmem = Shmem.init()) {
            long initMillis = (System.nanoTime() - start) / 1_000_000;
            int me = shmem.myPe(), n = shmem.nPes();
            shmem.barrierAll();
            Team world = shmem.teamWorld();
            SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            SymmetricLongArray all = shmem.calloc(ValueLayout.JAVA_LONG, n);
            src.set(0, me);
            world.sumReduce(dst, src, 1);
            check((long) n * (n - 1) / 2, dst.get(0), "PE " + me + ": sum over the world");

            // grid of `columns` columns; the last row may be short
            Team.Split2d grid = world.split2d(columns, null, 0, null, 0);
            Team row = grid.xAxis(), column = grid.yAxis();
            int r = me / columns, c = me % columns;
            check(c, row.myPe(), "PE " + me + ": its place in its row");
            check(r, column.myPe(), "PE " + me + ": its place in its column");
            long rowSum = 0, columnSum = 0;
            for (int pe = r * columns; pe < Math.min(n, (r + 1) * columns); pe++) {
                rowSum += pe;
            }
            for (int pe = c; pe < n; pe += columns) {
                columnSum += pe;
            }
            row.sumReduce(dst, src, 1);
            check(rowSum, dst.get(0), "PE " + me + ": sum over row " + r);
            column.sumReduce(dst, src, 1);
            check(columnSum, dst.get(0), "PE " + me + ": sum over column " + c);

            world.fcollect(all, src, 1);
            for (int pe = 0; pe < n; pe++) {
                check(pe, all.get(pe), "PE " + me + ": fcollect's element " + pe);
            }
            column.close();
            row.close();
            all.close();
            dst.close();
            src.close();
            shmem.barrierAll();
            if (me == 0) {
                System.out.println("scale: " + n + " PEs ok, init " + initMillis + " ms");
            }
        }
    }
}
