package org.shmem4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricSegment;

/**
 * One-way streaming bandwidth PE 0 -> PE 1 (the Java side of peer/put_bw.c): windows of up to 16
 * transfers of {@code bytes} each, {@code quiet} after each window, at least 64 MiB (and at least
 * 2 transfers) per repeat; then the same with gets (PE 0 pulling from PE 1). PE 1 never reads the
 * target buffer, so sizes that fit in cache measure cache-to-cache copy speed. MBps = 10^6 B/s.
 *
 * <p>As the C peer, the window holds {@code putmemNbi}/{@code getmemNbi} ({@code shmem_putmem_nbi},
 * {@code shmem_getmem_nbi}) and the {@code quiet} after it completes them.
 *
 * <p>Output: {@code put_bw bytes=<n> MBps=<v>}, {@code get_bw bytes=<n> MBps=<v>}, 4 KiB .. 64 MiB.
 */
public final class PutBw {
    static final long MAX_BYTES = 64L << 20;
    static final int WINDOW = 16;

    private PutBw() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            if (Bench.fewerThanTwoPes(shmem, "put_bw")) {
                return 1;
            }
            stream(shmem, knobs, false);
            stream(shmem, knobs, true);
            return 0;
        }
    }

    private static void stream(Shmem shmem, Knobs knobs, boolean isGet) {
        int me = shmem.myPe();
        int nrep = knobs.reps();
        try (Arena arena = Arena.ofConfined()) {
            SymmetricSegment sym = shmem.malloc(MAX_BYTES);
            MemorySegment loc = arena.allocate(MAX_BYTES, 4096);
            sym.segment().fill((byte) ('a' + me));
            loc.fill((byte) ('a' + me));
            shmem.barrierAll();

            try (Warmup warmup = new Warmup(shmem, knobs)) {   // the hot loop, before any timing
                MemorySegment first = loc.asSlice(0, 4096);
                long t0 = System.nanoTime();
                do {
                    if (me == 0) {
                        long n = knobs.warmup(WINDOW, 4096);
                        if (isGet) {
                            gets(shmem, first, sym, n);
                        } else {
                            puts(shmem, sym, first, n);
                        }
                    }
                } while (warmup.again(t0));
            }
            double[] v = new double[nrep];
            for (long bytes = 4096; bytes <= MAX_BYTES; bytes *= 4) {
                long ops = Math.max(2, knobs.scaled(64L << 20) / bytes);     // transfers per repeat
                MemorySegment slice = loc.asSlice(0, bytes);
                for (int r = -1; r < nrep; r++) {
                    long n = r < 0 ? knobs.warmup(Math.min(ops, WINDOW), bytes) : ops;
                    shmem.barrierAll();
                    if (me == 0) {
                        long ns = isGet ? gets(shmem, slice, sym, n) : puts(shmem, sym, slice, n);
                        if (r >= 0) {
                            v[r] = (double) bytes * (double) n / (ns / 1e9) / 1e6;
                        }
                    }
                }
                if (me == 0) {
                    Bench.line("%s bytes=%d MBps=%.0f", isGet ? "get_bw" : "put_bw", bytes, Bench.median(v, nrep));
                }
            }
            shmem.barrierAll();
            if (me == 1 && !isGet && sym.segment().get(ValueLayout.JAVA_BYTE, MAX_BYTES - 1) != 'a') {
                System.err.println("put_bw: payload did not arrive");
                shmem.globalExit(3);
            }
            if (me == 0 && isGet && loc.get(ValueLayout.JAVA_BYTE, MAX_BYTES - 1) != 'b') {
                System.err.println("get_bw: payload did not arrive");
                shmem.globalExit(3);
            }
            shmem.barrierAll();
            sym.close();
        }
    }

    /** Windows of nbi puts, quiet after each; nanoseconds. */
    private static long puts(Shmem shmem, SymmetricSegment dest, MemorySegment src, long n) {
        long t0 = System.nanoTime();
        for (long done = 0; done < n;) {
            for (int k = 0; k < WINDOW && done < n; k++, done++) {
                shmem.putmemNbi(dest, 0, src, 1);
            }
            shmem.quiet();
        }
        return System.nanoTime() - t0;
    }

    /** Windows of nbi gets, quiet after each; nanoseconds. */
    private static long gets(Shmem shmem, MemorySegment dest, SymmetricSegment src, long n) {
        long t0 = System.nanoTime();
        for (long done = 0; done < n;) {
            for (int k = 0; k < WINDOW && done < n; k++, done++) {
                shmem.getmemNbi(dest, src, 0, 1);
            }
            shmem.quiet();
        }
        return System.nanoTime() - t0;
    }
}
