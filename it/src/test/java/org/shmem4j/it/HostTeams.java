package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;

/**
 * A PE program for pseudo-host jobs ({@code oshrun --hosts}): prints its SHARED, host and leaders
 * teams (as world PEs) and which PEs {@code shmem_ptr} reaches, then runs a barrier, a broadcast
 * and sum reductions (long and double) on the world team, checking them against references:
 * {@code PE <me> shared=[..] host=[..] leaders=[..] ptr=[..] ok}. A mismatch throws (failing the job).
 */
public final class HostTeams {
    private HostTeams() {}

    static int[] members(Team t, Team world) {
        return t.isValid() ? IntStream.range(0, t.nPes()).map(i -> t.translatePe(i, world)).toArray() : new int[0];
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes();
            Team world = shmem.teamWorld();
            SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1000);
            SymmetricLongArray y = shmem.calloc(ValueLayout.JAVA_LONG, 1000);
            SymmetricDoubleArray d = shmem.calloc(ValueLayout.JAVA_DOUBLE, 16);
            SymmetricDoubleArray e = shmem.calloc(ValueLayout.JAVA_DOUBLE, 16);
            int[] ptr = IntStream.range(0, n).filter(pe -> shmem.ptr(x, pe) != null).toArray();
            for (int pe = 0; pe < n; pe++) {
                check(shmem.peAccessible(pe), "PE " + pe + " not accessible");
            }
            for (int round = 0; round < 20; round++) {
                x.set(0, round * 1000L + me);
                world.sync();
                for (int pe = 0; pe < n; pe++) {
                    check(shmem.g(x, 0, pe) == round * 1000L + pe, "barrier: PE " + pe + " in round " + round);
                }
                world.sync();
                for (int i = 0; i < 1000; i++) {
                    x.set(i, me * 100_000L + i + round);
                }
                int root = round % n;
                world.broadcast(y, x, 1000, root);
                check(y.get(999) == root * 100_000L + 999 + round, "broadcast from " + root);
                world.sumReduce(y, x, 1000);
                check(y.get(7) == 100_000L * n * (n - 1) / 2 + n * (7L + round), "sum reduce: " + y.get(7));
                for (int i = 0; i < 16; i++) {
                    d.set(i, (me + 1) * 0.25 + i);
                }
                world.sumReduce(e, d, 16);
                check(e.get(3) == 0.25 * n * (n + 1) / 2 + 3.0 * n, "double sum reduce: " + e.get(3));
            }
            System.out.println("PE " + me + " shared=" + Arrays.toString(members(shmem.teamShared(), world)) + " host="
                    + Arrays.toString(members(shmem.teamHost(), world)) + " leaders="
                    + Arrays.toString(members(shmem.teamLeaders(), world)) + " ptr=" + Arrays.toString(ptr) + " ok");
            shmem.barrierAll();
            e.close();
            d.close();
            y.close();
            x.close();
        }
    }
}
