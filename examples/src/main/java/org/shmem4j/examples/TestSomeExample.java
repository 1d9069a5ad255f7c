package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 44 (section 9.11.11, {@code shmem_test_some}): the all-to-all sum of Example 40
 * with the non-blocking {@code shmem_test_some}: the loop polls until all {@code npes} blocks are
 * processed, each poll adding the blocks of every not-yet-processed PE whose flag is set (and
 * "overlapping some computation" when none is). Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks: the total is {@code M(M + 1)/2} with {@code M = N * npes - 1} (the spec's own check,
 * now through {@link Checks#fail}); and (added) every returned index is a distinct, not excluded PE
 * number, and with every flag masked out the test set is empty, so one more call returns 0.
 */
public final class TestSomeExample {
    static final int N = 100;

    private TestSomeExample() {
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
                int ncompleted = 0;
                while (ncompleted < npes) {
                    int ntested = shmem.testSome(flags, 0, npes, indices, status, Cmp.NE, 0);
                    if (ntested > 0) {
                        Checks.check(shmem, ntested <= npes - ncompleted,
                                "test_some returned " + ntested + " with " + ncompleted + " of " + npes + " processed");
                        for (int i = 0; i < ntested; i++) {
                            int index = indices[i];
                            Checks.check(shmem, index >= 0 && index < npes && status[index] == 0,
                                    "test_some returned index " + index + " (out of range or excluded)");
                            for (int j = 0; j < N; j++) {
                                totalSum += allData.get((long) index * N + j);
                            }
                            status[index] = 1;
                        }
                        ncompleted += ntested;
                    } else {
                        Checks.expectEquals(shmem, "test_some returning nothing", 0, ntested);
                        Thread.onSpinWait(); // overlap some computation here
                    }
                }
                Checks.expectEquals(shmem, "test_some with every flag excluded", 0,
                        shmem.testSome(flags, 0, npes, indices, status, Cmp.NE, 0));
                // check the result
                int m = N * npes - 1;
                Checks.expectEquals(shmem, "total_sum", m * (m + 1) / 2, totalSum);
            }
        }
    }
}
