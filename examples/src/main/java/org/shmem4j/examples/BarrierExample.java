package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.stream.IntStream;
import org.shmem4j.Legacy;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 30 (section 9.10.2, the deprecated active-set {@code shmem_barrier}): every even PE
 * puts 4 into {@code x} on the next even PE ({@code (mype + 2) % npes}) and the even PEs
 * synchronize with {@code shmem_barrier(0, 1, npes / 2 + npes % 2, pSync)}; every PE prints
 * {@code "<pe>: x = <x>"}. Runs on any number of PEs; {@link #expectedOutput} gives the lines.
 *
 * <p>C's {@code static int x = 10101} and {@code static long pSync[SHMEM_BARRIER_SYNC_SIZE]} set
 * to {@code SHMEM_SYNC_VALUE} become symmetric allocations set before a {@code shmem_sync_all}
 * (C initializes statics before any PE can put). Departure from the spec: a world barrier before
 * the odd PEs read {@code x}. With an odd number of PEs the last even PE puts into PE 1, which in
 * the spec may print before or after the put arrives; the barrier makes the output deterministic.
 * Added check: {@code x} is what the puts make it (a wrong value ends the job).
 */
@SuppressWarnings("deprecation") // the example is about the deprecated routine
public final class BarrierExample {
    private BarrierExample() {
    }

    /** The value of {@code x} on {@code pe}: 4 where some even PE put it, else the initial value. */
    static int expected(int pe, int npes) {
        for (int even = 0; even < npes; even += 2) {
            if ((even + 2) % npes == pe) {
                return 4;
            }
        }
        return 10101;
    }

    /** Every PE's line, in PE order. */
    public static List<String> expectedOutput(int npes) {
        return IntStream.range(0, npes).mapToObj(pe -> pe + ": x = " + expected(pe, npes)).toList();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray x = shmem.malloc(ValueLayout.JAVA_INT, 1);
                SymmetricLongArray pSync = shmem.malloc(ValueLayout.JAVA_LONG, Legacy.BARRIER_SYNC_SIZE)) {
            Legacy legacy = shmem.legacy();
            x.set(0, 10101);
            for (int i = 0; i < Legacy.BARRIER_SYNC_SIZE; i++) {
                pSync.set(i, Legacy.SYNC_VALUE);
            }
            shmem.syncAll(); // the static initializers of C

            int mype = shmem.myPe();
            int npes = shmem.nPes();
            if (mype % 2 == 0) {
                /* put to next even PE in a circular fashion */
                shmem.p(x, 0, 4, (mype + 2) % npes);
                /* synchronize all even pes */
                legacy.barrier(0, 1, npes / 2 + npes % 2, pSync);
            }
            shmem.barrierAll(); // not in the spec: see above
            System.out.println(mype + ": x = " + x.get(0));
            Checks.expectEquals(shmem, "x on PE " + mype, expected(mype, npes), x.get(0)); // added
        }
    }
}
