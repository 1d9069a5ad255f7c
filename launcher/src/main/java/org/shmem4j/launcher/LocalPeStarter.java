package org.shmem4j.launcher;

import java.io.File;
import java.io.IOException;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * Starts PEs as child processes on this host. Rank 0 inherits the launcher's stdin (like Open
 * MPI, which forwards stdin to rank 0); the others read from {@code /dev/null}.
 */
public final class LocalPeStarter implements PeStarter {
    private final String hostId = LaunchEnv.kernelHostName();

    /** A starter for this host. */
    public LocalPeStarter() {
    }

    @Override
    public Process start(PeLaunch launch) throws IOException {
        var pb = new ProcessBuilder(launch.command());
        pb.environment().putAll(launch.env());
        pb.environment().put(LaunchEnv.JOB_SECRET, launch.secret());
        pb.redirectInput(launch.rank() == 0 ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.from(new File("/dev/null")));
        return pb.start();
    }

    @Override
    public String hostId(int rank) {
        return hostId;
    }
}
