package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 17 (section 9.6.1.1, {@code shmem_put}): PE 0 puts ten longs into {@code dest} on
 * PE 1; after a barrier every PE prints its {@code dest[0]}. Needs at least 2 PEs.
 *
 * <p>C's {@code static long dest[10]} becomes a zeroed symmetric allocation. Check: PE 1's
 * {@code dest} is 1..10, every other PE's is zero.
 */
public final class PutExample {
    private PutExample() {
    }

    public static void main(String[] args) {
        long[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 10)) {
            Checks.requirePes(shmem, 2, "PutExample");
            int mype = shmem.myPe();
            if (mype == 0) { // put 10 words into dest on PE 1
                shmem.put(dest, 0, source, 0, 10, 1);
            }
            shmem.barrierAll(); // sync sender and receiver
            System.out.printf("dest[0] on PE %d is %d%n", mype, dest.get(0));
            Checks.expectEquals(shmem, "dest", mype == 1 ? source : new long[10], dest.toArray());
        }
    }
}
