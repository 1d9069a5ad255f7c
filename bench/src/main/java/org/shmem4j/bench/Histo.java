package org.shmem4j.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * bale's histogram (the Java side of peer/histo.c): every PE makes N updates to random (PE, slot)
 * pairs of a table of T longs per PE, drawn from its own splitmix64 stream ({@link Bench#mix}), then
 * {@code quiet} and a barrier. Two operations, each plain (default context) and in a session:
 * <ul>
 * <li>{@code op=add}: {@code atomicAdd(counts[idx], 1)} (non-fetching); checked by the sum over all
 *     tables (a sum reduce), which must be N x PEs x repeats.</li>
 * <li>{@code op=p}: {@code p(slots[me*T + idx], value(me, idx))}, an 8-byte put into the writer's own
 *     part of an (PEs x T)-long table on the target; the table is zeroed before each repeat and,
 *     after the last, every PE replays all PEs' streams and checks every slot exactly.</li>
 * </ul>
 * {@code mode=plain} issues on the default context; {@code mode=session} on a created context inside
 * {@code sessionStart(SESSION_BATCH, new SessionConfig(N), SESSION_TOTAL_OPS)}, then
 * {@code sessionStop()} and the context's {@code quiet}, all inside the timed interval. Sessions
 * batch the small operations to PEs of other nodes (issue 26; knobs {@code SHMEM_BATCH_BYTES},
 * {@code SHMEM_BATCH_ALL} of the library); where nothing batches, both modes do the same work.
 *
 * <p>Sizes: {@code HISTO_UPDATES} (N per PE per repeat, default {@value #UPDATES}, times
 * PEER_SCALE percent) and {@code HISTO_TABLE} (T, default {@value #TABLE}, as bale);
 * {@code HISTO_MODES} (default {@code plain,session}) the modes to run, in order: {@code session}
 * alone in bench/batch-sweep.sh; {@code ctx} (the created context, no session) separates what the
 * context does from what the session does. At most 3 repeats (median printed); {@link Warmup} rounds of each part run
 * first (another stream).
 *
 * <p>Output: {@code histo op=add|p mode=plain|ctx|session pes=<n> Mups=<million updates/s, all PEs together>}.
 */
public final class Histo {
    static final long UPDATES = 1L << 20;
    static final long TABLE = 1000;
    static final int MAX_REPS = 3;

    private final Shmem shmem;
    private final SessionPass frame;
    private final SymmetricLongArray counts;
    private final SymmetricLongArray slots;
    private final int me;
    private final int np;
    private final long t;

    private Histo(Shmem shmem, Context ctx, SymmetricLongArray counts, SymmetricLongArray slots, long t) {
        this.shmem = shmem;
        this.frame = new SessionPass(shmem, ctx);
        this.counts = counts;
        this.slots = slots;
        this.me = shmem.myPe();
        this.np = shmem.nPes();
        this.t = t;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** The word PE {@code src} puts into its slot {@code idx} (never 0). */
    static long value(int src, long idx) {
        return ((src + 1L) << 32) | (idx + 1);
    }

    /** Runs the benchmark on this PE; returns the exit status (2: a bad size knob). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int np = shmem.nPes();
            long n = knobs.scaled(Bench.envLong("HISTO_UPDATES", UPDATES));
            long t = Bench.envTableSize(shmem, "histo", "HISTO_TABLE", TABLE);
            if (t < 0) {
                return 2;
            }
            String modes = System.getenv().getOrDefault("HISTO_MODES", "plain,session");
            List<SessionPass.Mode> sessions = new ArrayList<>();
            for (String mode : modes.split(",")) {
                try {
                    sessions.add(SessionPass.Mode.valueOf(mode.trim().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    if (me == 0) {
                        System.err.println("histo: HISTO_MODES is a list of plain, ctx and session: " + modes);
                    }
                    return 2;
                }
            }
            int nrep = Math.min(MAX_REPS, knobs.reps());
            SymmetricLongArray counts = shmem.calloc(ValueLayout.JAVA_LONG, t);
            SymmetricLongArray slots = shmem.calloc(ValueLayout.JAVA_LONG, t * np);
            SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 2);
            try (Context ctx = shmem.ctxCreate(0)) {
                Histo bench = new Histo(shmem, ctx, counts, slots, t);
                for (boolean p : new boolean[] {false, true}) {
                    for (SessionPass.Mode session : sessions) {
                        bench.part(knobs, p, session, n, nrep, sum);
                    }
                }
            }
            sum.close();
            slots.close();
            counts.close();
            return 0;
        }
    }

    /** One line: warm-up, {@code nrep} timed passes, the check. */
    private void part(Knobs knobs, boolean p, SessionPass.Mode session, long n, int nrep, SymmetricLongArray sum) {
        try (Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            long w = knobs.warmup(n / 10 + 1, 8);
            long s = ~Bench.splitmixSeed(me, 0);
            do {
                pass(p, session, w, s);
                s = s * 31 + 1;
            } while (warmup.again(t0));
        }
        counts.segment().fill((byte) 0);                 // the warm-up's updates are complete (barrier)
        shmem.barrierAll();
        double[] v = new double[nrep];
        for (int r = 0; r < nrep; r++) {
            if (p) {
                slots.segment().fill((byte) 0);          // pass() starts with a barrier
            }
            v[r] = (double) n * np / pass(p, session, n, Bench.splitmixSeed(me, r)) / 1e6;
        }
        if (p) {
            checkSlots(n, nrep - 1);
        } else {
            checkCounts(n * np * nrep, sum);
        }
        if (me == 0) {
            Bench.line("histo op=%s mode=%s pes=%d Mups=%.3f", p ? "p" : "add", session.label(), np,
                    Bench.median(v, nrep));
        }
        shmem.barrierAll();
    }

    /** {@code n} updates from the stream {@code seed}, barrier to barrier; seconds. */
    private double pass(boolean p, SessionPass.Mode session, long n, long seed) {
        long base = me * t;
        Context c = frame.begin(session, n);
        long s = seed;
        if (p) {
            for (long u = 0; u < n; u++) {
                s += Bench.GAMMA;
                long z = Bench.mix(s);
                long idx = Bench.lowBelow(z, t);
                c.p(slots, base + idx, value(me, idx), (int) Bench.highBelow(z, np));
            }
        } else {
            for (long u = 0; u < n; u++) {
                s += Bench.GAMMA;
                long z = Bench.mix(s);
                c.atomicAdd(counts, Bench.lowBelow(z, t), 1L, (int) Bench.highBelow(z, np));
            }
        }
        return frame.end();
    }

    /** op=add: the sum of all PEs' counts (a sum reduce) must be {@code want}; then zeroes them. */
    private void checkCounts(long want, SymmetricLongArray sum) {
        MemorySegment local = counts.segment();
        long mine = 0;
        for (long i = 0; i < t; i++) {
            mine += local.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        sum.segment().setAtIndex(ValueLayout.JAVA_LONG, 0, mine);
        shmem.teamWorld().sumReduce(sum, 1, sum, 0, 1);
        long total = sum.segment().getAtIndex(ValueLayout.JAVA_LONG, 1);
        if (total != want) {
            System.err.println("histo op=add: check failed on PE " + me + ": sum of the tables " + total + " != " + want);
            shmem.globalExit(3);
        }
        shmem.barrierAll();
        local.fill((byte) 0);
    }

    /** op=p: this PE's slots must hold exactly what all PEs' streams of repeat {@code r} put here. */
    private void checkSlots(long n, int r) {
        long[] want = new long[Math.toIntExact(t * np)];
        for (int src = 0; src < np; src++) {
            long s = Bench.splitmixSeed(src, r);
            for (long u = 0; u < n; u++) {
                s += Bench.GAMMA;
                long z = Bench.mix(s);
                if (Bench.highBelow(z, np) == me) {
                    long idx = Bench.lowBelow(z, t);
                    want[(int) (src * t + idx)] = value(src, idx);
                }
            }
        }
        MemorySegment local = slots.segment();
        for (int i = 0; i < want.length; i++) {
            long got = local.getAtIndex(ValueLayout.JAVA_LONG, i);
            if (got != want[i]) {
                System.err.println("histo op=p: check failed on PE " + me + ": slot " + i + " holds " + got
                        + ", expected " + want[i]);
                shmem.globalExit(3);
            }
        }
    }
}
