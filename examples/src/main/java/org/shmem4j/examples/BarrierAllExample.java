package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 29 (section 9.10.1, {@code shmem_barrier_all}): every PE writes 4 into {@code x} on
 * the next PE (circularly) with {@code shmem_p}; after the barrier every PE prints its {@code x}.
 * Runs on any number of PEs.
 *
 * <p>C's {@code static int x = 1010} becomes a symmetric allocation that each PE sets before a
 * barrier. Check: every PE's {@code x} is 4.
 */
public final class BarrierAllExample {
    private BarrierAllExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray x = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            x.set(0, 1010);
            shmem.barrierAll(); // every PE's x is initialized before the puts
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            // put to next PE in a circular fashion
            shmem.p(x, 0, 4, (mype + 1) % npes);

            // synchronize all PEs
            shmem.barrierAll();
            System.out.printf("%d: x = %d%n", mype, x.get(0));
            Checks.expectEquals(shmem, "x", 4, x.get(0));
        }
    }
}
