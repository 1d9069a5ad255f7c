package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * What a PE costs to start and to run, for {@code bench/pe-cost.sh}: the wall-clock instants at
 * which every PE entered {@code main} and left {@code shmem_init}, and, with {@code steady}, a
 * compute-and-barrier loop (a 5-point stencil sweep over a private grid, then
 * {@code shmem_barrier_all}) whose first iterations show the warm-up and whose second half the
 * steady rate.
 *
 * <p>Output (PE 0): {@code pe_cost pes=<n> main_us=<latest PE's main, epoch us>
 * init_us=<latest PE's end of init> rss_kb=<mean resident set at the end>} and, with
 * {@code steady}, {@code pe_cost_steady pes=<n> grid=<g> warm_iters=<w> warm_ms=<v>
 * steady_mcells_s=<all PEs' cell updates per us> steady_cpu_ns=<CPU of all PEs' processes per cell
 * update>}: the CPU figure counts what the PEs' JVMs spent (compute, waiting, GC and JIT threads)
 * and depends less than the rate on what else the machine runs.
 */
public final class PeCost {
    private PeCost() {
    }

    public static void main(String[] args) {
        long mainUs = Bench.nowUs();
        boolean steady = args.length > 0 && args[0].equals("steady");
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 4000;
        int grid = args.length > 2 ? Integer.parseInt(args[2]) : 160;
        try (Shmem shmem = Shmem.init()) {
            long initUs = Bench.nowUs();
            int me = shmem.myPe(), n = shmem.nPes();
            try (SymmetricLongArray at = shmem.calloc(ValueLayout.JAVA_LONG, 5L * n)) {
                String steadyLine = null;
                if (steady) {
                    steadyLine = loop(shmem, iters, grid, at);
                }
                long[] mine = {mainUs, initUs, Bench.rssKb()};
                shmem.put(at, 5L * me, mine, 0, 3, 0);
                shmem.barrierAll();
                if (me == 0) {
                    long main = 0, init = 0, rss = 0;
                    for (int pe = 0; pe < n; pe++) {
                        main = Math.max(main, at.get(5L * pe));
                        init = Math.max(init, at.get(5L * pe + 1));
                        rss += at.get(5L * pe + 2);
                    }
                    Bench.line("pe_cost pes=%d main_us=%d init_us=%d rss_kb=%d", n, main, init, rss / n);
                    if (steadyLine != null) {
                        Bench.line("%s", steadyLine);
                    }
                }
            }
        }
    }

    /**
     * Runs the loop and returns PE 0's result line (null elsewhere). Every PE computes the same
     * grid, so their checksums must agree; PE 0 checks that, and adds up their CPU (each PE's
     * words 3 and 4 of {@code at}).
     */
    private static String loop(Shmem shmem, int iters, int grid, SymmetricLongArray at) {
        double[] a = new double[grid * grid], b = new double[grid * grid];
        for (int i = 0; i < a.length; i++) {
            a[i] = (i * 7919L) % 1000 / 1000.0;
        }
        int warm = Math.max(1, iters / 10), half = iters / 2;
        long t0 = System.nanoTime(), warmEnd = 0, halfStart = 0, cpuStart = 0;
        for (int it = 0; it < iters; it++) {
            if (it == half) {
                cpuStart = cpuNs();
                halfStart = System.nanoTime();
            }
            sweep(a, b, grid);
            double[] t = a;
            a = b;
            b = t;
            shmem.barrierAll();
            if (it + 1 == warm) {
                warmEnd = System.nanoTime();
            }
        }
        long t1 = System.nanoTime();
        shmem.p(at, 5L * shmem.myPe() + 4, cpuNs() - cpuStart, 0);
        long sum = Double.doubleToLongBits(checksum(a));
        shmem.p(at, 5L * shmem.myPe() + 3, sum, 0);
        shmem.barrierAll();
        if (shmem.myPe() != 0) {
            return null;
        }
        long cpu = 0;
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            if (at.get(5L * pe + 3) != sum) {
                throw new IllegalStateException("PE " + pe + " computed another grid than PE 0");
            }
            cpu += at.get(5L * pe + 4);
        }
        double cells = (double) (grid - 2) * (grid - 2) * (iters - half) * shmem.nPes();
        return String.format("pe_cost_steady pes=%d grid=%d warm_iters=%d warm_ms=%.1f steady_mcells_s=%.1f steady_cpu_ns=%.2f",
                shmem.nPes(), grid, warm, (warmEnd - t0) / 1e6, cells / ((t1 - halfStart) / 1e3), cpu / cells);
    }

    private static void sweep(double[] in, double[] out, int g) {
        for (int i = 1; i < g - 1; i++) {
            for (int j = 1; j < g - 1; j++) {
                int k = i * g + j;
                out[k] = 0.2 * (in[k] + in[k - 1] + in[k + 1] + in[k - g] + in[k + g]);
            }
        }
    }

    private static double checksum(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s;
    }

    /** CPU time of this process (every thread of the JVM), in ns; 0 where the OS does not tell. */
    private static long cpuNs() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }
}
