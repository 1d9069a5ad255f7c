package org.shmem4j.bootstrap.launcher;

import java.util.Map;
import org.shmem4j.ShmemException;

/**
 * Names of the environment variables through which {@code oshrun} tells each PE process who it
 * is and where the launcher's rendezvous service listens. The launcher sets them, the PE side
 * ({@link LauncherBootstrap}) only reads them; nothing here is computed locally, so a launcher can
 * later declare pseudo-hosts or remote hosts without the PE noticing.
 */
public final class LaunchEnv {
    /** {@code host:port} of the launcher's rendezvous service. */
    public static final String RENDEZVOUS = "SHMEM4J_RENDEZVOUS";
    /** Random job secret, at least 128 bits, lower-case hex; a PE proves membership with it. */
    public static final String JOB_SECRET = "SHMEM4J_JOB_SECRET";
    /** Random job identity, {@code [A-Za-z0-9]}, embedded in shared-memory file names. */
    public static final String JOB_ID = "SHMEM4J_JOB_ID";
    /** This PE's rank, 0 to size - 1. */
    public static final String RANK = "SHMEM4J_RANK";
    /** Number of PEs in the job. */
    public static final String SIZE = "SHMEM4J_SIZE";
    /**
     * Declared host identity: PEs with equal values form the SHARED, host and leaders teams, reach
     * each other with {@code shmem_ptr} and are local to each other for the collective policy.
     * Optional: a PE started on another machine (over ssh, by srun) reports its kernel host name
     * ({@link #kernelHostName}).
     */
    public static final String HOST_ID = "SHMEM4J_HOST_ID";
    /**
     * Physical node identity: PEs with equal values can map each other's memory (the shared-memory
     * transport maps by it). Optional, defaults to {@link #HOST_ID}; differs from it when the
     * launcher splits one machine into pseudo-hosts ({@code oshrun --hosts}).
     */
    public static final String NODE_ID = "SHMEM4J_NODE_ID";

    /**
     * Set to {@code 1} for a PE whose stdin is its line to the launcher (a PE started over ssh):
     * end of file there means the launcher is gone (killed, or the connection dropped), and ends
     * the PE even before it has a rendezvous connection. By default the PE watches its parent.
     */
    public static final String LAUNCHER_STDIN = "SHMEM4J_LAUNCHER_STDIN";

    /**
     * The cores of the PE's node, set by a launcher that gave the PE's JVM only its share of them
     * ({@code -XX:ActiveProcessorCount}): whether the node's PEs outnumber its cores is judged by
     * this, not by {@link Runtime#availableProcessors()}. Optional.
     */
    public static final String NODE_CORES = "SHMEM4J_NODE_CORES";

    /**
     * The job's PEs that share the cores {@link #NODE_CORES} counts, set with it: more than the PE's
     * node holds when pseudo-nodes or pseudo-hosts run on one machine, whose PEs still compete for
     * its cores. Optional.
     */
    public static final String CORE_SHARERS = "SHMEM4J_CORE_SHARERS";

    /** Directory of the shared-memory files (default {@link #DEFAULT_SHM_DIR}). */
    public static final String SHM_DIR = "SHMEM_SHM_DIR";
    /** Default directory of the shared-memory files. */
    public static final String DEFAULT_SHM_DIR = "/dev/shm";
    /**
     * Seconds within which every PE must reach the rendezvous (default 60): oshrun reads it, the
     * PEs' bootstraps get it from the core, which reads it as {@code Params.BOOTSTRAP_TIMEOUT_S}.
     */
    public static final String BOOTSTRAP_TIMEOUT_S = "SHMEM_BOOTSTRAP_TIMEOUT_S";

    private LaunchEnv() {}

    /** The cores of this PE's node: {@link #NODE_CORES} when it is a positive number, else the JVM's count. */
    public static int nodeCores() {
        int cores = positive(NODE_CORES);
        return cores > 0 ? cores : Runtime.getRuntime().availableProcessors();
    }

    /** The PEs that share this PE's cores: {@link #CORE_SHARERS} where it says more, else {@code pesOnNode}. */
    public static int pesSharingCores(int pesOnNode) {
        return Math.max(pesOnNode, positive(CORE_SHARERS));
    }

    /** The positive number in variable {@code name}, else 0 (unset or not set by oshrun). */
    private static int positive(String name) {
        String v = System.getenv(name);
        if (v != null) {
            try {
                return Math.max(0, Integer.parseInt(v.strip()));
            } catch (NumberFormatException ignored) {
                // not set by oshrun
            }
        }
        return 0;
    }

    /**
     * Prefix of every shared-memory file name of the job {@code jobId}; the launcher deletes
     * whatever still carries it when the job ends.
     */
    public static String shmFilePrefix(String jobId) {
        return "shmem4j-" + jobId + "-";
    }

    /** True for a non-empty string of {@code [A-Za-z0-9]} of at most 64 characters. */
    public static boolean isValidJobId(String id) {
        if (id == null || id.isEmpty() || id.length() > 64) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    /** This machine's kernel host name; a DNS lookup ({@code InetAddress.getLocalHost()}) can stall start-up. */
    public static String kernelHostName() {
        try {
            String n = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
            if (!n.isEmpty()) {
                return n;
            }
        } catch (java.io.IOException | RuntimeException ignored) {
            // not Linux; fall through
        }
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** The value of {@code name}, or a {@link ShmemException} naming the variable. */
    static String require(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new ShmemException("shmem4j: environment variable " + name
                    + " is not set; start the program with oshrun (or without any SHMEM4J_* variables)");
        }
        return v.strip();
    }

    /** The integer value of {@code name} within [min, max], or a {@link ShmemException}. */
    static int requireInt(Map<String, String> env, String name, int min, int max) {
        String v = require(env, name);
        try {
            int i = Integer.parseInt(v);
            if (i < min || i > max) {
                throw new ShmemException("shmem4j: environment variable " + name + "=" + v
                        + " is out of range [" + min + ", " + max + "]");
            }
            return i;
        } catch (NumberFormatException e) {
            throw new ShmemException("shmem4j: environment variable " + name + "=" + v
                    + " is not an integer", e);
        }
    }
}
