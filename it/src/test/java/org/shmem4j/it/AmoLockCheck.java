package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.SymmetricLongArray;

/**
 * A PE program: every PE fetch-adds {@code iter} times on one long and one int counter of PE 0
 * and sends the values it got to PE 0, which checks they are exactly {0 .. total-1}; then every
 * PE increments a counter on PE 0 with a non-atomic g/p under setLock/clearLock, and PE 0 checks
 * nothing was lost. Prints {@code amo-ok <pe>} and {@code lock-ok <pe>}; an assertion failure
 * ends the PE with an exception (and the job with a non-zero status).
 * Usage: {@code AmoLockCheck [iter]}.
 */
public final class AmoLockCheck {
    private AmoLockCheck() {}

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    public static void main(String[] args) {
        int iter = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes(), total = n * iter;
            SymmetricLongArray lc = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            SymmetricIntArray ic = shmem.calloc(ValueLayout.JAVA_INT, 1);
            SymmetricLongArray lseen = shmem.calloc(ValueLayout.JAVA_LONG, total);
            SymmetricIntArray iseen = shmem.calloc(ValueLayout.JAVA_INT, total);
            long[] lmine = new long[iter];
            int[] imine = new int[iter];
            for (int k = 0; k < iter; k++) {
                lmine[k] = shmem.atomicFetchAdd(lc, 0, 1L, 0);
                imine[k] = shmem.atomicFetchInc(ic, 0, 0);
            }
            shmem.put(lseen, (long) me * iter, lmine, 0, iter, 0);
            shmem.put(iseen, (long) me * iter, imine, 0, iter, 0);
            shmem.barrierAll();
            if (me == 0) {
                check(lc.get(0) == total, "long counter " + lc.get(0) + " != " + total);
                check(ic.get(0) == total, "int counter " + ic.get(0) + " != " + total);
                long[] ls = lseen.toArray();
                int[] is = iseen.toArray();
                Arrays.sort(ls);
                Arrays.sort(is);
                for (int v = 0; v < total; v++) {
                    check(ls[v] == v, "long fetch-add values are not {0.." + (total - 1) + "}: sorted[" + v + "] = " + ls[v]);
                    check(is[v] == v, "int fetch-inc values are not {0.." + (total - 1) + "}: sorted[" + v + "] = " + is[v]);
                }
            }
            System.out.println("amo-ok " + me);

            SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            int sections = Math.max(1, iter / 2);
            for (int k = 0; k < sections; k++) {
                shmem.setLock(lock, 0);
                long v = shmem.g(counter, 0, 0);
                if ((k & 7) == 0) {
                    Thread.yield();
                }
                shmem.p(counter, 0, v + 1, 0);
                shmem.clearLock(lock, 0);
            }
            shmem.barrierAll();
            if (me == 0) {
                check(counter.get(0) == (long) n * sections, "lock-protected counter " + counter.get(0) + " != " + (long) n * sections);
            }
            System.out.println("lock-ok " + me);
            shmem.barrierAll();
        }
    }
}
