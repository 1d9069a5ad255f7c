package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 22 (section 9.7.1.4, {@code shmem_atomic_swap}): every PE sets its {@code dest} to
 * its PE number; each odd PE swaps its number into {@code dest} on its right (modulo) neighbour and
 * prints {@code k: dest = k, swapped = (k + 1) % npes}. Runs on any number of PEs (on one PE
 * nothing is swapped).
 *
 * <p>C's {@code static long dest} becomes a symmetric allocation. An odd PE's own {@code dest} is
 * never the target of a swap (only odd PEs swap, into an even PE or, with an even PE count, PE 0),
 * so the printed values are deterministic. Checks: the printed values; and (added) after a
 * barrier each PE's {@code dest} holds the number of the odd PE that swapped into it, or its own.
 */
public final class AtomicSwapExample {
    private AtomicSwapExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, 1)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            dest.set(0, mype);
            shmem.barrierAll();
            long newVal = mype;
            if ((mype & 1) != 0) {
                long swappedVal = shmem.atomicSwap(dest, 0, newVal, (mype + 1) % npes);
                System.out.printf("%d: dest = %d, swapped = %d%n", mype, dest.get(0), swappedVal);
                Checks.expectEquals(shmem, "dest", (long) mype, dest.get(0));
                Checks.expectEquals(shmem, "swapped", (long) ((mype + 1) % npes), swappedVal);
            }
            shmem.barrierAll(); // added: every swap is complete
            int left = (mype - 1 + npes) % npes; // the PE whose right neighbour this PE is
            long expected = (left & 1) != 0 && left != mype ? left : mype;
            Checks.expectEquals(shmem, "dest after the swaps", expected, dest.get(0));
        }
    }
}
