package org.shmem4j.bootstrap;

/**
 * How a PE finds the rest of its job before any shared memory or network endpoint exists: its
 * rank, the job size, which host it is on, an all-gather of small blobs, and job-level exits.
 * Everything here is the slow path used at start-up, allocation checks and shutdown; data
 * movement never goes through a bootstrap.
 *
 * <p>Implementations: {@code LauncherBootstrap} (a PE started by {@code oshrun}, talking to the
 * launcher's rendezvous service), {@code InProcessHub}'s members (PEs as threads of one JVM) and
 * {@code SingletonBootstrap} (a program started without a launcher is a job of one PE). Multi-host
 * launchers (ssh, Slurm) plug in here: only rank, host identity and the exchange change.
 */
public interface Bootstrap extends AutoCloseable {
    /** This PE's number, 0 to {@link #size()} - 1. */
    int rank();

    /** Number of PEs in the job. */
    int size();

    /** The environment the PE's parameters come from (the process environment for a real PE). */
    default java.util.Map<String, String> environment() {
        return System.getenv();
    }

    /** Random identity of the job, safe to embed in file names ([A-Za-z0-9] only). */
    String jobId();

    /**
     * Identity of this PE's declared host: PEs with equal host ids form the SHARED and host teams,
     * one of them is in the leaders team, {@code shmem_ptr} reaches exactly them, and the
     * collective policy treats them as local to each other. Normally the physical machine; a
     * launcher may declare several pseudo-hosts on one machine ({@code oshrun --hosts}).
     */
    String hostId();

    /**
     * Identity of this PE's physical node: PEs with equal node ids can map each other's memory
     * (the shared-memory transport maps by it). Every host lies within one node, so PEs with
     * equal host ids have equal node ids. Defaults to {@link #hostId()}.
     */
    default String nodeId() {
        return hostId();
    }

    /**
     * Collective: every PE contributes one blob, every PE receives all blobs indexed by rank.
     * Calls are matched in order, so every PE must make the same sequence of calls.
     */
    byte[][] allGather(byte[] mine);

    /**
     * Makes {@code mine} available to every PE under {@code key} and returns where this PE finds
     * the other PEs' values, each fetched when first asked for: a peer's network address is needed
     * only at first contact, and most PEs of a large job never contact most others. Every PE must
     * call it at the same point of its sequence of {@link #allGather} calls (the value's name
     * includes that point, so an init after a finalize publishes afresh), but it need not wait for
     * the others: a lookup waits until its peer has published. A PE whose set-up failed publishes
     * the failure, so that a peer asking for its value learns why.
     *
     * <p>By default an all-gather (every value fetched at once, O(N) bytes per PE); the launcher's
     * rendezvous and PMIx fetch one peer's value per lookup.
     */
    default Directory publish(String key, byte[] mine) {
        byte[][] all = allGather(mine);
        return pe -> all[pe];
    }

    /** The values the PEs published under one key ({@link #publish}). */
    @FunctionalInterface
    interface Directory {
        /** PE {@code pe}'s value; may wait until it has published (or the job is torn down). */
        byte[] lookup(int pe);
    }

    /** Collective out-of-band barrier over all PEs (slow path, start-up and shutdown only). */
    default void barrier() {
        allGather(new byte[0]);
    }

    /** Tells the job this PE finalized normally; an exit after this counts as success. */
    void finalized();

    /**
     * Ends the whole job with {@code status} (spec 9.1.6). Does not return: either the process
     * ends, or (in-process jobs) a {@link org.shmem4j.ShmemGlobalExit} is thrown after every other
     * PE of the job has been told to stop.
     */
    void globalExit(int status);

    /**
     * Tells the job that this PE's network transport lost PE {@code pe} (its endpoint failed, or it
     * cannot be reached), just before the operation that found it fails. A launcher then names
     * that peer, whose host may be gone, instead of the PE that noticed and exited because of it.
     * Best effort and idempotent; by default nothing (the failing operation's exception says it).
     */
    default void peerLost(int pe, String reason) {}

    /**
     * Tells the launcher that this PE's {@code shmem_init} failed with {@code reason}, before the
     * failure is thrown to the program. Returns true when the launcher reports it (once for the
     * job, however many PEs fail alike), so that the PE need not print it again; by default false.
     */
    default boolean initFailed(String reason) {
        return false;
    }

    /**
     * Reason the job is being torn down (another PE failed or called global_exit), or null while
     * the job is healthy. Waits poll this on their slow path so that no PE blocks forever on a
     * peer that is gone.
     */
    String abortReason();

    /**
     * Throws if the job is being torn down: {@link org.shmem4j.ShmemGlobalExit} when that is
     * because of a global exit, else a {@link org.shmem4j.ShmemException} with the reason.
     */
    default void checkAlive() {
        String reason = abortReason();
        if (reason != null) {
            throw new JobAborted("job aborted: " + reason);
        }
    }

    /** Releases the bootstrap's resources (connection, threads). */
    @Override
    void close();
}
