package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.util.function.LongUnaryOperator;

/**
 * The {@code push} algorithms: data travels as puts into the receivers' collective scratch,
 * each followed by a signal, for teams with members on other nodes. There a pull costs a round
 * trip and its acknowledgement another one-way trip, while a put and its signal cost one one-way
 * trip: a two-member all-reduce of one element is one exchange instead of three round trips.
 *
 * <p>Only what fits the scratch buffer of the collective's sequence number is pushed (every
 * writer has slots of its own there, so nothing waits for a receiver to make room); larger calls
 * run the pull algorithm named in each variant's description. The scratch buffers are safe by
 * {@link CollectiveSupport}'s rule: every member waits, directly or through its partners, for
 * data from every member (the broadcast's root: for every member to have entered the previous
 * collective). A member writes another member's dest only after that member said it entered the
 * call (before, it may still be serving the previous collective from it): {@code push_ring} and
 * the fcollect of blocks larger than the scratch.
 */
final class PushAlgorithms {
    static final String NAME = "push";

    private PushAlgorithms() {
    }

    /**
     * The reduction's slots fit the scratch: one per round among the hosts' leaders (and one for
     * the fold when their number is not a power of two), one per other member of a host, and one
     * for the result those members copy.
     */
    static boolean reduceFits(CollectiveSupport s, long bytes) {
        return reduceScratch(s, bytes) <= s.scratchBytes();
    }

    private static long reduceScratch(CollectiveSupport s, long bytes) {
        HostGroups g = s.hostGroups();
        int perHost = g.maxPerHost();
        return (rounds(g.hosts()) + (perHost > 1 ? perHost : 0)) * ReduceAlgorithms.roundUp(bytes);
    }

    static boolean broadcastFits(CollectiveSupport s, long bytes) {
        return bytes <= s.scratchBytes();
    }

    /** fcollect's blocks, one per member, fit the scratch. */
    static boolean fcollectFits(CollectiveSupport s, long bytes) {
        return bytes * s.size() <= s.scratchBytes();
    }

    /** alltoall's incoming blocks fit the scratch: a slot per other member (the receiver writes none to itself). */
    static boolean alltoallFits(CollectiveSupport s, long blockBytes) {
        return blockBytes * (s.size() - 1) <= s.scratchBytes();
    }

    private static int rounds(int n) {
        int p = Integer.highestOneBit(n);
        return Integer.numberOfTrailingZeros(p) + (n == p ? 0 : 1);
    }

    /**
     * Through one leader per host: every member puts its source into its host's leader's scratch
     * and signals; the leader combines its host's sources in team order (its own first: it is the
     * lowest), then the leaders run recursive doubling on those partials, and each leader lets its
     * members copy the result from its scratch. Recursive doubling: in round j partners
     * {@code h ^ 2^j} (host numbers) put their partials into each other's scratch slot j and
     * combine, lower group's operand first (identical bits on both). Non-powers of two fold the
     * first {@code 2(H - p)} leaders pairwise: the even one pushes its partial to the odd one and
     * receives the result in its own slot. So a reduction crosses the network ceil(log2 H) times
     * per leader and a team of one member per node is plain recursive doubling. Larger vectors:
     * {@code recursive_doubling}.
     */
    static final Algorithms.Reduce REDUCE = new Algorithms.Reduce() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void run(CollectiveSupport s, ReduceKernel k, long dest, long source, long count) {
            long bytes = count * k.layout().byteSize();
            if (!reduceFits(s, bytes)) {
                ReduceAlgorithms.RECURSIVE_DOUBLING.run(s, k, dest, source, count);
                return;
            }
            if (ReduceAlgorithms.trivial(s, dest, source, bytes)) {
                return;
            }
            long seq = s.begin(reduceScratch(s, bytes));
            HostGroups g = s.hostGroups();
            int r = s.rank();
            int host = g.hostOf(r);
            int[] onHost = g.members(host);
            long slot = ReduceAlgorithms.roundUp(bytes);
            long scratch = s.scratch(seq);
            long memberSlots = scratch + rounds(g.hosts()) * slot; // after the leaders' rounds
            long resultSlot = memberSlots + (g.maxPerHost() - 1) * slot;
            long st = CollectiveSupport.stamp(seq, 0);
            long done = CollectiveSupport.stamp(seq, ROUNDS_DONE);
            if (r != onHost[0]) {
                int i = java.util.Arrays.binarySearch(onHost, r); // members are in team order
                s.putSignal(onHost[0], memberSlots + (i - 1) * slot, s.local(), source, bytes, s.senderFlag(r), st);
                s.await(s.senderFlag(onHost[0]), done);
                s.peers().get(s.local(), dest, onHost[0], resultSlot, bytes);
                return;
            }
            MemorySegment res = s.temp(bytes);
            MemorySegment.copy(s.local(), source, res, 0, bytes);
            for (int i = 1; i < onHost.length; i++) {
                s.await(s.senderFlag(onHost[i]), st);
                k.combine(res, 0, s.local(), memberSlots + (i - 1) * slot, count);
            }
            acrossLeaders(s, k, g, res, count, scratch, slot, seq);
            if (onHost.length > 1) {
                MemorySegment.copy(res, 0, s.local(), resultSlot, bytes);
                HierarchicalAlgorithms.signalOthers(s, onHost, r, done);
            }
            MemorySegment.copy(res, 0, s.local(), dest, bytes);
        }
    };

    /**
     * Recursive doubling among the hosts' leaders (this PE leads its host): {@code res} goes in as
     * this host's partial and comes out as all of them combined, the same bits on every leader.
     */
    private static void acrossLeaders(CollectiveSupport s, ReduceKernel k, HostGroups g, MemorySegment res, long count,
            long scratch, long slot, long seq) {
        int me = s.rank();
        int h = g.hostOf(me);
        int hosts = g.hosts();
        int p = Integer.highestOneBit(hosts);
        int extra = hosts - p;
        long bytes = count * k.layout().byteSize();
        long foldSlot = scratch + (rounds(hosts) - 1) * slot; // past the rounds' slots
        if (h < 2 * extra && (h & 1) == 0) { // folded away: hand over the partial, await the result
            s.putSignal(g.leader(h + 1), foldSlot, res, 0, bytes, s.senderFlag(me), CollectiveSupport.stamp(seq, 0));
            s.await(s.senderFlag(g.leader(h + 1)), CollectiveSupport.stamp(seq, ROUNDS_DONE));
            MemorySegment.copy(s.local(), foldSlot, res, 0, bytes);
            return;
        }
        if (h < 2 * extra) { // the partner's partial first: host order
            s.await(s.senderFlag(g.leader(h - 1)), CollectiveSupport.stamp(seq, 0));
            k.combine(s.local(), foldSlot, res, 0, count);
            MemorySegment.copy(s.local(), foldSlot, res, 0, bytes);
        }
        int nh = h < 2 * extra ? h / 2 : h - extra;
        for (int j = 0, d = 1; d < p; j++, d <<= 1) {
            int partner = nh ^ d;
            int partnerLeader = g.leader(partner < extra ? 2 * partner + 1 : partner + extra);
            long mine = scratch + j * slot; // where the partner's operand lands here, and mine there
            long st = CollectiveSupport.stamp(seq, 1 + j);
            s.putSignal(partnerLeader, mine, res, 0, bytes, s.senderFlag(me), st);
            s.await(s.senderFlag(partnerLeader), st);
            if ((nh & d) == 0) {
                k.combine(res, 0, s.local(), mine, count);
            } else {
                k.combine(s.local(), mine, res, 0, count);
                MemorySegment.copy(s.local(), mine, res, 0, bytes);
            }
        }
        if (h < 2 * extra) {
            s.putSignal(g.leader(h - 1), foldSlot, res, 0, bytes, s.senderFlag(me),
                    CollectiveSupport.stamp(seq, ROUNDS_DONE));
        }
    }

    /**
     * Large reductions into a separate dest ({@code push_ring}): a ring reduce-scatter then a ring
     * allgather in which every step is a put with signal straight into the right neighbour's dest,
     * so each member sends 2(n - 1)/n of the vector as 2(n - 1) one-way messages and waits for no
     * round trip; the pull algorithms pay a get (a round trip served by the target's CPU over tcp)
     * and an acknowledgement per step. In reduce-scatter step g member r sends chunk r - g (its
     * source's in step 0, else the partial it finished in step g - 1) into the right neighbour's
     * dest, which adds its own source's chunk in place; member r ends it holding chunk r + 1, and
     * the allgather passes each finished chunk around once more. Each element is reduced once, so
     * every member ends with the same bits.
     *
     * <p>A member's dest is written only after it entered the call (it says so to its left
     * neighbour, the only writer, once per call): having returned from the previous collective,
     * nobody reads that dest any more. A slot holds a received partial from reduce-scatter step g
     * until the member forwards it in step g + 1; the allgather's write of that chunk comes after the
     * chunk went once around the ring, so after that forward (no acknowledgement needed). dest ==
     * source leaves no room to receive into: {@code rabenseifner}. The vector is not staged, so
     * any size runs. Chosen only when forced: over tcp the target's CPU carries a put as it carries
     * a get, and rabenseifner measured faster (docs/decisions/0041).
     */
    static final Algorithms.Reduce RING = new Algorithms.Reduce() {
        @Override
        public String name() {
            return "push_ring";
        }

        @Override
        public void run(CollectiveSupport s, ReduceKernel k, long dest, long source, long count) {
            if (dest == source) {
                ReduceAlgorithms.RABENSEIFNER.run(s, k, dest, source, count);
                return;
            }
            long esz = k.layout().byteSize();
            if (ReduceAlgorithms.trivial(s, dest, source, count * esz)) {
                return;
            }
            long seq = s.begin();
            int n = s.size();
            int r = s.rank();
            int left = (r + n - 1) % n;
            int right = (r + 1) % n;
            MemorySegment mem = s.local();
            s.signal(left, s.ackFlag(r), CollectiveSupport.stamp(seq, 0)); // entered: my dest may be written
            s.await(s.ackFlag(right), CollectiveSupport.stamp(seq, 0));
            for (int g = 0; g < n - 1; g++) {
                int c = Math.floorMod(r - g, n);
                long lo = c * count / n * esz;
                long from = (g == 0 ? source : dest) + lo;
                send(s, right, dest + lo, from, (c + 1) * count / n * esz - lo, CollectiveSupport.stamp(seq, 1 + g));
                int in = Math.floorMod(r - g - 1, n);
                long inLo = in * count / n;
                s.await(s.senderFlag(left), CollectiveSupport.stamp(seq, 1 + g));
                k.combine(mem, dest + inLo * esz, mem, source + inLo * esz, (in + 1) * count / n - inLo);
            }
            for (int h = 0; h < n - 1; h++) {
                int c = Math.floorMod(r + 1 - h, n);
                long lo = c * count / n * esz;
                send(s, right, dest + lo, dest + lo, (c + 1) * count / n * esz - lo, CollectiveSupport.stamp(seq, n + h));
                s.await(s.senderFlag(left), CollectiveSupport.stamp(seq, n + h));
            }
        }

        private static void send(CollectiveSupport s, int to, long at, long from, long bytes, long stamp) {
            if (bytes == 0) {
                s.signal(to, s.senderFlag(s.rank()), stamp);
            } else {
                s.putSignal(to, at, s.local(), from, bytes, s.senderFlag(s.rank()), stamp);
            }
        }
    };

    /** Step of a folded pair's result signal (above every round's step). */
    private static final int ROUNDS_DONE = 1 << 19;

    /**
     * The root puts the data into one member per other host (its representative, the host's
     * leader) and signals; every other member copies it from its host's representative (on the
     * root's host: the root, which first copies its source into its own scratch). So the data
     * crosses the network once per host, and within a host it is read from shared memory.
     *
     * <p>No member waits for this call's others. A member's parent (the root, or its host's
     * representative) writes its scratch of collective s only once the member entered s - slack
     * ({@link CollectiveSupport#slack()}, B - K - 1 for a ring of B scratch buffers of which a
     * collective stages up to K; s the last sequence number of the call, which takes one per buffer
     * it stages): members on the parent's host store their entry on every call, which costs a
     * store; a representative tells the root about every (slack / 2)-th broadcast how far its
     * whole host has come ({@link CollectiveSupport#announceHostEntry}: what its members stored,
     * waiting for them only when the root needs the word for this call). In a run of broadcasts from one root the
     * root so waits for nobody, the data goes one way, and only about every (slack / 2)-th call
     * sends anything back over the network, where waiting for every member to enter
     * this call cost a round trip and an "entered" per call cost each member a send. A member that
     * entered s - slack has left every earlier user of this collective's scratch buffers (its own,
     * and its representative's that it reads), and the root may return while a member is still
     * slack collectives behind, which is what {@link CollectiveSupport}'s rule leaves. Larger
     * messages: {@code linear}.
     */
    static final Algorithms.Broadcast BROADCAST = new Algorithms.Broadcast() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long bytes, int root) {
            if (!broadcastFits(s, bytes)) {
                LinearAlgorithms.BROADCAST.run(s, dest, source, bytes, root);
                return;
            }
            long seq = s.begin(bytes);
            long st = CollectiveSupport.stamp(seq, 0);
            long scratch = s.scratch(seq);
            HostGroups g = s.hostGroups();
            int me = s.rank();
            int rootHost = g.hostOf(root);
            int host = g.hostOf(me);
            int[] onHost = g.members(host);
            int rep = host == rootHost ? root : g.leader(host);
            MemorySegment mem = s.local();
            if (me == root) {
                // a team's first collective waits for everyone: the members' slots are then surely set up
                long entered = seq == 1 ? st : CollectiveSupport.stamp(Math.max(0, s.lastSeq() - s.slack()), 0);
                for (int h = 0; h < g.hosts(); h++) {
                    if (h != rootHost) {
                        s.await(s.ackFlag(g.leader(h)), entered);
                    }
                }
                awaitEntries(s, onHost, me, entered);
                if (onHost.length > 1) {
                    MemorySegment.copy(mem, source, mem, scratch, bytes);
                }
                for (int h = 0; h < g.hosts(); h++) {
                    if (h != rootHost) {
                        s.putSignal(g.leader(h), scratch, mem, source, bytes, s.senderFlag(root), st);
                    }
                }
                HierarchicalAlgorithms.signalOthers(s, onHost, me, st);
                MemorySegment.copy(mem, source, mem, dest, bytes);
            } else if (me == rep) {
                s.announceHostEntry(root, onHost, seq);
                s.await(s.senderFlag(root), st);
                HierarchicalAlgorithms.signalOthers(s, onHost, me, st);
                MemorySegment.copy(mem, scratch, mem, dest, bytes);
            } else {
                s.signal(rep, s.ackFlag(me), st);
                s.await(s.senderFlag(rep), st);
                s.peers().get(mem, dest, rep, scratch, bytes);
            }
        }
    };

    /** Puts the blocks of {@code members} (in team order) from this PE's {@code base} (scratch or dest) to the same place at {@code peer}, then signals. */
    private static void putHostBlocks(CollectiveSupport s, int peer, int[] members, long base, long bytes,
            long st) {
        for (int i = 0, j; i < members.length; i = j + 1) {
            j = i;
            while (j + 1 < members.length && members[j + 1] == members[j] + 1) {
                j++;
            }
            long at = base + members[i] * bytes;
            long len = (j - i + 1) * bytes;
            if (j == members.length - 1) {
                s.putSignal(peer, at, s.local(), at, len, s.senderFlag(s.rank()), st);
            } else {
                s.peers().put(peer, at, s.local(), at, len);
            }
        }
    }

    /** Waits until every member of {@code members} but this PE wrote {@code stamp} on its acknowledgement line here. */
    private static void awaitEntries(CollectiveSupport s, int[] members, int me, long stamp) {
        for (int m : members) {
            if (m != me) {
                s.await(s.ackFlag(m), stamp);
            }
        }
    }

    /**
     * fcollect through one leader per host: every member puts its block into its host's leader's
     * scratch (at the member's own slot) and signals; the leader, once its host's blocks are in,
     * puts them (one put per run of consecutive members) into every other leader's scratch and
     * signals; once every host's blocks are in, it lets its members copy the whole scratch to
     * their dest. So a block crosses the network once per other host, and a team of one member
     * per node sends each member's block to every other member directly. Every member waits for
     * data from every member. Blocks that do not fit the scratch go the same way into the leaders'
     * dest ({@link #intoLeadersDest}). collect (whose sizes the members learn only during the
     * call): {@code linear}.
     */
    static final Algorithms.Collect COLLECT = new Algorithms.Collect() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void fixed(CollectiveSupport s, long dest, long source, long bytes) {
            boolean fits = fcollectFits(s, bytes);
            long seq = fits ? s.begin(bytes * s.size()) : s.begin();
            HostGroups g = s.hostGroups();
            int[] onHost = g.members(g.hostOf(s.rank()));
            if (fits) {
                intoScratch(s, g, onHost, seq, dest, source, bytes);
            } else {
                intoLeadersDest(s, g, onHost, seq, dest, source, bytes);
            }
        }

        @Override
        public void variable(CollectiveSupport s, LongUnaryOperator dest, long source, long bytes) {
            LinearAlgorithms.COLLECT.variable(s, dest, source, bytes);
        }
    };

    /**
     * fcollect of blocks too large for the scratch, through the leaders' dest: each leader tells
     * the other leaders it entered (its dest may now be written: having returned from the previous
     * collective, nobody reads it), copies its host's blocks from its members' sources (shared
     * memory, once each member said it entered), puts them (one put per run of consecutive
     * members, the last with a signal) into every other leader's dest once that leader entered,
     * and when every host's blocks are in lets its members copy its whole dest; it returns once
     * they said they have. So a block crosses the network once per other host as in the scratch
     * form, for one more one-way word per pair of leaders (which overlaps the gathering), and any
     * size runs. Every member waits for data sent after every member entered the call.
     */
    private static void intoLeadersDest(CollectiveSupport s, HostGroups g, int[] onHost, long seq, long dest,
            long source, long bytes) {
        long entered = CollectiveSupport.stamp(seq, 0);
        long copied = CollectiveSupport.stamp(seq, 1);
        int r = s.rank();
        MemorySegment mem = s.local();
        if (r != onHost[0]) {
            s.signal(onHost[0], s.ackFlag(r), entered);
            s.await(s.senderFlag(onHost[0]), entered);
            s.peers().get(mem, dest, onHost[0], dest, s.size() * bytes);
            s.signal(onHost[0], s.ackFlag(r), copied);
            return;
        }
        int host = g.hostOf(r);
        for (int i = 1; i < g.hosts(); i++) {
            s.signal(g.leader((host + i) % g.hosts()), s.ackFlag(r), entered);
        }
        for (int m : onHost) {
            if (m == r) {
                MemorySegment.copy(mem, source, mem, dest + m * bytes, bytes);
            } else {
                s.await(s.ackFlag(m), entered);
                s.peers().get(mem, dest + m * bytes, m, source, bytes);
            }
        }
        exchangeAmongLeaders(s, g, onHost, dest, bytes, entered, true);
        HierarchicalAlgorithms.signalOthers(s, onHost, r, entered);
        awaitEntries(s, onHost, r, copied);
    }

    /**
     * fcollect through the leaders' scratch (the blocks fit it): members put their block into
     * their leader's scratch, leaders exchange their hosts' blocks, members copy the scratch.
     */
    private static void intoScratch(CollectiveSupport s, HostGroups g, int[] onHost, long seq, long dest, long source,
            long bytes) {
        long st = CollectiveSupport.stamp(seq, 0);
        long scratch = s.scratch(seq);
        int r = s.rank();
        MemorySegment mem = s.local();
        if (r != onHost[0]) {
            s.putSignal(onHost[0], scratch + r * bytes, mem, source, bytes, s.senderFlag(r), st);
            s.await(s.senderFlag(onHost[0]), st);
            s.peers().get(mem, dest, onHost[0], scratch, s.size() * bytes);
            return;
        }
        MemorySegment.copy(mem, source, mem, scratch + r * bytes, bytes);
        for (int m : onHost) {
            if (m != r) {
                s.await(s.senderFlag(m), st);
            }
        }
        exchangeAmongLeaders(s, g, onHost, scratch, bytes, st, false);
        HierarchicalAlgorithms.signalOthers(s, onHost, r, st);
        MemorySegment.copy(mem, scratch, mem, dest, s.size() * bytes);
    }

    /**
     * This leader puts its host's blocks at {@code base} to every other leader's {@code base}
     * (once that leader said it entered, when {@code awaitEntered}: the base is its dest), then
     * waits until every other leader's blocks are in.
     */
    private static void exchangeAmongLeaders(CollectiveSupport s, HostGroups g, int[] onHost, long base, long bytes,
            long st, boolean awaitEntered) {
        int host = g.hostOf(s.rank());
        int hosts = g.hosts();
        for (int i = 1; i < hosts; i++) { // starting with the next host spreads the load
            int to = g.leader((host + i) % hosts);
            if (awaitEntered) {
                s.await(s.ackFlag(to), st);
            }
            putHostBlocks(s, to, onHost, base, bytes, st);
        }
        for (int i = 1; i < hosts; i++) {
            s.await(s.senderFlag(g.leader((host + hosts - i) % hosts)), st);
        }
    }

    /**
     * alltoall(s): every member puts its block for each other member into that member's scratch,
     * in the writer's slot (the other members in team order, the receiver left out), and signals:
     * one message per peer, no acknowledgement. Each member copies its own block, then every other
     * member's as it arrives, to its dest; so it waits for data from every member, sent after that
     * member entered the call. Strided blocks are packed before they leave and unpacked from the
     * slot. Blocks whose slots do not fit the scratch: into the receivers' dest
     * ({@link #alltoallIntoDest}) when dense and {@linkplain #oneWay one-way}, else {@code pairwise}.
     */
    static final Algorithms.Alltoall ALLTOALL = new Algorithms.Alltoall() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long blockBytes, long destStride, long sourceStride,
                long elementBytes) {
            if (!alltoallFits(s, blockBytes)) {
                if (oneWay(s, blockBytes) && destStride == elementBytes && sourceStride == elementBytes) {
                    alltoallIntoDest(s, dest, source, blockBytes);
                } else {
                    AlltoallAlgorithms.PAIRWISE.run(s, dest, source, blockBytes, destStride, sourceStride, elementBytes);
                }
                return;
            }
            long seq = s.begin(blockBytes * (s.size() - 1));
            long st = CollectiveSupport.stamp(seq, 0);
            long scratch = s.scratch(seq);
            int n = s.size();
            int r = s.rank();
            long elements = blockBytes / elementBytes;
            MemorySegment mem = s.local();
            boolean contiguous = sourceStride == elementBytes;
            MemorySegment packed = contiguous ? mem : s.temp(blockBytes);
            for (int i = 1; i < n; i++) { // starting with the next member spreads the load
                int m = (r + i) % n;
                long from = source + m * elements * sourceStride;
                if (!contiguous) {
                    copy(mem, from, sourceStride, packed, 0, elementBytes, elements, elementBytes);
                }
                long slot = scratch + (r < m ? r : r - 1) * blockBytes;
                s.putSignal(m, slot, packed, contiguous ? from : 0, blockBytes, s.senderFlag(r), st);
            }
            copy(mem, source + r * elements * sourceStride, sourceStride, mem, dest + r * elements * destStride, destStride,
                    elements, elementBytes);
            for (int i = 1; i < n; i++) { // the member that sent here first
                int m = (r + n - i) % n;
                s.await(s.senderFlag(m), st);
                copy(mem, scratch + (m < r ? m : m - 1) * blockBytes, elementBytes, mem, dest + m * elements * destStride,
                        destStride, elements, elementBytes);
            }
        }
    };

    /**
     * A put with signal of {@code bytes} to a member on another node needs no round trip before its
     * signal ({@link PeerAccess#oneWayPutSignalBytes}; UCX over tcp: up to 32 KiB, in messages ahead
     * of the signal; with an RDMA device up to 8 KiB; a larger put is flushed first), so an algorithm
     * that puts blocks this large straight into the receivers' dest waits for no answer per block.
     */
    static boolean oneWay(CollectiveSupport s, long bytes) {
        return bytes <= s.peers().oneWayPutSignalBytes();
    }

    /**
     * alltoall of dense blocks too large for the scratch: every member tells every other it
     * entered (its dest may now be written), then puts each member's block with a signal into
     * that member's dest once it entered, and copies its own; it returns once every member's block
     * arrived, each sent after its sender entered. One word and one message per pair, no round
     * trip, where pairwise pays a get and an acknowledgement per pair.
     */
    private static void alltoallIntoDest(CollectiveSupport s, long dest, long source, long blockBytes) {
        long seq = s.begin();
        long entered = CollectiveSupport.stamp(seq, 0);
        int n = s.size();
        int r = s.rank();
        MemorySegment mem = s.local();
        for (int i = 1; i < n; i++) {
            s.signal((r + i) % n, s.ackFlag(r), entered);
        }
        MemorySegment.copy(mem, source + r * blockBytes, mem, dest + r * blockBytes, blockBytes);
        for (int i = 1; i < n; i++) { // starting with the next member spreads the load
            int m = (r + i) % n;
            s.await(s.ackFlag(m), entered);
            s.putSignal(m, dest + r * blockBytes, mem, source + m * blockBytes, blockBytes, s.senderFlag(r), entered);
        }
        for (int i = 1; i < n; i++) {
            s.await(s.senderFlag((r + n - i) % n), entered);
        }
    }

    /** Copies {@code elements} elements from one stride to another, in one piece where both are dense. */
    private static void copy(MemorySegment from, long fromOffset, long fromStride, MemorySegment to, long toOffset,
            long toStride, long elements, long elementBytes) {
        if (fromStride == elementBytes && toStride == elementBytes) {
            MemorySegment.copy(from, fromOffset, to, toOffset, elements * elementBytes);
            return;
        }
        for (long e = 0; e < elements; e++) {
            MemorySegment.copy(from, fromOffset + e * fromStride, to, toOffset + e * toStride, elementBytes);
        }
    }
}
