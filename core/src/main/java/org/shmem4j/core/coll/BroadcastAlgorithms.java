package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/** Broadcast algorithms besides {@code linear}. */
final class BroadcastAlgorithms {
    /** Bytes a binomial broadcast forwards at a time (the pipeline unit). */
    private static final long PIPELINE_CHUNK = 64 << 10;
    /** Most chunks of one binomial broadcast (chunk numbers are stamp steps). */
    private static final long MAX_CHUNKS = 1 << 18;

    private BroadcastAlgorithms() {
    }

    /**
     * Binomial tree from the root. First every member reports "entered" up the tree (so no member
     * returns before everyone entered, which the scratch double-buffering needs). Then data flows
     * down in pipelined chunks: a member pulls chunk c from its parent (the root's source, or the
     * parent's dest, which the parent filled and will not change before it returns) once the parent
     * signals step {@code 1 + c}, and signals its own children. A child acknowledges after its last
     * pull and a member returns only once all its children acknowledged, so neither the root's
     * source nor a parent's dest is read after its owner returned. Sender lines: child to parent
     * (step 0), parent to child (steps 1..chunks); ack lines: child to parent.
     */
    static final Algorithms.Broadcast BINOMIAL = new Algorithms.Broadcast() {
        @Override
        public String name() {
            return "binomial";
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long bytes, int root) {
            long seq = s.begin();
            int n = s.size();
            int me = s.rank();
            int rel = Math.floorMod(me - root, n);
            int low = BarrierAlgorithms.Trees.lowBit(rel, n);
            long entered = CollectiveSupport.stamp(seq, 0);
            for (int m = 1; m < low && rel + m < n; m <<= 1) {
                s.await(s.senderFlag((rel + m + root) % n), entered);
            }
            long chunk = Math.max(PIPELINE_CHUNK, (bytes + MAX_CHUNKS - 1) / MAX_CHUNKS);
            int chunks = (int) Math.max(1, (bytes + chunk - 1) / chunk);
            if (rel == 0) {
                if (dest != source) {
                    MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
                }
                // Children pull from the root's source, complete from the start.
                for (int m = 1; m < low && rel + m < n; m <<= 1) {
                    s.signal((rel + m + root) % n, s.senderFlag(me), CollectiveSupport.stamp(seq, chunks));
                }
            } else {
                int parentRel = rel & (rel - 1);
                int parent = (parentRel + root) % n;
                s.signal(parent, s.senderFlag(me), entered);
                long from = parentRel == 0 ? source : dest;
                for (int c = 0; c < chunks; c++) {
                    long off = c * chunk;
                    long len = Math.min(chunk, bytes - off);
                    long ready = CollectiveSupport.stamp(seq, 1 + c);
                    s.await(s.senderFlag(parent), ready);
                    s.peers().get(s.local(), dest + off, parent, from + off, len);
                    for (int m = 1; m < low && rel + m < n; m <<= 1) {
                        s.signal((rel + m + root) % n, s.senderFlag(me), ready);
                    }
                }
                s.signal(parent, s.ackFlag(me), entered);
            }
            for (int m = 1; m < low && rel + m < n; m <<= 1) {
                s.await(s.ackFlag((rel + m + root) % n), entered);
            }
        }
    };

    /**
     * For large messages: after a barrier, member i pulls chunk i of the root's source into its
     * dest (the root copies all of it), then a ring allgather of the chunks among the members (in
     * step k member i pulls chunk {@code i - k} from its left neighbour's dest once the neighbour
     * signals step k), then a barrier: no source or dest is read after its owner returns.
     */
    static final Algorithms.Broadcast SCATTER_ALLGATHER = new Algorithms.Broadcast() {
        @Override
        public String name() {
            return "scatter_allgather";
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long bytes, int root) {
            long seq = s.begin();
            int n = s.size();
            int me = s.rank();
            s.barrier();
            if (me == root) {
                if (dest != source) {
                    MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
                }
            } else {
                long off = part(bytes, n, me);
                s.peers().get(s.local(), dest + off, root, source + off, part(bytes, n, me + 1) - off);
            }
            if (n > 1) {
                int left = (me + n - 1) % n;
                int right = (me + 1) % n;
                if (me == root) {
                    // The root holds every chunk: one signal covers all steps.
                    s.signal(right, s.senderFlag(me), CollectiveSupport.stamp(seq, n - 1));
                } else {
                    s.signal(right, s.senderFlag(me), CollectiveSupport.stamp(seq, 1));
                    for (int k = 1; k < n; k++) {
                        int b = Math.floorMod(me - k, n);
                        s.await(s.senderFlag(left), CollectiveSupport.stamp(seq, k));
                        long off = part(bytes, n, b);
                        s.peers().get(s.local(), dest + off, left, dest + off, part(bytes, n, b + 1) - off);
                        if (k < n - 1) {
                            s.signal(right, s.senderFlag(me), CollectiveSupport.stamp(seq, k + 1));
                        }
                    }
                }
            }
            s.barrier();
        }
    };

    /** Start of chunk {@code i} of {@code bytes} split in {@code n} nearly equal chunks. */
    private static long part(long bytes, int n, int i) {
        long c = (bytes + n - 1) / n;
        return Math.min(bytes, c * i);
    }
}
