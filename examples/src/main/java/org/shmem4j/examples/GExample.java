package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 20 (section 9.6.1.6, {@code shmem_g}): PE 0 reads {@code x} from the last PE; every
 * PE prints its {@code y}. Runs on any number of PEs.
 *
 * <p>C's {@code static long x = 10101} becomes a symmetric allocation that each PE sets before a
 * barrier. Check: PE 0's {@code y} is 10101, the others' still -1.
 */
public final class GExample {
    private GExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray x = shmem.malloc(ValueLayout.JAVA_LONG, 1)) {
            x.set(0, 10101L);
            shmem.barrierAll(); // every PE's x is initialized before PE 0 reads one
            long y = -1;
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            if (mype == 0) {
                y = shmem.g(x, 0, npes - 1);
            }
            System.out.printf("%d: y = %d%n", mype, y);
            Checks.expectEquals(shmem, "y", mype == 0 ? 10101L : -1L, y);
        }
    }
}
