package org.shmem4j.core.coll;

import org.shmem4j.SymmetricArray;
import org.shmem4j.SymmetricObject;
import org.shmem4j.core.jfr.CollectiveEvent;
import org.shmem4j.core.jfr.Profiler;

/**
 * The collectives of one team: argument checks that name the routine, the choice of algorithm
 * ({@link CollectivePolicy}), and the call. Algorithms see only region offsets and byte counts and
 * talk to the members through {@link CollectiveSupport}. A team's collectives are never run
 * concurrently (spec 9.10: program order, one thread per team at a time), which the sequence
 * numbers rely on; calls are serialised here in case a program breaks that rule.
 */
public final class TeamCollectives {
    private final CollectiveSupport support;
    private final CollectivePolicy policy;
    private final Profiler profiler;

    public TeamCollectives(CollectiveSupport support, CollectivePolicy policy, Profiler profiler) {
        this.support = support;
        this.policy = policy;
        this.profiler = profiler;
    }

    public CollectiveSupport support() {
        return support;
    }

    private int size() {
        return support.size();
    }

    private void checkRoot(String routine, int root) {
        if (root < 0 || root >= size()) {
            throw new IllegalArgumentException(routine + ": root PE " + root + " is out of range [0, " + size() + ")");
        }
    }

    private static long bytes(String routine, long count, long elementBytes) {
        if (count < 0) {
            throw new IllegalArgumentException(routine + ": negative element count " + count);
        }
        try {
            return Math.multiplyExact(count, elementBytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(routine + ": " + count + " elements overflow");
        }
    }

    /**
     * Source and destination of a reduction, scan or broadcast must coincide (in place) or be
     * disjoint (spec 9.10.9; broadcast in place is harmless: the root's data stays).
     */
    private static void checkOverlap(String routine, long dest, long src, long bytes) {
        if (dest != src && dest < src + bytes && src < dest + bytes) {
            throw new IllegalArgumentException(routine + ": dest and source overlap partially (offsets " + dest + " and "
                    + src + ", " + bytes + " bytes); they must be the same object range or disjoint");
        }
    }

    /**
     * Collects and all-to-alls have no in-place form: pointer arguments must not overlap (the spec
     * excepts only in-place reductions), and a PE's dest is written while its source is still read
     * by others.
     */
    private static void checkDisjoint(String routine, long dest, long destBytes, long src, long srcBytes) {
        if (destBytes > 0 && srcBytes > 0 && dest < src + srcBytes && src < dest + destBytes) {
            throw new IllegalArgumentException(routine + ": dest (offset " + dest + ", " + destBytes + " bytes) and source"
                    + " (offset " + src + ", " + srcBytes + " bytes) overlap; they must be disjoint");
        }
    }

    // ------------------------------------------------------------------ entry points

    /** shmem_team_sync, or the barrier of {@code routine} (shmem_barrier_all, shmem_sync_all, ...). */
    public synchronized void sync(String routine) {
        Algorithms.Barrier a = policy.barrier(support);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support);
        profiler.collectiveEnd(e, routine, size(), 0, a.name());
    }

    /** shmem_broadcast[mem]: {@code count} elements of {@code elementBytes} from {@code root}'s source. */
    public synchronized void broadcast(String routine, SymmetricObject dest, SymmetricObject source, long count,
            long elementBytes, int root) {
        long bytes = bytes(routine, count, elementBytes);
        long d = dest.byteRange(routine, 0, bytes);
        long s = source.byteRange(routine, 0, bytes);
        checkOverlap(routine, d, s, bytes);
        checkRoot(routine, root);
        Algorithms.Broadcast a = policy.broadcast(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, d, s, bytes, root);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_fcollect[mem]: every member contributes {@code count} elements, concatenated in team order. */
    public synchronized void fcollect(String routine, SymmetricObject dest, SymmetricObject source, long count,
            long elementBytes) {
        long bytes = bytes(routine, count, elementBytes);
        long s = source.byteRange(routine, 0, bytes);
        long total = bytes(routine, bytes, size());
        long d = dest.byteRange(routine, 0, total);
        checkDisjoint(routine, d, total, s, bytes);
        Algorithms.Collect a = policy.fcollect(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.fixed(support, d, s, bytes);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_collect[mem]: members contribute different counts, concatenated in team order. */
    public synchronized void collect(String routine, SymmetricObject dest, SymmetricObject source, long count,
            long elementBytes) {
        long bytes = bytes(routine, count, elementBytes);
        long s = source.byteRange(routine, 0, bytes);
        // The total is known only after the counts are exchanged: no part of dest may hold the source.
        checkDisjoint(routine, dest.byteRange(routine, 0, 0), dest.byteSize(), s, bytes);
        Algorithms.Collect a = policy.collect(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.variable(support, routine, dest, s, bytes);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_alltoall[mem]: block {@code j} of every member's source goes to member {@code j}. */
    public synchronized void alltoall(String routine, SymmetricObject dest, SymmetricObject source, long count,
            long elementBytes) {
        long block = bytes(routine, count, elementBytes);
        long total = bytes(routine, block, size());
        long d = dest.byteRange(routine, 0, total);
        long s = source.byteRange(routine, 0, total);
        checkDisjoint(routine, d, total, s, total);
        if (block > 0) {
            Algorithms.Alltoall a = policy.alltoall(support, block);
            CollectiveEvent e = profiler.collectiveBegin();
            a.run(support, d, s, block, block, block, block);
            profiler.collectiveEnd(e, routine, size(), block, a.name());
        }
    }

    /**
     * shmem_alltoalls[mem]: as alltoall with element strides {@code dst} and {@code sst} (in
     * elements, at least 1): element {@code i} of the block for member {@code j} is read at
     * {@code (j * count + i) * sst} and written at {@code (j' * count + i) * dst}, {@code j'} the sender.
     */
    public synchronized void alltoalls(String routine, SymmetricObject dest, SymmetricObject source, long dst, long sst,
            long count, long elementBytes) {
        if (dst < 1 || sst < 1) {
            throw new IllegalArgumentException(routine + ": strides must be at least 1 (dst=" + dst + ", sst=" + sst + ")");
        }
        long n = bytes(routine, count, size());
        long destBytes = n == 0 ? 0 : bytes(routine, (n - 1) * dst + 1, elementBytes);
        long srcBytes = n == 0 ? 0 : bytes(routine, (n - 1) * sst + 1, elementBytes);
        long d = dest.byteRange(routine, 0, destBytes);
        long s = source.byteRange(routine, 0, srcBytes);
        checkDisjoint(routine, d, destBytes, s, srcBytes);
        Algorithms.Alltoall a = policy.alltoall(support, count * elementBytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, d, s, count * elementBytes, dst * elementBytes, sst * elementBytes, elementBytes);
        profiler.collectiveEnd(e, routine, size(), count * elementBytes, a.name());
    }

    /** shmem_TYPENAME_OP_reduce. */
    public synchronized void reduce(String routine, ReduceKernel kernel, SymmetricArray<?> dest, SymmetricArray<?> source,
            long count) {
        long d = dest.elementOffset(routine, 0, count);
        long s = source.elementOffset(routine, 0, count);
        long bytes = count * kernel.layout().byteSize();
        checkOverlap(routine, d, s, bytes);
        Algorithms.Reduce a = policy.reduce(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, kernel, d, s, count);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_TYPENAME_sum_inscan / sum_exscan. */
    public synchronized void scan(String routine, ReduceKernel kernel, SymmetricArray<?> dest, SymmetricArray<?> source,
            long count, boolean inclusive) {
        long d = dest.elementOffset(routine, 0, count);
        long s = source.elementOffset(routine, 0, count);
        long bytes = count * kernel.layout().byteSize();
        checkOverlap(routine, d, s, bytes);
        Algorithms.Scan a = policy.scan(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, kernel, d, s, count, inclusive);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }
}
