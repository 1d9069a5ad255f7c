package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 39 (section 9.11.3, {@code shmem_wait_until_any}): an all-to-all transfer of
 * {@code N} = 100 ints per PE summed as it arrives: every PE puts (non-blocking) its block
 * {@code mype * N + i} into {@code all_data} on every PE, fences, and atomically sets its flag
 * {@code flags[mype]} on every PE; then it waits {@code npes} times for any not-yet-processed flag
 * to be non-zero, adds that PE's block to its total and masks the flag out with {@code status}.
 * Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks: the total is {@code M(M + 1)/2} with {@code M = N * npes - 1} (the spec's own check,
 * now through {@link Checks#fail}); and (added) every returned index is a distinct PE number, and
 * with every flag masked out the wait set is empty, so one more call returns -1 (C's SIZE_MAX).
 */
public final class WaitUntilAnyExample {
    static final int N = 100;

    private WaitUntilAnyExample() {
    }

    public static void main(String[] args) {
        int totalSum = 0;
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int[] myData = new int[N];
            try (SymmetricIntArray allData = shmem.malloc(ValueLayout.JAVA_INT, (long) N * npes);
                    SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes)) {
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
                for (int i = 0; i < npes; i++) {
                    long completedIdx = shmem.waitUntilAny(flags, 0, npes, status, Cmp.NE, 0);
                    Checks.check(shmem, completedIdx >= 0 && completedIdx < npes && status[(int) completedIdx] == 0,
                            "wait_until_any returned " + completedIdx + " (an excluded or no index) in round " + i);
                    for (int j = 0; j < N; j++) {
                        totalSum += allData.get(completedIdx * N + j);
                    }
                    status[(int) completedIdx] = 1;
                }
                Checks.expectEquals(shmem, "wait_until_any with every flag excluded", -1L,
                        shmem.waitUntilAny(flags, 0, npes, status, Cmp.NE, 0));
                // check the result
                int m = N * npes - 1;
                Checks.expectEquals(shmem, "total_sum", m * (m + 1) / 2, totalSum);
            }
        }
    }
}
