package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.LongUnaryOperator;

/**
 * The "linear" algorithm of every collective: a team barrier (every member's source is ready),
 * each member pulls what it needs from the others' sources in team order, a second barrier (no
 * one reads a source any more), then each member writes its own dest. Simple, correct for every
 * team size, and the reference the other algorithms are tested against; O(n) transfers per member.
 * Reductions and scans combine contributions in team order on every member, so floating-point
 * results are identical everywhere.
 */
final class LinearAlgorithms {
    /** Bytes of peer data combined per step of a linear reduction. */
    private static final long CHUNK = 16 << 10;

    private LinearAlgorithms() {
    }

    static final Algorithms.Barrier BARRIER = new Algorithms.Barrier() {
        @Override
        public String name() {
            return "linear";
        }

        /** Everyone signals member 0, which releases everyone. */
        @Override
        public void run(CollectiveSupport s) {
            long stamp = CollectiveSupport.stamp(s.begin(), 0);
            int me = s.rank();
            if (me == 0) {
                for (int i = 1; i < s.size(); i++) {
                    s.await(s.senderFlag(i), stamp);
                }
                for (int i = 1; i < s.size(); i++) {
                    s.signal(i, s.senderFlag(0), stamp);
                }
            } else {
                s.signal(0, s.senderFlag(me), stamp);
                s.await(s.senderFlag(0), stamp);
            }
        }
    };

    static final Algorithms.Broadcast BROADCAST = new Algorithms.Broadcast() {
        @Override
        public String name() {
            return "linear";
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long bytes, int root) {
            s.barrier();
            if (s.rank() == root) {
                MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
            } else {
                s.peers().get(s.local(), dest, root, source, bytes);
            }
            s.barrier();
        }
    };

    static final Algorithms.Collect COLLECT = new Algorithms.Collect() {
        @Override
        public String name() {
            return "linear";
        }

        @Override
        public void fixed(CollectiveSupport s, long dest, long source, long bytes) {
            s.barrier();
            for (int j = 0; j < s.size(); j++) {
                s.peers().get(s.local(), dest + j * bytes, j, source, bytes);
            }
            s.barrier();
        }

        @Override
        public void variable(CollectiveSupport s, LongUnaryOperator dest, long source, long bytes) {
            long[] sizes = exchangeSizes(s, bytes);
            long total = 0;
            for (long b : sizes) {
                total += b;
            }
            long d = dest.applyAsLong(total);
            long at = d;
            for (int j = 0; j < s.size(); j++) {
                s.peers().get(s.local(), at, j, source, sizes[j]);
                at += sizes[j];
            }
            s.barrier();
        }
    };

    /**
     * Every member's contribution size, published in the collective's scratch buffer; ends with a
     * barrier after which sources may be read.
     */
    static long[] exchangeSizes(CollectiveSupport s, long bytes) {
        long at = s.scratch(s.begin(8));
        s.local().set(ValueLayout.JAVA_LONG, at, bytes);
        s.barrier();
        long[] sizes = new long[s.size()];
        MemorySegment word = s.temp(8);
        for (int j = 0; j < s.size(); j++) {
            s.peers().get(word, 0, j, at, 8);
            sizes[j] = word.get(ValueLayout.JAVA_LONG, 0);
        }
        return sizes;
    }

    static final Algorithms.Alltoall ALLTOALL = new Algorithms.Alltoall() {
        @Override
        public String name() {
            return "linear";
        }

        @Override
        public void run(CollectiveSupport s, long dest, long source, long blockBytes, long destStride, long sourceStride,
                long elementBytes) {
            s.barrier();
            int me = s.rank();
            long elements = blockBytes / elementBytes;
            for (int j = 0; j < s.size(); j++) {
                long from = source + me * elements * sourceStride;
                long to = dest + j * elements * destStride;
                for (long e = 0; e < elements; e++) {
                    s.peers().get(s.local(), to + e * destStride, j, from + e * sourceStride, elementBytes);
                }
            }
            s.barrier();
        }
    };

    static final Algorithms.Reduce REDUCE = new Algorithms.Reduce() {
        @Override
        public String name() {
            return "linear";
        }

        @Override
        public void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count) {
            combineMembers(s, kernel, dest, source, count, s.size());
        }
    };

    static final Algorithms.Scan SCAN = new Algorithms.Scan() {
        @Override
        public String name() {
            return "linear";
        }

        @Override
        public void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count, boolean inclusive) {
            int upTo = inclusive ? s.rank() + 1 : s.rank();
            if (upTo == 0) {
                s.barrier();
                s.barrier();
                s.local().asSlice(dest, count * kernel.layout().byteSize()).fill((byte) 0);
                return;
            }
            combineMembers(s, kernel, dest, source, count, upTo);
        }
    };

    /**
     * dest = source(0) op source(1) op ... op source(members - 1), combined in team order in a
     * private buffer and written to dest after the closing barrier (dest may be the source).
     */
    private static void combineMembers(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count,
            int members) {
        long esz = kernel.layout().byteSize();
        long bytes = count * esz;
        long chunk = ReduceAlgorithms.wholeElements(esz, CHUNK);
        MemorySegment buf = s.temp(bytes + chunk);
        s.barrier();
        s.peers().get(buf, 0, 0, source, bytes);
        for (int j = 1; j < members; j++) {
            for (long off = 0; off < bytes; off += chunk) {
                long n = Math.min(chunk, bytes - off);
                s.peers().get(buf, bytes, j, source + off, n);
                kernel.combine(buf, off, buf, bytes, n / esz);
            }
        }
        s.barrier();
        MemorySegment.copy(buf, 0, s.local(), dest, bytes);
    }
}
