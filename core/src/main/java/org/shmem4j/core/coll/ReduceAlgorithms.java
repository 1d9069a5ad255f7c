package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * The logarithmic and bandwidth-optimal all-reduce algorithms: {@code tree}, {@code
 * recursive_doubling}, {@code ring} and {@code rabenseifner}.
 *
 * <h2>Data movement</h2>
 * No algorithm here stages data through the 16 KiB scratch buffer, so message size is unlimited.
 * Each participating member first copies its source into its own dest (unless they coincide) and
 * from then on keeps its partial result in its dest; partners <em>pull</em> from that dest with
 * {@link PeerAccess#get} once its owner has signalled that the range is ready, and acknowledge
 * when they have read it. A member only ever writes its own dest (and private {@link
 * CollectiveSupport#temp temporaries}), and overwrites a range of its dest only once every partner
 * that may read the range's previous contents has acknowledged. A member returns only when every
 * partner has finished reading its dest and source.
 *
 * <h2>Flags</h2>
 * Only the sender and acknowledgement lines are used: member {@code j}'s "ready for step x"
 * signals go to {@code senderFlag(j)} and its "I have read step x" signals to {@code ackFlag(j)}
 * on the partner. Those lines have a single writer for a team's whole lifetime, and its values
 * increase monotonically in its program order, so a later collective's signal can only arrive
 * after every signal of the current one.
 *
 * <h2>Identical results</h2>
 * Every member ends with the same bits, also for floating-point and for MAX/MIN (which are not
 * commutative on signed zeros): ring and rabenseifner reduce each element exactly once and
 * distribute it; tree reduces to member 0 and distributes; recursive doubling always combines
 * the lower group's operand first, so both partners compute the same value.
 *
 * <h2>Non-powers of two</h2>
 * recursive_doubling and rabenseifner fold the first {@code 2 * (n - p)} members pairwise ({@code p}
 * the largest power of two at most {@code n}): the even member of each pair hands its source to
 * the odd one and waits; at the end it pulls the odd member's result.
 *
 * <p>A zero-length reduction does nothing (every member sees the same count, so the collective
 * sequence numbers stay aligned). Every algorithm ends only after all members entered it (their
 * data is part of the result), the all-member dependency {@link CollectiveSupport} relies on.
 */
final class ReduceAlgorithms {
    /** Bytes of a peer's data staged privately per combine step (a team on one node). */
    static final long PIECE = 64 << 10;
    /**
     * The same in a team that reaches members over the network, where each piece from a remote
     * member costs a round trip: at 2 PEs on 2 pseudo-nodes (UCX over tcp), rabenseifner's reduce
     * of 65,536 longs fetched its 256 KiB half as four gets of 64 KiB in 330-430 us and the
     * allgather's 256 KiB as one in 170-250; in five interleaved pairs of runs, pieces of 256 KiB
     * made the whole reduce faster in five (median 806 -> 667 us). A team's staging buffer grows
     * to this size only once it reduces this much.
     */
    static final long NETWORK_PIECE = 256 << 10;
    /** Step of the fold-out signals (above every round step). */
    private static final int FOLD_OUT = 1 << 19;

    private ReduceAlgorithms() {
    }

    // ------------------------------------------------------------------ helpers

    /** Handles n == 1 and empty reductions; true when nothing is left to do. */
    static boolean trivial(CollectiveSupport s, long dest, long source, long bytes) {
        if (bytes == 0) {
            return true;
        }
        if (s.size() == 1) {
            if (dest != source) {
                MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
            }
            return true;
        }
        return false;
    }

    /** Bytes of the private staging piece for this kernel and team (a whole number of elements). */
    static long pieceBytes(CollectiveSupport s, ReduceKernel k, long bytes) {
        long esz = k.layout().byteSize();
        return Math.min(bytes, wholeElements(esz, s.reachesSomeoneByNetwork() ? NETWORK_PIECE : PIECE));
    }

    /** {@code bytes} rounded down to whole elements of {@code esz} bytes, at least one. */
    static long wholeElements(long esz, long bytes) {
        return Math.max(esz, bytes / esz * esz);
    }

    static long roundUp(long v) {
        return (v + 63) & ~63L;
    }

    /** {@code local[localOff..] = peer[peerOff..] op local[localOff..]} for {@code elems} elements. */
    static void theirsOpMine(CollectiveSupport s, ReduceKernel k, int peer, long peerOff, long localOff, long elems,
            MemorySegment t) {
        long esz = k.layout().byteSize();
        long per = t.byteSize() / esz;
        for (long i = 0; i < elems; i += per) {
            long n = Math.min(per, elems - i);
            s.peers().get(t, 0, peer, peerOff + i * esz, n * esz);
            k.combine(t, 0, s.local(), localOff + i * esz, n);
            MemorySegment.copy(t, 0, s.local(), localOff + i * esz, n * esz);
        }
    }

    /** {@code local[localOff..] = local[localOff..] op peer[peerOff..]} for {@code elems} elements. */
    static void mineOpTheirs(CollectiveSupport s, ReduceKernel k, int peer, long peerOff, long localOff, long elems,
            MemorySegment t) {
        long esz = k.layout().byteSize();
        long per = t.byteSize() / esz;
        for (long i = 0; i < elems; i += per) {
            long n = Math.min(per, elems - i);
            s.peers().get(t, 0, peer, peerOff + i * esz, n * esz);
            k.combine(s.local(), localOff + i * esz, t, 0, n);
        }
    }

    /** Number of members folded away: {@code n - p}, {@code p} the largest power of two at most {@code n}. */
    private static int extra(int n) {
        return n - Integer.highestOneBit(n);
    }

    /** Team number of the participant with number {@code nr} among the p participants. */
    static int realRank(int nr, int extra) {
        return nr < extra ? 2 * nr + 1 : nr + extra;
    }

    /**
     * The fold-in: participants copy their source to dest; the odd member of each folded pair
     * combines its partner's source into it. Returns this member's participant number, or -1 for
     * a member folded away.
     */
    private static int foldIn(CollectiveSupport s, ReduceKernel k, long seq, long dest, long source, long count,
            MemorySegment t) {
        int r = s.rank();
        int extra = extra(s.size());
        if (r < 2 * extra && (r & 1) == 0) {
            s.signal(r + 1, s.senderFlag(r), CollectiveSupport.stamp(seq, 0)); // my source is ready
            return -1;
        }
        if (dest != source) {
            MemorySegment.copy(s.local(), source, s.local(), dest, count * k.layout().byteSize());
        }
        if (r < 2 * extra) {
            s.await(s.senderFlag(r - 1), CollectiveSupport.stamp(seq, 0));
            theirsOpMine(s, k, r - 1, source, dest, count, t);
            return r / 2;
        }
        return r - extra;
    }

    /** The fold-out: the member folded away pulls its partner's result; the partner waits for that. */
    private static void foldOut(CollectiveSupport s, long seq, long dest, long bytes) {
        int r = s.rank();
        int extra = extra(s.size());
        if (r >= 2 * extra) {
            return;
        }
        long st = CollectiveSupport.stamp(seq, FOLD_OUT);
        if ((r & 1) == 0) {
            s.await(s.senderFlag(r + 1), st);
            s.peers().get(s.local(), dest, r + 1, dest, bytes);
            s.signal(r + 1, s.ackFlag(r), st);
        } else {
            s.signal(r - 1, s.senderFlag(r), st);
            s.await(s.ackFlag(r - 1), st);
        }
    }

    private abstract static class Base implements Algorithms.Reduce {
        private final String name;

        Base(String name) {
            this.name = name;
        }

        @Override
        public final String name() {
            return name;
        }

        @Override
        public final void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count) {
            long bytes = count * kernel.layout().byteSize();
            if (trivial(s, dest, source, bytes)) {
                return;
            }
            reduce(s, kernel, dest, source, count, bytes, s.begin());
        }

        abstract void reduce(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, long bytes,
                long seq);
    }

    // ------------------------------------------------------------------ tree

    /**
     * Binomial reduction to member 0 (member r combines its children r + 1, r + 2, r + 4, ... below
     * its lowest set bit, in that order, so the result is in team order), then a binomial
     * broadcast of the result down the same tree. 2 log n steps, each moving the whole vector.
     */
    static final Algorithms.Reduce TREE = new Base("tree") {
        @Override
        void reduce(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, long bytes, long seq) {
            int r = s.rank();
            int n = s.size();
            MemorySegment t = s.temp(pieceBytes(s, k, bytes));
            if (dest != source) {
                MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
            }
            int span = r == 0 ? Integer.MAX_VALUE : Integer.lowestOneBit(r);
            long ready = CollectiveSupport.stamp(seq, 0);
            long done = CollectiveSupport.stamp(seq, 1);
            for (int d = 1; d < span && r + d < n; d <<= 1) {
                s.await(s.senderFlag(r + d), ready);
                mineOpTheirs(s, k, r + d, dest, dest, count, t);
            }
            if (r > 0) {
                int parent = r - span;
                s.signal(parent, s.senderFlag(r), ready);
                s.await(s.senderFlag(parent), done);
                s.peers().get(s.local(), dest, parent, dest, bytes);
                s.signal(parent, s.ackFlag(r), done);
            }
            for (int d = 1; d < span && r + d < n; d <<= 1) {
                s.signal(r + d, s.senderFlag(r), done);
            }
            for (int d = 1; d < span && r + d < n; d <<= 1) {
                s.await(s.ackFlag(r + d), done);
            }
        }
    };

    // ------------------------------------------------------------------ recursive doubling

    /**
     * log2 p rounds in which partners {@code nr ^ 2^j} exchange their whole partial results; both
     * compute lower-group operand op higher-group operand, so results agree bit for bit.
     */
    static final Algorithms.Reduce RECURSIVE_DOUBLING = new Base("recursive_doubling") {
        @Override
        void reduce(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, long bytes, long seq) {
            int me = s.rank();
            int p = Integer.highestOneBit(s.size());
            int extra = s.size() - p;
            long piece = pieceBytes(s, k, bytes);
            long rBytes = roundUp(bytes);
            MemorySegment buf = s.temp(rBytes + piece);
            MemorySegment res = buf.asSlice(0, bytes);
            MemorySegment t = buf.asSlice(rBytes, piece);
            long esz = k.layout().byteSize();
            int nr = foldIn(s, k, seq, dest, source, count, t);
            if (nr >= 0) {
                for (int j = 0, d = 1; d < p; j++, d <<= 1) {
                    int partner = realRank(nr ^ d, extra);
                    long st = CollectiveSupport.stamp(seq, 1 + j);
                    s.signal(partner, s.senderFlag(me), st);
                    s.await(s.senderFlag(partner), st);
                    if ((nr & d) == 0) {
                        MemorySegment.copy(s.local(), dest, res, 0, bytes);
                        long per = piece / esz;
                        for (long i = 0; i < count; i += per) {
                            long m = Math.min(per, count - i);
                            s.peers().get(t, 0, partner, dest + i * esz, m * esz);
                            k.combine(res, i * esz, t, 0, m);
                        }
                    } else {
                        s.peers().get(res, 0, partner, dest, bytes);
                        k.combine(res, 0, s.local(), dest, count);
                    }
                    s.signal(partner, s.ackFlag(me), st);
                    s.await(s.ackFlag(partner), st); // the partner no longer reads my dest
                    MemorySegment.copy(res, 0, s.local(), dest, bytes);
                }
            }
            foldOut(s, seq, dest, bytes);
        }
    };

    // ------------------------------------------------------------------ ring

    /**
     * Reduce-scatter around the ring in n - 1 steps on n chunks (member r finishes chunk r + 1),
     * then a ring allgather in n - 1 steps. Step g of member r reads what its left neighbour
     * wrote in step g - 1; before the allgather overwrites a chunk, the right neighbour has
     * acknowledged reading its previous contents.
     */
    static final Algorithms.Reduce RING = new Base("ring") {
        @Override
        void reduce(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, long bytes, long seq) {
            int n = s.size();
            int r = s.rank();
            int left = (r + n - 1) % n;
            int right = (r + 1) % n;
            long esz = k.layout().byteSize();
            MemorySegment t = s.temp(pieceBytes(s, k, bytes));
            if (dest != source) {
                MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
            }
            s.signal(right, s.senderFlag(r), CollectiveSupport.stamp(seq, 0));
            int last = 2 * n - 3;
            for (int g = 0; g <= last; g++) {
                s.await(s.senderFlag(left), CollectiveSupport.stamp(seq, g));
                if (g <= n - 2) {
                    int c = Math.floorMod(r - g - 1, n);
                    long lo = c * count / n;
                    long hi = (c + 1) * count / n;
                    theirsOpMine(s, k, left, dest + lo * esz, dest + lo * esz, hi - lo, t);
                } else {
                    int step = g - (n - 1);
                    int c = Math.floorMod(r - step, n);
                    long lo = c * count / n;
                    long hi = (c + 1) * count / n;
                    // the right neighbour read this chunk's previous contents in its step `step`
                    s.await(s.ackFlag(right), CollectiveSupport.stamp(seq, step));
                    s.peers().get(s.local(), dest + lo * esz, left, dest + lo * esz, (hi - lo) * esz);
                }
                s.signal(left, s.ackFlag(r), CollectiveSupport.stamp(seq, g));
                if (g < last) {
                    s.signal(right, s.senderFlag(r), CollectiveSupport.stamp(seq, g + 1));
                }
            }
            s.await(s.ackFlag(right), CollectiveSupport.stamp(seq, last));
        }
    };

    // ------------------------------------------------------------------ rabenseifner

    /**
     * Recursive-halving reduce-scatter (partners at each distance 1, 2, ..., p/2 once, in the order
     * of {@link HostGroups#halvingOrder}: on a host first, so the rounds that move the most stay in
     * shared memory; each keeps half of its current range, the lower member the lower half) then
     * recursive-doubling allgather in the reverse order, after the fold-in of non-power-of-two
     * teams. Partners of a round agree on every earlier round's choice (they differ only in the bit
     * of this one), so they halve the same range, and the final ranges are disjoint.
     */
    static final Algorithms.Reduce RABENSEIFNER = new Base("rabenseifner") {
        @Override
        void reduce(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, long bytes, long seq) {
            int me = s.rank();
            int p = Integer.highestOneBit(s.size());
            int extra = s.size() - p;
            long esz = k.layout().byteSize();
            MemorySegment t = s.temp(pieceBytes(s, k, bytes));
            int nr = foldIn(s, k, seq, dest, source, count, t);
            if (nr >= 0) {
                int rounds = Integer.numberOfTrailingZeros(p);
                int[] distance = s.hostGroups().halvingOrder();
                long[] los = new long[rounds];
                long[] his = new long[rounds];
                long lo = 0;
                long hi = count;
                for (int i = 0; i < rounds; i++) {
                    int d = distance[i];
                    int partner = realRank(nr ^ d, extra);
                    los[i] = lo;
                    his[i] = hi;
                    long mid = lo + (hi - lo) / 2;
                    long st = CollectiveSupport.stamp(seq, 1 + i);
                    s.signal(partner, s.senderFlag(me), st);
                    s.await(s.senderFlag(partner), st);
                    // the partner reads the other half, which this member leaves alone until the allgather
                    if ((nr & d) == 0) {
                        hi = mid;
                        mineOpTheirs(s, k, partner, dest + lo * esz, dest + lo * esz, hi - lo, t);
                    } else {
                        lo = mid;
                        theirsOpMine(s, k, partner, dest + lo * esz, dest + lo * esz, hi - lo, t);
                    }
                }
                for (int j = 0; j < rounds; j++) {
                    int i = rounds - 1 - j;
                    int d = distance[i];
                    int partner = realRank(nr ^ d, extra);
                    long st = CollectiveSupport.stamp(seq, 64 + j);
                    // the partner's signal also says it finished reading in reduce-scatter round i
                    s.signal(partner, s.senderFlag(me), st);
                    s.await(s.senderFlag(partner), st);
                    long mid = los[i] + (his[i] - los[i]) / 2;
                    long plo = (nr & d) == 0 ? mid : los[i];
                    long phi = (nr & d) == 0 ? his[i] : mid;
                    s.peers().get(s.local(), dest + plo * esz, partner, dest + plo * esz, (phi - plo) * esz);
                    s.signal(partner, s.ackFlag(me), st);
                }
                for (int j = 0; j < rounds; j++) {
                    int d = distance[rounds - 1 - j];
                    s.await(s.ackFlag(realRank(nr ^ d, extra)), CollectiveSupport.stamp(seq, 64 + j));
                }
            }
            foldOut(s, seq, dest, bytes);
        }
    };
}
