package org.shmem4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Small-message injection rate (the Java side of peer/msgrate.c): 8-byte puts to the other PE in
 * batches of 1024, {@code quiet} after each batch; the time runs from a barrier before to a barrier
 * after. mode=uni: PE 0 -> PE 1 only; mode=bi: both PEs at once (aggregate).
 *
 * <p>Output: {@code msgrate op=putmem_nbi mode=uni|bi Mmsgs=<v>} ({@code putmemNbi} of 8 bytes) and
 * {@code msgrate op=long_p mode=uni Mmsgs=<v>} (blocking {@code p} of a long, completed by the quiet).
 */
public final class MsgRate {
    static final int BATCH = 1024;
    static final int SLOTS = 1024;

    private enum Op { PUTMEM_NBI, LONG_P }

    private final Shmem shmem;
    private final int peer;
    private final SymmetricLongArray dst;
    private final long[] srcValues = new long[SLOTS];
    private final MemorySegment[] srcSlots = new MemorySegment[SLOTS];

    private MsgRate(Shmem shmem, SymmetricLongArray dst, Arena arena) {
        this.shmem = shmem;
        this.peer = shmem.myPe() ^ 1;
        this.dst = dst;
        MemorySegment src = arena.allocate(ValueLayout.JAVA_LONG, SLOTS);
        for (int i = 0; i < SLOTS; i++) {
            srcValues[i] = i + 1 + 1000L * shmem.myPe();
            src.setAtIndex(ValueLayout.JAVA_LONG, i, srcValues[i]);
            srcSlots[i] = src.asSlice(i * 8L, 8);
        }
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            if (Bench.fewerThanTwoPes(shmem, "msgrate")) {
                return 1;
            }
            int me = shmem.myPe();
            int nrep = knobs.reps();
            SymmetricLongArray dst = shmem.malloc(ValueLayout.JAVA_LONG, SLOTS);
            dst.segment().fill((byte) 0);
            MsgRate bench = new MsgRate(shmem, dst, arena);
            shmem.barrierAll();
            long batches = knobs.scaled(1000);   // ~1M messages per repeat per sender

            record Case(String op, String mode, Op kind, boolean bi) { }
            Case[] cases = {
                new Case("putmem_nbi", "uni", Op.PUTMEM_NBI, false),
                new Case("putmem_nbi", "bi", Op.PUTMEM_NBI, true),
                new Case("long_p", "uni", Op.LONG_P, false),
            };
            double[] v = new double[nrep];
            for (Case c : cases) {
                boolean active = me == 0 || (c.bi && me == 1);
                int senders = c.bi ? 2 : 1;
                long warm = knobs.warmup(batches / 10 + 1);
                if (knobs.jitWarmup()) {
                    warm = Math.max(warm, Math.ceilDiv(Knobs.JIT_OPS, BATCH));   // the JIT floor, in batches
                }
                try (Warmup warmup = new Warmup(shmem, knobs)) {
                    long t0 = System.nanoTime();
                    do {
                        bench.stream(active, c.kind, warm);
                    } while (warmup.again(t0));
                }
                for (int r = 0; r < nrep; r++) {
                    double t = bench.stream(active, c.kind, batches);
                    v[r] = senders * (double) batches * BATCH / t / 1e6;
                }
                if (me == 0) {
                    Bench.line("msgrate op=%s mode=%s Mmsgs=%.3f", c.op, c.mode, Bench.median(v, nrep));
                }
            }
            shmem.barrierAll();
            long last = dst.segment().getAtIndex(ValueLayout.JAVA_LONG, SLOTS - 1);
            if (me == 1 && last != SLOTS) {
                System.err.println("msgrate: payload did not arrive (" + last + ")");
                shmem.globalExit(3);
            }
            shmem.barrierAll();
            dst.close();
            return 0;
        }
    }

    /** One timed stream, barrier to barrier; seconds. */
    private double stream(boolean active, Op op, long batches) {
        shmem.barrierAll();
        long t0 = System.nanoTime();
        if (active) {
            if (op == Op.LONG_P) {
                longP(batches);
            } else {
                putmemNbi(batches);
            }
        }
        shmem.barrierAll();
        return (System.nanoTime() - t0) / 1e9;
    }

    private void longP(long batches) {
        for (long b = 0; b < batches; b++) {
            for (int k = 0; k < BATCH; k++) {
                shmem.p(dst, k % SLOTS, srcValues[k % SLOTS], peer);
            }
            shmem.quiet();
        }
    }

    private void putmemNbi(long batches) {
        for (long b = 0; b < batches; b++) {
            for (int k = 0; k < BATCH; k++) {
                shmem.putmemNbi(dst, (k % SLOTS) * 8L, srcSlots[k % SLOTS], peer);
            }
            shmem.quiet();
        }
    }
}
