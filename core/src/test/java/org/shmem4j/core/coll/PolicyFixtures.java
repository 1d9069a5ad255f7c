package org.shmem4j.core.coll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.shmem4j.core.sync.WaitPolicy;

/** A {@link CollectiveSupport} over nothing: enough for the policy, which only looks at size and hosts. */
final class PolicyFixtures {
    /** What a put with signal to another node carries without a round trip: UCX's message payload. */
    static final long ONE_WAY_PUT_SIGNAL = 8 << 10;

    private PolicyFixtures() {
    }

    static CollectiveSupport team(int... hostOfMember) {
        return team(false, 0, hostOfMember);
    }

    /**
     * @param nodesAreHosts members of different hosts are on different nodes (reached through the network)
     * @param scratchBytes the most one collective may stage in the scratch (two buffers)
     */
    static CollectiveSupport team(boolean nodesAreHosts, long scratchBytes, int... hostOfMember) {
        MemorySegment local = Arena.ofAuto().allocate(64);
        PeerAccess peers = new PeerAccess() {
            @Override
            public int size() {
                return hostOfMember.length;
            }

            @Override
            public int rank() {
                return 0;
            }

            @Override
            public MemorySegment local() {
                return local;
            }

            @Override
            public void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void signal(int peer, long offset, long value) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void putSignal(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes, long flag,
                    long value) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean mapped(int peer) {
                return !nodesAreHosts || hostOfMember[peer] == hostOfMember[0];
            }

            @Override
            public long oneWayPutSignalBytes() {
                return ONE_WAY_PUT_SIGNAL;
            }
        };
        return new CollectiveSupport(peers, new CollectiveSupport.SlotLayout(0, 0, 64, 0, 4, 2, scratchBytes / 2, -1),
                new WaitPolicy(1, 1, 1000, () -> {
                }), hostOfMember, () -> {
                }, (member, satisfied) -> {
                });
    }

    /** {@code n} members on one host. */
    static CollectiveSupport flat(int n) {
        return team(new int[n]);
    }

    /** {@code n} members in blocks on {@code hosts} hosts (member r on host r * hosts / n). */
    static CollectiveSupport blocks(int n, int hosts) {
        int[] h = new int[n];
        for (int r = 0; r < n; r++) {
            h[r] = r * hosts / n;
        }
        return team(h);
    }
}
