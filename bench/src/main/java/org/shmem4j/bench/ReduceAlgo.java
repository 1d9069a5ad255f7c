package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricFloatArray;
import org.shmem4j.Team;
import org.shmem4j.core.param.AlgorithmNames;

/**
 * The teams paper's figure-4 experiment: float sum reduction latency by message size, for one
 * reduce algorithm per job. The algorithm is whatever {@code SHMEM_REDUCE_ALGORITHM} selects (the
 * library reads it at init); bench/run.sh's {@code reduce_algo} runs one job per name of
 * {@link AlgorithmNames#REDUCE} and {@code auto} ({@code java ... ReduceAlgo --names} prints them).
 * <ul>
 * <li>{@code reduce op=float_sum algo=<name> elems=<n> pes=<p> us=<v>} ({@code mode=world}):
 *     {@code Team.sumReduce} over the world team.</li>
 * <li>{@code reduce op=float_sum algo=<name> mode=host_leaders elems=<n> pes=<p> us=<v>}: the
 *     two-level form: a sum over this PE's host team, a sum over the host leaders' team (in place,
 *     on the leaders only), then a broadcast from the leader over the host team. Meant for jobs
 *     with several (pseudo-)hosts ({@code oshrun --hosts H}); on one host it degenerates to a host
 *     reduce plus a broadcast.</li>
 * </ul>
 * Sizes {@code n = 4^0 .. 4^10} (1 to 1048576 floats); {@code min(20000, max(20, 2000000 / n))}
 * back-to-back calls per repeat (scaled by PEER_SCALE), alternating two destination sets; the result
 * is checked after each size. PE 0 prints; the median of PEER_REPS repeats.
 */
public final class ReduceAlgo {
    /** Largest element count. */
    static final long MAXE = 1L << 20;

    private ReduceAlgo() {
    }

    /** {@code ReduceAlgo --names}: prints the reduce algorithm choices, one a line ({@code auto} first). */
    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("--names")) {
            AlgorithmNames.choices(AlgorithmNames.REDUCE).forEach(System.out::println);
            return;
        }
        System.exit(run(Knobs.fromEnvironment(), args.length == 1 ? args[0] : "world"));
    }

    /** The element counts: powers of 4 from 1 to {@link #MAXE}. */
    static long[] sizes() {
        return java.util.stream.LongStream.iterate(1, n -> n <= MAXE, n -> n * 4).toArray();
    }

    /** The algorithm label: the {@code SHMEM_REDUCE_ALGORITHM} this process was started with, else {@code auto}. */
    static String algorithm() {
        String a = System.getenv("SHMEM_REDUCE_ALGORITHM");
        return a == null || a.isBlank() ? "auto" : a.trim();
    }

    /** Runs the benchmark on this PE in {@code mode} ({@code world} or {@code host_leaders}); returns the exit status. */
    public static int run(Knobs knobs, String mode) {
        boolean hier = switch (mode) {
            case "world" -> false;
            case "host_leaders" -> true;
            default -> throw new IllegalArgumentException("mode must be world or host_leaders: " + mode);
        };
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int np = shmem.nPes();
            int nrep = knobs.reps();
            Team world = shmem.teamWorld();
            Team host = shmem.teamHost();
            Team leaders = shmem.teamLeaders();
            SymmetricFloatArray[] dst = {shmem.malloc(ValueLayout.JAVA_FLOAT, MAXE), shmem.malloc(ValueLayout.JAVA_FLOAT, MAXE)};
            SymmetricFloatArray[] tmp = hier
                    ? new SymmetricFloatArray[] {shmem.malloc(ValueLayout.JAVA_FLOAT, MAXE), shmem.malloc(ValueLayout.JAVA_FLOAT, MAXE)}
                    : null;
            SymmetricFloatArray src = shmem.malloc(ValueLayout.JAVA_FLOAT, MAXE);
            for (long i = 0; i < MAXE; i++) {
                src.set(i, (float) (i % 1024 + me)); // small integers: every sum is exact
            }
            shmem.barrierAll();
            String label = "reduce op=float_sum algo=" + algorithm() + (hier ? " mode=host_leaders" : "");
            int k = 0;
            double[] v = new double[nrep];
            for (long ne : sizes()) {
                long iters = knobs.scaled(Math.min(20000, Math.max(20, 2_000_000 / ne)));
                try (Warmup warmup = new Warmup(shmem, knobs)) {
                    long t0 = System.nanoTime();
                    long n = knobs.warmup(iters / 10 + 2, ne * Float.BYTES);
                    do {
                        k = calls(world, host, leaders, dst, tmp, src, ne, n, k);
                    } while (warmup.again(t0));
                }
                for (int r = 0; r < nrep; r++) {
                    shmem.barrierAll();
                    long t0 = System.nanoTime();
                    k = calls(world, host, leaders, dst, tmp, src, ne, iters, k);
                    long t1 = System.nanoTime();
                    v[r] = Bench.usPer(t1 - t0, iters);
                }
                shmem.barrierAll();
                SymmetricFloatArray d = dst[k ^ 1];
                for (long i = 0; i < ne; i++) {
                    float want = (float) ((long) np * (i % 1024) + (long) np * (np - 1) / 2);
                    if (d.get(i) != want) {
                        System.err.printf("reduce_algo %s elems %d: PE %d d[%d]=%s want %s%n", label, ne, me, i, d.get(i), want);
                        shmem.globalExit(3);
                    }
                }
                if (me == 0) {
                    Bench.line("%s elems=%d pes=%d us=%.3f", label, ne, np, Bench.median(v, nrep));
                }
                shmem.barrierAll();
            }
            shmem.barrierAll();
            src.close();
            if (tmp != null) {
                tmp[1].close();
                tmp[0].close();
            }
            dst[1].close();
            dst[0].close();
            return 0;
        }
    }

    /** {@code n} back-to-back reductions alternating the destination sets from {@code k}; returns the next set. */
    private static int calls(Team world, Team host, Team leaders, SymmetricFloatArray[] dst, SymmetricFloatArray[] tmp,
            SymmetricFloatArray src, long ne, long n, int k) {
        for (long i = 0; i < n; i++) {
            if (tmp == null) {
                world.sumReduce(dst[k], src, ne);
            } else {
                host.sumReduce(tmp[k], src, ne);
                if (leaders.isValid()) {
                    leaders.sumReduce(tmp[k], tmp[k], ne);
                }
                host.broadcast(dst[k], tmp[k], ne, 0);
            }
            k ^= 1;
        }
        return k;
    }
}
