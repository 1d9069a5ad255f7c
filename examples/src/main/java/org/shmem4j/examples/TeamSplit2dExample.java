package org.shmem4j.examples;

import org.shmem4j.Shmem;
import org.shmem4j.Team;

/**
 * Spec Example 12 (section 9.4.7, {@code shmem_team_split_2d}): two 2-D splits make a 3-D
 * Cartesian split. The world is split into rows of {@code xdim} PEs ({@code xteam}) and columns
 * ({@code yzteam}); each column is split again into rows of {@code ydim} ({@code yteam}) and
 * columns ({@code zteam}); {@code yzteam} is then destroyed. PE 0 prints the dimensions, and in
 * coordinate order, one {@code shmem_team_sync(SHMEM_TEAM_WORLD)} per point, each PE prints
 * {@code (x, y, z) is mype = pe}. Runs on any number of PEs (the dimensions are the most balanced
 * factorization of {@code npes}).
 *
 * <p>Checks (added; the C program only prints): {@code pe == x + xdim * (y + ydim * z)}; the
 * three teams have {@code xdim}, {@code ydim}, {@code zdim} PEs; translating the coordinates of
 * the neighbours along each axis back to the world gives the expected PE numbers; the destroyed
 * {@code yzteam} is invalid.
 */
public final class TeamSplit2dExample {
    private TeamSplit2dExample() {
    }

    /** Finds x and y such that x * y == npes and abs(x - y) is minimized. */
    static int[] findXyDims(int npes) {
        for (int divider = (int) Math.ceil(Math.sqrt(npes)); divider >= 1; divider--) {
            if (npes % divider == 0) {
                return new int[] {divider, npes / divider};
            }
        }
        throw new IllegalArgumentException("npes " + npes);
    }

    /** Finds x, y and z such that x * y * z == npes and abs(x - y) + abs(x - z) + abs(y - z) is minimized. */
    static int[] findXyzDims(int npes) {
        for (int divider = (int) Math.ceil(Math.cbrt(npes)); divider >= 1; divider--) {
            if (npes % divider == 0) {
                int[] yz = findXyDims(npes / divider);
                return new int[] {divider, yz[0], yz[1]};
            }
        }
        return new int[] {1, 1, 1};
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            Team world = shmem.teamWorld();

            int[] dims = findXyzDims(npes);
            int xdim = dims[0];
            int ydim = dims[1];
            int zdim = dims[2];

            if (mype == 0) {
                System.out.printf("xdim = %d, ydim = %d, zdim = %d%n", xdim, ydim, zdim);
            }

            Team.Split2d first = world.split2d(xdim, null, 0, null, 0);
            Team xteam = first.xAxis();
            Team yzteam = first.yAxis();
            // yzteam is immediately ready to be used in collectives
            Team.Split2d second = yzteam.split2d(ydim, null, 0, null, 0);
            Team yteam = second.xAxis();
            Team zteam = second.yAxis();

            // We don't need the yzteam anymore
            yzteam.close();

            int myX = xteam.myPe();
            int myY = yteam.myPe();
            int myZ = zteam.myPe();

            for (int zdx = 0; zdx < zdim; zdx++) {
                for (int ydx = 0; ydx < ydim; ydx++) {
                    for (int xdx = 0; xdx < xdim; xdx++) {
                        if (myX == xdx && myY == ydx && myZ == zdx) {
                            System.out.printf("(%d, %d, %d) is mype = %d%n", myX, myY, myZ, mype);
                            System.out.flush();
                        }
                        world.sync();
                    }
                }
            }

            // added checks
            Checks.expectEquals(shmem, "dims product", npes, xdim * ydim * zdim);
            Checks.expectEquals(shmem, "(x, y, z) of PE " + mype, new int[] {mype % xdim, mype / xdim % ydim, mype / (xdim * ydim)},
                    new int[] {myX, myY, myZ});
            Checks.expectEquals(shmem, "team sizes", new int[] {xdim, ydim, zdim},
                    new int[] {xteam.nPes(), yteam.nPes(), zteam.nPes()});
            Checks.expectEquals(shmem, "x neighbour", mype - myX + (myX + 1) % xdim,
                    xteam.translatePe((myX + 1) % xdim, world));
            Checks.expectEquals(shmem, "y neighbour", mype + ((myY + 1) % ydim - myY) * xdim,
                    yteam.translatePe((myY + 1) % ydim, world));
            Checks.expectEquals(shmem, "z neighbour", mype + ((myZ + 1) % zdim - myZ) * xdim * ydim,
                    zteam.translatePe((myZ + 1) % zdim, world));
            Checks.check(shmem, !yzteam.isValid() && yzteam.myPe() == -1 && yzteam.nPes() == -1,
                    "the destroyed yzteam is invalid: " + yzteam);

            xteam.close();
            yteam.close();
            zteam.close();
        }
    }
}
