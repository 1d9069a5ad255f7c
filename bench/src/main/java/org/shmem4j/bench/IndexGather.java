package org.shmem4j.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * bale's index gather (the Java side of peer/ig.c): every PE holds a table of T longs whose entry
 * {@code idx} on PE {@code pe} is {@link #valueAt(long) valueAt(pe * T + idx)}, and gathers M entries
 * at random (PE, idx) pairs (its own splitmix64 stream) into a local array of M longs, one 8-byte
 * get per entry, then checks every gathered word against its stream. Three lines:
 * <ul>
 * <li>{@code op=get mode=plain}: blocking {@code get} of one element on the default context;</li>
 * <li>{@code op=get_nbi mode=plain}: {@code getNbi} on the default context, then {@code quiet};</li>
 * <li>{@code op=get_nbi mode=session}: {@code getNbi} on a created context inside
 *     {@code sessionStart(SESSION_BATCH, new SessionConfig(M), SESSION_TOTAL_OPS)}, then
 *     {@code sessionStop()} and the context's {@code quiet}.</li>
 * </ul>
 * Timed barrier to barrier. Sizes: {@code IG_GETS} (M per PE per repeat, default {@value #GETS},
 * times PEER_SCALE percent), {@code IG_TABLE} (T, default {@value #TABLE}, as bale). At most 3
 * repeats (median printed), after {@link Warmup} rounds.
 *
 * <p>Output: {@code ig op=get|get_nbi mode=plain|session pes=<n> Mgets=<million gets/s, all PEs together>}.
 */
public final class IndexGather {
    static final long GETS = 1L << 18;
    static final long TABLE = 100000;
    static final int MAX_REPS = 3;

    private final Shmem shmem;
    private final SessionPass frame;
    private final SymmetricLongArray table;
    private final SymmetricLongArray target;
    private final int me;
    private final int np;
    private final long t;

    private IndexGather(Shmem shmem, Context ctx, SymmetricLongArray table, SymmetricLongArray target, long t) {
        this.shmem = shmem;
        this.frame = new SessionPass(shmem, ctx);
        this.table = table;
        this.target = target;
        this.me = shmem.myPe();
        this.np = shmem.nPes();
        this.t = t;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** The table's word at global index {@code g} (PE {@code g / T}, entry {@code g % T}). */
    static long valueAt(long g) {
        return Bench.mix(g + 1);
    }

    /** Runs the benchmark on this PE; returns the exit status (2: a bad size knob). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            long m = knobs.scaled(Bench.envLong("IG_GETS", GETS));
            long t = Bench.envTableSize(shmem, "ig", "IG_TABLE", TABLE);
            if (t < 0) {
                return 2;
            }
            int nrep = Math.min(MAX_REPS, knobs.reps());
            SymmetricLongArray table = shmem.calloc(ValueLayout.JAVA_LONG, t);
            SymmetricLongArray target = shmem.calloc(ValueLayout.JAVA_LONG, m);
            MemorySegment local = table.segment();
            for (long i = 0; i < t; i++) {
                local.setAtIndex(ValueLayout.JAVA_LONG, i, valueAt(me * t + i));
            }
            shmem.barrierAll();
            try (Context ctx = shmem.ctxCreate(0)) {
                IndexGather bench = new IndexGather(shmem, ctx, table, target, t);
                bench.part(knobs, false, false, m, nrep);
                bench.part(knobs, true, false, m, nrep);
                bench.part(knobs, true, true, m, nrep);
            }
            target.close();
            table.close();
            return 0;
        }
    }

    /** One line: warm-up, {@code nrep} timed passes, each checked. */
    private void part(Knobs knobs, boolean nbi, boolean session, long m, int nrep) {
        try (Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            long w = Math.min(m, knobs.warmup(m / 10 + 1, 8));
            long s = ~Bench.splitmixSeed(me, 0);
            do {
                pass(nbi, session, w, s);
                s = s * 31 + 1;
            } while (warmup.again(t0));
        }
        double[] v = new double[nrep];
        for (int r = 0; r < nrep; r++) {
            target.segment().fill((byte) 0);
            long seed = Bench.splitmixSeed(me, r);
            v[r] = (double) m * np / pass(nbi, session, m, seed) / 1e6;
            check(m, seed);
        }
        if (me == 0) {
            Bench.line("ig op=%s mode=%s pes=%d Mgets=%.3f", nbi ? "get_nbi" : "get", session ? "session" : "plain", np,
                    Bench.median(v, nrep));
        }
        shmem.barrierAll();
    }

    /** {@code m} gathers from the stream {@code seed} into {@code target[0 .. m)}, barrier to barrier; seconds. */
    private double pass(boolean nbi, boolean session, long m, long seed) {
        Context c = frame.begin(session, m);
        long s = seed;
        if (nbi) {
            for (long i = 0; i < m; i++) {
                s += Bench.GAMMA;
                long z = Bench.mix(s);
                c.getNbi(target, i, table, Bench.lowBelow(z, t), 1, (int) Bench.highBelow(z, np));
            }
        } else {
            for (long i = 0; i < m; i++) {
                s += Bench.GAMMA;
                long z = Bench.mix(s);
                c.get(target, i, table, Bench.lowBelow(z, t), 1, (int) Bench.highBelow(z, np));
            }
        }
        return frame.end();
    }

    /** Every gathered word must be the table's word its draw named. */
    private void check(long m, long seed) {
        MemorySegment got = target.segment();
        long s = seed;
        for (long i = 0; i < m; i++) {
            s += Bench.GAMMA;
            long z = Bench.mix(s);
            long want = valueAt(Bench.highBelow(z, np) * t + Bench.lowBelow(z, t));
            long g = got.getAtIndex(ValueLayout.JAVA_LONG, i);
            if (g != want) {
                System.err.println("ig: check failed on PE " + me + ": entry " + i + " is " + g + ", expected " + want);
                shmem.globalExit(3);
            }
        }
    }
}
