package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 35 (section 9.10.8, {@code shmem_collect}): PE {@code p} contributes {@code p + 1}
 * elements, {@code p(p+1)/2 + i}, so that {@code shmem_int_collect} over the world team leaves
 * {@code 0, 1, .., npes(npes+1)/2 - 1} in {@code dest} on every PE; each PE prints its
 * {@code dest} ({@code mype: 0, 1, 2, ..}) under a lock. Runs on any number of PEs.
 *
 * <p>C's {@code static long lock} becomes a zeroed symmetric allocation. Checks (added): every
 * PE's {@code dest} is {@code 0 .. total - 1}; and, the spec's {@code fcollect} having no example of
 * its own, an {@code shmem_int_fcollect} of two elements {@code (p, -p)} per PE gives
 * {@code 0, 0, 1, -1, 2, -2, ..}.
 */
public final class CollectExample {
    private CollectExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int myNelem = mype + 1; // linearly increasing number of elements with PE
            int totalNelem = (npes * (npes + 1)) / 2;

            try (SymmetricIntArray source = shmem.malloc(ValueLayout.JAVA_INT, npes); // symmetric alloc
                    SymmetricIntArray dest = shmem.malloc(ValueLayout.JAVA_INT, totalNelem)) {
                for (int i = 0; i < myNelem; i++) {
                    source.set(i, (mype * (mype + 1)) / 2 + i);
                }
                for (int i = 0; i < totalNelem; i++) {
                    dest.set(i, -9999);
                }

                // Wait for all PEs to initialize source/dest:
                shmem.teamWorld().sync();

                shmem.teamWorld().collect(dest, source, myNelem);

                shmem.setLock(lock, 0); // Lock prevents interleaving printf's
                StringBuilder line = new StringBuilder().append(mype).append(": ").append(dest.get(0));
                for (int i = 1; i < totalNelem; i++) {
                    line.append(", ").append(dest.get(i));
                }
                System.out.println(line);
                System.out.flush();
                shmem.clearLock(lock, 0);

                // added checks
                int[] expected = new int[totalNelem];
                for (int i = 0; i < totalNelem; i++) {
                    expected[i] = i;
                }
                Checks.expectEquals(shmem, "dest", expected, dest.toArray());

                try (SymmetricIntArray pair = shmem.malloc(ValueLayout.JAVA_INT, 2);
                        SymmetricIntArray all = shmem.calloc(ValueLayout.JAVA_INT, 2L * npes)) {
                    pair.set(0, mype);
                    pair.set(1, -mype);
                    shmem.teamWorld().fcollect(all, pair, 2);
                    int[] pairs = new int[2 * npes];
                    for (int pe = 0; pe < npes; pe++) {
                        pairs[2 * pe] = pe;
                        pairs[2 * pe + 1] = -pe;
                    }
                    Checks.expectEquals(shmem, "fcollect of (p, -p)", pairs, all.toArray());
                }
            }
        }
    }
}
