package org.example;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;

/**
 * Computes pi as the integral of 4/(1+x^2) over [0, 1]: every PE sums its share of the midpoint
 * rule's intervals, a sum reduction over all PEs (shmem_double_sum_reduce) gives every PE the
 * total, and PE 0 prints it.
 */
public final class Pi {
    private static final long INTERVALS = 10_000_000;

    private Pi() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes();
            double h = 1.0 / INTERVALS, partial = 0;
            for (long i = me; i < INTERVALS; i += n) {
                double x = h * (i + 0.5);
                partial += 4 / (1 + x * x);
            }
            try (SymmetricDoubleArray local = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1);
                    SymmetricDoubleArray total = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1)) {
                local.set(0, partial * h);
                shmem.teamWorld().sumReduce(total, local, 1);
                if (me == 0) {
                    System.out.printf("pi = %.12f on %d PEs (error %.1e)%n", total.get(0), n, Math.abs(total.get(0) - Math.PI));
                }
                if (Math.abs(total.get(0) - Math.PI) > 1e-9) {
                    throw new AssertionError("PE " + me + " got pi = " + total.get(0));
                }
            }
        }
    }
}
