package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * The node-aware ("hierarchical") barrier, broadcast and reduction: host-local first, then across
 * one leader per host, then back inside each host. A host's leader is its lowest member
 * ({@link HostGroups}); hosts are the declared ones ({@code SHMEM4J_HOST_ID}, pseudo-hosts
 * included), so only leaders talk across hosts and everything else stays in a host's shared memory.
 *
 * <p>On a team inside one host every algorithm degenerates to its host-local part (gather to the
 * leader, release from it), which is correct, just not faster than the flat algorithms; the policy
 * only chooses these when the team spans hosts with several members on a host, but
 * {@code SHMEM_*_ALGORITHM=hierarchical} may force them anywhere.
 *
 * <h2>Protocol</h2>
 * Pull only: a PE writes nothing of a peer's but flags, and only its own sender line on the peer
 * ({@link CollectiveSupport#senderFlag}), whose stamps grow in program order, so "flag &gt;=
 * stamp" never misreads a line. Data is read from the peer's source or dest; the owner does not
 * return (or overwrite the dest) before every reader has acknowledged. Each algorithm ends with an
 * all-member dependency (no member leaves before every member has arrived), as
 * {@link CollectiveSupport} requires. No scratch is used: partial results live in the leaders' dests.
 *
 * <h2>Reduction order</h2>
 * Each leader combines its host's sources in team order; the hosts' partials are combined in host
 * order up a binomial tree of the hosts (host 0's partial op the partial of hosts 1, op that of
 * hosts 2-3, op that of 4-7, ...), so one leader computes the result and everyone copies it:
 * floating-point results are identical on every member (though associated differently from the
 * flat algorithms').
 *
 * <h2>Cost</h2>
 * With M members on the largest host and H hosts: the barrier costs a leader 2(M - 1) operations
 * within its host and ceil(log2 H) rounds of one signal across hosts; broadcast and reduction cost
 * a leader 3(M - 1) within its host and at most 3 per tree neighbour across hosts, of which it has
 * at most ceil(log2 H) + 1; a member costs 3 operations. Nothing is linear in H.
 */
final class HierarchicalAlgorithms {
    /** Bytes of peer data combined per step. */
    private static final long CHUNK = 16 << 10;

    // Steps of the stamps. Per (writer, reader) pair they only grow within a collective.
    private static final int UP = 1; // member -> leader: arrived (source ready)
    private static final int PARTIAL = 2; // leader -> parent leader: my subtree's partial is in my dest
    private static final int READ = 3; // leader -> parent leader: I have copied your result
    private static final int DOWN = 4; // leader -> members and child leaders: the result is in my dest
    private static final int DONE = 5; // member -> leader: I have copied it
    private static final int CROSS = 8; // leader -> leader: dissemination round r is CROSS + r
    private static final int RELEASE = 64; // leader -> members: the barrier is complete

    private static final int DATA = 1, ACK = 2, FREE = 3; // broadcast

    private HierarchicalAlgorithms() {
    }

    static final String NAME = "hierarchical";

    static final Algorithms.Barrier BARRIER = new Algorithms.Barrier() {
        @Override
        public String name() {
            return NAME;
        }

        /**
         * Members signal their leader; leaders run a dissemination barrier among themselves;
         * leaders release their members. Release/acquire along every edge makes each member's
         * earlier stores visible to every member after it.
         */
        @Override
        public void run(CollectiveSupport s) {
            long seq = s.begin();
            HostGroups g = s.hostGroups();
            int me = s.rank();
            int host = g.hostOf(me);
            int leader = g.leader(host);
            if (me != leader) {
                s.signal(leader, s.senderFlag(me), CollectiveSupport.stamp(seq, UP));
                s.await(s.senderFlag(leader), CollectiveSupport.stamp(seq, RELEASE));
                return;
            }
            int[] mine = g.members(host);
            for (int i = 1; i < mine.length; i++) {
                s.await(s.senderFlag(mine[i]), CollectiveSupport.stamp(seq, UP));
            }
            int k = g.hosts();
            for (int dist = 1, round = 0; dist < k; dist <<= 1, round++) {
                long stamp = CollectiveSupport.stamp(seq, CROSS + round);
                s.signal(g.leader((host + dist) % k), s.senderFlag(me), stamp);
                s.await(s.senderFlag(g.leader((host - dist + k) % k)), stamp);
            }
            long release = CollectiveSupport.stamp(seq, RELEASE);
            for (int i = 1; i < mine.length; i++) {
                s.signal(mine[i], s.senderFlag(me), release);
            }
        }
    };

    static final Algorithms.Broadcast BROADCAST = new Algorithms.Broadcast() {
        @Override
        public String name() {
            return NAME;
        }

        /**
         * The root copies its source to its dest; one representative per host (its leader, on the
         * root's host the root) pulls its parent's dest in a binomial tree of the hosts rooted at
         * the root's host, and every other member pulls its host's representative's dest.
         * Acknowledgements flow up the same tree to the root, which then frees everyone down it:
         * a representative talks to its members and to at most ceil(log2 H) other hosts.
         */
        @Override
        public void run(CollectiveSupport s, long dest, long source, long bytes, int root) {
            long seq = s.begin();
            HostGroups g = s.hostGroups();
            int me = s.rank();
            int host = g.hostOf(me);
            int rootHost = g.hostOf(root);
            int rep = host == rootHost ? root : g.leader(host);
            long data = CollectiveSupport.stamp(seq, DATA);
            long ack = CollectiveSupport.stamp(seq, ACK);
            long free = CollectiveSupport.stamp(seq, FREE);
            if (me != rep) {
                s.await(s.senderFlag(rep), data);
                s.peers().get(s.local(), dest, rep, dest, bytes);
                s.signal(rep, s.senderFlag(me), ack);
                s.await(s.senderFlag(rep), free);
                return;
            }
            int[] local = g.members(host);
            int k = g.hosts();
            int rel = Math.floorMod(host - rootHost, k);
            int span = rel == 0 ? Integer.MAX_VALUE : Integer.lowestOneBit(rel);
            int parent = rel == 0 ? -1 : representative(g, (rel - span + rootHost) % k, rootHost, root);
            if (parent < 0) {
                if (dest != source) {
                    MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
                }
            } else {
                s.await(s.senderFlag(parent), data);
                s.peers().get(s.local(), dest, parent, dest, bytes);
            }
            for (int d = 1; d < span && rel + d < k; d <<= 1) {
                s.signal(representative(g, (rel + d + rootHost) % k, rootHost, root), s.senderFlag(me), data);
            }
            signalOthers(s, local, me, data);
            for (int d = 1; d < span && rel + d < k; d <<= 1) {
                s.await(s.senderFlag(representative(g, (rel + d + rootHost) % k, rootHost, root)), ack);
            }
            awaitOthers(s, local, me, ack);
            if (parent >= 0) {
                s.signal(parent, s.senderFlag(me), ack);
                s.await(s.senderFlag(parent), free);
            }
            for (int d = 1; d < span && rel + d < k; d <<= 1) {
                s.signal(representative(g, (rel + d + rootHost) % k, rootHost, root), s.senderFlag(me), free);
            }
            signalOthers(s, local, me, free);
        }
    };

    /** The member of host {@code h} that receives a broadcast from {@code root} for its host. */
    private static int representative(HostGroups g, int h, int rootHost, int root) {
        return h == rootHost ? root : g.leader(h);
    }

    static final Algorithms.Reduce REDUCE = new Algorithms.Reduce() {
        @Override
        public String name() {
            return NAME;
        }

        /**
         * Leaders pull and combine their host's sources (team order); the leaders combine their
         * partials up a binomial tree of the hosts in host order (the leader of host h takes the
         * partials of hosts h + 1, h + 2..h + 3, h + 4..h + 7, ... below its lowest set bit, each
         * already combined by its own subtree), so host 0's leader holds the result, which flows
         * back down the tree; members copy their leader's result. A leader talks to its members and
         * to at most ceil(log2 H) + 1 other leaders.
         */
        @Override
        public void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count) {
            long seq = s.begin();
            HostGroups g = s.hostGroups();
            int me = s.rank();
            int host = g.hostOf(me);
            int leader = g.leader(host);
            long esz = kernel.layout().byteSize();
            long bytes = count * esz;
            if (me != leader) {
                s.signal(leader, s.senderFlag(me), CollectiveSupport.stamp(seq, UP));
                s.await(s.senderFlag(leader), CollectiveSupport.stamp(seq, DOWN));
                s.peers().get(s.local(), dest, leader, dest, bytes);
                s.signal(leader, s.senderFlag(me), CollectiveSupport.stamp(seq, DONE));
                return;
            }
            // a leader over the network pulls a child leader's partial in pieces a round trip each
            long chunk = s.reachesSomeoneByNetwork() ? ReduceAlgorithms.pieceBytes(s, kernel, bytes)
                    : ReduceAlgorithms.wholeElements(esz, CHUNK);
            MemorySegment buf = s.temp(bytes + chunk);
            int[] local = g.members(host);
            // 1. This host's partial, in team order (the leader is the lowest member).
            MemorySegment.copy(s.local(), source, buf, 0, bytes);
            for (int i = 1; i < local.length; i++) {
                s.await(s.senderFlag(local[i]), CollectiveSupport.stamp(seq, UP));
                combineFrom(s, kernel, buf, bytes, chunk, local[i], source);
            }
            // 2. The hosts' partials up the tree, in host order; the result back down.
            int k = g.hosts();
            int span = host == 0 ? Integer.MAX_VALUE : Integer.lowestOneBit(host);
            long partial = CollectiveSupport.stamp(seq, PARTIAL);
            long down = CollectiveSupport.stamp(seq, DOWN);
            long read = CollectiveSupport.stamp(seq, READ);
            for (int d = 1; d < span && host + d < k; d <<= 1) {
                int child = g.leader(host + d);
                s.await(s.senderFlag(child), partial);
                combineFrom(s, kernel, buf, bytes, chunk, child, dest);
            }
            if (host > 0) {
                int parent = g.leader(host - span);
                MemorySegment.copy(buf, 0, s.local(), dest, bytes);
                s.signal(parent, s.senderFlag(me), partial);
                s.await(s.senderFlag(parent), down); // the parent has read my partial and holds the result
                s.peers().get(s.local(), dest, parent, dest, bytes);
                s.signal(parent, s.senderFlag(me), read);
            } else {
                MemorySegment.copy(buf, 0, s.local(), dest, bytes);
            }
            // 3. The result, for the child leaders and this host's members to copy.
            for (int d = 1; d < span && host + d < k; d <<= 1) {
                s.signal(g.leader(host + d), s.senderFlag(me), down);
            }
            signalOthers(s, local, me, down);
            for (int d = 1; d < span && host + d < k; d <<= 1) {
                s.await(s.senderFlag(g.leader(host + d)), read);
            }
            awaitOthers(s, local, me, CollectiveSupport.stamp(seq, DONE));
        }
    };

    /** {@code buf[0, bytes) = buf op peer's [offset, offset + bytes)}, pulled in chunks after {@code bytes}. */
    private static void combineFrom(CollectiveSupport s, ReduceKernel kernel, MemorySegment buf, long bytes, long staging,
            int peer, long offset) {
        long esz = kernel.layout().byteSize();
        // a mapped member's data in small chunks, which stay in cache for the combine
        long chunk = s.peers().mapped(peer) ? Math.min(staging, ReduceAlgorithms.wholeElements(esz, CHUNK)) : staging;
        for (long off = 0; off < bytes; off += chunk) {
            long n = Math.min(chunk, bytes - off);
            s.peers().get(buf, bytes, peer, offset + off, n);
            kernel.combine(buf, off, buf, bytes, n / esz);
        }
    }

    static void signalOthers(CollectiveSupport s, int[] members, int me, long stamp) {
        for (int m : members) {
            if (m != me) {
                s.signal(m, s.senderFlag(me), stamp);
            }
        }
    }

    private static void awaitOthers(CollectiveSupport s, int[] members, int me, long stamp) {
        for (int m : members) {
            if (m != me) {
                s.await(s.senderFlag(m), stamp);
            }
        }
    }
}
