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
     * A load/store view of PE {@code pe}'s whole symmetric region (offset 0 is the region's start,
     * the same offset on every PE), or null when {@code pe} is reached by messages only.
     */
    MemorySegment mapping(int pe);

    /**
     * True if this transport's atomics on a word are atomic with respect to CPU atomics done on the
     * same word by the PEs of the word's node (shared memory; UCX's software-emulated atomics).
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
