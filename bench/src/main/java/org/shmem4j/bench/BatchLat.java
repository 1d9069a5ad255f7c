package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.shmem4j.Cmp;
import org.shmem4j.Context;
import org.shmem4j.SessionConfig;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * The latency of the first operation of a batch (no C peer): PE 0 issues one non-fetching
 * {@code atomicAdd(flag, 1)} to the last PE (on another pseudo-node under {@code oshrun --nodes K},
 * which puts PEs in blocks), and nothing else; the last PE waits until the flag changes and answers
 * with a {@code p} on the default context and a {@code quiet}; PE 0 waits for the answer. Reported:
 * the mean round trip, microseconds.
 * <ul>
 * <li>{@code mode=plain}: the add on the default context;</li>
 * <li>{@code mode=session}: the add on a created context inside one
 *     {@code sessionStart(SESSION_BATCH, ...)} that spans the whole repeat, so every add is the
 *     first (and only) operation of its batch: what the round trip gains over plain is the delay
 *     the batch adds to a lone operation.</li>
 * </ul>
 * A batch that is held until a {@code quiet} would never arrive: PE 0 waits at most
 * {@value #HOLD_MS} ms for the answer, then quiets its context (counted as held, the wait included
 * in the time) and waits again; after {@value #MAX_HELD} held round trips (in the part) each repeat
 * ends at its first held one (PE 0 adds the rest of the repeat's count at once, which the last PE
 * answers without being waited for), and a {@code # batch_lat ... held=} comment says so. {@value #ROUND_TRIPS} round trips per repeat
 * (times PEER_SCALE percent), median of PEER_REPS repeats, after {@link Warmup} rounds.
 *
 * <p>Output: {@code batch_lat op=add mode=plain|session pes=<n> us=<round trip>}.
 */
public final class BatchLat {
    static final long ROUND_TRIPS = 2000;
    static final long HOLD_MS = 100;
    static final int MAX_HELD = 5;

    private final Shmem shmem;
    private final Context ctx;
    private final SymmetricLongArray flag;
    private final SymmetricLongArray answer;
    private final int last;
    /** Adds (PE 0) or answers (last PE) so far: the value the next round trip waits for, minus 1. */
    private long seq;
    private int held;

    private BatchLat(Shmem shmem, Context ctx, SymmetricLongArray flag, SymmetricLongArray answer) {
        this.shmem = shmem;
        this.ctx = ctx;
        this.flag = flag;
        this.answer = answer;
        this.last = shmem.nPes() - 1;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            if (Bench.fewerThanTwoPes(shmem, "batch_lat")) {
                return 1;
            }
            SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            SymmetricLongArray answer = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            shmem.barrierAll();
            try (Context ctx = shmem.ctxCreate(0)) {
                BatchLat bench = new BatchLat(shmem, ctx, flag, answer);
                int warmHeld = bench.warmUp(knobs, false) + bench.warmUp(knobs, true);
                bench.part(knobs, false, warmHeld);
                bench.part(knobs, true, warmHeld);
            }
            answer.close();
            flag.close();
            return 0;
        }
    }

    /**
     * {@link Warmup} rounds of one mode; both modes warm up before either is timed (measured: at 2
     * PEs on one node, whichever mode was timed first right after its own warm-up took 2-30x the
     * round trip of the other, whatever the order). Returns the round trips held.
     */
    private int warmUp(Knobs knobs, boolean session) {
        held = 0;
        try (Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            long n = Math.max(knobs.scaled(ROUND_TRIPS) / 10, 1);
            do {
                repeat(session, n);
            } while (warmup.again(t0));
        }
        return held;
    }

    private void part(Knobs knobs, boolean session, int warmHeld) {
        int me = shmem.myPe();
        int nrep = knobs.reps();
        long iters = knobs.scaled(ROUND_TRIPS);
        held = 0;
        double[] v = new double[nrep];
        for (int r = 0; r < nrep; r++) {
            v[r] = repeat(session, iters);
        }
        if (me == 0) {
            if (held + warmHeld > 0) {
                Bench.line("# batch_lat mode=%s held=%d (warm-ups %d): answers not seen within %d ms, until a quiet",
                        session ? "session" : "plain", held, warmHeld, HOLD_MS);
            }
            Bench.line("batch_lat op=add mode=%s pes=%d us=%.3f", session ? "session" : "plain", shmem.nPes(),
                    Bench.median(v, nrep));
        }
        shmem.barrierAll();
    }

    /**
     * {@code n} round trips (PE 0 and the last PE; the others only meet the barriers), barrier to
     * barrier; PE 0's mean microseconds per round trip it waited for.
     */
    private double repeat(boolean session, long n) {
        int me = shmem.myPe();
        Context c = session ? ctx : shmem;
        shmem.barrierAll();
        long t0 = System.nanoTime();
        long k = 0;
        if (me == 0) {
            if (session) {
                ctx.sessionStart(Context.SESSION_BATCH, new SessionConfig(n), Context.SESSION_TOTAL_OPS);
            }
            Duration hold = Duration.ofMillis(HOLD_MS);
            for (; k < n; k++) {
                long want = ++seq;
                c.atomicAdd(flag, 0, 1L, last);
                if (!shmem.waitUntil(answer, 0, Cmp.EQ, want, hold)) {
                    held++;
                    c.quiet();
                    shmem.waitUntil(answer, 0, Cmp.EQ, want);
                    if (held >= MAX_HELD && k + 1 < n) {   // the rest at once, not waited for
                        long rest = n - (k + 1);
                        c.atomicAdd(flag, 0, rest, last);
                        seq += rest;
                        k++;
                        break;
                    }
                }
            }
            if (session) {
                ctx.sessionStop();
            }
            c.quiet();
        } else if (me == last) {
            for (long i = 0; i < n; i++) {
                long want = ++seq;
                shmem.waitUntil(flag, 0, Cmp.GE, want);
                shmem.p(answer, 0, want, 0);
                shmem.quiet();
            }
        }
        long t1 = System.nanoTime();
        shmem.barrierAll();
        return Bench.usPer(t1 - t0, Math.max(k, 1));
    }
}
