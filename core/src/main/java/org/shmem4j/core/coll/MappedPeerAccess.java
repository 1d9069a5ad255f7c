package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/** {@link PeerAccess} over the members' mapped regions: copies and release/acquire words. */
public final class MappedPeerAccess implements PeerAccess {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment[] peers;
    private final int rank;

    /** @param peers the members' regions in team order */
    public MappedPeerAccess(MemorySegment[] peers, int rank) {
        this.peers = peers;
        this.rank = rank;
    }

    @Override
    public int size() {
        return peers.length;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public MemorySegment local() {
        return peers[rank];
    }

    @Override
    public void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes) {
        MemorySegment.copy(src, srcOffset, peers[peer], remoteOffset, bytes);
    }

    @Override
    public void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes) {
        MemorySegment.copy(peers[peer], remoteOffset, dst, dstOffset, bytes);
    }

    @Override
    public void signal(int peer, long offset, long value) {
        LONG.setRelease(peers[peer], offset, value);
    }
}
