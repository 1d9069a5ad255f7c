package org.shmem4j.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts PEs as child processes on this host. Rank 0 inherits the launcher's stdin (like Open
 * MPI, which forwards stdin to rank 0); the others read from {@code /dev/null}.
 */
public final class LocalPeStarter implements PeStarter {
    private final String hostId = localHostName();

    @Override
    public Process start(PeLaunch launch) throws IOException {
        var pb = new ProcessBuilder(launch.command());
        pb.environment().putAll(launch.env());
        pb.redirectInput(launch.rank() == 0 ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.from(new File("/dev/null")));
        return pb.start();
    }

    @Override
    public String hostId(int rank) {
        return hostId;
    }

    // The kernel's name, not a DNS lookup: InetAddress.getLocalHost() can stall start-up.
    static String localHostName() {
        try {
            String n = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!n.isEmpty()) {
                return n;
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux; fall through
        }
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
