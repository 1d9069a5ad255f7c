package org.shmem4j.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Random-access (GUPS-style) update rate (the Java side of peer/gups.c). Each PE owns a table of
 * 2^22 longs (32 MiB) in the symmetric heap and issues 2^20 non-fetching atomic updates per repeat
 * to random (PE, slot) pairs drawn from its own xorshift64 stream, then {@code quiet} and a
 * barrier; with 2 PEs about half of the updates land on the issuing PE itself.
 * <ul>
 * <li>{@code op=xor}: {@code atomicXor(slot, r)} with the random word r; checked by replaying
 *     the same stream (untimed), which restores every table to zero.</li>
 * <li>{@code op=add}: {@code atomicAdd(slot, 1)}; checked by the sum over all tables
 *     (= updates x PEs x repeats).</li>
 * </ul>
 * At most 3 repeats (each is long), as the C peer. The C program has no warm-up; this one runs
 * {@link Warmup} rounds of the update loop on another random stream first (so the JIT has compiled
 * it) and then zeroes the tables.
 *
 * <p>A third line, {@code op=xor mode=session} (no C peer: OSHMEM 4.1 has no sessions), is spec
 * Example 28: the xor updates on a created context inside
 * {@code sessionStart(SESSION_BATCH, new SessionConfig(updates), SESSION_TOTAL_OPS)}, then
 * {@code sessionStop()} and the context's {@code quiet}, all timed (the replay too runs in a session).
 *
 * <p>Output: {@code gups op=xor|add pes=<n> Mups=<million updates/s, all PEs together>}, then
 * {@code gups op=xor mode=session pes=<n> Mups=}.
 */
public final class Gups {
    static final int TABLE_LOG2 = 22;
    static final long TABLE_SIZE = 1L << TABLE_LOG2;
    static final long MASK = TABLE_SIZE - 1;
    static final int MAX_REPS = 3;

    private final Shmem shmem;
    private final SymmetricLongArray table;
    private final int np;
    /** Plain passes, and those of {@code op=xor mode=session} on a created context. */
    private final SessionPass frame;

    private Gups(Shmem shmem, SymmetricLongArray table, Context ctx) {
        this.shmem = shmem;
        this.table = table;
        this.np = shmem.nPes();
        this.frame = new SessionPass(shmem, ctx);
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** C's seed of PE {@code me}'s stream in repeat {@code r}. */
    static long seed(int me, int r) {
        return 0x9E3779B97F4A7C15L * (me + 1) + r;
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int np = shmem.nPes();
            int nrep = Math.min(MAX_REPS, knobs.reps());
            long updates = knobs.scaled(1L << 20);       // per PE per repeat
            SymmetricLongArray table = shmem.calloc(ValueLayout.JAVA_LONG, TABLE_SIZE);
            SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            MemorySegment local = table.segment();
            shmem.barrierAll();
            Context ctx = shmem.ctxCreate(0);
            Gups bench = new Gups(shmem, table, ctx);

            for (int op = 0; op < 3; op++) {            // xor, add, xor in a session
                boolean xor = op != 1;
                boolean session = op == 2;
                try (Warmup warmup = new Warmup(shmem, knobs)) {
                    long t0 = System.nanoTime();
                    long n = knobs.warmup(updates / 10 + 1, 8);
                    long s = ~seed(me, 0);
                    do {
                        bench.pass(xor, session, n, s);
                        s = s * 31 + 1;
                    } while (warmup.again(t0));
                }
                local.fill((byte) 0);                     // all warm-up updates are complete (barrier)
                shmem.barrierAll();

                double[] v = new double[nrep];
                for (int r = 0; r < nrep; r++) {
                    long seed = seed(me, r);
                    double t = bench.pass(xor, session, updates, seed);
                    v[r] = (double) updates * np / t / 1e6;
                    if (xor) {
                        bench.pass(true, session, updates, seed);  // replay: xor twice restores zero; not timed
                    }
                }
                // verification
                long mine = 0;
                for (long i = 0; i < TABLE_SIZE; i++) {
                    long x = local.getAtIndex(ValueLayout.JAVA_LONG, i);
                    mine += xor ? (x != 0 ? 1 : 0) : x;
                }
                sum.segment().set(ValueLayout.JAVA_LONG, 0, mine);
                shmem.barrierAll();
                long total = 0;
                for (int p = 0; p < np; p++) {
                    total += shmem.atomicFetch(sum, 0, p);
                }
                long want = xor ? 0 : updates * np * nrep;
                if (total != want) {
                    System.err.println("gups op=" + op + ": check failed on PE " + me + ": "
                            + Long.toUnsignedString(total) + " != " + Long.toUnsignedString(want));
                    shmem.globalExit(3);
                }
                if (me == 0) {
                    Bench.line("gups op=%s%s pes=%d Mups=%.3f", xor ? "xor" : "add", session ? " mode=session" : "", np,
                            Bench.median(v, nrep));
                }
                shmem.barrierAll();
                local.fill((byte) 0);
                shmem.barrierAll();
            }
            ctx.close();
            sum.close();
            table.close();
            return 0;
        }
    }

    /**
     * One pass of {@code updates} random updates from the stream {@code seed}, barrier to barrier
     * (on the default context, or on {@link #ctx} in a session); seconds.
     */
    private double pass(boolean xor, boolean session, long updates, long seed) {
        Context c = frame.begin(session, updates);
        long s = seed;
        long n = np;
        if (xor) {
            for (long u = 0; u < updates; u++) {
                s ^= s << 13;
                s ^= s >>> 7;
                s ^= s << 17;
                c.atomicXor(table, s & MASK, s, (int) ((s >>> TABLE_LOG2) % n));
            }
        } else {
            for (long u = 0; u < updates; u++) {
                s ^= s << 13;
                s ^= s >>> 7;
                s ^= s << 17;
                c.atomicAdd(table, s & MASK, 1L, (int) ((s >>> TABLE_LOG2) % n));
            }
        }
        return frame.end();
    }
}
