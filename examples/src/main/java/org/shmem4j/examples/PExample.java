package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;

/**
 * Spec Example 18 (section 9.6.1.2, {@code shmem_p}): PE 0 writes e into {@code f} on PE 1, which
 * prints OK when it arrived. Needs at least 2 PEs.
 *
 * <p>C's {@code static double f = 3.1415927} becomes a symmetric allocation that each PE sets
 * before a barrier. Checks: PE 1 prints OK (its {@code f} is within epsilon of e); every other
 * PE's {@code f} is still 3.1415927.
 */
public final class PExample {
    private PExample() {
    }

    public static void main(String[] args) {
        final double e = 2.71828182;
        final double epsilon = 0.00000001;
        try (Shmem shmem = Shmem.init();
                SymmetricDoubleArray f = shmem.malloc(ValueLayout.JAVA_DOUBLE, 1)) {
            Checks.requirePes(shmem, 2, "PExample");
            f.set(0, 3.1415927);
            shmem.barrierAll(); // every PE's f is initialized before PE 0 writes PE 1's
            int mype = shmem.myPe();
            if (mype == 0) {
                shmem.p(f, 0, e, 1);
            }
            shmem.barrierAll();
            boolean ok = Math.abs(f.get(0) - e) < epsilon;
            if (mype == 1) {
                System.out.println(ok ? "OK" : "FAIL");
                Checks.check(shmem, ok, "f on PE 1 is " + f.get(0) + ", expected " + e);
            } else {
                Checks.expectEquals(shmem, "f", 3.1415927, f.get(0));
            }
        }
    }
}
