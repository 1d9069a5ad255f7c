package org.shmem4j.junit.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.junit.ShmemTest;

/** The README's example of testing a user's own kernel with {@link ShmemTest}. */
class HaloTest {
    @ShmemTest(pes = {1, 2, 3, 5}, timeout = 30)
    void everyPeGetsItsLeftNeighboursEdge(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymmetricLongArray halo = shmem.calloc(ValueLayout.JAVA_LONG, 1);
        Halo.exchangeEdges(shmem, halo, me * 10L);
        assertEquals((me + n - 1) % n * 10L, halo.get(0), "PE " + me);
        halo.close();
    }
}
