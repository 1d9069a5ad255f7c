package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Remote atomics on one long of the symmetric heap (the Java side of peer/amo.c).
 * <ul>
 * <li>{@code amo_lat op=fetch_add|fetch|compare_swap us=}: PE 0's blocking AMO on PE 1's counter,
 *     microseconds per operation (100000 per repeat; the compare-and-swap always succeeds, PE 0
 *     being the only writer and knowing the value).</li>
 * <li>{@code amo_rate op=add mode=uni Mops=}: PE 0 streams 10^6 non-fetching {@code atomicAdd} to
 *     PE 1's counter, then {@code quiet}; million operations per second.</li>
 * <li>{@code amo_rate op=add|fetch_add mode=contended Mops=}: PEs 0 and 1 both add (10^6 each) or
 *     fetch-add (2*10^5 each) to PE 0's counter, barrier to barrier; aggregate rate.</li>
 * </ul>
 * The counters are checked exactly: PE 1's against the count PE 0 kept (fetch-adds, successful
 * compare-and-swaps and adds, warm-up included), PE 0's against 2 x the operations of each PE.
 *
 * <p>Warm-up: each part's hot loop runs in {@link Warmup} rounds (at least the C peer's tenth of a
 * repeat, see {@link Knobs#warmup(long, long)}) in place of C's one untimed repeat.
 */
public final class Amo {
    static final String[] LAT_OPS = {"fetch_add", "fetch", "compare_swap"};

    /** Keeps the fetched values alive, as C's {@code sink}. */
    static volatile long sinkHole;

    private final Shmem shmem;
    private final SymmetricLongArray ctr;
    /** PE 0's count of the value of PE 1's counter. */
    private long expectOn1;
    private long sink;

    private Amo(Shmem shmem, SymmetricLongArray ctr) {
        this.shmem = shmem;
        this.ctr = ctr;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            if (Bench.fewerThanTwoPes(shmem, "amo")) {
                return 1;
            }
            SymmetricLongArray ctr = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            shmem.barrierAll();
            Amo bench = new Amo(shmem, ctr);
            bench.latencies(knobs);
            bench.uniRate(knobs);
            bench.contended(knobs, false);
            bench.contended(knobs, true);
            sinkHole = bench.sink;
            shmem.barrierAll();
            ctr.close();
            return 0;
        }
    }

    /** amo_lat: PE 0's blocking AMOs on PE 1, one op after the other. */
    private void latencies(Knobs knobs) {
        int me = shmem.myPe();
        int nrep = knobs.reps();
        double[] v = new double[nrep];
        for (int op = 0; op < LAT_OPS.length; op++) {
            long iters = knobs.scaled(100000);
            try (Warmup warmup = new Warmup(shmem, knobs)) {
                long t0 = System.nanoTime();
                long n = knobs.warmup(iters / 10, 8);
                do {
                    if (me == 0) {
                        latency(op, n);
                    }
                } while (warmup.again(t0));
            }
            for (int r = 0; r < nrep; r++) {
                shmem.barrierAll();
                if (me == 0) {
                    v[r] = Bench.usPer(latency(op, iters), iters);
                }
            }
            if (me == 0) {
                Bench.line("amo_lat op=%s us=%.3f", LAT_OPS[op], Bench.median(v, nrep));
            }
        }
        shmem.barrierAll();
    }

    /** {@code n} blocking AMOs of kind {@code op} on PE 1's counter; nanoseconds. */
    private long latency(int op, long n) {
        long s = 0;
        long t0 = System.nanoTime();
        switch (op) {
            case 0 -> {
                for (long i = 0; i < n; i++) {
                    s += shmem.atomicFetchAdd(ctr, 0, 1L, 1);
                }
                expectOn1 += n;
            }
            case 1 -> {
                for (long i = 0; i < n; i++) {
                    s += shmem.atomicFetch(ctr, 0, 1);
                }
            }
            default -> {
                long e = expectOn1;
                for (long i = 0; i < n; i++) {
                    long old = shmem.atomicCompareSwap(ctr, 0, e, e + 1, 1);
                    if (old == e) {
                        e++;
                    }
                    s += old;
                }
                expectOn1 = e;
            }
        }
        long t1 = System.nanoTime();
        sink += s;
        return t1 - t0;
    }

    /** amo_rate op=add mode=uni, then the check of PE 1's counter. */
    private void uniRate(Knobs knobs) {
        int me = shmem.myPe();
        int nrep = knobs.reps();
        double[] v = new double[nrep];
        long iters = knobs.scaled(1000000);
        try (Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            long n = knobs.warmup(iters / 10, 8);
            do {
                if (me == 0) {
                    adds(n);
                }
            } while (warmup.again(t0));
        }
        for (int r = 0; r < nrep; r++) {
            shmem.barrierAll();
            if (me == 0) {
                long ns = adds(iters);
                v[r] = iters / (ns / 1e9) / 1e6;
            }
        }
        if (me == 0) {
            Bench.line("amo_rate op=add mode=uni Mops=%.3f", Bench.median(v, nrep));
        }
        shmem.barrierAll();
        if (me == 0) {
            long got = shmem.atomicFetch(ctr, 0, 1);
            if (got != expectOn1) {
                System.err.println("amo: counter on PE 1 is " + got + ", expected " + expectOn1);
                shmem.globalExit(3);
            }
        }
        shmem.barrierAll();
    }

    /** {@code n} non-fetching adds of 1 to PE 1's counter, then quiet; nanoseconds. */
    private long adds(long n) {
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            shmem.atomicAdd(ctr, 0, 1L, 1);
        }
        shmem.quiet();
        long t1 = System.nanoTime();
        expectOn1 += n;
        return t1 - t0;
    }

    /** amo_rate op=add|fetch_add mode=contended: PEs 0 and 1 on PE 0's counter, then its check. */
    private void contended(Knobs knobs, boolean fetching) {
        int me = shmem.myPe();
        int nrep = knobs.reps();
        double[] v = new double[nrep];
        long iters = knobs.scaled(fetching ? 200000 : 1000000);
        long total = 0;
        if (me == 0) {
            ctr.segment().set(ValueLayout.JAVA_LONG, 0, 0L);
        }
        shmem.barrierAll();
        try (Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            long n = knobs.warmup(iters / 10, 8);
            do {
                contendedRound(fetching, n);
                total += 2 * n;
            } while (warmup.again(t0));
        }
        for (int r = 0; r < nrep; r++) {
            double secs = contendedRound(fetching, iters);
            total += 2 * iters;
            v[r] = 2.0 * iters / secs / 1e6;
        }
        if (me == 0) {
            long got = ctr.segment().get(ValueLayout.JAVA_LONG, 0);
            if (got != total) {
                System.err.println("amo: contended counter " + got + " != " + total);
                shmem.globalExit(3);
            }
            Bench.line("amo_rate op=%s mode=contended Mops=%.3f", fetching ? "fetch_add" : "add", Bench.median(v, nrep));
        }
        shmem.barrierAll();
    }

    /** One contended round, barrier to barrier: PEs 0 and 1 each do {@code n} AMOs on PE 0; seconds. */
    private double contendedRound(boolean fetching, long n) {
        shmem.barrierAll();
        long t0 = System.nanoTime();
        if (shmem.myPe() <= 1) {
            if (fetching) {
                long s = 0;
                for (long i = 0; i < n; i++) {
                    s += shmem.atomicFetchAdd(ctr, 0, 1L, 0);
                }
                sink += s;
            } else {
                for (long i = 0; i < n; i++) {
                    shmem.atomicAdd(ctr, 0, 1L, 0);
                }
            }
            shmem.quiet();
        }
        shmem.barrierAll();
        return (System.nanoTime() - t0) / 1e9;
    }
}
