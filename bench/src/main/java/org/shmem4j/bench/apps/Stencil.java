package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;
import org.shmem4j.SymmetricLongArray;

/**
 * The Parallel Research Kernels' stencil: a 2-D star stencil of radius {@value #R} applied to an
 * n x n grid {@code in} (initially {@code in(i,j) = i + j}), accumulated into {@code out}, after
 * which every point of {@code in} grows by one. The PEs form a near-square grid of tiles; before
 * each sweep a PE sends the R rows or columns at each edge of its tile to the neighbour across it
 * (packed, one put per neighbour into a receive buffer of the iteration's parity, a fence, a flag
 * put carrying the iteration) and waits for its neighbours' flags. Verification: the L1 norm of
 * {@code out} over the interior, divided by the number of interior points, is
 * {@code (iterations + 1) * 2} (the stencil differentiates the linear field exactly).
 */
final class Stencil {
    /** The radius; {@link #sweep} is written out for it. */
    static final int R = 2;
    private static final double EPSILON = 1e-8;
    /** Sides of a tile, named by where the data comes from: from the top neighbour (y + 1), ... */
    private static final int TOP = 0, BOTTOM = 1, RIGHT = 2, LEFT = 3;

    private Stencil() {
    }

    static boolean run(Apps app, Shmem shmem, int iterations, int n) {
        int npes = app.npes, me = app.me;
        int npx = (int) Math.sqrt(npes + 1);
        while (npes % npx != 0) {
            npx--;
        }
        int npy = npes / npx;
        int idx = me % npx, idy = me / npx;
        int istart = start(n, npx, idx), iend = start(n, npx, idx + 1) - 1;
        int jstart = start(n, npy, idy), jend = start(n, npy, idy + 1) - 1;
        int width = iend - istart + 1, height = jend - jstart + 1;
        if (width < R || height < R) {
            app.line("# stencil: a tile of %d x %d is smaller than the radius %d", width, height, R);
            return false;
        }
        int w2 = width + 2 * R;
        // symmetric allocations have one size on every PE: the largest tile's
        int maxW = (n + npx - 1) / npx, maxH = (n + npy - 1) / npy;
        Doubles in = Doubles.allocate(shmem, app.symmetric, (maxW + 2 * R) * (maxH + 2 * R));
        Doubles out = Doubles.allocate(shmem, app.symmetric, maxW * maxH);
        double[] weight = new double[2 * R + 1];
        for (int k = 1; k <= R; k++) {
            weight[R + k] = 1.0 / (2.0 * k * R);
            weight[R - k] = -1.0 / (2.0 * k * R);
        }
        for (int j = jstart; j <= jend; j++) {
            for (int i = istart; i <= iend; i++) {
                in.set((i - istart + R) + (j - jstart + R) * w2, i + j);
            }
        }
        int[] nbr = {idy + 1 < npy ? me + npx : -1, idy > 0 ? me - npx : -1, idx + 1 < npx ? me + 1 : -1, idx > 0 ? me - 1 : -1};
        Halo halo = new Halo(shmem, in, nbr, width, height, Math.max(maxW, maxH) * R);

        Apps.Clock clock = app.new Clock(iterations);
        for (int iter = 0; iter <= iterations; iter++) {
            clock.iteration(iter);
            halo.exchange(iter);
            int ilo = Math.max(istart, R), ihi = Math.min(n - R - 1, iend), jlo = Math.max(jstart, R), jhi = Math.min(n - R - 1, jend);
            if (app.vector) {
                VectorSweep.sweep(((Doubles.Sym) in).a().elements(), ((Doubles.Sym) out).a().elements(), weight, ilo, ihi, jlo, jhi,
                        istart, jstart, width, w2);
            } else {
                sweep(in, out, weight, ilo, ihi, jlo, jhi, istart, jstart, width, w2);
            }
            addOne(in, width, height, w2);
        }
        double time = clock.stop();

        double local = 0;
        for (int j = Math.max(jstart, R); j <= Math.min(n - R - 1, jend); j++) {
            for (int i = Math.max(istart, R); i <= Math.min(n - R - 1, iend); i++) {
                local += Math.abs(out.get((i - istart) + (j - jstart) * width));
            }
        }
        double active = (double) (n - 2 * R) * (n - 2 * R);
        double norm = app.sum(local) / active;
        double reference = (iterations + 1) * 2.0;
        boolean ok = Math.abs(norm - reference) <= EPSILON;
        int flops = 2 * (4 * R + 1) + 1;
        app.report(clock, "stencil", String.format("n=%d radius=%d", n, R), "MFlops", 1e-6 * flops * active);
        app.line("# stencil %s: norm %.10f, reference %.10f, %.4f s", ok ? "verified" : "FAILED", norm, reference, time);
        return ok;
    }

    /** First index of block {@code b} of {@code blocks} over {@code n} points (the first n % blocks get one more). */
    static int start(int n, int blocks, int b) {
        int base = n / blocks, extra = n % blocks;
        return b * base + Math.min(b, extra);
    }

    /**
     * out(i,j) += the star stencil of in around (i,j), over the interior points of the tile. The
     * terms are written out for radius 2, as the PRK generates its stencil code: summed in the order
     * of a loop over k = -2, -1, 1, 2 (the same rounding), but a loop body the JIT can vectorise.
     */
    private static void sweep(Doubles in, Doubles out, double[] weight, int ilo, int ihi, int jlo, int jhi, int istart,
            int jstart, int width, int w2) {
        double wm2 = weight[0], wm1 = weight[1], wp1 = weight[3], wp2 = weight[4];
        long up = w2, up2 = 2L * w2; // indices are longs: see Doubles
        for (int j = jlo; j <= jhi; j++) {
            long rowIn = (long) (j - jstart + R) * w2 + R - istart;
            long rowOut = (long) (j - jstart) * width - istart;
            for (long i = ilo; i <= ihi; i++) {
                long c = rowIn + i;
                out.set(rowOut + i, out.get(rowOut + i)
                        + (wm2 * in.get(c - up2) + wm2 * in.get(c - 2))
                        + (wm1 * in.get(c - up) + wm1 * in.get(c - 1))
                        + (wp1 * in.get(c + up) + wp1 * in.get(c + 1))
                        + (wp2 * in.get(c + up2) + wp2 * in.get(c + 2)));
            }
        }
    }

    /** in(i,j) += 1 over the tile's own points. */
    private static void addOne(Doubles in, int width, int height, int w2) {
        for (int j = 0; j < height; j++) {
            long row = (long) (j + R) * w2 + R;
            for (long c = row, end = row + width; c < end; c++) {
                in.set(c, in.get(c) + 1.0);
            }
        }
    }

    /** The halo exchange: packing, puts, flags and unpacking for the four sides of one tile. */
    private static final class Halo {
        private final Shmem shmem;
        private final Doubles in;
        private final int[] nbr;
        private final int width, height, w2, slot;
        private final double[] send;
        private final SymmetricDoubleArray recv;
        private final SymmetricLongArray flags;

        Halo(Shmem shmem, Doubles in, int[] nbr, int width, int height, int slot) {
            this.shmem = shmem;
            this.in = in;
            this.nbr = nbr;
            this.width = width;
            this.height = height;
            this.w2 = width + 2 * R;
            this.slot = slot;
            this.send = new double[slot];
            this.recv = shmem.calloc(ValueLayout.JAVA_DOUBLE, 2L * 4 * slot); // [parity][side][slot]
            this.flags = shmem.calloc(ValueLayout.JAVA_LONG, 4);
        }

        void exchange(int iter) {
            int parity = iter & 1;
            // what I send to my top neighbour arrives at its bottom side, and so on
            int[] arrives = {BOTTOM, TOP, LEFT, RIGHT};
            for (int to = 0; to < 4; to++) {
                if (nbr[to] >= 0) {
                    int count = pack(to);
                    shmem.put(recv, (long) (parity * 4 + arrives[to]) * slot, send, 0, count, nbr[to]);
                }
            }
            shmem.fence();
            for (int to = 0; to < 4; to++) {
                if (nbr[to] >= 0) {
                    shmem.p(flags, arrives[to], iter + 1L, nbr[to]);
                }
            }
            for (int side = 0; side < 4; side++) {
                if (nbr[side] >= 0) {
                    shmem.waitUntil(flags, side, Cmp.GE, iter + 1L);
                    int base = (parity * 4 + side) * slot;
                    unpack(side, base);
                }
            }
        }

        /** Packs the R edge rows or columns facing {@code side} into {@code send}; returns the count. */
        private int pack(int side) {
            int k = 0;
            for (int[] p = new int[2]; region(side, k, p, false); k++) {
                send[k] = in.get(p[0] + p[1] * w2);
            }
            return k;
        }

        /** Unpacks what arrived from {@code side} into the halo on that side. */
        private void unpack(int side, int base) {
            int k = 0;
            for (int[] p = new int[2]; region(side, k, p, true); k++) {
                in.set(p[0] + p[1] * w2, recv.get(base + k));
            }
        }

        /**
         * Element {@code k} of the edge strip of {@code side} (the halo when {@code halo}, else the
         * tile's own edge facing that side) as in-array coordinates {@code p}; false past its end.
         * Rows strips run row by row, column strips R points per row.
         */
        private boolean region(int side, int k, int[] p, boolean halo) {
            boolean rows = side == TOP || side == BOTTOM;
            if (k >= R * (rows ? width : height)) {
                return false;
            }
            int along = rows ? k % width : k / R, across = rows ? k / width : k % R;
            int first = switch (side) {
                case TOP -> halo ? height + R : height;      // rows (y) of the strip, in-array coordinates
                case BOTTOM -> halo ? 0 : R;
                case RIGHT -> halo ? width + R : width;     // columns (x)
                default -> halo ? 0 : R;
            };
            if (rows) {
                p[0] = R + along;
                p[1] = first + across;
            } else {
                p[0] = first + across;
                p[1] = R + along;
            }
            return true;
        }
    }
}
