package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricByteArray;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 36 (section 9.10.9, reductions): each PE fills {@code NELEMS} values with random
 * integers in {@code [0, npes)}, marks the maximal ones ({@code npes - 1}) in an unsigned-char array
 * and counts them; an OR reduction over the world team finds the indices where some PE had a
 * maximal value and a SUM reduction the total count. PE 0 prints the total and the indices. Runs on
 * any number of PEs.
 *
 * <p>C's {@code srand(mype)}/{@code rand() % npes} becomes {@code new Random(mype).nextInt(npes)}, so
 * every PE can recompute every other PE's values; C's {@code static int}s become symmetric
 * allocations. Checks (added): the reduced OR array and total on every PE equal the values
 * {@link #expectedOutput} computes sequentially, and PE 0's printed lines are those.
 */
public final class ReduceExample {
    static final int NELEMS = 32;

    private ReduceExample() {
    }

    /** PE {@code pe}'s random values on {@code npes} PEs. */
    static int[] values(int pe, int npes) {
        Random random = new Random(pe);
        int[] v = new int[NELEMS];
        for (int i = 0; i < NELEMS; i++) {
            v[i] = random.nextInt(npes);
        }
        return v;
    }

    /** What PE 0 prints on {@code npes} PEs, computed sequentially. */
    public static List<String> expectedOutput(int npes) {
        int total = 0;
        boolean[] maximal = new boolean[NELEMS];
        for (int pe = 0; pe < npes; pe++) {
            int[] v = values(pe, npes);
            for (int i = 0; i < NELEMS; i++) {
                if (v[i] == npes - 1) {
                    total++;
                    maximal[i] = true;
                }
            }
        }
        return List.of("Found " + total + " maximal random numbers across all PEs.",
                "A maximal number occurred (at least once) at the following indices:", indices(maximal));
    }

    private static String indices(boolean[] maximal) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < NELEMS; i++) {
            if (maximal[i]) {
                s.append(i).append(' ');
            }
        }
        return s.toString();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            try (SymmetricIntArray values = shmem.malloc(ValueLayout.JAVA_INT, NELEMS);
                    SymmetricByteArray valueIsMaximal = shmem.malloc(ValueLayout.JAVA_BYTE, NELEMS);
                    SymmetricByteArray valueIsMaximalAll = shmem.malloc(ValueLayout.JAVA_BYTE, NELEMS);
                    SymmetricIntArray maximalValuesCount = shmem.calloc(ValueLayout.JAVA_INT, 1);
                    SymmetricIntArray maximalValuesTotal = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
                int[] mine = values(mype, npes);
                for (int i = 0; i < NELEMS; i++) {
                    values.set(i, mine[i]);
                    // Track and count instances of maximal values (i.e., values equal to (npes-1))
                    valueIsMaximal.set(i, (byte) (values.get(i) == npes - 1 ? 1 : 0));
                    maximalValuesCount.set(0, maximalValuesCount.get(0) + valueIsMaximal.get(i));
                }

                // Wait for all PEs to initialize reductions arrays
                shmem.teamWorld().sync();

                shmem.teamWorld().orReduce(valueIsMaximalAll, valueIsMaximal, NELEMS);
                shmem.teamWorld().sumReduce(maximalValuesTotal, maximalValuesCount, 1);

                boolean[] maximal = new boolean[NELEMS];
                for (int i = 0; i < NELEMS; i++) {
                    Checks.check(shmem, valueIsMaximalAll.get(i) == 0 || valueIsMaximalAll.get(i) == 1,
                            "value_is_maximal_all[" + i + "] is " + valueIsMaximalAll.get(i));
                    maximal[i] = valueIsMaximalAll.get(i) == 1;
                }
                List<String> output = new ArrayList<>();
                output.add("Found " + maximalValuesTotal.get(0) + " maximal random numbers across all PEs.");
                output.add("A maximal number occurred (at least once) at the following indices:");
                output.add(indices(maximal));
                if (mype == 0) {
                    output.forEach(System.out::println);
                }
                Checks.expectEquals(shmem, "PE " + mype + "'s results", expectedOutput(npes), output); // added
            }
        }
    }
}
