package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 *
 * <p>Where some peers are on other nodes, each size also costs {@value #COUNTED} calls counted by
 * {@link Shmem#performanceCounters}: a comment line gives the network operations and bytes per call
 * per PE (mean over the PEs, and the largest PE's), beside what an optimal algorithm needs with
 * one PE per node ({@link #optimal}). These counts do not depend on the machine's noise or the fabric.
 *
 * <p>For investigations, {@code COLL_KINDS} (names of {@link #NAMES}' first words, comma-separated)
 * and {@code COLL_SIZES} (element counts, in the order given, repeats allowed) narrow or reorder the
 * rows: a row's figure depends on what ran before it in the job (stop 38's note: the first timed
 * row of a code path measures slower than the same row measured again).
 */
public final class Coll {
    /** Largest element count (C's MAXE). */
    static final long MAXE = 64L * 1024;
    /** The element counts, as C's {@code sizes}. */
    static final long[] SIZES = {1, 1024, MAXE};
    /** The measurement names, in C's order. */
    static final String[] NAMES = {"reduce op=long_sum", "bcast", "fcollect", "alltoall"};
    /** Calls whose network cost is counted, per size. */
    static final int COUNTED = 20;

    private Coll() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        boolean[] kinds = kinds(); // bad knobs fail before the job starts
        long[] sizes = sizes();
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int np = shmem.nPes();
            int nrep = knobs.reps();
            Team world = shmem.teamWorld();
            SymmetricLongArray[] dst = {shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np),
                    shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np)};
            SymmetricLongArray src = shmem.malloc(ValueLayout.JAVA_LONG, MAXE * np);
            SymmetricLongArray cost = shmem.calloc(ValueLayout.JAVA_LONG, 2L * np); // at PE 0: each PE's operations, bytes
            for (long i = 0; i < MAXE * np; i++) {
                src.set(i, i + 7L * me);
            }
            shmem.barrierAll();
            int status = 0;
            int k = 0;
            double[] v = new double[nrep];
            for (int kind = 0; kind < NAMES.length && status == 0; kind++) {
                if (!kinds[kind]) {
                    continue;
                }
                for (long ne : sizes) {
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
                    k = countNetworkCost(shmem, kind, dst, src, cost, ne, k);
                    shmem.barrierAll();
                }
            }
            shmem.barrierAll();
            cost.close();
            src.close();
            dst[1].close();
            dst[0].close();
            return status;
        }
    }

    /** The kinds {@code COLL_KINDS} names (unset: all), by index in {@link #NAMES}; an unknown name is refused. */
    private static boolean[] kinds() {
        String names = System.getenv("COLL_KINDS");
        boolean[] run = new boolean[NAMES.length];
        List<String> known = Arrays.stream(NAMES).map(n -> n.split(" ")[0]).toList();
        if (names == null) {
            Arrays.fill(run, true);
            return run;
        }
        for (String name : names.split(",")) {
            int kind = known.indexOf(name);
            if (kind < 0) {
                throw new IllegalArgumentException("COLL_KINDS: no kind '" + name + "' (known: " + known + ")");
            }
            run[kind] = true;
        }
        return run;
    }

    /** The element counts of {@code COLL_SIZES} (unset: {@link #SIZES}), each in 1..{@link #MAXE}. */
    private static long[] sizes() {
        String sizes = System.getenv("COLL_SIZES");
        if (sizes == null) {
            return SIZES;
        }
        String[] items = sizes.split(",");
        long[] ne = new long[items.length];
        for (int i = 0; i < items.length; i++) {
            try {
                ne[i] = Long.parseLong(items[i].trim());
            } catch (NumberFormatException e) {
                ne[i] = 0; // refused below with the others
            }
            if (ne[i] < 1 || ne[i] > MAXE) {
                throw new IllegalArgumentException("COLL_SIZES: '" + items[i] + "' is not an element count in 1.." + MAXE);
            }
        }
        return ne;
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

    /**
     * Counts what {@value #COUNTED} calls send over the network on every PE, and PE 0 prints it
     * (nothing when every peer is on this node); returns the next destination set.
     */
    private static int countNetworkCost(Shmem shmem, int kind, SymmetricLongArray[] dst, SymmetricLongArray src,
            SymmetricLongArray cost, long ne, int k) {
        int me = shmem.myPe(), np = shmem.nPes();
        shmem.barrierAll();
        Map<String, Long> before = shmem.performanceCounters();
        k = calls(shmem.teamWorld(), kind, dst, src, ne, COUNTED, k);
        Map<String, Long> after = shmem.performanceCounters();
        long operations = 0;
        for (String name : List.of("network.puts", "network.gets", "network.atomics", "network.messages")) {
            operations += after.get(name) - before.get(name);
        }
        shmem.put(cost, 2L * me, new long[] {operations, after.get("network.bytes") - before.get("network.bytes")}, 0, 2, 0);
        shmem.barrierAll();
        if (me == 0) {
            long total = 0, most = 0, bytes = 0;
            for (int pe = 0; pe < np; pe++) {
                total += cost.get(2L * pe);
                most = Math.max(most, cost.get(2L * pe));
                bytes += cost.get(2L * pe + 1);
            }
            if (total > 0) {
                double[] best = optimal(kind, ne * Long.BYTES, np);
                Bench.line("# network %s elems=%d pes=%d: per call per PE %.2f operations (at most %.2f at one PE), %.0f bytes;"
                        + " optimal with one PE per node %.2f operations, %.0f bytes", NAMES[kind], ne, np,
                        (double) total / COUNTED / np, (double) most / COUNTED, (double) bytes / COUNTED / np, best[0], best[1]);
            }
        }
        return k;
    }

    /**
     * What a collective needs to send per call per PE, averaged over {@code np} PEs each on a node
     * of its own, with {@code bytes} per block: operations (messages) and bytes. Broadcast: every
     * PE but the root receives the block once. Reduce (all PEs get the sum): the data must be
     * combined and spread, 2 (N - 1) / N blocks per PE in bytes (reduce-scatter + allgather), and at
     * least one operation per PE in and one out: 2 (N - 1) / N messages on a tree. Fcollect and
     * alltoall: every PE receives N - 1 blocks, in ceil(log2 N) messages at best (Bruck).
     */
    static double[] optimal(int kind, long bytes, int np) {
        double others = np - 1;
        double logN = np > 1 ? Math.ceil(Math.log(np) / Math.log(2)) : 0;
        return switch (kind) {
            case 0 -> new double[] {2 * others / np, 2 * others / np * bytes};
            case 1 -> new double[] {others / np, others / np * bytes};
            default -> new double[] {logN, others * bytes};
        };
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
