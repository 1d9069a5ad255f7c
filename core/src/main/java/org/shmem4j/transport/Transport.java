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
     * What this transport's routes can do (the core decides from it how to use them); the same
     * value for the transport's life.
     */
    Capabilities capabilities();

    /** What this PE sent through this transport ({@link Traffic#NONE} for a transport without a network). */
    default Traffic traffic() {
        return Traffic.NONE;
    }

    /** A new channel for one context, used as {@code options} say. */
    Channel openChannel(ChannelOptions options);

    /** Unmaps and releases everything; no segment or channel of this transport may be used after. */
    @Override
    void close();
}
