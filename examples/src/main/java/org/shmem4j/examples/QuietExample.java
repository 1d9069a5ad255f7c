package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 46 (section 9.12.2, {@code shmem_quiet}): PE 0 puts {@code {1, 2, 3}} into
 * {@code dest} on PE 1 (put1) and 90 into {@code targ} on PE 2 (put2), quiets, and reads both back
 * with {@code shmem_get}, printing {@code x: { 1, 2, 3 }} and {@code y: 90}; then it puts 90 into
 * {@code targ} on PEs 1 and 2 (put3, put4). Needs at least 3 PEs.
 *
 * <p>C's {@code static} arrays become zeroed symmetric allocations (the static sources are only
 * read locally, so they are Java arrays). Checks: PE 0 reads back exactly what it put; and (added)
 * after a final barrier PE 1 holds {1, 2, 3} and 90, PE 2 holds 90, the others zero.
 */
public final class QuietExample {
    private QuietExample() {
    }

    public static void main(String[] args) {
        long[] source = {1, 2, 3};
        int[] src = {90};
        long[] x = new long[3];
        int[] y = {0};
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 3);
                SymmetricIntArray targ = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 3, "QuietExample");
            int mype = shmem.myPe();
            if (mype == 0) {
                shmem.put(dest, 0, source, 0, 3, 1); // put1
                shmem.put(targ, 0, src, 0, 1, 2); // put2
                shmem.quiet();
                shmem.get(x, 0, dest, 0, 3, 1); // get array dest on PE 1 to local array x
                shmem.get(y, 0, targ, 0, 1, 2); // get value targ on PE 2 to local variable y
                System.out.printf("x: { %d, %d, %d }%n", x[0], x[1], x[2]); // x: { 1, 2, 3 }
                System.out.printf("y: %d%n", y[0]); // y: 90
                Checks.expectEquals(shmem, "x", source, x);
                Checks.expectEquals(shmem, "y", 90, y[0]);
                shmem.put(targ, 0, src, 0, 1, 1); // put3
                shmem.put(targ, 0, src, 0, 1, 2); // put4
            }
            shmem.barrierAll();
            Checks.expectEquals(shmem, "dest", mype == 1 ? source : new long[3], dest.toArray());
            Checks.expectEquals(shmem, "targ", mype == 1 || mype == 2 ? 90 : 0, targ.get(0));
        }
    }
}
