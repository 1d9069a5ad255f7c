package org.shmem4j.core.coll;

/**
 * Barrier algorithms besides {@code linear} and the team's own {@code dissemination} barrier.
 */
final class BarrierAlgorithms {
    private BarrierAlgorithms() {
    }

    /**
     * Binomial tree rooted at member 0: every member waits for its children's arrival (step 0 on
     * the child's sender line at the parent), reports to its parent, waits for the parent's release
     * (step 1 on the parent's sender line at the child) and releases its children. The chains of
     * release stores and acquire loads make every member's earlier stores visible to every member
     * after the barrier.
     */
    static final Algorithms.Barrier TREE = new Algorithms.Barrier() {
        @Override
        public String name() {
            return "tree";
        }

        @Override
        public void run(CollectiveSupport s) {
            long seq = s.begin();
            int n = s.size();
            int me = s.rank();
            if (n == 1) {
                return;
            }
            long arrived = CollectiveSupport.stamp(seq, 0);
            long released = CollectiveSupport.stamp(seq, 1);
            int low = Trees.lowBit(me, n);
            for (int m = 1; m < low && me + m < n; m <<= 1) {
                s.await(s.senderFlag(me + m), arrived);
            }
            if (me != 0) {
                int parent = me & (me - 1);
                s.signal(parent, s.senderFlag(me), arrived);
                s.await(s.senderFlag(parent), released);
            }
            for (int m = 1; m < low && me + m < n; m <<= 1) {
                s.signal(me + m, s.senderFlag(me), released);
            }
        }
    };

    /** Binomial-tree arithmetic on (relative) member numbers. */
    static final class Trees {
        private Trees() {
        }

        /**
         * The bound on a node's child distances: children of {@code r} are {@code r + m} for powers
         * of two {@code m < lowBit(r, n)} with {@code r + m < n}; the root (0) has every power of two.
         */
        static int lowBit(int r, int n) {
            return r == 0 ? Integer.MAX_VALUE : Integer.lowestOneBit(r);
        }
    }
}
