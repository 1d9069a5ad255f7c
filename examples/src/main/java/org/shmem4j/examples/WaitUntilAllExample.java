package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 38 (section 9.11.2, {@code shmem_wait_until_all}): a simple linear barrier: every
 * PE atomically sets its own flag, {@code flags[mype]}, to 1 on every PE and then waits until all
 * of its flags are 1 (no status mask). Runs on any number of PEs. Prints nothing.
 *
 * <p>Checks (added): when the wait returns, this PE's flags are all 1 and {@code shmem_test_all}
 * agrees; and the barrier works as one: every PE atomically increments a counter on every PE
 * before it sets its flags, so once the wait returns the counter must be {@code npes}.
 */
public final class WaitUntilAllExample {
    private WaitUntilAllExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            try (SymmetricIntArray flags = shmem.calloc(ValueLayout.JAVA_INT, npes);
                    SymmetricIntArray arrived = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
                int[] status = null;
                for (int i = 0; i < npes; i++) {
                    shmem.atomicInc(arrived, 0, i); // added
                }
                shmem.fence(); // added: the increments are delivered before the flags
                for (int i = 0; i < npes; i++) {
                    shmem.atomicSet(flags, mype, 1, i);
                }
                shmem.waitUntilAll(flags, 0, npes, status, Cmp.EQ, 1);
                int[] ones = new int[npes];
                java.util.Arrays.fill(ones, 1);
                Checks.expectEquals(shmem, "flags after wait_until_all", ones, flags.toArray());
                Checks.check(shmem, shmem.testAll(flags, 0, npes, status, Cmp.EQ, 1), "test_all is false after wait_until_all");
                Checks.expectEquals(shmem, "PEs arrived at the linear barrier", npes, shmem.atomicFetch(arrived, 0, mype));
            }
        }
    }
}
