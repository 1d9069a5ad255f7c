package org.shmem4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricSegment;

/**
 * Put ping-pong latency between PE 0 and PE 1 (the Java side of peer/put_lat.c).
 *
 * <p>One iteration: PE 0 {@code putmem(size)} to PE 1, {@code fence}, {@code p} of a sequence
 * number into PE 1's flag; PE 1 waits until its flag equals the number, then answers the same
 * way ({@code waitUntil(flag, 0, Cmp.EQ, seq)}, C's {@code shmem_long_wait_until}). Reported:
 * half the round trip in microseconds, the median of {@code PEER_REPS} repeats after a warm-up. Also the bare flag ping-pong ({@code p} + wait, no payload, no fence). Each repeat walks
 * all sizes round robin, so a change in vCPU placement hits every size alike.
 *
 * <p>Output: {@code put_lat bytes=<n> us=<x>} for 8 B .. 1 MiB, {@code p_pingpong bytes=8 us=<x>}.
 */
public final class PutLat {
    static final long MAX_BYTES = 1L << 20;
    static final long[] SIZES = {8, 32, 128, 512, 2048, 8192, 32768, 131072, 524288, 1048576};

    private final Shmem shmem;
    private final int me;
    private final int peer;
    private final SymmetricSegment buf;
    private final SymmetricLongArray flag;
    private long seq;

    private PutLat(Shmem shmem, SymmetricSegment buf, SymmetricLongArray flag) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.peer = me == 0 ? 1 : 0;
        this.buf = buf;
        this.flag = flag;
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** Runs the benchmark on this PE; returns the exit status (1: fewer than 2 PEs). */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            if (Bench.fewerThanTwoPes(shmem, "put_lat")) {
                return 1;
            }
            int me = shmem.myPe();
            int nrep = knobs.reps();
            SymmetricSegment buf = shmem.malloc(MAX_BYTES);              // receive buffer (symmetric)
            SymmetricLongArray flag = shmem.malloc(ValueLayout.JAVA_LONG, 1);
            MemorySegment src = arena.allocate(MAX_BYTES, 64);          // send buffer (private)
            src.fill((byte) ('a' + me));
            buf.segment().fill((byte) 0);
            flag.segment().set(ValueLayout.JAVA_LONG, 0, 0L);
            shmem.barrierAll();

            PutLat bench = new PutLat(shmem, buf, flag);
            int nsizes = SIZES.length;
            // index nsizes is the bare flag ping-pong (src == null)
            MemorySegment[] slices = new MemorySegment[nsizes + 1];
            long[] iters = new long[nsizes + 1];
            for (int s = 0; s <= nsizes; s++) {
                long b = s < nsizes ? SIZES[s] : 0;
                slices[s] = b > 0 ? src.asSlice(0, b) : null;
                iters[s] = knobs.scaled(b <= 4096 ? 20000 : (b <= 65536 ? 4000 : 400));
            }
            double[][] v = new double[nsizes + 1][nrep];
            try (Warmup warmup = new Warmup(shmem, knobs)) {
                long t0 = System.nanoTime();
                do {
                    for (int s = 0; s <= nsizes; s++) {
                        bench.pingpong(slices[s], knobs.warmup(iters[s] / 10 + 10, Math.max(8, sizes(s))));
                    }
                } while (warmup.again(t0));
            }
            for (int r = 0; r < nrep; r++) {
                for (int s = 0; s <= nsizes; s++) {
                    v[s][r] = bench.pingpong(slices[s], iters[s]);
                }
            }
            // the last payload (1 MiB) must have arrived
            if (me <= 1 && buf.segment().get(ValueLayout.JAVA_BYTE, MAX_BYTES - 1) != (byte) ('a' + bench.peer)) {
                System.err.println("put_lat: PE " + me + " bad payload");
                shmem.globalExit(3);
            }
            if (me == 0) {
                for (int s = 0; s < nsizes; s++) {
                    Bench.line("put_lat bytes=%d us=%.3f", SIZES[s], Bench.median(v[s], nrep));
                }
                Bench.line("p_pingpong bytes=8 us=%.3f", Bench.median(v[nsizes], nrep));
            }
            shmem.barrierAll();
            flag.close();
            buf.close();
            return 0;
        }
    }

    private static long sizes(int s) {
        return s < SIZES.length ? SIZES[s] : 0;
    }

    /** {@code n} ping-pongs carrying {@code src} (null: flag only); microseconds per half trip. */
    private double pingpong(MemorySegment src, long n) {
        shmem.barrierAll();
        long s = seq;
        long t0 = System.nanoTime();
        if (me == 0) {
            s = initiate(src, n, s);
        } else if (me == 1) {
            s = answer(src, n, s);
        } else {
            s += n;
        }
        long t1 = System.nanoTime();
        seq = s;
        return Bench.usPer(t1 - t0, n * 2.0);
    }

    private long initiate(MemorySegment src, long n, long s) {
        for (long i = 0; i < n; i++) {
            s++;
            if (src != null) {
                shmem.putmem(buf, 0, src, peer);
                shmem.fence();
            }
            shmem.p(flag, 0, s, peer);
            shmem.waitUntil(flag, 0, Cmp.EQ, s);
        }
        return s;
    }

    private long answer(MemorySegment src, long n, long s) {
        for (long i = 0; i < n; i++) {
            s++;
            shmem.waitUntil(flag, 0, Cmp.EQ, s);
            if (src != null) {
                shmem.putmem(buf, 0, src, peer);
                shmem.fence();
            }
            shmem.p(flag, 0, s, peer);
        }
        return s;
    }
}
