package org.shmem4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricSegment;

/**
 * Blocking get latency: PE 0 {@code getmem} from PE 1 while PE 1 stays passive in a barrier (the
 * Java side of peer/get_lat.c); also the single-long {@code g}.
 *
 * <p>Output: {@code get_lat bytes=<n> us=<per get>}, {@code g_lat bytes=8 us=<per g>}.
 */
public final class GetLat {
    static final long MAX_BYTES = 1L << 20;
    static final long[] SIZES = PutLat.SIZES;

    private GetLat() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            if (Bench.fewerThanTwoPes(shmem, "get_lat")) {
                return 1;
            }
            int me = shmem.myPe();
            int nrep = knobs.reps();
            SymmetricSegment remote = shmem.malloc(MAX_BYTES);
            MemorySegment local = arena.allocate(MAX_BYTES, 64);        // private, zeroed
            remote.segment().fill((byte) ('a' + me));
            shmem.barrierAll();

            SymmetricLongArray x = shmem.malloc(ValueLayout.JAVA_LONG, 1);
            x.segment().set(ValueLayout.JAVA_LONG, 0, 1000L + me);
            long sink = 0;
            try (Warmup warmup = new Warmup(shmem, knobs)) {   // both hot loops, before any timing
                long t0 = System.nanoTime();
                do {
                    if (me == 0) {
                        gets(shmem, local.asSlice(0, 8), remote, knobs.warmup(10, 8));
                        sink += gs(shmem, x, knobs.warmup(10, 8));
                    }
                } while (warmup.again(t0));
            }
            double[] v = new double[nrep];
            for (long bytes : SIZES) {
                long iters = knobs.scaled(bytes <= 4096 ? 40000 : (bytes <= 65536 ? 8000 : 800));
                long warm = knobs.warmup(iters / 10 + 10, bytes);
                MemorySegment dest = local.asSlice(0, bytes);
                for (int r = -1; r < nrep; r++) {
                    long n = r < 0 ? warm : iters;
                    shmem.barrierAll();
                    if (me == 0) {
                        long ns = gets(shmem, dest, remote, n);
                        if (r >= 0) {
                            v[r] = Bench.usPer(ns, n);
                        }
                    }
                }
                if (me == 0) {
                    if (local.get(ValueLayout.JAVA_BYTE, bytes - 1) != 'b') {
                        System.err.println("get_lat: bad payload at " + bytes + " bytes");
                        shmem.globalExit(3);
                    }
                    Bench.line("get_lat bytes=%d us=%.3f", bytes, Bench.median(v, nrep));
                }
            }

            // single element get
            long iters = knobs.scaled(100000);
            for (int r = -1; r < nrep; r++) {
                long n = r < 0 ? knobs.warmup(Math.max(1, iters / 10), 8) : iters;
                shmem.barrierAll();
                if (me == 0) {
                    long t0 = System.nanoTime();
                    sink += gs(shmem, x, n);
                    long t1 = System.nanoTime();
                    if (r >= 0) {
                        v[r] = Bench.usPer(t1 - t0, n);
                    }
                }
            }
            if (me == 0) {
                if (sink % 1001 != 0 || sink == 0) {
                    System.err.println("g_lat: bad value");
                    shmem.globalExit(3);
                }
                Bench.line("g_lat bytes=8 us=%.3f", Bench.median(v, nrep));
            }
            shmem.barrierAll();
            x.close();
            shmem.barrierAll();
            remote.close();
            return 0;
        }
    }

    private static long gets(Shmem shmem, MemorySegment dest, SymmetricSegment remote, long n) {
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            shmem.getmem(dest, remote, 0, 1);
        }
        return System.nanoTime() - t0;
    }

    private static long gs(Shmem shmem, SymmetricLongArray x, long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += shmem.g(x, 0, 1);
        }
        return sum;
    }
}
