package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;
import org.shmem4j.SymmetricLongArray;

/**
 * The Parallel Research Kernels' synch_p2p: a pipelined wavefront over an m x n grid,
 * {@code A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1)}, with {@code A(0,j) = j} and {@code A(i,0) = i}.
 * Columns are split among the PEs, each keeping one halo column on its left. Row by row, a PE waits
 * for its left neighbour's value of the row (a put, a fence and a flag put carrying the iteration),
 * computes its part of the row and passes its last value on. After each sweep the last PE sends
 * {@code -A(m-1,n-1)} to PE 0 as the new {@code A(0,0)}, which starts the next iteration.
 * Verification: {@code A(m-1,n-1) = (iterations + 1) (m + n - 2)}.
 */
final class SynchP2p {
    private static final double EPSILON = 1e-8;

    private SynchP2p() {
    }

    static boolean run(Apps app, Shmem shmem, int iterations, int m, int n) {
        int npes = app.npes, me = app.me;
        if (n < npes) {
            app.line("# p2p: %d columns cannot be shared by %d PEs", n, npes);
            return false;
        }
        int jstart = Stencil.start(n, npes, me), jend = Stencil.start(n, npes, me + 1) - 1;
        int w = jend - jstart + 2; // local column 0 is the halo (global column jstart - 1)
        Doubles a = Doubles.allocate(shmem, app.symmetric, m * ((n + npes - 1) / npes + 1)); // one size on every PE
        SymmetricDoubleArray remote = a instanceof Doubles.Sym s ? s.a() : null;
        SymmetricLongArray flags = shmem.calloc(ValueLayout.JAVA_LONG, m); // [0]: the corner, [i]: row i
        for (int j = Math.max(jstart - 1, 0); j <= jend; j++) {
            a.set(j - jstart + 1, j);
        }
        if (me == 0) {
            for (int i = 0; i < m; i++) {
                a.set(i * w + 1, i);
            }
        }
        int right = me + 1 < npes ? me + 1 : -1;
        int rightW = Stencil.start(n, npes, me + 2) - Stencil.start(n, npes, me + 1) + 1; // its rows' stride
        int first = me == 0 ? 2 : 1; // global column 0 is a boundary

        Apps.Clock clock = app.new Clock(iterations);
        for (int iter = 0; iter <= iterations; iter++) {
            clock.iteration(iter);
            for (int i = 1; i < m; i++) {
                if (me > 0) {
                    shmem.waitUntil(flags, i, Cmp.GE, iter + 1L);
                }
                sweepRow(a, (long) i * w, w, first);
                if (right >= 0) {
                    shmem.p(remote, (long) i * rightW, a.get(i * w + w - 1), right);
                    shmem.fence();
                    shmem.p(flags, i, iter + 1L, right);
                }
            }
            double corner = -a.get(m * w - 1);
            if (npes == 1) {
                a.set(1, corner);
            } else if (me == npes - 1) {
                shmem.p(remote, 1, corner, 0);
                shmem.fence();
                shmem.p(flags, 0, iter + 1L, 0);
            } else if (me == 0) {
                shmem.waitUntil(flags, 0, Cmp.GE, iter + 1L);
            }
        }
        double time = clock.stop();

        double expect = (iterations + 1.0) * (m + n - 2);
        double err = app.max(me == npes - 1 ? Math.abs(a.get(m * w - 1) - expect) / expect : 0);
        boolean ok = err < EPSILON;
        app.report(clock, "p2p", String.format("m=%d n=%d", m, n), "MFlops", 1e-6 * 2.0 * (m - 1) * (n - 1));
        app.line("# p2p %s: corner relative error %.3e, %.4f s", ok ? "verified" : "FAILED", err, time);
        return ok;
    }

    /**
     * One row of the wavefront: A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1) from local column
     * {@code first}, in that order (Java does not reassociate; C's -ffast-math may). A(i,j-1) is
     * carried in a local rather than reloaded from the element just stored.
     */
    private static void sweepRow(Doubles a, long row, int w, int first) {
        double left = a.get(row + first - 1);
        for (long c = row + first, end = row + w; c < end; c++) {
            left = a.get(c - w) + left - a.get(c - w - 1);
            a.set(c, left);
        }
    }
}
