package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;

/**
 * A way to reach other PEs' symmetric regions. The runtime asks every transport at start-up which
 * PEs it reaches and keeps a per-PE routing table, so the hot path is one array lookup, never a
 * search. The shared-memory transport reaches the PEs of this host by mapping their regions; a
 * network transport (UCX through FFM, later) will reach the others through messages progressed by
 * an agent on the target, and will extend this interface with put/get/atomic/quiet operations.
 */
public interface Transport extends AutoCloseable {
    /** Short name for diagnostics ("shm"). */
    String name();

    /**
     * A load/store view of PE {@code pe}'s whole symmetric region (offset 0 is the region's start,
     * the same offset on every PE), or null when this transport does not map that PE.
     */
    MemorySegment mapping(int pe);

    /** Unmaps and releases everything; no segment returned by {@link #mapping} may be used after. */
    @Override
    void close();
}
