package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 32 (section 9.10.5, {@code shmem_alltoall}): every PE sets block {@code pe} (two
 * 64-bit integers) of {@code source} to {@code mype + pe} and its {@code dest} to 9999, syncs the
 * world team, and exchanges the blocks with {@code shmem_int64_alltoall}; afterwards block
 * {@code pe} of {@code dest} must hold {@code pe + mype}. Runs on any number of PEs. Prints nothing
 * (the spec prints only errors).
 *
 * <p>Checks: the spec's (an error now ends the job through {@link Checks#fail}).
 */
public final class AlltoallExample {
    private AlltoallExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            final int count = 2;
            try (SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, (long) count * npes);
                    SymmetricLongArray source = shmem.malloc(ValueLayout.JAVA_LONG, (long) count * npes)) {
                // assign source values
                for (int pe = 0; pe < npes; pe++) {
                    for (int i = 0; i < count; i++) {
                        source.set(pe * count + i, mype + pe);
                        dest.set(pe * count + i, 9999);
                    }
                }
                // wait for all PEs to initialize source/dest
                shmem.teamWorld().sync();

                // alltoall on all PEs
                shmem.teamWorld().alltoall(dest, source, count);

                // verify results
                for (int pe = 0; pe < npes; pe++) {
                    for (int i = 0; i < count; i++) {
                        Checks.expectEquals(shmem, "dest[" + (pe * count + i) + "]", (long) pe + mype,
                                dest.get(pe * count + i));
                    }
                }
            }
        }
    }
}
