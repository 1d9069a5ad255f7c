package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;
import org.shmem4j.SymmetricLongArray;

/**
 * The Parallel Research Kernels' transpose: {@code B += A^T}, then {@code A += 1}, for order x
 * order matrices stored by columns, each PE holding a block of {@code order / npes} columns of
 * both. In phase k a PE transposes (in tiles of {@value #TILE}) the block that PE {@code me - k}
 * needs, puts it into that PE's receive buffer for phase k, fences and sets the phase's flag to the
 * iteration; it then waits for the block of PE {@code me + k} and adds it into B. Phase 0 is local.
 * A barrier ends each iteration (the receive buffers are reused). Verification: {@code B(i,j) =
 * (order * i + j) (iterations + 1) + iterations (iterations + 1) / 2}, summed absolute error below 1e-8.
 */
final class Transpose {
    static final int TILE = 32;
    private static final double EPSILON = 1e-8;

    private Transpose() {
    }

    static boolean run(Apps app, Shmem shmem, int iterations, int order) {
        int npes = app.npes, me = app.me;
        if (order % npes != 0) {
            app.line("# transpose: order %d is not a multiple of the number of PEs %d", order, npes);
            return false;
        }
        int cw = order / npes, colstart = me * cw;
        Doubles a = Doubles.allocate(shmem, app.symmetric, order * cw);
        Doubles b = Doubles.allocate(shmem, app.symmetric, order * cw);
        for (int j = 0; j < cw; j++) {
            for (int i = 0; i < order; i++) {
                a.set(i + order * j, (double) order * (j + colstart) + i);
            }
        }
        double[] workOut = npes > 1 ? new double[cw * cw] : null;
        SymmetricDoubleArray workIn = npes > 1 ? shmem.calloc(ValueLayout.JAVA_DOUBLE, (long) cw * cw * npes) : null;
        SymmetricLongArray flags = npes > 1 ? shmem.calloc(ValueLayout.JAVA_LONG, npes) : null;

        Apps.Clock clock = app.new Clock(iterations);
        for (int iter = 0; iter <= iterations; iter++) {
            clock.iteration(iter);
            transposeAdd(a, b, order, cw, me * cw, me * cw);
            for (int phase = 1; phase < npes; phase++) {
                int to = (me - phase + npes) % npes, from = (me + phase) % npes;
                transposeInto(a, workOut, order, cw, to * cw);
                shmem.put(workIn, (long) phase * cw * cw, workOut, 0, cw * cw, to);
                shmem.fence();
                shmem.p(flags, phase, iter + 1L, to);
                shmem.waitUntil(flags, phase, Cmp.GE, iter + 1L);
                addBlock(workIn, (long) phase * cw * cw, b, order, cw, from * cw);
            }
            addOne(a, order * cw);
            if (npes > 1) {
                shmem.barrierAll();
            }
        }
        double time = clock.stop();

        double addit = (iterations + 1.0) * iterations / 2.0;
        double local = 0;
        for (int j = 0; j < cw; j++) {
            for (int i = 0; i < order; i++) {
                local += Math.abs(b.get(i + order * j) - (((double) order * i + j + colstart) * (iterations + 1) + addit));
            }
        }
        double abserr = app.sum(local);
        boolean ok = abserr < EPSILON;
        app.report(clock, "transpose", "order=" + order, "MBps", 1e-6 * 2.0 * Double.BYTES * order * order);
        app.line("# transpose %s: summed absolute error %.3e, %.4f s", ok ? "verified" : "FAILED", abserr, time);
        return ok;
    }

    /** A += 1 over the PE's block. */
    private static void addOne(Doubles a, long n) {
        for (long c = 0; c < n; c++) {
            a.set(c, a.get(c) + 1.0);
        }
    }

    /** B(rowBase + i, j) += A(aRow + j, i) for the cw x cw block, in tiles: the local phase (indices in long: see Doubles). */
    private static void transposeAdd(Doubles a, Doubles b, int order, int cw, int aRow, int rowBase) {
        for (int it = 0; it < cw; it += TILE) {
            for (int jt = 0; jt < cw; jt += TILE) {
                for (long i = it, iend = Math.min(cw, it + TILE); i < iend; i++) {
                    for (long j = jt, jend = Math.min(cw, jt + TILE); j < jend; j++) {
                        long c = rowBase + i + (long) order * j;
                        b.set(c, b.get(c) + a.get(aRow + j + (long) order * i));
                    }
                }
            }
        }
    }

    /** work(i, j) = A(aRow + j, i) for the cw x cw block (work stored by columns of length cw), in tiles. */
    private static void transposeInto(Doubles a, double[] work, int order, int cw, int aRow) {
        for (int it = 0; it < cw; it += TILE) {
            for (int jt = 0; jt < cw; jt += TILE) {
                for (int i = it; i < Math.min(cw, it + TILE); i++) {
                    for (int j = jt; j < Math.min(cw, jt + TILE); j++) {
                        work[i + cw * j] = a.get(aRow + j + (long) order * i);
                    }
                }
            }
        }
    }

    /** B(rowBase + i, j) += work(i, j) for the received block. */
    private static void addBlock(SymmetricDoubleArray work, long base, Doubles b, int order, int cw, int rowBase) {
        for (long j = 0; j < cw; j++) {
            for (long i = 0; i < cw; i++) {
                long c = rowBase + i + order * j;
                b.set(c, b.get(c) + work.get(base + i + cw * j));
            }
        }
    }
}
