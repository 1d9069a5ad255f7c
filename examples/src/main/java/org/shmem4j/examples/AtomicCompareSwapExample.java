package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 21 (section 9.7.1.3, {@code shmem_atomic_compare_swap}): every PE tries to swap its
 * PE number into {@code race_winner} on PE 0 on condition that it is still -1; the one PE that
 * finds -1 prints {@code PE k was first}. Runs on any number of PEs.
 *
 * <p>C's {@code static int race_winner = -1} becomes a symmetric allocation that every PE sets to
 * -1 before a barrier (the C initialiser runs before any PE starts). Checks (added): the old value
 * is -1 or a PE number; after a barrier, {@code race_winner} on PE 0 names exactly the PE that saw
 * -1, and every other PE's copy is still -1.
 */
public final class AtomicCompareSwapExample {
    private AtomicCompareSwapExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray raceWinner = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            raceWinner.set(0, -1);
            shmem.barrierAll(); // the static initialiser is in place on every PE
            int mype = shmem.myPe();
            int oldval = shmem.atomicCompareSwap(raceWinner, 0, -1, mype, 0);
            if (oldval == -1) {
                System.out.printf("PE %d was first%n", mype);
            }
            Checks.check(shmem, oldval >= -1 && oldval < shmem.nPes() && oldval != mype,
                    "compare_swap returned " + oldval + ", expected -1 or another PE's number");
            shmem.barrierAll(); // added: every compare_swap is complete
            int winner = shmem.g(raceWinner, 0, 0);
            Checks.check(shmem, winner >= 0 && winner < shmem.nPes(), "race_winner on PE 0 is " + winner);
            Checks.check(shmem, (oldval == -1) == (winner == mype),
                    "PE " + mype + " saw " + oldval + " but race_winner on PE 0 is " + winner);
            if (mype != 0) {
                Checks.expectEquals(shmem, "race_winner on a PE other than 0", -1, raceWinner.get(0));
            }
        }
    }
}
