package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 24 (section 9.7.1.6, {@code shmem_atomic_inc}): PE 0 increments {@code dst}
 * (initially 74) on PE 1; after a barrier every PE prints {@code k: dst = ...}. Needs at least 2
 * PEs.
 *
 * <p>C's {@code static int dst = 74} becomes a symmetric allocation that every PE sets to 74
 * before a barrier. Check: PE 1's {@code dst} is 75, every other PE's 74.
 */
public final class AtomicIncExample {
    private AtomicIncExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray dst = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 2, "AtomicIncExample");
            dst.set(0, 74);
            shmem.barrierAll(); // the static initialiser is in place on every PE
            int mype = shmem.myPe();
            if (mype == 0) {
                shmem.atomicInc(dst, 0, 1);
            }
            shmem.barrierAll();
            System.out.printf("%d: dst = %d%n", mype, dst.get(0));
            Checks.expectEquals(shmem, "dst", mype == 1 ? 75 : 74, dst.get(0));
        }
    }
}
