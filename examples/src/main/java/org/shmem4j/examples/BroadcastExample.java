package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 34 (section 9.10.7, {@code shmem_broadcast}): PE 0 sets {@code source} to 0, 1, 2,
 * 3 and broadcasts it over the world team into {@code dest}; every PE prints {@code mype: 0, 1, 2,
 * 3}. Runs on any number of PEs.
 *
 * <p>C's {@code static long source[4], dest[4]} become zeroed symmetric allocations. Checks
 * (added): {@code dest} is 0, 1, 2, 3 on every PE, the root included (a team broadcast updates the
 * root's {@code dest} too, unlike the deprecated active-set one).
 */
public final class BroadcastExample {
    private BroadcastExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray source = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 4)) {
            int mype = shmem.myPe();

            if (mype == 0) {
                for (int i = 0; i < 4; i++) {
                    source.set(i, i);
                }
            }

            shmem.teamWorld().broadcast(dest, source, 4, 0);

            System.out.printf("%d: %d, %d, %d, %d%n", mype, dest.get(0), dest.get(1), dest.get(2), dest.get(3));
            Checks.expectEquals(shmem, "dest", new long[] {0, 1, 2, 3}, dest.toArray()); // added
        }
    }
}
