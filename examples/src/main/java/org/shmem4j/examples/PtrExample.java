package org.shmem4j.examples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 9 (section 9.1.9, {@code shmem_ptr}): PE 0 obtains direct access to PE 1's
 * {@code dest} array and stores 1, 2, 3, 4 into it; PE 1 prints it after a barrier. Needs at least
 * 2 PEs.
 *
 * <p>C's {@code static int dest[4]} becomes a zeroed symmetric allocation. Checks: the segment
 * covers the whole array; PE 1's {@code dest} is {1, 2, 3, 4} (or still zero when PE 0 reported
 * that it had no pointer, which it tells PE 1 through a flag); every other PE's is zero.
 */
public final class PtrExample {
    private PtrExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray dest = shmem.calloc(ValueLayout.JAVA_INT, 4);
                SymmetricIntArray direct = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            Checks.requirePes(shmem, 2, "PtrExample");
            int mype = shmem.myPe();
            if (mype == 0) { // initialize PE 1's dest array
                MemorySegment ptr = shmem.ptr(dest, 1);
                if (ptr == null) {
                    System.out.println("can't use pointer to directly access PE 1's dest array");
                } else {
                    Checks.expectEquals(shmem, "byte size of shmem_ptr(dest, 1)", dest.byteSize(), ptr.byteSize());
                    for (int i = 0; i < 4; i++) {
                        ptr.setAtIndex(ValueLayout.JAVA_INT, i, i + 1);
                    }
                    shmem.p(direct, 0, 1, 1);
                }
            }
            shmem.barrierAll();
            int[] d = dest.toArray();
            if (mype == 1) {
                System.out.printf("PE 1 dest: %d, %d, %d, %d%n", d[0], d[1], d[2], d[3]);
            }
            int[] expected = mype == 1 && direct.get(0) == 1 ? new int[] {1, 2, 3, 4} : new int[4];
            Checks.expectEquals(shmem, "dest", expected, d);
        }
    }
}
