package org.shmem4j.it;

import org.shmem4j.Shmem;

/**
 * A PE program for the start-up timeout under PMIx: the PE whose {@code PMIX_RANK} is the
 * argument stays away from the library (as one stuck starting up would), the others call
 * {@code shmem_init}, which must fail within {@code SHMEM_BOOTSTRAP_TIMEOUT_S} rather than wait.
 */
public final class LateToInit {
    private LateToInit() {}

    public static void main(String[] args) throws InterruptedException {
        if (args[0].equals(System.getenv("PMIX_RANK"))) {
            Thread.sleep(120_000);
            return;
        }
        try (Shmem shmem = Shmem.init()) {
            System.out.println("PE " + shmem.myPe() + " initialized although a PE never arrived");
        }
    }
}
