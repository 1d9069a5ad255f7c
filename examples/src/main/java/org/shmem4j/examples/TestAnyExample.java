package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 43 (section 9.11.10, {@code shmem_test_any}): the linear barrier of Example 38 with
 * the non-blocking {@code shmem_test_any}: every PE atomically sets {@code flags[mype]} to 1 on
 * every PE, then polls until it has seen all {@code npes} flags, masking each out as it finds it
 * (and "overlapping some computation" when none is new). Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks (added): every returned index is a distinct, not excluded PE number whose flag is 1; a
 * poll that finds nothing returns -1 (C's SIZE_MAX), as does one more poll once every flag is
 * masked out; afterwards this PE's flags are all 1.
 */
public final class TestAnyExample {
    private TestAnyExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            try (SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes)) {
                int[] status = new int[npes];
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                int ncompleted = 0;
                long completedIdx;
                while (ncompleted < npes) {
                    completedIdx = shmem.testAny(flags, 0, npes, status, Cmp.EQ, 1);
                    if (completedIdx != -1) {
                        Checks.check(shmem, completedIdx >= 0 && completedIdx < npes && status[(int) completedIdx] == 0
                                && flags.get(completedIdx) == 1, "test_any returned " + completedIdx
                                        + " (out of range, excluded or not set)");
                        ncompleted++;
                        status[(int) completedIdx] = 1;
                    } else {
                        Thread.onSpinWait(); // overlap some computation here
                    }
                }
                Checks.expectEquals(shmem, "test_any with every flag excluded", -1L,
                        shmem.testAny(flags, 0, npes, status, Cmp.EQ, 1));
                int[] ones = new int[npes];
                Arrays.fill(ones, 1);
                Checks.expectEquals(shmem, "flags after the linear barrier", ones, flags.toArray());
            }
        }
    }
}
