package org.shmem4j.it;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * A PE that initializes, prints {@code ready <pe> <pid> <jobId>}, then loops on
 * {@code barrierAll} for up to 60 s before finalizing: a job to kill a PE of. With arguments
 * {@code wait <dir>} it waits instead for a flag that no PE sets, which only a failure of the job
 * ends, and writes that failure to {@code pe<pe>.txt} in {@code dir} before it ends with it, for
 * when no launcher forwards its output any more.
 */
public final class KillTarget {
    private KillTarget() {}

    public static void main(String[] args) throws InterruptedException, IOException {
        Path reports = args.length == 2 && args[0].equals("wait") ? Path.of(args[1]) : null;
        try (Shmem shmem = Shmem.init()) {
            SymmetricLongArray never = reports == null ? null : shmem.calloc(ValueLayout.JAVA_LONG, 1);
            System.out.printf("ready %d %d %s%n", shmem.myPe(), ProcessHandle.current().pid(),
                    System.getenv("SHMEM4J_JOB_ID"));
            System.out.flush();
            if (reports == null) {
                long end = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() - end < 0) {
                    shmem.barrierAll();
                    Thread.sleep(5);
                }
                return;
            }
            try {
                shmem.waitUntil(never, 0, Cmp.NE, 0);
            } catch (RuntimeException e) {
                Files.writeString(reports.resolve("pe" + shmem.myPe() + ".txt"), e.toString());
                throw e;
            }
        }
    }
}
