package org.shmem4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * {@code @ShmemTest} runs 1,024 PEs (issue 25) with default settings but the region sizes: 1,024
 * regions of 1 MiB of heap and 16 MiB reserved fit this machine's /dev/shm (24 GB), which init
 * checks. On one node whatever the run's pseudo-nodes: 1,024 PEs over the test network would test
 * the network, not the scale.
 */
class ThousandPesTest {
    @ShmemTest(pes = 1024, timeout = 240, env = {"SHMEM_SYMMETRIC_SIZE=1m", "SHMEM_RESERVED_SIZE=16m",
            "SHMEM4J_INPROCESS_NODES=1"})
    void everyPeTakesPartInAReductionAndACollect(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 1);
        SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 1);
        SymmetricLongArray all = shmem.calloc(ValueLayout.JAVA_LONG, n);
        src.set(0, me);
        shmem.teamWorld().sumReduce(sum, src, 1);
        assertEquals((long) n * (n - 1) / 2, sum.get(0));
        shmem.teamWorld().fcollect(all, src, 1);
        for (int pe = 0; pe < n; pe++) {
            assertEquals(pe, all.get(pe));
        }
        all.close();
        sum.close();
        src.close();
    }
}
