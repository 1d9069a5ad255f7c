package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * Logarithmic prefix reductions: {@code log}, the Hillis-Steele scan in ceil(log2 n) rounds.
 * Member r keeps its running prefix in its own dest; in round k (distance d = 2^k) it pulls the
 * prefix of member r - d and computes {@code theirs op mine} (lower members' operand first, as
 * team order requires). A member overwrites its dest only after member r + d, which reads it in
 * that round, has acknowledged. The exclusive scan then pulls member r - 1's inclusive prefix
 * (member 0 gets zeros). A closing team barrier gives the all-member dependency {@link
 * CollectiveSupport} relies on (member 0 of a scan depends on no one) and guarantees that nobody
 * reads a member's dest after it returns. Flags: as {@link ReduceAlgorithms}, only the
 * single-writer sender and acknowledgement lines.
 */
final class ScanAlgorithms {
    private static final int EXCLUSIVE_STEP = 1 << 18;

    private ScanAlgorithms() {
    }

    static final Algorithms.Scan LOG = new Algorithms.Scan() {
        @Override
        public String name() {
            return "log";
        }

        @Override
        public void run(CollectiveSupport s, ReduceKernel k, long dest, long source, long count, boolean inclusive) {
            long bytes = count * k.layout().byteSize();
            if (bytes == 0) {
                return;
            }
            int n = s.size();
            int r = s.rank();
            if (n == 1) {
                if (!inclusive) {
                    s.local().asSlice(dest, bytes).fill((byte) 0);
                } else if (dest != source) {
                    MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
                }
                return;
            }
            long seq = s.begin();
            MemorySegment res = s.temp(bytes);
            if (dest != source) {
                MemorySegment.copy(s.local(), source, s.local(), dest, bytes);
            }
            for (int j = 0, d = 1; d < n; j++, d <<= 1) {
                long st = CollectiveSupport.stamp(seq, j);
                if (r + d < n) {
                    s.signal(r + d, s.senderFlag(r), st);
                }
                if (r >= d) {
                    s.await(s.senderFlag(r - d), st);
                    s.peers().get(res, 0, r - d, dest, bytes);
                    s.signal(r - d, s.ackFlag(r), st);
                    k.combine(res, 0, s.local(), dest, count);
                }
                if (r + d < n) {
                    s.await(s.ackFlag(r + d), st);
                }
                if (r >= d) {
                    MemorySegment.copy(res, 0, s.local(), dest, bytes);
                }
            }
            if (!inclusive) {
                long st = CollectiveSupport.stamp(seq, EXCLUSIVE_STEP);
                if (r + 1 < n) {
                    s.signal(r + 1, s.senderFlag(r), st);
                }
                if (r > 0) {
                    s.await(s.senderFlag(r - 1), st);
                    s.peers().get(res, 0, r - 1, dest, bytes);
                    s.signal(r - 1, s.ackFlag(r), st);
                }
                if (r + 1 < n) {
                    s.await(s.ackFlag(r + 1), st);
                }
                if (r > 0) {
                    MemorySegment.copy(res, 0, s.local(), dest, bytes);
                } else {
                    s.local().asSlice(dest, bytes).fill((byte) 0);
                }
            }
            s.barrier();
        }
    };
}
