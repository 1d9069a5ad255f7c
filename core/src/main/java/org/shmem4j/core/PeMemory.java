package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.transport.shm.RegionMappings;
import org.shmem4j.transport.shm.ShmTransport;

/**
 * The memory step of the init sequence: the shared-memory transport (every region of this node
 * mapped), the world route table it fills (a PE's mapped region, null for a PE reached through the
 * network: the hot path's one array load) and the symmetric heap in this PE's region.
 */
record PeMemory(ShmTransport shm, MemorySegment[] routes, SymmetricHeap heap) {
    private static final long PAGE = 4096;

    /**
     * Collective: creates and maps the regions of this node's PEs (through {@code table}, the
     * mappings this process's PEs share), then lays the heap out in this PE's.
     */
    static PeMemory open(RegionMappings table, Bootstrap bootstrap, Topology topology, Parameters params, Profiler profiler, SymmetricHeap.HeapSync sync) {
        long reserved = roundUp(params.get(Params.RESERVED_SIZE), PAGE);
        long user = roundUp(params.get(Params.SYMMETRIC_SIZE), PAGE);
        ShmTransport shm = ShmTransport.open(table, bootstrap, topology.nodeIds(), params.get(Params.SHM_DIR), reserved + user);
        try {
            MemorySegment[] routes = new MemorySegment[bootstrap.size()];
            if (!shm.capabilities().loadStore()) {
                throw new IllegalStateException("shmem_init: transport " + shm.name() + " maps no region of this node");
            }
            for (int pe = 0; pe < routes.length; pe++) {
                routes[pe] = shm.mapping(pe);
            }
            SymmetricHeap heap = new SymmetricHeap(routes[bootstrap.rank()], reserved, profiler, sync);
            if (params.get(Params.DEBUG)) {
                heap.recordOrigins();
            }
            return new PeMemory(shm, routes, heap);
        } catch (RuntimeException | Error e) {
            shm.close();
            throw e;
        }
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }

    /** This PE's own region. */
    MemorySegment local() {
        return heap.local();
    }

    /** Invalidates the heap's objects, then unmaps every region, also when the first fails. */
    void close() {
        try {
            heap.close();
        } finally {
            shm.close();
        }
    }
}
