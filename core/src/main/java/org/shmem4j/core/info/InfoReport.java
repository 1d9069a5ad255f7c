package org.shmem4j.core.info;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.pmix.PmixBootstrap;
import org.shmem4j.core.param.AlgorithmNames;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.transport.NetworkProvider;

/**
 * What {@code oshrun --info} prints, as Open MPI's {@code oshmem_info} does for C: the build, the
 * JDK, the transports and bootstraps this machine can use (shared memory and its free space, each
 * network engine and its native library, PMIx), every environment parameter with its default and
 * current value, and the collective algorithms {@code SHMEM_*_ALGORITHM} can choose.
 *
 * @param text the report, lines ending with {@code '\n'}
 * @param valid false when some {@code SHMEM_*} variable of the environment is invalid (the report says
 *     which; its tables then show the defaults)
 */
public record InfoReport(String text, boolean valid) {
    private static final String ROW = "  %-16s %s%n";

    /**
     * The report for a job started with environment {@code env} (oshrun's, which its PEs inherit).
     * Loads the network engines' and PMIx's native libraries when present, but starts nothing.
     */
    public static InfoReport of(Map<String, String> env) {
        var out = new StringBuilder();
        Parameters params;
        String invalid = null;
        try {
            params = Parameters.from(env);
        } catch (ShmemException e) {
            invalid = e.getMessage();
            params = Parameters.defaults();
        }
        out.append(BuildInfo.current().describe()).append('\n');
        row(out, "library", libraryLocation());
        row(out, "JDK", Runtime.version() + ", " + System.getProperty("java.vendor") + ", " + System.getProperty("java.home"));
        row(out, "machine", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " cores");

        out.append("\nTransports\n");
        long perPe = params.get(Params.SYMMETRIC_SIZE) + params.get(Params.RESERVED_SIZE);
        row(out, "shared memory", sharedMemory(params.get(Params.SHM_DIR), perPe));
        String selected = params.get(Params.NETWORK);
        for (NetworkProvider provider : ServiceLoader.load(NetworkProvider.class, InfoReport.class.getClassLoader())) {
            row(out, "network " + provider.name(), provider.availability()
                    + (provider.name().equals(selected) ? " (SHMEM_NETWORK; for PEs on other nodes)" : ""));
        }
        out.append("\nBootstraps\n");
        row(out, "oshrun", "PEs on this machine, over ssh (--host, --hostfile) or in a Slurm allocation");
        row(out, "PMIx", PmixBootstrap.libraryStatus() + " (srun --mpi=pmix, mpirun)");

        out.append('\n');
        if (invalid != null) {
            out.append("The environment is invalid (the table shows defaults instead):\n  ")
                    .append(invalid.replace("\n", "\n  ")).append('\n');
        }
        out.append(params.infoText());

        out.append("\nCollective algorithms (SHMEM_<COLLECTIVE>_ALGORITHM: auto, the default, or one of these)\n");
        AlgorithmNames.byCollective().forEach((collective, names) -> row(out, collective, String.join(", ", names)));
        return new InfoReport(out.toString(), invalid == null);
    }

    private static void row(StringBuilder out, String what, String value) {
        out.append(String.format(Locale.ROOT, ROW, what + ":", value));
    }

    /** The directory of the heap files, its free space, and how many PEs of this heap size fit. */
    static String sharedMemory(Path dir, long bytesPerPe) {
        if (!Files.isDirectory(dir)) {
            return dir + " (SHMEM_SHM_DIR) is missing: no PE can start";
        }
        try {
            FileStore store = Files.getFileStore(dir);
            long free = store.getUsableSpace();
            return String.format(Locale.ROOT, "%s (SHMEM_SHM_DIR): %s free of %s; a PE maps %s (symmetric + reserved heap):"
                    + " room for %d PEs", dir, gib(free), gib(store.getTotalSpace()), gib(bytesPerPe), free / Math.max(1, bytesPerPe));
        } catch (IOException e) {
            return dir + " (SHMEM_SHM_DIR): cannot read its free space: " + e.getMessage();
        }
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }

    private static String libraryLocation() {
        try {
            return Path.of(InfoReport.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
