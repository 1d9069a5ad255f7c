package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 42 (section 9.11.8, {@code shmem_test}): PE 0 polls, round robin with
 * {@code shmem_test}, the elements of {@code wait_vars} until one is non-zero
 * ({@code user_wait_any}) and prints {@code PE 0 observed first update from PE k}; every other PE
 * {@code k} atomically sets {@code wait_vars[k]} on PE 0 to {@code k}. Needs at least 2 PEs (on
 * one PE nobody would ever update PE 0).
 *
 * <p>Checks (added): the observed PE is one of 1 .. npes-1 and its element holds its number; after
 * the final barrier of {@code shmem_free} (here: an explicit barrier before it) PE 0's
 * {@code wait_vars} is {@code {0, 1, ..., npes-1}}.
 */
public final class TestExample {
    private TestExample() {
    }

    static int userWaitAny(Shmem shmem, SymmetricLongArray ivar, int count, Cmp cmp, long value) {
        int idx = 0;
        while (!shmem.test(ivar, idx, cmp, value)) {
            idx = (idx + 1) % count;
        }
        return idx;
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            Checks.requirePes(shmem, 2, "TestExample");
            final int mype = shmem.myPe();
            final int npes = shmem.nPes();
            try (SymmetricLongArray waitVars = shmem.calloc(ValueLayout.JAVA_LONG, npes)) {
                if (mype == 0) {
                    int who = userWaitAny(shmem, waitVars, npes, Cmp.NE, 0);
                    System.out.printf("PE %d observed first update from PE %d%n", mype, who);
                    Checks.check(shmem, who >= 1 && who < npes, "observed an update from PE " + who);
                    Checks.expectEquals(shmem, "wait_vars[" + who + "]", (long) who, waitVars.get(who));
                } else {
                    shmem.atomicSet(waitVars, mype, mype, 0);
                }
                shmem.barrierAll(); // added: every update is complete
                if (mype == 0) {
                    long[] expected = new long[npes];
                    for (int i = 0; i < npes; i++) {
                        expected[i] = i;
                    }
                    Checks.expectEquals(shmem, "wait_vars on PE 0", expected, waitVars.toArray());
                }
            }
        }
    }
}
