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
 * Each leader combines its host's sources in team order; every leader then combines the hosts'
 * partials in host order (host 0's partial op host 1's op ...), so all leaders compute the same
 * bits, and members copy their leader's result: floating-point results are identical on every
 * member (though associated differently from the flat algorithms').
 */
final class HierarchicalAlgorithms {
    /** Bytes of peer data combined per step. */
    private static final long CHUNK = 16 << 10;

    // Steps of the stamps. Per (writer, reader) pair they only grow within a collective.
    private static final int UP = 1; // member -> leader: arrived (source ready)
    private static final int PARTIAL = 2; // leader -> leaders: my host's partial is in my dest
    private static final int READ = 3; // leader -> leaders: I have read your partial
    private static final int DOWN = 4; // leader -> members: the result is in my dest
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
         * The root copies its source to its dest; one representative per other host (its leader)
         * pulls the root's dest; every other member pulls its host's representative's dest (on the
         * root's host, the root is the representative). Acknowledgements flow back to the root,
         * which then frees everyone.
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
            int[] local = g.members(host);
            if (me == root) {
                if (dest != source) {
                    MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
                }
                for (int h = 0; h < g.hosts(); h++) {
                    if (h != host) {
                        s.signal(g.leader(h), s.senderFlag(me), data);
                    }
                }
                signalOthers(s, local, me, data);
                for (int h = 0; h < g.hosts(); h++) {
                    if (h != host) {
                        s.await(s.senderFlag(g.leader(h)), ack);
                    }
                }
                awaitOthers(s, local, me, ack);
                for (int h = 0; h < g.hosts(); h++) {
                    if (h != host) {
                        s.signal(g.leader(h), s.senderFlag(me), free);
                    }
                }
                signalOthers(s, local, me, free);
            } else if (me == rep) {
                s.await(s.senderFlag(root), data);
                s.peers().get(s.local(), dest, root, dest, bytes);
                signalOthers(s, local, me, data);
                awaitOthers(s, local, me, ack);
                s.signal(root, s.senderFlag(me), ack);
                s.await(s.senderFlag(root), free);
                signalOthers(s, local, me, free);
            } else {
                s.await(s.senderFlag(rep), data);
                s.peers().get(s.local(), dest, rep, dest, bytes);
                s.signal(rep, s.senderFlag(me), ack);
                s.await(s.senderFlag(rep), free);
            }
        }
    };

    static final Algorithms.Reduce REDUCE = new Algorithms.Reduce() {
        @Override
        public String name() {
            return NAME;
        }

        /**
         * Leaders pull and combine their host's sources (team order) and leave the partial in
         * their dest; each leader combines all partials in host order; members copy their leader's
         * result.
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
            long chunk = Math.max(esz, CHUNK / esz * esz);
            MemorySegment buf = s.temp(bytes + chunk);
            int[] local = g.members(host);
            // 1. This host's partial, in team order (the leader is the lowest member).
            MemorySegment.copy(s.local(), source, buf, 0, bytes);
            for (int i = 1; i < local.length; i++) {
                s.await(s.senderFlag(local[i]), CollectiveSupport.stamp(seq, UP));
                combineFrom(s, kernel, buf, bytes, chunk, local[i], source);
            }
            int k = g.hosts();
            if (k > 1) {
                // 2. Partials across hosts, combined in host order by every leader alike.
                MemorySegment.copy(buf, 0, s.local(), dest, bytes);
                long partial = CollectiveSupport.stamp(seq, PARTIAL);
                for (int h = 0; h < k; h++) {
                    if (h != host) {
                        s.signal(g.leader(h), s.senderFlag(me), partial);
                    }
                }
                for (int h = 0; h < k; h++) {
                    if (h == host) {
                        if (h == 0) {
                            continue; // buf already holds it
                        }
                        kernel.combine(buf, 0, s.local(), dest, count);
                        continue;
                    }
                    int other = g.leader(h);
                    s.await(s.senderFlag(other), partial);
                    if (h == 0) {
                        s.peers().get(buf, 0, other, dest, bytes);
                    } else {
                        combineFrom(s, kernel, buf, bytes, chunk, other, dest);
                    }
                }
                long read = CollectiveSupport.stamp(seq, READ);
                for (int h = 0; h < k; h++) {
                    if (h != host) {
                        s.signal(g.leader(h), s.senderFlag(me), read);
                    }
                }
                for (int h = 0; h < k; h++) {
                    if (h != host) {
                        s.await(s.senderFlag(g.leader(h)), read); // nobody reads my partial any more
                    }
                }
            }
            // 3. The result, for this host's members to copy.
            MemorySegment.copy(buf, 0, s.local(), dest, bytes);
            signalOthers(s, local, me, CollectiveSupport.stamp(seq, DOWN));
            awaitOthers(s, local, me, CollectiveSupport.stamp(seq, DONE));
        }
    };

    /** {@code buf[0, bytes) = buf op peer's [offset, offset + bytes)}, pulled in chunks after {@code bytes}. */
    private static void combineFrom(CollectiveSupport s, ReduceKernel kernel, MemorySegment buf, long bytes, long chunk,
            int peer, long offset) {
        long esz = kernel.layout().byteSize();
        for (long off = 0; off < bytes; off += chunk) {
            long n = Math.min(chunk, bytes - off);
            s.peers().get(buf, bytes, peer, offset + off, n);
            kernel.combine(buf, off, buf, bytes, n / esz);
        }
    }

    private static void signalOthers(CollectiveSupport s, int[] members, int me, long stamp) {
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
