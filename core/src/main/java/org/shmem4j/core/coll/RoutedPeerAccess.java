package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import org.shmem4j.core.route.Router;

/**
 * {@link PeerAccess} down a team's routes ({@link Router}): a mapped member is a copy or a release
 * store on its region, any other member an operation on the network channel the collectives share.
 */
public final class RoutedPeerAccess implements PeerAccess {
    /** What a failure names: the collectives' own routines are named by their callers' stacks. */
    private static final String ROUTINE = "collective";
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    private final Router router;
    private final int rank;
    private final long oneWayPutSignalBytes;

    /**
     * @param router the team's routes, in team order, with the collectives' network channel
     * @param oneWayPutSignalBytes see {@link #oneWayPutSignalBytes()}: what the network engine reports
     */
    public RoutedPeerAccess(Router router, int rank, long oneWayPutSignalBytes) {
        this.router = router;
        this.rank = rank;
        this.oneWayPutSignalBytes = oneWayPutSignalBytes;
    }

    @Override
    public int size() {
        return router.routes().size();
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public MemorySegment local() {
        return router.region(rank);
    }

    @Override
    public void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes) {
        router.put(ROUTINE, peer, remoteOffset, src, srcOffset, bytes, false);
    }

    @Override
    public void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes) {
        router.get(ROUTINE, dst, dstOffset, bytes, peer, remoteOffset, false);
    }

    /**
     * Remote: a raise, ordered after this PE's earlier puts to that member; flags only grow (they
     * are stamps), so signals to one member need no order among themselves.
     */
    @Override
    public void signal(int peer, long offset, long value) {
        router.raise(ROUTINE, peer, 0, NOTHING, 0, 0, offset, value);
    }

    @Override
    public void putSignal(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes, long flag, long value) {
        router.raise(ROUTINE, peer, remoteOffset, src, srcOffset, bytes, flag, value);
    }

    @Override
    public boolean mapped(int peer) {
        return router.region(peer) != null;
    }

    @Override
    public long oneWayPutSignalBytes() {
        return oneWayPutSignalBytes;
    }
}
