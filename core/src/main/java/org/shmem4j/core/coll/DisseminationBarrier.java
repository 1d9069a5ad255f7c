package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.shmem4j.core.sync.PeerLiveness;
import org.shmem4j.core.sync.WaitPolicy;

/**
 * Barrier over all PEs by dissemination: in round r each PE signals PE {@code me + 2^r} and waits
 * for PE {@code me - 2^r}, so ceil(log2 n) rounds of one remote store each. Every round has its own
 * cache line in each PE's reserved region, written by exactly one peer, and carries the barrier's
 * epoch number instead of a flag that would need resetting: a value at least the current epoch means
 * "arrived", which stays true when a fast peer already signals the next barrier.
 */
public final class DisseminationBarrier {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long LINE = 64;

    private final PeerAccess peers;
    private final MemorySegment local;
    private final int me;
    private final int n;
    private final long slots;
    private final int rounds;
    private final WaitPolicy waitPolicy;
    private final PeerLiveness liveness;
    private long epoch;

    /**
     * @param peers the members' routes; this PE is {@code peers.rank()}
     * @param slotsOffset region offset of this barrier's {@link #bytesNeeded(int)} zeroed bytes, the same on every PE
     * @param liveness asked, while a wait is parked, about the member it depends on
     */
    public DisseminationBarrier(PeerAccess peers, long slotsOffset, WaitPolicy waitPolicy,
            PeerLiveness liveness) {
        this.liveness = liveness;
        this.peers = peers;
        this.local = peers.local();
        this.me = peers.rank();
        this.n = peers.size();
        this.slots = slotsOffset;
        this.rounds = roundsFor(n);
        this.waitPolicy = waitPolicy;
    }

    /** Reserved bytes a barrier over {@code n} PEs needs. */
    public static long bytesNeeded(int n) {
        return Math.max(1, roundsFor(n)) * LINE;
    }

    private static int roundsFor(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /**
     * Waits until every PE has called; stores issued before the call are visible to every PE after
     * it (each signal is a release store, each wait an acquire load). Calls from several threads of
     * one PE are serialised, as the spec asks programs to order collectives.
     */
    public synchronized void await() {
        long e = ++epoch;
        for (int r = 0, distance = 1; r < rounds; r++, distance <<= 1) {
            long slot = slots + r * LINE;
            peers.signal((me + distance) % n, slot, e);
            if ((long) LONG.getAcquire(local, slot) < e) {
                int writer = ((me - distance) % n + n) % n;
                WaitPolicy.Waiter w = waitPolicy.start(
                        () -> liveness.check(writer, () -> (long) LONG.getAcquire(local, slot) >= e));
                while ((long) LONG.getAcquire(local, slot) < e) {
                    w.pause();
                }
            }
        }
    }
}
