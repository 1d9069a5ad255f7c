package org.shmem4j.core;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricSegment;

/**
 * A one-PE run through the start-up path (init, allocation, RMA, barrier, finalize). The
 * launcher's build runs it once through {@code oshrun} with {@code -XX:AOTCacheOutput} to make
 * {@code shmem4j-pe.aot}, the JDK 25 ahead-of-time cache that {@code oshrun} hands to every PE:
 * each PE then maps the library's and the JDK's classes it needs already loaded and linked, with
 * their method profiles, instead of loading, verifying and profiling them again, which is most
 * of a PE's start-up time.
 */
public final class StartupTraining {
    private StartupTraining() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 8);
            SymmetricSegment bytes = shmem.malloc(64);
            shmem.p(x, 0, 1L, shmem.myPe());
            shmem.put(x, 1, new long[] {2, 3}, 0, 2, shmem.myPe());
            long[] back = new long[3];
            shmem.get(back, 0, x, 0, 3, shmem.myPe());
            shmem.putmem(bytes, 0, new byte[] {1}, 0, 1, shmem.myPe());
            shmem.barrierAll();
            if (back[2] != 3 || shmem.g(x, 0, shmem.myPe()) != 1) {
                throw new IllegalStateException("start-up training run read wrong values");
            }
            bytes.close();
            x.close();
        }
    }
}
