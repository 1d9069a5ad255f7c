package org.shmem4j.transport.deferred;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.shmem4j.transport.Capabilities;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.Transport;

/** The {@link DeferredProvider}'s transport: the remote PEs' regions, reached only through deferred channels. */
final class DeferredTransport implements Transport {
    private final int rank;
    private final MemorySegment[] regions;
    private final Liveness liveness;
    private final boolean nicAtomics;
    private final boolean lazy;
    private final List<DeferredChannel> open = new ArrayList<>();

    /**
     * @param liveness the job's record of mapped regions, or null when the regions outlive the transport
     * @param nicAtomics AMOs done by {@link NicAtomics} instead of CPU atomics
     * @param lazy channels deliver nothing until drained or a flag is raised
     */
    DeferredTransport(int rank, MemorySegment[] regions, Liveness liveness, boolean nicAtomics, boolean lazy) {
        this.rank = rank;
        this.regions = regions;
        this.liveness = liveness;
        this.nicAtomics = nicAtomics;
        this.lazy = lazy;
    }

    @Override
    public String name() {
        return "deferred";
    }

    @Override
    public boolean reaches(int pe) {
        return regions[pe] != null;
    }

    /**
     * Delivered by the sender's courier thread (no target CPU), with no messages of its own; a
     * raise is fenced after its put, which waits for nothing.
     */
    @Override
    public Capabilities capabilities() {
        return new Capabilities(!nicAtomics, true, 0, Long.MAX_VALUE);
    }

    @Override
    public synchronized Channel openChannel(ChannelOptions options) {
        DeferredChannel c = new DeferredChannel(regions, liveness, nicAtomics, lazy, options, this::closed);
        open.add(c);
        return c;
    }

    private synchronized void closed(DeferredChannel c) {
        open.remove(c);
    }

    @Override
    public void close() {
        List<DeferredChannel> left;
        synchronized (this) {
            left = List.copyOf(open);
        }
        try {
            left.forEach(DeferredChannel::close);
        } finally {
            if (liveness != null) {
                liveness.leave(rank); // even when a channel's close failed: the region is unmapped next
            }
        }
    }
}
