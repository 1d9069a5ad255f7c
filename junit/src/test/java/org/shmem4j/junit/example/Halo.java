package org.shmem4j.junit.example;

import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/** A user's kernel, as the README's example tests it: each PE sends its edge value to its right neighbour. */
final class Halo {
    private Halo() {
    }

    /** Collective: {@code halo[0]} of PE {@code (me + 1) % n} receives this PE's {@code edge}. */
    static void exchangeEdges(Shmem shmem, SymmetricLongArray halo, long edge) {
        shmem.p(halo, 0, edge, (shmem.myPe() + 1) % shmem.nPes());
        shmem.barrierAll();
    }
}
