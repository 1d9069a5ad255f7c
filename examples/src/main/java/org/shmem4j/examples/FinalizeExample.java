package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 7 (section 9.1.4, {@code shmem_finalize}): PE 0 reads {@code x} from the last PE
 * with {@code shmem_g}; every PE prints its {@code y}, then finalizes. Runs on any number of PEs.
 *
 * <p>C's {@code static long x = 10101} becomes a symmetric allocation that each PE sets before a
 * barrier (C initializes static data before the program starts). Checks: PE 0's {@code y} is
 * 10101, the others' still -1; and (added) the library is no longer initialized after the
 * finalize.
 */
public final class FinalizeExample {
    private FinalizeExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray x = shmem.malloc(ValueLayout.JAVA_LONG, 1)) {
            x.set(0, 10101L);
            shmem.barrierAll(); // every PE's x is initialized before anyone reads it
            long y = -1;
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            if (mype == 0) {
                y = shmem.g(x, 0, npes - 1);
            }

            System.out.printf("%d: y = %d%n", mype, y);
            Checks.expectEquals(shmem, "y", mype == 0 ? 10101L : -1L, y);
        } // shmem_finalize
        if (Shmem.queryInitialized()) {
            // the job is over: no global exit any more, the exception makes the PE fail
            throw new IllegalStateException("the library is still initialized after shmem_finalize");
        }
    }
}
