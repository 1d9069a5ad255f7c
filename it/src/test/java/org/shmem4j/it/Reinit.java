package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Two initialisation epochs in one JVM (init, put to the next PE, barrier, check, close; twice).
 * Prints {@code epoch <e> PE <me> got <value>}; a wrong value or a library still initialized
 * after close makes the PE throw (and so fail the job).
 */
public final class Reinit {
    private Reinit() {}

    public static void main(String[] args) {
        for (int epoch = 1; epoch <= 2; epoch++) {
            if (Shmem.queryInitialized()) {
                throw new IllegalStateException("initialized before epoch " + epoch);
            }
            try (Shmem shmem = Shmem.init();
                    SymmetricIntArray x = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
                int me = shmem.myPe();
                int n = shmem.nPes();
                shmem.p(x, 0, 100 * epoch + me, (me + 1) % n);
                shmem.barrierAll();
                int got = x.get(0);
                int expected = 100 * epoch + (me + n - 1) % n;
                System.out.printf("epoch %d PE %d got %d%n", epoch, me, got);
                if (got != expected) {
                    throw new IllegalStateException("epoch " + epoch + " PE " + me + ": got " + got + ", expected " + expected);
                }
                shmem.barrierAll(); // nobody frees x while a put to it could still be coming
            }
        }
        if (Shmem.queryInitialized()) {
            throw new IllegalStateException("still initialized after the last close");
        }
    }
}
