package org.shmem4j.bench.apps;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
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
        long up = (long) w2 * Double.BYTES, step = SPECIES.length();
        for (int j = jlo; j <= jhi; j++) {
            long rowIn = (long) (j - jstart + Stencil.R) * w2 + Stencil.R - istart;
            long rowOut = (long) (j - jstart) * width - istart;
            long i = ilo;
            for (long last = ihi + 1L - step; i <= last; i += step) {
                points(in, out, (rowIn + i) * Double.BYTES, (rowOut + i) * Double.BYTES, weight, up, null);
            }
            if (i <= ihi) { // the row's remainder: the lanes past its end are neither read nor written
                points(in, out, (rowIn + i) * Double.BYTES, (rowOut + i) * Double.BYTES, weight, up,
                        SPECIES.indexInRange(0, (int) (ihi + 1 - i)));
            }
        }
    }

    /** The points from byte offsets {@code c} (in) and {@code o} (out), the lanes of {@code mask} only (all when null). */
    private static void points(MemorySegment in, MemorySegment out, long c, long o, double[] w, long up, VectorMask<Double> mask) {
        DoubleVector acc = load(out, o, mask)
                .add(load(in, c - 2 * up, mask).mul(w[0]).add(load(in, c - 16, mask).mul(w[0])))
                .add(load(in, c - up, mask).mul(w[1]).add(load(in, c - 8, mask).mul(w[1])))
                .add(load(in, c + up, mask).mul(w[3]).add(load(in, c + 8, mask).mul(w[3])))
                .add(load(in, c + 2 * up, mask).mul(w[4]).add(load(in, c + 16, mask).mul(w[4])));
        if (mask == null) {
            acc.intoMemorySegment(out, o, ORDER);
        } else {
            acc.intoMemorySegment(out, o, ORDER, mask);
        }
    }

    private static DoubleVector load(MemorySegment s, long byteOffset, VectorMask<Double> mask) {
        return mask == null ? DoubleVector.fromMemorySegment(SPECIES, s, byteOffset, ORDER)
                : DoubleVector.fromMemorySegment(SPECIES, s, byteOffset, ORDER, mask);
    }
}
