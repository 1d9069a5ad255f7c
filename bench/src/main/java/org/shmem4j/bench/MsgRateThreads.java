package org.shmem4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Multithreaded message rate with contexts (the experiment of figure 2 of the contexts paper, on
 * one PE pair): {@code T} threads of PE 0 each issue 8-byte {@code putmemNbi} to PE 1 in batches of
 * {@value MsgRate#BATCH} followed by {@code quiet}, either each on its own private context
 * ({@code ctxCreate(CTX_PRIVATE)} made by the thread itself: ctx=private) or all on the default
 * context (ctx=shared, where a thread's quiet also completes the others' puts). The time runs from
 * a barrier before to a barrier after (all threads done); the rate is the aggregate of the
 * threads. PE 1 is passive. T = 1, 2, 4.
 *
 * <p>Output: {@code msgrate op=putmem_nbi threads=<T> ctx=private|shared Mmsgs=<v>}.
 * Every thread writes its own {@value #SLOTS} slots of the destination; after each case PE 1
 * checks that each slot holds the value its thread last put there.
 */
public final class MsgRateThreads {
    static final int SLOTS = 1024;
    static final int[] THREADS = {1, 2, 4};
    static final int MAX_THREADS = 4;

    private final Shmem shmem;
    private final SymmetricLongArray dst;
    private final Arena arena;

    private MsgRateThreads(Shmem shmem, SymmetricLongArray dst, Arena arena) {
        this.shmem = shmem;
        this.dst = dst;
        this.arena = arena;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** The value thread {@code t} puts into its slot {@code k}. */
    static long value(int t, int k) {
        return (t + 1) * 1_000_000L + k + 1;
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofShared()) {
            if (shmem.nPes() < 2) {
                if (shmem.myPe() == 0) {
                    System.err.println("msgrate_threads: needs at least 2 PEs");
                }
                return 1;
            }
            int me = shmem.myPe();
            int nrep = knobs.reps();
            SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, (long) MAX_THREADS * SLOTS);
            MsgRateThreads bench = new MsgRateThreads(shmem, dst, arena);
            long batches = knobs.scaled(1000);   // ~1M messages per repeat per thread, as msgrate
            long warm = knobs.warmup(batches / 10 + 1);
            if (knobs.jitWarmup()) {
                warm = Math.max(warm, Math.ceilDiv(Knobs.JIT_OPS, MsgRate.BATCH));
            }
            double[] v = new double[nrep];
            for (String ctx : new String[] {"private", "shared"}) {
                boolean priv = ctx.equals("private");
                for (int t : THREADS) {
                    // PE 0's sender threads live for the case (warm-up and repeats); PE 1 only synchronizes
                    try (Senders senders = me == 0 ? bench.new Senders(t, priv) : null;
                            Warmup warmup = new Warmup(shmem, knobs)) {
                        long t0 = System.nanoTime();
                        do {
                            bench.stream(senders, warm);
                        } while (warmup.again(t0));
                        for (int r = 0; r < nrep; r++) {
                            double secs = bench.stream(senders, batches);
                            v[r] = t * (double) batches * MsgRate.BATCH / secs / 1e6;
                        }
                    }
                    if (me == 0) {
                        Bench.line("msgrate op=putmem_nbi threads=%d ctx=%s Mmsgs=%.3f", t, ctx, Bench.median(v, nrep));
                    }
                    bench.verifyAndClear(t, ctx);
                }
            }
            shmem.barrierAll();
            dst.close();
            return 0;
        }
    }

    /** One timed stream, barrier to barrier (PE 0's threads all done); seconds. */
    private double stream(Senders senders, long batches) {
        shmem.barrierAll();
        long t0 = System.nanoTime();
        if (senders != null) {
            senders.go(batches);
        }
        shmem.barrierAll();
        return (System.nanoTime() - t0) / 1e9;
    }

    /** PE 1 checks every used slot, then clears them for the next case. */
    private void verifyAndClear(int threads, String ctx) {
        shmem.barrierAll();
        if (shmem.myPe() == 1) {
            MemorySegment d = dst.segment();
            for (int t = 0; t < MAX_THREADS; t++) {
                for (int k = 0; k < SLOTS; k++) {
                    long got = d.getAtIndex(ValueLayout.JAVA_LONG, (long) t * SLOTS + k);
                    long want = t < threads ? value(t, k) : 0;
                    if (got != want) {
                        System.err.println("msgrate_threads: threads=" + threads + " ctx=" + ctx + ": slot " + k
                                + " of thread " + t + " holds " + got + ", expected " + want);
                        shmem.globalExit(3);
                    }
                }
            }
            d.fill((byte) 0);
        }
        shmem.barrierAll();
    }

    /** PE 0's sender threads, started together for each stream by {@link #go(long)}. */
    private final class Senders implements AutoCloseable {
        private final Thread[] threads;
        private final CyclicBarrier start;
        private final CyclicBarrier done;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile long batches;   // < 0: exit

        Senders(int count, boolean privateContexts) {
            this.threads = new Thread[count];
            this.start = new CyclicBarrier(count + 1);
            this.done = new CyclicBarrier(count + 1);
            for (int t = 0; t < count; t++) {
                int id = t;
                MemorySegment src = arena.allocate(ValueLayout.JAVA_LONG, SLOTS);
                for (int k = 0; k < SLOTS; k++) {
                    src.setAtIndex(ValueLayout.JAVA_LONG, k, value(id, k));
                }
                threads[t] = Thread.ofPlatform().name("msgrate-sender-" + t).daemon(true)
                        .start(() -> sender(id, src, privateContexts));
            }
        }

        private void sender(int id, MemorySegment src, boolean privateContexts) {
            Context ctx = shmem;
            if (privateContexts) {
                try {
                    ctx = shmem.ctxCreate(Context.CTX_PRIVATE);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    ctx = null;   // keeps taking part in the barriers; go() reports the failure
                }
            }
            MemorySegment[] slots = new MemorySegment[SLOTS];
            for (int k = 0; k < SLOTS; k++) {
                slots[k] = src.asSlice(k * 8L, 8);
            }
            long base = (long) id * SLOTS * 8;
            try {
                while (true) {
                    start.await();
                    long n = batches;
                    if (n < 0) {
                        break;
                    }
                    try {
                        putBatches(ctx, base, slots, n);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                    done.await();
                }
            } catch (InterruptedException | BrokenBarrierException e) {
                failure.compareAndSet(null, e);
            } finally {
                if (privateContexts && ctx != null) {
                    ctx.close();
                }
            }
        }

        private void putBatches(Context ctx, long base, MemorySegment[] slots, long n) {
            for (long b = 0; b < n; b++) {
                for (int k = 0; k < MsgRate.BATCH; k++) {
                    ctx.putmemNbi(dst, base + (k % SLOTS) * 8L, slots[k % SLOTS], 1);
                }
                ctx.quiet();
            }
        }

        /** Runs one stream of {@code n} batches on every thread and waits for all of them. */
        void go(long n) {
            batches = n;
            try {
                start.await();
                done.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new IllegalStateException("msgrate_threads: sender threads broke", e);
            }
            Throwable f = failure.get();
            if (f != null) {
                throw new IllegalStateException("msgrate_threads: a sender failed", f);
            }
        }

        @Override
        public void close() {
            batches = -1;
            try {
                start.await();
                for (Thread t : threads) {
                    t.join();
                }
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new IllegalStateException("msgrate_threads: sender threads did not end", e);
            }
        }
    }
}
