package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 5 (section 9.1.1, {@code shmem_init}): PE 0 puts 33 into {@code targ} on PE
 * {@code 1 % npes}, which prints it after a barrier. Runs on any number of PEs.
 *
 * <p>C's {@code static int targ = 0} becomes a zeroed symmetric allocation. Check: the receiver's
 * {@code targ} is 33 and every other PE's is still 0.
 */
public final class InitExample {
    private InitExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray targ = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            int mype = shmem.myPe();
            int receiver = 1 % shmem.nPes();

            if (mype == 0) {
                int[] src = {33};
                shmem.put(targ, 0, src, 0, 1, receiver);
            }

            shmem.barrierAll(); // synchronizes sender and receiver

            if (mype == receiver) {
                System.out.printf("PE %d targ=%d (expect 33)%n", mype, targ.get(0));
            }
            Checks.expectEquals(shmem, "targ", mype == receiver ? 33 : 0, targ.get(0));
        }
    }
}
