package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 6 (sections 9.1.2 and 9.1.3, {@code shmem_my_pe} and {@code shmem_n_pes}): every
 * PE prints its number and the number of PEs. Runs on any number of PEs.
 *
 * <p>Check (added): every PE number is in {@code [0, npes)}, and the numbers are distinct: each PE
 * marks its number in an array on PE 0, which finds all {@code npes} slots marked.
 */
public final class MyPeExample {
    private MyPeExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray marks = shmem.calloc(ValueLayout.JAVA_INT, shmem.nPes())) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            System.out.printf("I am #%d of %d PEs executing this program%n", mype, npes);

            Checks.check(shmem, npes >= 1 && mype >= 0 && mype < npes, "PE number " + mype + " is outside [0, " + npes + ")");
            Checks.expectEquals(shmem, "shmem_my_pe called again", mype, shmem.myPe());
            shmem.p(marks, mype, 1, 0);
            shmem.barrierAll();
            if (mype == 0) {
                int[] ones = new int[npes];
                Arrays.fill(ones, 1);
                Checks.expectEquals(shmem, "the marks of the PE numbers on PE 0", ones, marks.toArray());
            }
        }
    }
}
