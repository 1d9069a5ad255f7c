package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricShortArray;

/**
 * Spec Example 19 (section 9.6.1.3, {@code shmem_iput}): PE 0 puts every second element of
 * {@code source} (stride 2) into the first five elements of {@code dest} on PE 1 (stride 1), which
 * prints them. Needs at least 2 PEs.
 *
 * <p>C's {@code static short dest[10]} becomes a zeroed symmetric allocation. Check: PE 1's
 * {@code dest} is {1, 3, 5, 7, 9, 0, 0, 0, 0, 0}, every other PE's is zero.
 */
public final class IputExample {
    private IputExample() {
    }

    public static void main(String[] args) {
        short[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        try (Shmem shmem = Shmem.init();
                SymmetricShortArray dest = shmem.calloc(ValueLayout.JAVA_SHORT, 10)) {
            Checks.requirePes(shmem, 2, "IputExample");
            int mype = shmem.myPe();
            if (mype == 0) { // put 5 elements into dest on PE 1
                shmem.iput(dest, 0, 1, source, 0, 2, 5, 1);
            }
            shmem.barrierAll(); // sync sender and receiver
            short[] d = dest.toArray();
            if (mype == 1) {
                System.out.printf("dest on PE %d is %d %d %d %d %d%n", mype, d[0], d[1], d[2], d[3], d[4]);
            }
            short[] expected = mype == 1 ? new short[] {1, 3, 5, 7, 9, 0, 0, 0, 0, 0} : new short[10];
            Checks.expectEquals(shmem, "dest", expected, d);
        }
    }
}
