package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 40 (section 9.11.4, {@code shmem_wait_until_some}): the all-to-all sum of Example 39
 * with {@code shmem_wait_until_some}: each call returns every not-yet-processed PE whose flag is
 * set, whose blocks are added to the total and masked out; the loop ends when the wait set is empty
 * and the call returns 0. Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks: the total is {@code M(M + 1)/2} with {@code M = N * npes - 1} (the spec's own check,
 * now through {@link Checks#fail}); and (added) every returned index is a distinct, not excluded PE
 * number and all {@code npes} blocks were processed.
 */
public final class WaitUntilSomeExample {
    static final int N = 100;

    private WaitUntilSomeExample() {
    }

    public static void main(String[] args) {
        int totalSum = 0;
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int[] myData = new int[N];
            try (SymmetricIntArray allData = shmem.malloc(ValueLayout.JAVA_INT, (long) N * npes);
                    SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes)) {
                int[] indices = new int[npes];
                int[] status = new int[npes];
                for (int i = 0; i < N; i++) {
                    myData[i] = mype * N + i;
                }
                for (int i = 0; i < npes; i++) {
                    shmem.putNbi(allData, (long) mype * N, myData, 0, N, i);
                }
                shmem.fence();
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                int processed = 0;
                int ncompleted;
                while ((ncompleted = shmem.waitUntilSome(flags, 0, npes, indices, status, Cmp.NE, 0)) != 0) {
                    Checks.check(shmem, ncompleted > 0 && ncompleted <= npes - processed,
                            "wait_until_some returned " + ncompleted + " with " + processed + " of " + npes + " processed");
                    for (int i = 0; i < ncompleted; i++) {
                        int index = indices[i];
                        Checks.check(shmem, index >= 0 && index < npes && status[index] == 0,
                                "wait_until_some returned index " + index + " (out of range or excluded)");
                        for (int j = 0; j < N; j++) {
                            totalSum += allData.get((long) index * N + j);
                        }
                        status[index] = 1;
                        processed++;
                    }
                }
                Checks.expectEquals(shmem, "blocks processed", npes, processed);
                // check the result
                int m = N * npes - 1;
                Checks.expectEquals(shmem, "total_sum", m * (m + 1) / 2, totalSum);
            }
        }
    }
}
