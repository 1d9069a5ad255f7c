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
 * <p>Then the same with 1 MiB puts (windows of {@value #WINDOW} followed by {@code quiet}) into a
 * region of its own per thread: the paper's bandwidth figure.
 *
 * <p>Output: {@code msgrate op=putmem_nbi threads=<T> ctx=private|shared Mmsgs=<v>} and
 * {@code bw op=putmem_nbi bytes=1048576 threads=<T> ctx=private|shared MBps=<v>}.
 * Every thread writes its own {@value #SLOTS} slots of the destination; after each case PE 1
 * checks that each slot holds the value its thread last put there (for 1 MiB puts: every word
 * of the thread's region).
 */
public final class MsgRateThreads {
    static final int SLOTS = 1024;
    static final int[] THREADS = {1, 2, 4};
    static final int MAX_THREADS = 4;
    static final long LARGE = 1 << 20;
    static final int WINDOW = 16;

    private final Shmem shmem;
    private final SymmetricLongArray dst;
    private final SymmetricLongArray large;
    private final Arena arena;

    private MsgRateThreads(Shmem shmem, SymmetricLongArray dst, SymmetricLongArray large, Arena arena) {
        this.shmem = shmem;
        this.dst = dst;
        this.large = large;
        this.arena = arena;
    }

    /** What a sender thread does in one stream: {@code n} batches on its context. */
    @FunctionalInterface
    private interface Stream {
        void run(Context ctx, long n);
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
            if (Bench.fewerThanTwoPes(shmem, "msgrate_threads")) {
                return 1;
            }
            int me = shmem.myPe();
            SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, (long) MAX_THREADS * SLOTS);
            SymmetricLongArray large = shmem.calloc(ValueLayout.JAVA_LONG, MAX_THREADS * LARGE / 8);
            MsgRateThreads bench = new MsgRateThreads(shmem, dst, large, arena);
            long batches = knobs.scaled(1000);   // ~1M messages per repeat per thread, as msgrate
            long warm = knobs.warmup(batches / 10 + 1);
            if (knobs.jitWarmup()) {
                warm = Math.max(warm, Math.ceilDiv(Knobs.JIT_OPS, MsgRate.BATCH));
            }
            long windows = Math.max(1, knobs.scaled(64)); // 1 GiB per repeat per thread at 100 %
            for (String ctx : new String[] {"private", "shared"}) {
                for (int t : THREADS) {
                    double secs = bench.measure(knobs, t, ctx, warm, batches, bench::messages);
                    if (me == 0) {
                        Bench.line("msgrate op=putmem_nbi threads=%d ctx=%s Mmsgs=%.3f", t, ctx,
                                t * (double) batches * MsgRate.BATCH / secs / 1e6);
                    }
                    bench.verifyAndClear(t, ctx);
                }
            }
            for (String ctx : new String[] {"private", "shared"}) {
                for (int t : THREADS) {
                    double secs = bench.measure(knobs, t, ctx, 1, windows, bench::megabytes);
                    if (me == 0) {
                        Bench.line("bw op=putmem_nbi bytes=%d threads=%d ctx=%s MBps=%.0f", LARGE, t, ctx,
                                t * (double) windows * WINDOW * LARGE / secs / 1e6);
                    }
                    bench.verifyLarge(t, ctx);
                }
            }
            large.close();
            shmem.barrierAll();
            dst.close();
            return 0;
        }
    }

    /** Median seconds of one stream of {@code batches} over {@code threads} senders of {@code work}, after warm-up. */
    private double measure(Knobs knobs, int threads, String ctx, long warm, long batches, java.util.function.IntFunction<Stream> work) {
        int nrep = knobs.reps();
        double[] v = new double[nrep];
        // PE 0's sender threads live for the case (warm-up and repeats); PE 1 only synchronizes
        try (Senders senders = shmem.myPe() == 0 ? new Senders(threads, ctx.equals("private"), work) : null;
                Warmup warmup = new Warmup(shmem, knobs)) {
            long t0 = System.nanoTime();
            do {
                stream(senders, warm);
            } while (warmup.again(t0));
            for (int r = 0; r < nrep; r++) {
                v[r] = stream(senders, batches);
            }
        }
        return Bench.median(v, nrep);
    }

    /** Thread {@code id}'s 8-byte puts: batches of {@link MsgRate#BATCH} into its slots, then quiet. */
    private Stream messages(int id) {
        MemorySegment src = arena.allocate(ValueLayout.JAVA_LONG, SLOTS);
        MemorySegment[] slots = new MemorySegment[SLOTS];
        for (int k = 0; k < SLOTS; k++) {
            src.setAtIndex(ValueLayout.JAVA_LONG, k, value(id, k));
            slots[k] = src.asSlice(k * 8L, 8);
        }
        long base = (long) id * SLOTS * 8;
        return (ctx, n) -> {
            for (long b = 0; b < n; b++) {
                for (int k = 0; k < MsgRate.BATCH; k++) {
                    ctx.putmemNbi(dst, base + (k % SLOTS) * 8L, slots[k % SLOTS], 1);
                }
                ctx.quiet();
            }
        };
    }

    /** Thread {@code id}'s 1 MiB puts: windows of {@link #WINDOW} into its region, then quiet. */
    private Stream megabytes(int id) {
        MemorySegment src = arena.allocate(LARGE, 64);
        for (long w = 0; w < LARGE / 8; w++) {
            src.setAtIndex(ValueLayout.JAVA_LONG, w, value(id, (int) w));
        }
        return (ctx, n) -> {
            for (long b = 0; b < n; b++) {
                for (int k = 0; k < WINDOW; k++) {
                    ctx.putmemNbi(large, id * LARGE, src, 1);
                }
                ctx.quiet();
            }
        };
    }

    /** PE 1 checks every word the threads' 1 MiB puts wrote, then clears them. */
    private void verifyLarge(int threads, String ctx) {
        shmem.barrierAll();
        if (shmem.myPe() == 1) {
            MemorySegment d = large.segment();
            for (int t = 0; t < threads; t++) {
                for (long w = 0; w < LARGE / 8; w++) {
                    long got = d.getAtIndex(ValueLayout.JAVA_LONG, t * LARGE / 8 + w);
                    if (got != value(t, (int) w)) {
                        System.err.println("msgrate_threads: bw threads=" + threads + " ctx=" + ctx + ": word " + w
                                + " of thread " + t + " holds " + got + ", expected " + value(t, (int) w));
                        shmem.globalExit(3);
                    }
                }
            }
            d.fill((byte) 0);
        }
        shmem.barrierAll();
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

        Senders(int count, boolean privateContexts, java.util.function.IntFunction<Stream> work) {
            this.threads = new Thread[count];
            this.start = new CyclicBarrier(count + 1);
            this.done = new CyclicBarrier(count + 1);
            for (int t = 0; t < count; t++) {
                Stream stream = work.apply(t);
                threads[t] = Thread.ofPlatform().name("msgrate-sender-" + t).daemon(true)
                        .start(() -> sender(stream, privateContexts));
            }
        }

        private void sender(Stream stream, boolean privateContexts) {
            Context ctx = shmem;
            if (privateContexts) {
                try {
                    ctx = shmem.ctxCreate(Context.CTX_PRIVATE);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    ctx = null;   // keeps taking part in the barriers; go() reports the failure
                }
            }
            try {
                while (true) {
                    start.await();
                    long n = batches;
                    if (n < 0) {
                        break;
                    }
                    try {
                        stream.run(ctx, n);
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
