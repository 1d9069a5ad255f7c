package org.shmem4j.transport;

/**
 * A network engine's reach to the PEs of other nodes (the PEs of this node are mapped and reached
 * by load and store, {@code transport.shm}, never through here). Opened collectively at start-up;
 * the runtime's routes ({@code core.route}) send each operation for a PE it {@link #reaches} to a
 * {@link Channel} of this transport, one per context: RMA, AMOs, signals, barriers, collectives
 * and finalize all go through channels.
 */
public interface Transport extends AutoCloseable {
    /** Short name for diagnostics ("ucx"). */
    String name();

    /** True if this transport carries operations to world PE {@code pe}. */
    boolean reaches(int pe);

    /**
     * True if this transport's atomics on a word are atomic with respect to CPU atomics done on the
     * same word by the PEs of the word's node (UCX's software-emulated atomics, applied by the target's CPU).
     * NIC atomics are not: a job that uses them must send every AMO through the network.
     */
    boolean atomicsCoherentWithCpu();

    /** What this PE sent through this transport ({@link Traffic#NONE} for a transport without a network). */
    default Traffic traffic() {
        return Traffic.NONE;
    }

    /** A new channel for one context, usable as {@code mode} says. */
    Channel openChannel(ChannelMode mode);

    /** Unmaps and releases everything; no segment or channel of this transport may be used after. */
    @Override
    void close();
}
