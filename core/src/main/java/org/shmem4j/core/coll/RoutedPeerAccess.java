package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.Channel;

/**
 * {@link PeerAccess} over a team's routes: a mapped member is a copy or a release store on its
 * region, any other member an operation on the network channel. The choice is one array load.
 */
public final class RoutedPeerAccess implements PeerAccess {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    private final MemorySegment[] mapped;
    private final int[] worldRanks;
    private final int rank;
    private final Channel network;

    /**
     * @param mapped the members' mapped regions in team order, null where a member is remote
     * @param worldRanks the members' world ranks in team order (what a channel addresses)
     * @param network the channel to the remote members, or null when every member is mapped
     */
    public RoutedPeerAccess(MemorySegment[] mapped, int[] worldRanks, int rank, Channel network) {
        this.mapped = mapped;
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.network = network;
    }

    @Override
    public int size() {
        return mapped.length;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public MemorySegment local() {
        return mapped[rank];
    }

    @Override
    public void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes) {
        MemorySegment m = mapped[peer];
        if (m != null) {
            MemorySegment.copy(src, srcOffset, m, remoteOffset, bytes);
        } else {
            network(peer).put(worldRanks[peer], remoteOffset, src.asSlice(srcOffset, bytes));
        }
    }

    @Override
    public void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes) {
        MemorySegment m = mapped[peer];
        if (m != null) {
            MemorySegment.copy(m, remoteOffset, dst, dstOffset, bytes);
        } else {
            network(peer).get(dst.asSlice(dstOffset, bytes), worldRanks[peer], remoteOffset);
        }
    }

    /**
     * Remote: a raise, ordered after this PE's earlier puts to that member; flags only grow (they
     * are stamps), so signals to one member need no order among themselves.
     */
    @Override
    public void signal(int peer, long offset, long value) {
        MemorySegment m = mapped[peer];
        if (m != null) {
            LONG.setRelease(m, offset, value);
        } else {
            network(peer).putRaise(worldRanks[peer], 0, NOTHING, offset, value);
        }
    }

    @Override
    public void putSignal(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes, long flag, long value) {
        MemorySegment m = mapped[peer];
        if (m != null) {
            MemorySegment.copy(src, srcOffset, m, remoteOffset, bytes);
            LONG.setRelease(m, flag, value);
        } else {
            network(peer).putRaise(worldRanks[peer], remoteOffset, src.asSlice(srcOffset, bytes), flag, value);
        }
    }

    @Override
    public boolean mapped(int peer) {
        return mapped[peer] != null;
    }

    private Channel network(int peer) {
        if (network == null) {
            throw new ShmemException("PE " + worldRanks[peer] + " is on another node and no network transport is open");
        }
        return network;
    }
}
