package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 26 (section 9.7.1.8, {@code shmem_atomic_add}): PE 1 adds 44 to {@code dst}
 * (initially 22) on PE 0; after a barrier every PE prints {@code k: dst = ...}. Needs at least 2
 * PEs.
 *
 * <p>C's {@code static int dst = 22} becomes a symmetric allocation that every PE sets to 22
 * before a barrier. Check: PE 0's {@code dst} is 66, every other PE's 22.
 */
public final class AtomicAddExample {
    private AtomicAddExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray dst = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 2, "AtomicAddExample");
            dst.set(0, 22);
            shmem.barrierAll(); // the static initialiser is in place on every PE
            int mype = shmem.myPe();
            if (mype == 1) {
                shmem.atomicAdd(dst, 0, 44, 0);
            }
            shmem.barrierAll();
            System.out.printf("%d: dst = %d%n", mype, dst.get(0));
            Checks.expectEquals(shmem, "dst", mype == 0 ? 66 : 22, dst.get(0));
        }
    }
}
