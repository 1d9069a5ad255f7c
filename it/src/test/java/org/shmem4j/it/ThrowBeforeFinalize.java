package org.shmem4j.it;

import org.shmem4j.Shmem;

/**
 * PE {@code args[0]} (default 1) throws after the first barrier, before finalizing; the others
 * wait in barriers for up to 60 s, so only the launcher can end them.
 */
public final class ThrowBeforeFinalize {
    private ThrowBeforeFinalize() {}

    public static void main(String[] args) throws InterruptedException {
        int thrower = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        Shmem shmem = Shmem.init();
        shmem.barrierAll();
        if (shmem.myPe() == thrower) {
            throw new IllegalStateException("deliberate failure on PE " + thrower + " before shmem_finalize");
        }
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() - end < 0) {
            shmem.barrierAll();
            Thread.sleep(5);
        }
        shmem.close();
    }
}
