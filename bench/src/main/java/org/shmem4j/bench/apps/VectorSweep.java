package org.shmem4j.bench.apps;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The stencil's sweep with the Vector API on the symmetric arrays' local elements
 * ({@code SymmetricDoubleArray.elements()}): {@link Stencil}'s arithmetic, in the same order per
 * point, over as many points at once as the CPU's vectors hold. This is what C compilers do to the
 * C twin's loop; C2 does not vectorise it. A row's last points, fewer than a vector holds, are done
 * one by one: a masked vector load or store is compiled to vector instructions only where the CPU
 * has mask registers (AVX-512), and elsewhere (AVX2) runs in Java, slowly enough to make the whole
 * sweep 12x slower (measured: one PE, n = 2002, 1998 points per row, 650 against 7900 MFlops at
 * n = 2000). Loaded only by {@code --vector} (its JVM needs {@code --add-modules jdk.incubator.vector}).
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
                points(in, out, (rowIn + i) * Double.BYTES, (rowOut + i) * Double.BYTES, weight, up);
            }
            for (; i <= ihi; i++) {
                point(in, out, (rowIn + i) * Double.BYTES, (rowOut + i) * Double.BYTES, weight, up);
            }
        }
    }

    /** A vector of points from byte offsets {@code c} (in) and {@code o} (out). */
    private static void points(MemorySegment in, MemorySegment out, long c, long o, double[] w, long up) {
        load(out, o)
                .add(load(in, c - 2 * up).mul(w[0]).add(load(in, c - 16).mul(w[0])))
                .add(load(in, c - up).mul(w[1]).add(load(in, c - 8).mul(w[1])))
                .add(load(in, c + up).mul(w[3]).add(load(in, c + 8).mul(w[3])))
                .add(load(in, c + 2 * up).mul(w[4]).add(load(in, c + 16).mul(w[4])))
                .intoMemorySegment(out, o, ORDER);
    }

    private static DoubleVector load(MemorySegment s, long byteOffset) {
        return DoubleVector.fromMemorySegment(SPECIES, s, byteOffset, ORDER);
    }

    /** One point, with {@link #points}' arithmetic in the same order. */
    private static void point(MemorySegment in, MemorySegment out, long c, long o, double[] w, long up) {
        out.set(JAVA_DOUBLE, o, out.get(JAVA_DOUBLE, o)
                + (in.get(JAVA_DOUBLE, c - 2 * up) * w[0] + in.get(JAVA_DOUBLE, c - 16) * w[0])
                + (in.get(JAVA_DOUBLE, c - up) * w[1] + in.get(JAVA_DOUBLE, c - 8) * w[1])
                + (in.get(JAVA_DOUBLE, c + up) * w[3] + in.get(JAVA_DOUBLE, c + 8) * w[3])
                + (in.get(JAVA_DOUBLE, c + 2 * up) * w[4] + in.get(JAVA_DOUBLE, c + 16) * w[4]));
    }
}
