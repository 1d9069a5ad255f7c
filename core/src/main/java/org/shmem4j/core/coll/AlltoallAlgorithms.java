package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/** Alltoall(s) algorithms besides {@code linear}. */
final class AlltoallAlgorithms {
    private AlltoallAlgorithms() {
    }

    /**
     * Pairwise shift exchange: every member signals the others that its source is readable, then
     * in step k (1..n-1) pulls its block from member {@code me - k} (which is pulling from
     * {@code me - 2k} at the same time, while {@code me + k} pulls from this member) and
     * acknowledges it; it returns once every member that reads its source acknowledged. Having
     * pulled from everyone, it knows every member entered.
     */
    static final Algorithms.Alltoall PAIRWISE = new Algorithms.Alltoall() {
        @Override
        public String name() {
            return "pairwise";
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long blockBytes, long destStride, long sourceStride,
                long elementBytes) {
            long seq = s.begin();
            int n = s.size();
            int me = s.rank();
            long elements = blockBytes / elementBytes;
            long stamp = CollectiveSupport.stamp(seq, 0);
            for (int k = 1; k < n; k++) {
                s.signal((me + k) % n, s.senderFlag(me), stamp);
            }
            copy(s, me, dest + me * elements * destStride, destStride, source + me * elements * sourceStride,
                    sourceStride, elements, elementBytes);
            for (int k = 1; k < n; k++) {
                int from = Math.floorMod(me - k, n);
                s.await(s.senderFlag(from), stamp);
                copy(s, from, dest + from * elements * destStride, destStride, source + me * elements * sourceStride,
                        sourceStride, elements, elementBytes);
                s.signal(from, s.ackFlag(me), stamp);
            }
            for (int k = 1; k < n; k++) {
                s.await(s.ackFlag((me + k) % n), stamp);
            }
        }
    };

    /** Pulls {@code elements} elements at stride {@code sst} of {@code peer} into this member at stride {@code dst}. */
    private static void copy(CollectiveSupport s, int peer, long to, long dst, long from, long sst, long elements,
            long elementBytes) {
        if (dst == elementBytes && sst == elementBytes) {
            pull(s, peer, to, from, elements * elementBytes);
            return;
        }
        for (long e = 0; e < elements; e++) {
            pull(s, peer, to + e * dst, from + e * sst, elementBytes);
        }
    }

    private static void pull(CollectiveSupport s, int peer, long to, long from, long bytes) {
        if (peer == s.rank()) {
            MemorySegment.copy(s.local(), from, s.local(), to, bytes);
        } else {
            s.peers().get(s.local(), to, peer, from, bytes);
        }
    }
}
