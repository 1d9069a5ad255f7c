package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 33 (section 9.10.6, {@code shmem_alltoalls}): Example 32 with strides: element
 * {@code i} of block {@code pe} is {@code source[sst * (pe * count + i)]} (source stride 3) and goes
 * to {@code dest[dst * (pe * count + i)]} (dest stride 2) on PE {@code pe}. Runs on any number of
 * PEs. Prints nothing (the spec prints only errors).
 *
 * <p>Checks: the spec's (through {@link Checks#fail}), plus (added) that the elements between the
 * strided ones were left alone: {@code dest} is filled with -1 first, and only every second element
 * may change.
 */
public final class AlltoallsExample {
    private AlltoallsExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            final int count = 2;
            final long dst = 2;
            final long sst = 3;
            try (SymmetricLongArray dest = shmem.malloc(ValueLayout.JAVA_LONG, count * dst * npes);
                    SymmetricLongArray source = shmem.malloc(ValueLayout.JAVA_LONG, count * sst * npes)) {
                dest.fill(-1); // added: the gaps must stay -1
                // assign source values
                for (int pe = 0; pe < npes; pe++) {
                    for (int i = 0; i < count; i++) {
                        source.set(sst * (pe * count + i), mype + pe);
                        dest.set(dst * (pe * count + i), 9999);
                    }
                }
                // wait for all PEs to initialize source/dest
                shmem.teamWorld().sync();

                // alltoalls on all PEs
                shmem.teamWorld().alltoalls(dest, source, dst, sst, count);

                // verify results
                for (int pe = 0; pe < npes; pe++) {
                    for (int i = 0; i < count; i++) {
                        long j = dst * (pe * count + i);
                        Checks.expectEquals(shmem, "dest[" + j + "]", (long) pe + mype, dest.get(j));
                        Checks.expectEquals(shmem, "dest[" + (j + 1) + "] (a gap)", -1L, dest.get(j + 1)); // added
                    }
                }
            }
        }
    }
}
