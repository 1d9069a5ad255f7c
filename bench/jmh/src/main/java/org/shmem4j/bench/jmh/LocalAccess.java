package org.shmem4j.bench.jmh;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;
import org.shmem4j.SymmetricLongArray;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Per-element local access to symmetric arrays against the same loop over Java arrays (issue 13:
 * target within 1.1x). Each benchmark is one pass over {@code n} elements, reported per element.
 * The PE is a singleton job (no launcher): local access involves no other PE.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "--add-modules=jdk.incubator.vector"})
@OperationsPerInvocation(LocalAccess.N)
public class LocalAccess {
    static final int N = 4096;
    private static final int SIDE = 64; // N = SIDE * SIDE
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;

    private Shmem shmem;
    private SymmetricLongArray symLong;
    private SymmetricDoubleArray symA;
    private SymmetricDoubleArray symB;
    private final long[] javaLong = new long[N];
    private final double[] javaA = new double[N];
    private final double[] javaB = new double[N];

    @Setup(Level.Trial)
    public void setUp() {
        shmem = Shmem.init();
        symLong = shmem.calloc(ValueLayout.JAVA_LONG, N);
        symA = shmem.calloc(ValueLayout.JAVA_DOUBLE, N);
        symB = shmem.calloc(ValueLayout.JAVA_DOUBLE, N);
        for (int i = 0; i < N; i++) {
            javaLong[i] = i * 7L;
            symLong.set(i, i * 7L);
            javaA[i] = i * 0.5;
            symA.set(i, i * 0.5);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        symB.close();
        symA.close();
        symLong.close();
        shmem.close();
    }

    @Benchmark
    public long sumJavaLong() {
        long[] a = javaLong;
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    @Benchmark
    public long sumSymmetricLong() {
        SymmetricLongArray a = symLong;
        long s = 0;
        for (int i = 0; i < N; i++) {
            s += a.get(i);
        }
        return s;
    }

    @Benchmark
    public long sumSegmentLong() {
        MemorySegment a = symLong.elements();
        long s = 0;
        for (int i = 0; i < N; i++) {
            s += a.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return s;
    }

    /** A read-modify-write per element: b[i] = 3 a[i] + b[i] (an axpy). */
    @Benchmark
    public void axpyJavaDouble() {
        double[] a = javaA;
        double[] b = javaB;
        for (int i = 0; i < N; i++) {
            b[i] = 3.0 * a[i] + b[i];
        }
    }

    @Benchmark
    public void axpySymmetricDouble() {
        SymmetricDoubleArray a = symA;
        SymmetricDoubleArray b = symB;
        for (int i = 0; i < N; i++) {
            b.set(i, 3.0 * a.get(i) + b.get(i));
        }
    }

    @Benchmark
    public void axpySegmentDouble() {
        MemorySegment a = symA.elements();
        MemorySegment b = symB.elements();
        for (int i = 0; i < N; i++) {
            b.setAtIndex(ValueLayout.JAVA_DOUBLE, i,
                    3.0 * a.getAtIndex(ValueLayout.JAVA_DOUBLE, i) + b.getAtIndex(ValueLayout.JAVA_DOUBLE, i));
        }
    }

    /** A transposing add over a 64 x 64 block, b(i, j) += a(j, i): strided int index expressions, as in the PRK transpose. */
    @Benchmark
    public void transposeJavaDouble() {
        double[] a = javaA;
        double[] b = javaB;
        for (int i = 0; i < SIDE; i++) {
            for (int j = 0; j < SIDE; j++) {
                b[i + SIDE * j] += a[j + SIDE * i];
            }
        }
    }

    @Benchmark
    public void transposeSymmetricDouble() {
        SymmetricDoubleArray a = symA;
        SymmetricDoubleArray b = symB;
        for (int i = 0; i < SIDE; i++) {
            for (int j = 0; j < SIDE; j++) {
                int c = i + SIDE * j;
                b.set(c, b.get(c) + a.get(j + SIDE * i));
            }
        }
    }

    /** The axpy with the Vector API on the symmetric arrays' segment views (what the JIT may not do by itself). */
    @Benchmark
    public void axpyVectorSegmentDouble() {
        MemorySegment a = symA.elements();
        MemorySegment b = symB.elements();
        int i = 0;
        for (int upper = SPECIES.loopBound(N); i < upper; i += SPECIES.length()) {
            long at = (long) i * Double.BYTES;
            DoubleVector.fromMemorySegment(SPECIES, a, at, ByteOrder.nativeOrder()).mul(3.0)
                    .add(DoubleVector.fromMemorySegment(SPECIES, b, at, ByteOrder.nativeOrder()))
                    .intoMemorySegment(b, at, ByteOrder.nativeOrder());
        }
        for (; i < N; i++) {
            b.setAtIndex(ValueLayout.JAVA_DOUBLE, i,
                    3.0 * a.getAtIndex(ValueLayout.JAVA_DOUBLE, i) + b.getAtIndex(ValueLayout.JAVA_DOUBLE, i));
        }
    }

    /** Scattered increments (a histogram): every access its own index, nothing to vectorise. */
    @Benchmark
    public void histogramJavaLong() {
        long[] h = javaLong;
        for (int i = 0; i < N; i++) {
            int k = (int) ((i * 2654435761L >>> 20) & (N - 1));
            h[k]++;
        }
    }

    @Benchmark
    public void histogramSymmetricLong() {
        SymmetricLongArray h = symLong;
        for (int i = 0; i < N; i++) {
            long k = (i * 2654435761L >>> 20) & (N - 1);
            h.set(k, h.get(k) + 1);
        }
    }
}
