package org.shmem4j.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.shmem4j.Shmem;

/**
 * Spec Example 8 (section 9.1.6, {@code shmem_global_exit}): PE 0 needs an input file; when it
 * cannot open it, it ends the whole job with {@code shmem_global_exit(EXIT_FAILURE)}, otherwise
 * it reads the file and every PE finalizes normally. Runs on any number of PEs.
 *
 * <p>Usage: {@code GlobalExitExample [file]} (default {@code input.txt}). The job's exit status is
 * {@link #EXIT_FAILURE} when the file cannot be opened, 0 otherwise.
 */
public final class GlobalExitExample {
    /** C's {@code EXIT_FAILURE}: the status of the job when the input file is not available. */
    public static final int EXIT_FAILURE = 1;

    private GlobalExitExample() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "input.txt");
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            if (mype == 0) {
                InputStream in;
                try {
                    in = Files.newInputStream(file);
                } catch (IOException e) { // input file required by program is not available
                    System.err.printf("PE 0: cannot open %s (%s): global exit with status %d%n", file, e, EXIT_FAILURE);
                    shmem.globalExit(EXIT_FAILURE);
                    return; // not reached: shmem_global_exit does not return
                }
                try (in) { // do something with the file
                    long bytes = in.transferTo(OutputStream.nullOutputStream());
                    System.out.printf("PE 0 read %d bytes from %s%n", bytes, file);
                }
            }
        }
    }
}
