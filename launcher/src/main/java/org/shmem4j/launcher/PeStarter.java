package org.shmem4j.launcher;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Starts one PE process. The local implementation forks a JVM on this host; remote starters
 * (ssh, Slurm) return the local handle of whatever process stands for the remote PE (the ssh
 * client, the srun step), whose exit and output the launcher then treats exactly like a local PE.
 */
public interface PeStarter {
    /**
     * What to start for one PE.
     *
     * @param rank    the PE's rank
     * @param command the full command ({@code java} and its arguments)
     * @param env     variables to add to the inherited environment
     */
    record PeLaunch(int rank, List<String> command, Map<String, String> env) {}

    /**
     * Starts the PE with its stdout and stderr as pipes (the launcher forwards them) and its stdin
     * as the starter decides.
     */
    Process start(PeLaunch launch) throws IOException;

    /** Machine identity of the PE of {@code rank}: its {@code SHMEM4J_NODE_ID}, and its {@code SHMEM4J_HOST_ID} unless {@code --hosts} declares pseudo-hosts. */
    String hostId(int rank);
}
