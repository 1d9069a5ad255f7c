package org.shmem4j.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.shmem4j.Shmem;

/**
 * A PE that initializes, prints {@code ready <pe> <pid> <jobId>}, then loops on
 * {@code barrierAll} for up to 60 s before finalizing: a job to kill a PE of. With a directory
 * argument, a PE whose barriers fail writes the failure to {@code pe<pe>.txt} there before it ends
 * with it, for when no launcher forwards its output any more.
 */
public final class KillTarget {
    private KillTarget() {}

    public static void main(String[] args) throws InterruptedException, IOException {
        try (Shmem shmem = Shmem.init()) {
            System.out.printf("ready %d %d %s%n", shmem.myPe(), ProcessHandle.current().pid(),
                    System.getenv("SHMEM4J_JOB_ID"));
            System.out.flush();
            long end = System.nanoTime() + 60_000_000_000L;
            try {
                while (System.nanoTime() - end < 0) {
                    shmem.barrierAll();
                    Thread.sleep(5);
                }
            } catch (RuntimeException e) {
                if (args.length > 0) {
                    Files.writeString(Path.of(args[0], "pe" + shmem.myPe() + ".txt"), e.toString());
                }
                throw e;
            }
        }
    }
}
