package org.shmem4j.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * {@code barrierAll} and {@code syncAll} latency over all PEs (the Java side of peer/barrier.c).
 *
 * <p>Output: {@code barrier_all pes=<n> us=<v>}, {@code sync_all pes=<n> us=<v>}.
 */
public final class Barrier {
    private Barrier() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int nrep = knobs.reps();
            long iters = knobs.scaled(20000);
            double[] v = new double[nrep];
            for (int which = 0; which < 2; which++) {
                try (Warmup warmup = new Warmup(shmem, knobs)) {
                    long t0 = System.nanoTime();
                    long n = knobs.warmup(Math.max(1, iters / 10), 8);
                    do {
                        if (which == 0) {
                            barriers(shmem, n);
                        } else {
                            syncs(shmem, n);
                        }
                    } while (warmup.again(t0));
                }
                for (int r = 0; r < nrep; r++) {
                    long n = iters;
                    shmem.barrierAll();
                    long t0 = System.nanoTime();
                    if (which == 0) {
                        barriers(shmem, n);
                    } else {
                        syncs(shmem, n);
                    }
                    long t1 = System.nanoTime();
                    v[r] = Bench.usPer(t1 - t0, n);
                }
                if (me == 0) {
                    Bench.line("%s pes=%d us=%.3f", which == 0 ? "barrier_all" : "sync_all", shmem.nPes(),
                            Bench.median(v, nrep));
                }
            }
            // the barrier completes puts issued before it: every PE's mark must be on PE 0 afterwards
            try (SymmetricLongArray marks = shmem.calloc(ValueLayout.JAVA_LONG, shmem.nPes())) {
                shmem.p(marks, me, 1000L + me, 0);
                shmem.barrierAll();
                if (me == 0) {
                    MemorySegment m = marks.segment();
                    for (int pe = 0; pe < shmem.nPes(); pe++) {
                        if (m.getAtIndex(ValueLayout.JAVA_LONG, pe) != 1000L + pe) {
                            System.err.println("barrier: PE " + pe + "'s put did not arrive before the barrier ended");
                            shmem.globalExit(3);
                        }
                    }
                }
            }
            return 0;
        }
    }

    private static void barriers(Shmem shmem, long n) {
        for (long i = 0; i < n; i++) {
            shmem.barrierAll();
        }
    }

    private static void syncs(Shmem shmem, long n) {
        for (long i = 0; i < n; i++) {
            shmem.syncAll();
        }
    }
}
