package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 23 (section 9.7.1.5, {@code shmem_atomic_fetch_inc}): PE 0 fetches and increments
 * {@code dst} (initially 22) on PE 1; after a barrier every PE prints {@code k: old = ..., dst =
 * ...}. Needs at least 2 PEs.
 *
 * <p>C's {@code static int dst = 22} becomes a symmetric allocation that every PE sets to 22
 * before a barrier. Checks: PE 0 prints {@code old = 22, dst = 22}, PE 1 {@code old = -1, dst =
 * 23}, the others {@code old = -1, dst = 22}.
 */
public final class AtomicFetchIncExample {
    private AtomicFetchIncExample() {
    }

    public static void main(String[] args) {
        int old = -1;
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray dst = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 2, "AtomicFetchIncExample");
            dst.set(0, 22);
            shmem.barrierAll(); // the static initialiser is in place on every PE
            int mype = shmem.myPe();
            if (mype == 0) {
                old = shmem.atomicFetchInc(dst, 0, 1);
            }
            shmem.barrierAll();
            System.out.printf("%d: old = %d, dst = %d%n", mype, old, dst.get(0));
            Checks.expectEquals(shmem, "old", mype == 0 ? 22 : -1, old);
            Checks.expectEquals(shmem, "dst", mype == 1 ? 23 : 22, dst.get(0));
        }
    }
}
