package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntToLongFunction;
import java.util.function.LongUnaryOperator;

/**
 * Collect / fcollect algorithms besides {@code linear}. Each is an allgather of n blocks, block j
 * being member j's contribution, written by pulls from the members' dests (never their sources,
 * which only their owners read). For {@code collect} the block sizes are first allgathered the
 * same way (one 8-byte block per member: {@link CollectiveSupport#collectSizes}), then the data.
 * Every member returns only after it holds every block (so every member entered) and after the
 * members that read its dest acknowledged (so its dest is not read after it returned).
 */
final class CollectAlgorithms {
    private CollectAlgorithms() {
    }

    /** An allgather pattern over a block layout in a symmetric buffer. */
    private abstract static class Allgather implements Algorithms.Collect {
        private final String name;

        Allgather(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        /** Whether blocks are kept rotated (position q = block {@code me + q}) during the exchange. */
        abstract boolean rotated();

        /**
         * Completes the allgather of blocks {@code [pre(j), pre(j + 1))} (offsets from {@code base};
         * for a rotated layout, {@code pre} is the rotated prefix) once this member's own block is
         * in place. Stamps use steps from {@code stepBase}; with {@code ack}, returns only after
         * every reader of this member's buffer acknowledged.
         */
        abstract void exchange(CollectiveSupport s, long seq, int stepBase, long base, IntToLongFunction pre, boolean ack);

        /** fcollect: blocks of equal size, so positions are products and nothing per member is allocated. */
        @Override
        public void fixed(CollectiveSupport s, long dest, long source, long bytes) {
            long seq = s.begin();
            int n = s.size();
            int me = s.rank();
            data(s, seq, 0, dest, source, bytes, q -> q * bytes, me * bytes, n * bytes);
        }

        @Override
        public void variable(CollectiveSupport s, LongUnaryOperator dest, long source, long bytes) {
            int n = s.size();
            long seq = s.beginCollect();
            int me = s.rank();
            long sizes = s.collectSizes(seq);
            // the sizes: an allgather of one 8-byte block per member
            s.local().set(ValueLayout.JAVA_LONG, sizes + (rotated() ? 0 : 8L * me), bytes);
            exchange(s, seq, 0, sizes, q -> 8L * q, false);
            // prefix of the data blocks (in team order, or rotated as the sizes lie), in private memory
            MemorySegment pre = s.temp(8L * (n + 1));
            long total = 0;
            long head = 0; // bytes of members 0..me-1
            for (int q = 0; q < n; q++) {
                pre.set(ValueLayout.JAVA_LONG, 8L * q, total);
                long size = s.local().get(ValueLayout.JAVA_LONG, sizes + 8L * q);
                total += size;
                if (rotated() ? q >= n - me : q < me) {
                    head += size;
                }
            }
            pre.set(ValueLayout.JAVA_LONG, 8L * n, total);
            long d = dest.applyAsLong(total);
            data(s, seq, n + 2, d, source, bytes, q -> pre.get(ValueLayout.JAVA_LONG, 8L * q), head, total);
        }

        /**
         * The data: this member's block ({@code own} bytes) to its place, the exchange, and for a
         * rotated layout the rotation into team order ({@code head}: bytes of members 0..me-1).
         */
        private void data(CollectiveSupport s, long seq, int stepBase, long dest, long source, long own,
                IntToLongFunction pre, long head, long total) {
            int me = s.rank();
            MemorySegment.copy(s.local(), source, s.local(), dest + (rotated() ? 0 : head), own);
            exchange(s, seq, stepBase, dest, pre, true);
            if (rotated() && me != 0) {
                // position q holds block me + q: blocks me..n-1 come first, then 0..me-1. The
                // temporary lies past the prefix that variable keeps at the start of temp.
                long at = ReduceAlgorithms.roundUp(8L * (s.size() + 1));
                MemorySegment tmp = s.temp(at + total).asSlice(at, total);
                MemorySegment.copy(s.local(), dest, tmp, 0, total);
                MemorySegment.copy(tmp, 0, s.local(), dest + head, total - head);
                MemorySegment.copy(tmp, total - head, s.local(), dest, head);
            }
        }
    }

    /**
     * Ring: in step k (1..n-1) member i pulls block {@code i - k} from its left neighbour, which
     * signalled step k once it held that block; finally it acknowledges to the left neighbour and
     * waits for the right neighbour's acknowledgement.
     */
    static final Algorithms.Collect RING = new Allgather("ring") {
        @Override
        boolean rotated() {
            return false;
        }

        @Override
        void exchange(CollectiveSupport s, long seq, int stepBase, long base, IntToLongFunction pre, boolean ack) {
            int n = s.size();
            int me = s.rank();
            if (n == 1) {
                return;
            }
            int left = (me + n - 1) % n;
            int right = (me + 1) % n;
            s.signal(right, s.senderFlag(me), CollectiveSupport.stamp(seq, stepBase + 1));
            for (int k = 1; k < n; k++) {
                int b = Math.floorMod(me - k, n);
                s.await(s.senderFlag(left), CollectiveSupport.stamp(seq, stepBase + k));
                s.peers().get(s.local(), base + pre.applyAsLong(b), left, base + pre.applyAsLong(b),
                        pre.applyAsLong(b + 1) - pre.applyAsLong(b));
                if (k < n - 1) {
                    s.signal(right, s.senderFlag(me), CollectiveSupport.stamp(seq, stepBase + k + 1));
                }
            }
            if (ack) {
                long done = CollectiveSupport.stamp(seq, stepBase + n);
                s.signal(left, s.ackFlag(me), done);
                s.await(s.ackFlag(right), done);
            }
        }
    };

    /**
     * Recursive doubling over the largest power of two p &lt;= n. Member {@code p + i} (an extra,
     * when n is not a power of two) first hands its block to member i; in step k member i exchanges
     * with {@code i ^ 2^k} the blocks of its group of 2^k members and of their extras (at most two
     * contiguous ranges); finally member i hands everything to its extra, which pulls it all.
     */
    static final Algorithms.Collect RECURSIVE_DOUBLING = new Allgather("recursive_doubling") {
        @Override
        boolean rotated() {
            return false;
        }

        @Override
        void exchange(CollectiveSupport s, long seq, int stepBase, long base, IntToLongFunction pre, boolean ack) {
            int n = s.size();
            int me = s.rank();
            if (n == 1) {
                return;
            }
            int p = Integer.highestOneBit(n);
            int steps = Integer.numberOfTrailingZeros(p);
            long gathered = CollectiveSupport.stamp(seq, stepBase + 1 + steps);
            if (me >= p) {
                int partner = me - p;
                s.signal(partner, s.senderFlag(me), CollectiveSupport.stamp(seq, stepBase));
                s.await(s.senderFlag(partner), gathered);
                range(s, base, pre, partner, 0, me);
                range(s, base, pre, partner, me + 1, n);
                if (ack) {
                    s.signal(partner, s.ackFlag(me), gathered);
                }
                return;
            }
            boolean hasExtra = me + p < n;
            if (hasExtra) {
                s.await(s.senderFlag(me + p), CollectiveSupport.stamp(seq, stepBase));
                range(s, base, pre, me + p, me + p, me + p + 1);
            }
            for (int k = 0; k < steps; k++) {
                int d = 1 << k;
                int partner = me ^ d;
                long step = CollectiveSupport.stamp(seq, stepBase + 1 + k);
                s.signal(partner, s.senderFlag(me), step);
                s.await(s.senderFlag(partner), step);
                int g = partner & -d;
                range(s, base, pre, partner, g, g + d);
                range(s, base, pre, partner, Math.min(n, g + p), Math.min(n, g + d + p));
                if (ack) {
                    s.signal(partner, s.ackFlag(me), step);
                }
            }
            if (hasExtra) {
                s.signal(me + p, s.senderFlag(me), gathered);
            }
            if (ack) {
                for (int k = 0; k < steps; k++) {
                    s.await(s.ackFlag(me ^ (1 << k)), CollectiveSupport.stamp(seq, stepBase + 1 + k));
                }
                if (hasExtra) {
                    s.await(s.ackFlag(me + p), gathered);
                }
            }
        }
    };

    /**
     * Bruck: blocks are kept rotated (position q holds block {@code me + q}); in step k member i
     * pulls positions {@code [0, min(2^k, n - 2^k))} of member {@code i + 2^k} (which signalled it
     * completed the earlier steps) into its positions from 2^k; after ceil(log2 n) steps every
     * position is filled, the readers (members {@code i - 2^k}) acknowledged, and a local rotation
     * puts the blocks in team order.
     */
    static final Algorithms.Collect BRUCK = new Allgather("bruck") {
        @Override
        boolean rotated() {
            return true;
        }

        @Override
        void exchange(CollectiveSupport s, long seq, int stepBase, long base, IntToLongFunction pre, boolean ack) {
            int n = s.size();
            int me = s.rank();
            int k = 0;
            for (int d = 1; d < n; d <<= 1, k++) {
                int from = (me + d) % n;
                int to = Math.floorMod(me - d, n);
                long step = CollectiveSupport.stamp(seq, stepBase + k);
                s.signal(to, s.senderFlag(me), step);
                s.await(s.senderFlag(from), step);
                int count = Math.min(d, n - d);
                s.peers().get(s.local(), base + pre.applyAsLong(d), from, base, pre.applyAsLong(d + count) - pre.applyAsLong(d));
                if (ack) {
                    s.signal(from, s.ackFlag(me), step);
                }
            }
            if (ack) {
                k = 0;
                for (int d = 1; d < n; d <<= 1, k++) {
                    s.await(s.ackFlag(Math.floorMod(me - d, n)), CollectiveSupport.stamp(seq, stepBase + k));
                }
            }
        }
    };

    /** Pulls blocks {@code [from, to)} of {@code peer}'s buffer into the same place of this member's. */
    private static void range(CollectiveSupport s, long base, IntToLongFunction pre, int peer, int from, int to) {
        if (from < to) {
            long at = pre.applyAsLong(from);
            s.peers().get(s.local(), base + at, peer, base + at, pre.applyAsLong(to) - at);
        }
    }
}
