package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;

/**
 * Team collectives over the world team (the Java side of peer/coll.c, which uses the 1.4
 * active-set forms because its OSHMEM has no teams):
 * <ul>
 * <li>{@code reduce op=long_sum elems=<n> pes=<p> us=<v>}: {@code Team.sumReduce} on longs</li>
 * <li>{@code bcast elems=<n> pes=<p> us=<v>}: {@code Team.broadcast} of longs from root 0</li>
 * <li>{@code fcollect elems=<n per PE> pes=<p> us=<v>}: {@code Team.fcollect} of longs</li>
 * <li>{@code alltoall elems=<n per pair> pes=<p> us=<v>}: {@code Team.alltoall} of longs</li>
 * </ul>
 * with {@code n} = 1, 1024, 65536 and C's iteration counts (20000, 4000, 100, scaled). As in C the
 * calls run back to back and alternate between two destination sets (C alternates its
 * pSync/pWrk/dest sets; a team collective needs no pSync, so only the destinations alternate), and
 * the last destination is checked after each size with C's expected values. One difference: a team
 * broadcast also writes the root's {@code dest} (the active-set one leaves it alone), so the root is
 * checked too.
 */
public final class Coll {
    /** Largest element count (C's MAXE). */
    static final long MAXE = 64L * 1024;
    /** The element counts, as C's {@code sizes}. */
    static final long[] SIZES = {1, 1024, MAXE};
    /** The measurement names, in C's order. */
    static final String[] NAMES = {"reduce op=long_sum", "bcast", "fcollect", "alltoall"};

    private Coll() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int np = shmem.nPes();
            int nrep = knobs.reps();
            Team world = shmem.teamWorld();
            SymmetricLongArray[] dst = {shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np),
                    shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np)};
            SymmetricLongArray src = shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np);
            for (long i = 0; i < MAXE * np; i++) {
                src.set(i, i + 7L * me);
            }
            shmem.barrierAll();
            int status = 0;
            int k = 0;
            double[] v = new double[nrep];
            for (int kind = 0; kind < NAMES.length && status == 0; kind++) {
                for (long ne : SIZES) {
                    long iters = knobs.scaled(ne == 1 ? 20000 : ne == 1024 ? 4000 : 100);
                    long bytesPerOp = ne * Long.BYTES * (kind >= 2 ? np : 1);
                    try (Warmup warmup = new Warmup(shmem, knobs)) {
                        long t0 = System.nanoTime();
                        long n = knobs.warmup(iters / 10 + 2, bytesPerOp);
                        do {
                            k = calls(world, kind, dst, src, ne, n, k);
                        } while (warmup.again(t0));
                    }
                    for (int r = 0; r < nrep; r++) {
                        shmem.barrierAll();
                        long t0 = System.nanoTime();
                        k = calls(world, kind, dst, src, ne, iters, k);
                        long t1 = System.nanoTime();
                        v[r] = Bench.usPer(t1 - t0, iters);
                    }
                    shmem.barrierAll();
                    if (!check(kind, ne, np, me, dst[k ^ 1])) {
                        shmem.globalExit(3);
                    }
                    if (me == 0) {
                        Bench.line("%s elems=%d pes=%d us=%.3f", NAMES[kind], ne, np, Bench.median(v, nrep));
                    }
                    shmem.barrierAll();
                }
            }
            shmem.barrierAll();
            src.close();
            dst[1].close();
            dst[0].close();
            return status;
        }
    }

    /** {@code n} back-to-back calls alternating the destination sets from {@code k}; returns the next set. */
    private static int calls(Team world, int kind, SymmetricLongArray[] dst, SymmetricLongArray src, long ne, long n,
            int k) {
        for (long i = 0; i < n; i++) {
            switch (kind) {
                case 0 -> world.sumReduce(dst[k], src, ne);
                case 1 -> world.broadcast(dst[k], src, ne, 0);
                case 2 -> world.fcollect(dst[k], src, ne);
                default -> world.alltoall(dst[k], src, ne);
            }
            k ^= 1;
        }
        return k;
    }

    /** C's check, on every PE (the broadcast root included). */
    private static boolean check(int kind, long ne, int np, int me, SymmetricLongArray d) {
        long len = kind >= 2 ? ne * np : ne;
        for (long j = 0; j < len; j++) {
            long p = j / ne;
            long i = j % ne;
            long want = switch (kind) {
                case 0 -> (long) np * i + 7L * np * (np - 1) / 2; // sum of src
                case 1 -> i; // root 0's src
                case 2 -> i + 7L * p; // PE p's block
                default -> (long) me * ne + i + 7L * p; // PE p's block me
            };
            if (d.get(j) != want) {
                System.err.printf("coll kind %d elems %d: PE %d d[%d]=%d want %d%n", kind, ne, me, j, d.get(j), want);
                return false;
            }
        }
        return true;
    }
}
