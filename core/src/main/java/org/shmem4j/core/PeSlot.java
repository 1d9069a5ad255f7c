package org.shmem4j.core;

import java.util.function.Supplier;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.transport.shm.RegionMappings;

/**
 * Where a PE keeps its library instance between init calls: one per process for a launched PE,
 * one per thread-PE in an in-process job. It makes init/finalize counting and re-initialisation
 * after the last finalize work without any static state in the runtime itself.
 */
public final class PeSlot {
    private final Supplier<Bootstrap> connect;
    private final RegionMappings regionMappings;
    private Bootstrap bootstrap;
    private PeRuntime current;
    /** Set by start_pes: the program's end finalizes the PE (implicit finalization). */
    private boolean finalizeAtEnd;
    private boolean announced;

    /**
     * @param connect makes the bootstrap on the first init (a query must not connect to a launcher)
     * @param regionMappings the region mappings of this PE's process, shared with the other PEs of
     *                       the process (an in-process job's), so each region is mapped once per process
     */
    public PeSlot(Supplier<Bootstrap> connect, RegionMappings regionMappings) {
        this.connect = connect;
        this.regionMappings = regionMappings;
    }

    RegionMappings regionMappings() {
        return regionMappings;
    }

    public synchronized Bootstrap bootstrap() {
        if (bootstrap == null) {
            bootstrap = connect.get();
        }
        return bootstrap;
    }

    /** The bootstrap if one was made, else null (never connects). */
    synchronized Bootstrap connected() {
        return bootstrap;
    }

    synchronized PeRuntime current() {
        return current;
    }

    synchronized void set(PeRuntime runtime) {
        current = runtime;
    }

    synchronized void finalizeAtEnd() {
        finalizeAtEnd = true;
    }

    /** The runtime the program's end must finalize (start_pes), or null; asks only once. */
    synchronized PeRuntime takeImplicitFinalize() {
        PeRuntime r = finalizeAtEnd ? current : null;
        finalizeAtEnd = false;
        return r;
    }

    /** True the first time only: what a PE prints at start-up (SHMEM_VERSION, SHMEM_INFO) it prints once, not per init. */
    synchronized boolean firstAnnouncement() {
        boolean first = !announced;
        announced = true;
        return first;
    }
}
