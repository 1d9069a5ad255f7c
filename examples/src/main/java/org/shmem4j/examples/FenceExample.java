package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 45 (section 9.12.1, {@code shmem_fence}): PE 0 puts ten longs into {@code dest} on
 * PEs 1 and 2 (put1, put2), fences, then puts 99 into {@code targ} on PEs 1 and 2 (put3, put4);
 * after a barrier every PE prints its {@code dest[0]}. Needs at least 3 PEs.
 *
 * <p>C's {@code static long dest[10]} and {@code static int targ} become zeroed symmetric
 * allocations. Checks: PEs 1 and 2 hold 1..10 and 99, the others zero; and (added, it observes the
 * fence) PEs 1 and 2 wait, before the barrier, until {@code targ} becomes 99 and then find all of
 * {@code dest} already delivered: put1 is delivered before put3, put2 before put4.
 */
public final class FenceExample {
    private FenceExample() {
    }

    public static void main(String[] args) {
        int src = 99;
        long[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 10);
                SymmetricIntArray targ = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 3, "FenceExample");
            int mype = shmem.myPe();
            if (mype == 0) {
                shmem.put(dest, 0, source, 0, 10, 1); // put1
                shmem.put(dest, 0, source, 0, 10, 2); // put2
                shmem.fence();
                shmem.put(targ, 0, new int[] {src}, 0, 1, 1); // put3
                shmem.put(targ, 0, new int[] {src}, 0, 1, 2); // put4
            }
            boolean target = mype == 1 || mype == 2;
            if (target) {
                Checks.awaitValue(shmem, targ, 0, src, Duration.ofSeconds(30));
                Checks.expectEquals(shmem, "dest as soon as targ is 99 (fence ordering)", source, dest.toArray());
            }
            shmem.barrierAll(); // sync sender and receiver
            System.out.printf("dest[0] on PE %d is %d%n", mype, dest.get(0));
            Checks.expectEquals(shmem, "dest", target ? source : new long[10], dest.toArray());
            Checks.expectEquals(shmem, "targ", target ? src : 0, targ.get(0));
        }
    }
}
