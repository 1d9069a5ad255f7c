package org.shmem4j.it;

import org.shmem4j.Shmem;

/**
 * A PE that initializes, prints {@code ready <pe> <pid> <jobId>}, then loops on
 * {@code barrierAll} for up to 60 s before finalizing: a job to kill a PE of.
 */
public final class KillTarget {
    private KillTarget() {}

    public static void main(String[] args) throws InterruptedException {
        try (Shmem shmem = Shmem.init()) {
            System.out.printf("ready %d %d %s%n", shmem.myPe(), ProcessHandle.current().pid(),
                    System.getenv("SHMEM4J_JOB_ID"));
            System.out.flush();
            long end = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() - end < 0) {
                shmem.barrierAll();
                Thread.sleep(5);
            }
        }
    }
}
