package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;

/**
 * A kind of path to other PEs' symmetric regions: shared memory for the PEs of this node, a
 * network engine for the others. Opened collectively at start-up; the runtime then asks each
 * transport which PEs it reaches and keeps a per-PE route table, so the choice of path is one
 * array lookup, never a search. Mapped peers are reached directly through {@link #mapping(int)};
 * for the others a context gets a {@link Channel} from the network transport, and everything
 * above (RMA, AMOs, signals, barriers, collectives, finalize) goes through it.
 */
public interface Transport extends AutoCloseable {
    /** Short name for diagnostics ("shm", "ucx"). */
    String name();

    /** True if this transport carries operations to world PE {@code pe}. */
    boolean reaches(int pe);

    /**
     * What this transport's routes can do (the core decides from it how to use them); the same
     * value for the transport's life.
     */
    Capabilities capabilities();

    /**
     * A load/store view of PE {@code pe}'s whole symmetric region (offset 0 is the region's start,
     * the same offset on every PE), or null when {@code pe} is not mapped; asked only of a
     * transport whose {@link Capabilities#loadStore} is true.
     */
    default MemorySegment mapping(int pe) {
        throw new UnsupportedOperationException("mapping(" + pe + "): transport " + name() + " maps no region (no loadStore capability)");
    }

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
