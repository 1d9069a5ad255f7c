package org.shmem4j.bench.apps;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The stencil's sweep with the Vector API on the symmetric arrays' local elements
 * ({@code SymmetricDoubleArray.elements()}): {@link Stencil}'s arithmetic, in the same order per
 * point, over as many points at once as the CPU's vectors hold. This is what C compilers do to the
 * C twin's loop; C2 does not vectorise it. Loaded only by {@code --vector} (its JVM needs
 * {@code --add-modules jdk.incubator.vector}).
 */
final class VectorSweep {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorSweep() {
    }

    /** As {@code Stencil.sweep}, for radius 2, on the segments of {@code in} and {@code out}. */
    static void sweep(MemorySegment in, MemorySegment out, double[] weight, int ilo, int ihi, int jlo, int jhi, int istart,
            int jstart, int width, int w2) {
        double wm2 = weight[0], wm1 = weight[1], wp1 = weight[3], wp2 = weight[4];
        long up = (long) w2 * Double.BYTES, up2 = 2 * up, step = SPECIES.length();
        for (int j = jlo; j <= jhi; j++) {
            long rowIn = (long) (j - jstart + Stencil.R) * w2 + Stencil.R - istart;
            long rowOut = (long) (j - jstart) * width - istart;
            long i = ilo;
            for (long last = ihi + 1L - step; i <= last; i += step) {
                long c = (rowIn + i) * Double.BYTES, o = (rowOut + i) * Double.BYTES;
                DoubleVector acc = load(out, o)
                        .add(load(in, c - up2).mul(wm2).add(load(in, c - 16).mul(wm2)))
                        .add(load(in, c - up).mul(wm1).add(load(in, c - 8).mul(wm1)))
                        .add(load(in, c + up).mul(wp1).add(load(in, c + 8).mul(wp1)))
                        .add(load(in, c + up2).mul(wp2).add(load(in, c + 16).mul(wp2)));
                acc.intoMemorySegment(out, o, ORDER);
            }
            for (; i <= ihi; i++) { // the row's remainder, one point at a time
                long c = rowIn + i;
                out.setAtIndex(Stencil.ELEMENT, rowOut + i, out.getAtIndex(Stencil.ELEMENT, rowOut + i)
                        + (wm2 * in.getAtIndex(Stencil.ELEMENT, c - 2L * w2) + wm2 * in.getAtIndex(Stencil.ELEMENT, c - 2))
                        + (wm1 * in.getAtIndex(Stencil.ELEMENT, c - w2) + wm1 * in.getAtIndex(Stencil.ELEMENT, c - 1))
                        + (wp1 * in.getAtIndex(Stencil.ELEMENT, c + w2) + wp1 * in.getAtIndex(Stencil.ELEMENT, c + 1))
                        + (wp2 * in.getAtIndex(Stencil.ELEMENT, c + 2L * w2) + wp2 * in.getAtIndex(Stencil.ELEMENT, c + 2)));
            }
        }
    }

    private static DoubleVector load(MemorySegment s, long byteOffset) {
        return DoubleVector.fromMemorySegment(SPECIES, s, byteOffset, ORDER);
    }
}
