package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One pass over every collective with the default algorithms, against sequential reference values. */
@Timeout(120)
class CollectivesSmokeInProcessTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void everyCollectiveOnTheWorldTeam(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 4L * n);
                SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, 4L * n * n);
                for (int i = 0; i < 4 * n; i++) {
                    src.set(i, me * 1000L + i);
                }
                world.sumReduce(dst, src, 3);
                for (int i = 0; i < 3; i++) {
                    assertEquals(1000L * n * (n - 1) / 2 + (long) n * i, dst.get(i));
                }
                world.maxReduce(dst, src, 2);
                assertEquals((n - 1) * 1000L + 1, dst.get(1));
                world.broadcast(dst, src, 4, n - 1);
                assertEquals((n - 1) * 1000L + 3, dst.get(3));
                world.fcollect(dst, src, 2);
                for (int pe = 0; pe < n; pe++) {
                    assertEquals(pe * 1000L + 1, dst.get(2L * pe + 1));
                }
                world.collect(dst, src, me + 1); // PE p contributes p+1 elements
                long at = 0;
                for (int pe = 0; pe < n; pe++) {
                    for (int i = 0; i <= pe; i++) {
                        assertEquals(pe * 1000L + i, dst.get(at++));
                    }
                }
                world.alltoall(dst, src, 2); // block j of PE p is src[2j, 2j+2)
                for (int pe = 0; pe < n; pe++) {
                    assertArrayEquals(new long[] {pe * 1000L + 2L * me, pe * 1000L + 2L * me + 1},
                            new long[] {dst.get(2L * pe), dst.get(2L * pe + 1)});
                }
                world.sumInscan(dst, src, 1);
                assertEquals(1000L * me * (me + 1) / 2, dst.get(0));
                world.sumExscan(dst, src, 1);
                assertEquals(1000L * me * (me - 1) / 2, dst.get(0));
                world.sumReduce(src, src, 1); // in place
                assertEquals(1000L * n * (n - 1) / 2, src.get(0));
                world.sync();
                dst.close();
                src.close();
            }
        });
    }

    /**
     * A team whose members' sizes (8 bytes each) exceed the scratch exchanges them for collect in
     * an area of its own (TeamPool's layout; 20 members and a scratch of 128 bytes here, as a
     * world above 2,048 members with the default): back-to-back collects of changing sizes, each
     * PE overwriting its contribution as soon as a call returns, must each gather what was given.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ring", "recursive_doubling", "bruck", "linear", "auto"})
    void collectsOfATeamTooLargeForTheScratch(String algorithm) {
        int npes = 20;
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env("SHMEM_COLLECTIVE_SCRATCH", "128",
                "SHMEM_COLLECT_ALGORITHM", algorithm), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, n + 3);
                SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * (n + 3));
                for (int round = 0; round < 6; round++) {
                    int mine = (me + round) % 4; // PE p contributes (p + round) mod 4 elements
                    for (int i = 0; i < mine; i++) {
                        src.set(i, 100_000L * round + 1000L * me + i);
                    }
                    world.collect(dst, src, mine);
                    src.set(0, -1); // the source is the caller's again
                    long at = 0;
                    for (int pe = 0; pe < n; pe++) {
                        for (int i = 0; i < (pe + round) % 4; i++) {
                            assertEquals(100_000L * round + 1000L * pe + i, dst.get(at++),
                                    algorithm + " round " + round + ": PE " + pe + "'s element " + i + " at PE " + me);
                        }
                    }
                }
                dst.close();
                src.close();
            }
        }).orThrow();
    }
}
