package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;

/**
 * A kernel's array of doubles: a symmetric array, or a Java array for the reference run that
 * shows what the same kernel costs without the library. A process uses one kind only, so every
 * call site stays monomorphic and the JIT inlines it to the plain access. Indices are longs, as
 * a symmetric array's are: a loop that counts in longs lets the JIT prove the segment's bounds
 * once per loop (an int index widened per access defeats that); for a Java array the narrowing
 * back to int folds away.
 */
sealed interface Doubles permits Doubles.Plain, Doubles.Sym {
    double get(long i);

    void set(long i, double v);

    /** Collective when {@code symmetric} (a {@code shmem_calloc}); else a Java array. */
    static Doubles allocate(Shmem shmem, boolean symmetric, int n) {
        return symmetric ? new Sym(shmem.calloc(ValueLayout.JAVA_DOUBLE, n)) : new Plain(new double[n]);
    }

    record Plain(double[] a) implements Doubles {
        @Override
        public double get(long i) {
            return a[(int) i];
        }

        @Override
        public void set(long i, double v) {
            a[(int) i] = v;
        }
    }

    record Sym(SymmetricDoubleArray a) implements Doubles {
        @Override
        public double get(long i) {
            return a.get(i);
        }

        @Override
        public void set(long i, double v) {
            a.set(i, v);
        }
    }
}
