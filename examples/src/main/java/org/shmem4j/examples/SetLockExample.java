package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 47 (section 9.13.1, {@code shmem_set_lock}, {@code shmem_clear_lock}): under a
 * distributed lock every PE reads {@code count} on PE 0 with {@code shmem_g}, prints {@code k:
 * count is v}, and writes {@code v + 1} back with {@code shmem_p}; {@code shmem_clear_lock}
 * completes the put before releasing the lock. Runs on any number of PEs.
 *
 * <p>C's {@code static long lock = 0} and {@code static int count = 0} become zeroed symmetric
 * allocations. Checks (added), which hold only if the critical sections exclude each other and the
 * lock release completes the put: the values the PEs read are exactly 0 .. npes-1, each once (each
 * PE atomically increments {@code seen[v]} on PE 0, which checks them after a barrier), and
 * {@code count} on PE 0 ends as {@code npes}.
 */
public final class SetLockExample {
    private SetLockExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricIntArray count = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            try (SymmetricIntArray seen = shmem.calloc(ValueLayout.JAVA_INT, npes)) {
                shmem.setLock(lock, 0);
                int val = shmem.g(count, 0, 0); // get count value on PE 0
                System.out.printf("%d: count is %d%n", mype, val);
                Checks.check(shmem, val >= 0 && val < npes, "PE " + mype + " read count " + val);
                shmem.atomicInc(seen, val, 0); // added
                val++; // incrementing and updating count on PE 0
                shmem.p(count, 0, val, 0);
                shmem.clearLock(lock, 0); // ensures count update completes before clearing the lock
                shmem.barrierAll(); // added
                if (mype == 0) {
                    int[] once = new int[npes];
                    java.util.Arrays.fill(once, 1);
                    Checks.expectEquals(shmem, "how often each count value was read", once, seen.toArray());
                    Checks.expectEquals(shmem, "count", npes, count.get(0));
                }
            }
        }
    }
}
