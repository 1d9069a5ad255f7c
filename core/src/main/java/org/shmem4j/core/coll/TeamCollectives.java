package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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

    /**
     * Checks that {@code count} units of {@code unit} bytes from unit {@code index} lie inside the
     * live object {@code obj} and returns the region offset of unit {@code index}. Units are the
     * elements of a typed routine and bytes for the {@code *mem} ones; the message names the
     * routine, the argument and the bad index in those units.
     */
    private static long at(String routine, String arg, SymmetricObject obj, long index, long count, long unit) {
        if (obj == null) { // the words of Symmetrics.live, which lies in core, above this package
            throw new NullPointerException(routine + ": the " + arg + " is null");
        }
        obj.checkLive(routine);
        String units = unit == 1 ? "bytes" : "elements";
        if (index < 0) {
            throw new IndexOutOfBoundsException(routine + ": negative " + arg + " index " + index);
        }
        long capacity = obj.byteSize() / unit;
        if (index > capacity - count) {
            throw new IndexOutOfBoundsException(routine + ": " + arg + " index " + index + " + " + count + " " + units
                    + " is out of bounds for " + obj + " (" + capacity + " " + units + ")");
        }
        return obj.offset() + index * unit;
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
    //
    // Every data collective takes dest and source as (object, index): C passes a pointer into a
    // symmetric object, Java an object and the index of the first unit (element of elementBytes,
    // or byte for the *mem routines). Algorithms see only region offsets, so the index is carried
    // by the offset through every one of them.

    /** shmem_team_sync, or the barrier of {@code routine} (shmem_barrier_all, shmem_sync_all, ...). */
    public synchronized void sync(String routine) {
        Algorithms.Barrier a = policy.barrier(support);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support);
        profiler.collectiveEnd(e, routine, size(), 0, a.name());
    }

    /** shmem_broadcast[mem]: {@code count} elements of {@code elementBytes} from {@code root}'s source. */
    public synchronized void broadcast(String routine, SymmetricObject dest, long destIndex, SymmetricObject source,
            long sourceIndex, long count, long elementBytes, int root) {
        broadcast(routine, dest, destIndex, source, sourceIndex, count, elementBytes, root, true);
    }

    /**
     * shmem_broadcast32/64 over an active set: as {@link #broadcast} but the root's dest keeps its
     * contents (spec 9.10.7). The algorithms may write the root's dest and read it from other
     * members, so the root restores it only after a barrier says every member is done.
     */
    public synchronized void broadcastLeavingRootDest(String routine, SymmetricObject dest, long destIndex,
            SymmetricObject source, long sourceIndex, long count, long elementBytes, int root) {
        broadcast(routine, dest, destIndex, source, sourceIndex, count, elementBytes, root, false);
    }

    private void broadcast(String routine, SymmetricObject dest, long destIndex, SymmetricObject source, long sourceIndex,
            long count, long elementBytes, int root, boolean rootDestToo) {
        long bytes = bytes(routine, count, elementBytes);
        long d = at(routine, "dest", dest, destIndex, count, elementBytes);
        long s = at(routine, "source", source, sourceIndex, count, elementBytes);
        checkOverlap(routine, d, s, bytes);
        checkRoot(routine, root);
        byte[] kept = !rootDestToo && support.rank() == root ? support.local().asSlice(d, bytes).toArray(ValueLayout.JAVA_BYTE)
                : null;
        Algorithms.Broadcast a = policy.broadcast(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, d, s, bytes, root);
        if (!rootDestToo) {
            policy.barrier(support).run(support);
            if (kept != null) {
                MemorySegment.copy(kept, 0, support.local(), ValueLayout.JAVA_BYTE, d, kept.length);
            }
        }
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_fcollect[mem]: every member contributes {@code count} elements, concatenated in team order. */
    public synchronized void fcollect(String routine, SymmetricObject dest, long destIndex, SymmetricObject source,
            long sourceIndex, long count, long elementBytes) {
        long bytes = bytes(routine, count, elementBytes);
        long s = at(routine, "source", source, sourceIndex, count, elementBytes);
        long total = bytes(routine, bytes, size());
        long d = at(routine, "dest", dest, destIndex, total / elementBytes, elementBytes);
        checkDisjoint(routine, d, total, s, bytes);
        Algorithms.Collect a = policy.fcollect(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.fixed(support, d, s, bytes);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_collect[mem]: members contribute different counts, concatenated in team order. */
    public synchronized void collect(String routine, SymmetricObject dest, long destIndex, SymmetricObject source,
            long sourceIndex, long count, long elementBytes) {
        long bytes = bytes(routine, count, elementBytes);
        long s = at(routine, "source", source, sourceIndex, count, elementBytes);
        // The total is known only after the counts are exchanged: no part of dest from destIndex
        // on may hold the source, and the algorithm checks the total fits once it knows it.
        long d = at(routine, "dest", dest, destIndex, 0, elementBytes);
        checkDisjoint(routine, d, dest.offset() + dest.byteSize() - d, s, bytes);
        Algorithms.Collect a = policy.collect(support, bytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.variable(support, total -> at(routine, "dest", dest, destIndex, total / elementBytes, elementBytes), s, bytes);
        profiler.collectiveEnd(e, routine, size(), bytes, a.name());
    }

    /** shmem_alltoall[mem]: block {@code j} of every member's source goes to member {@code j}. */
    public synchronized void alltoall(String routine, SymmetricObject dest, long destIndex, SymmetricObject source,
            long sourceIndex, long count, long elementBytes) {
        long block = bytes(routine, count, elementBytes);
        long total = bytes(routine, block, size());
        long d = at(routine, "dest", dest, destIndex, total / elementBytes, elementBytes);
        long s = at(routine, "source", source, sourceIndex, total / elementBytes, elementBytes);
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
     * {@code (j * count + i) * sst} and written at {@code (j' * count + i) * dst}, {@code j'} the
     * sender, counted from {@code sourceIndex} and {@code destIndex}.
     */
    public synchronized void alltoalls(String routine, SymmetricObject dest, long destIndex, SymmetricObject source,
            long sourceIndex, long dst, long sst, long count, long elementBytes) {
        if (dst < 1 || sst < 1) {
            throw new IllegalArgumentException(routine + ": strides must be at least 1 (dst=" + dst + ", sst=" + sst + ")");
        }
        long n = bytes(routine, count, size());
        long destElems = n == 0 ? 0 : bytes(routine, n - 1, dst) + 1;
        long srcElems = n == 0 ? 0 : bytes(routine, n - 1, sst) + 1;
        long destBytes = bytes(routine, destElems, elementBytes);
        long srcBytes = bytes(routine, srcElems, elementBytes);
        long d = at(routine, "dest", dest, destIndex, destElems, elementBytes);
        long s = at(routine, "source", source, sourceIndex, srcElems, elementBytes);
        checkDisjoint(routine, d, destBytes, s, srcBytes);
        Algorithms.Alltoall a = policy.alltoall(support, count * elementBytes);
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, d, s, count * elementBytes, dst * elementBytes, sst * elementBytes, elementBytes);
        profiler.collectiveEnd(e, routine, size(), count * elementBytes, a.name());
    }

    /** shmem_TYPENAME_OP_reduce over {@code count} elements from {@code destIndex} and {@code sourceIndex}. */
    public synchronized void reduce(String routine, ReduceKernel kernel, SymmetricArray<?> dest, long destIndex,
            SymmetricArray<?> source, long sourceIndex, long count) {
        Elementwise x = elementwise(routine, kernel, dest, destIndex, source, sourceIndex, count);
        Algorithms.Reduce a = policy.reduce(support, x.bytes());
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, kernel, x.dest(), x.source(), count);
        profiler.collectiveEnd(e, routine, size(), x.bytes(), a.name());
    }

    /** shmem_TYPENAME_sum_inscan / sum_exscan over {@code count} elements from the two indices. */
    public synchronized void scan(String routine, ReduceKernel kernel, SymmetricArray<?> dest, long destIndex,
            SymmetricArray<?> source, long sourceIndex, long count, boolean inclusive) {
        Elementwise x = elementwise(routine, kernel, dest, destIndex, source, sourceIndex, count);
        Algorithms.Scan a = policy.scan(support, x.bytes());
        CollectiveEvent e = profiler.collectiveBegin();
        a.run(support, kernel, x.dest(), x.source(), count, inclusive);
        profiler.collectiveEnd(e, routine, size(), x.bytes(), a.name());
    }

    /** The region offsets and byte count of an element-wise dest/source pair (reductions, scans). */
    private record Elementwise(long dest, long source, long bytes) {
    }

    /** Checks {@code count} kernel elements of dest and source from their indices, and that they overlap exactly or not at all. */
    private Elementwise elementwise(String routine, ReduceKernel kernel, SymmetricArray<?> dest, long destIndex,
            SymmetricArray<?> source, long sourceIndex, long count) {
        long unit = kernel.layout().byteSize();
        long bytes = bytes(routine, count, unit);
        long d = at(routine, "dest", dest, destIndex, count, unit);
        long s = at(routine, "source", source, sourceIndex, count, unit);
        checkOverlap(routine, d, s, bytes);
        return new Elementwise(d, s, bytes);
    }
}
