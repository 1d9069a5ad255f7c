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
}
