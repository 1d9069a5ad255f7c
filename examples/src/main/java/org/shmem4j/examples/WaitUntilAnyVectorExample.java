package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 41 (section 9.11.6, {@code shmem_wait_until_any_vector}): every PE atomically sets
 * its own element {@code ivars[mype]} on every PE to 2 if it is odd and 1 if it is even; each PE
 * then waits {@code npes} times, with one comparison value per element ({@code i % 2 + 1}), for any
 * not-yet-processed element to equal its value, adds it to its total and masks it out. The total is
 * {@code npes + npes / 2} (6 on 4 PEs). Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks: the total (the spec's own check, now through {@link Checks#fail}); and (added) every
 * returned index is a distinct, not excluded PE number, and with every element masked out one
 * more call returns -1 (C's SIZE_MAX).
 */
public final class WaitUntilAnyVectorExample {
    private WaitUntilAnyVectorExample() {
    }

    public static void main(String[] args) {
        int totalSum = 0;
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            try (SymmetricIntArray ivars = shmem.calloc(ValueLayout.JAVA_INT, npes)) {
                int[] status = new int[npes];
                int[] cmpValues = new int[npes];
                // All odd PEs put 2 and all even PEs put 1
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(ivars, mype, mype % 2 + 1, i);
                    // Set cmp_values to the expected values coming from each PE
                    cmpValues[i] = i % 2 + 1;
                }
                for (int i = 0; i < npes; i++) {
                    long completedIdx = shmem.waitUntilAnyVector(ivars, 0, npes, status, Cmp.EQ, cmpValues);
                    Checks.check(shmem, completedIdx >= 0 && completedIdx < npes && status[(int) completedIdx] == 0,
                            "wait_until_any_vector returned " + completedIdx + " (an excluded or no index) in round " + i);
                    status[(int) completedIdx] = 1;
                    totalSum += ivars.get(completedIdx);
                }
                Checks.expectEquals(shmem, "wait_until_any_vector with every element excluded", -1L,
                        shmem.waitUntilAnyVector(ivars, 0, npes, status, Cmp.EQ, cmpValues));
                // check the result
                int correctResult = npes + npes / 2;
                Checks.expectEquals(shmem, "total_sum", correctResult, totalSum);
            }
        }
    }
}
