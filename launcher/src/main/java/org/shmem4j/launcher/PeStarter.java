package org.shmem4j.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Starts one PE process. The local implementation forks a JVM on this host; the ssh one returns
 * the local handle of the ssh client that stands for the remote PE, whose exit and output the
 * launcher then treats exactly like a local PE's.
 */
public interface PeStarter {
    /**
     * What to start for one PE.
     *
     * @param rank    the PE's rank
     * @param command the full command ({@code java} and its arguments)
     * @param env     variables to add to the inherited environment
     * @param secret  the job secret, which the starter hands over without any command line showing it
     */
    record PeLaunch(int rank, List<String> command, Map<String, String> env, String secret) {}

    /**
     * Starts the PE with its stdout and stderr as pipes (the launcher forwards them) and its stdin
     * as the starter decides.
     */
    Process start(PeLaunch launch) throws IOException;

    /**
     * Machine identity of the PE of {@code rank}: its {@code SHMEM4J_NODE_ID}, and its
     * {@code SHMEM4J_HOST_ID} unless {@code --hosts} declares pseudo-hosts; null when the PE
     * reports its own (its kernel host name).
     */
    String hostId(int rank);

    /** The host the PE of {@code rank} runs on, for messages; null for this machine. */
    default String host(int rank) {
        return null;
    }

    /**
     * Deletes the job's files named {@code prefix*} in {@code shmDir} on the starter's other hosts
     * (a PE that died during start-up can leave its heap file), in bounded time; not on the hosts
     * in {@code gone} (found gone by the heartbeat: a connection there could only time out).
     */
    default void cleanShmElsewhere(String prefix, Path shmDir, java.util.Set<String> gone) {}
}
