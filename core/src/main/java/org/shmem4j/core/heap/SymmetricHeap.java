package org.shmem4j.core.heap;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.ShmemException;
import org.shmem4j.SymmetricObject;
import org.shmem4j.core.jfr.HeapEvent;
import org.shmem4j.core.jfr.Profiler;

/**
 * This PE's symmetric region and the allocators that carve it up. The region is
 * {@code [0, reservedBytes)} for the library's own symmetric structures (barrier and lock words,
 * collective scratch) followed by the user heap of {@code SHMEM_SYMMETRIC_SIZE} bytes. Both parts are
 * managed by deterministic allocators, so the same sequence of collective calls yields the same
 * offsets on every PE and an offset is a symmetric address.
 *
 * <p>The bookkeeping runs under a lock so that threads of one PE can allocate; the collective
 * parts (barriers, the debug agreement check) come from the runtime through {@link HeapSync}.
 */
public final class SymmetricHeap {
    private final MemorySegment local;
    private final long userBase;
    private final SymmetricAllocator user;
    private final SymmetricAllocator reserved;
    private final HeapSync sync;
    private final Profiler profiler;
    private final ReentrantLock lock = new ReentrantLock();

    /** The collective services allocation needs from the runtime. */
    public interface HeapSync {
        /** A barrier over all PEs that also quiets the default context. */
        void barrier();

        /** In debug mode, checks that every PE made the same collective call (a no-op otherwise). */
        void agree(String call);
    }

    private static final long GRANULE = SymmetricAllocator.GRANULE;
    /**
     * Plain, not volatile: element accessors read it per call and the JIT must be free to hoist
     * that read out of their loops. Another thread of this PE still cannot touch the heap after
     * finalize: unmapping closes the mapping's shared arena, which stops every thread's access.
     */
    private boolean closed;
    /** The live user blocks by offset and where the program allocated them; null unless {@link #recordOrigins()}. */
    private Map<Long, Origin> origins;

    /** A live block as the program asked for it: the routine, the bytes, and the calling frame. */
    public record Origin(String routine, long bytes, String where) {
    }

    /**
     * @param local this PE's mapping of its whole region, all zero (a new file, or arena memory)
     * @param reservedBytes size of the internal part at the start of the region (multiple of 64)
     */
    public SymmetricHeap(MemorySegment local, long reservedBytes, Profiler profiler, HeapSync sync) {
        this.local = local;
        this.sync = sync;
        this.profiler = profiler;
        this.userBase = reservedBytes;
        this.reserved = new SymmetricAllocator(reservedBytes);
        this.user = new SymmetricAllocator(local.byteSize() - reservedBytes);
    }

    /** This PE's whole region (reserved part and user heap). */
    public MemorySegment local() {
        return local;
    }

    /** A slice of this PE's region. */
    public MemorySegment localSlice(long offset, long bytes) {
        return local.asSlice(offset, bytes);
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * From now on, remembers where each user block was allocated (a stack walk per allocation, so
     * for debug mode) for {@link #unfreed()}.
     */
    public void recordOrigins() {
        lock.lock();
        try {
            origins = new TreeMap<>();
        } finally {
            lock.unlock();
        }
    }

    /** The user blocks allocated since {@link #recordOrigins()} and not freed, in offset order. */
    public List<Origin> unfreed() {
        lock.lock();
        try {
            return origins == null ? List.of() : List.copyOf(origins.values());
        } finally {
            lock.unlock();
        }
    }

    /** Records {@code offset}'s origin when origins are recorded. Caller holds the lock. */
    private void born(long offset, String routine, long bytes) {
        if (origins != null) {
            origins.put(offset, new Origin(routine, bytes, callerOutsideTheLibrary()));
        }
    }

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** The first frame of the caller's stack that is not shmem4j's API or runtime: the program's call. */
    private static String callerOutsideTheLibrary() {
        return WALKER.walk(frames -> frames.filter(f -> !inTheLibrary(f.getDeclaringClass()))
                .findFirst().map(f -> f.toStackTraceElement().toString()).orElse("?"));
    }

    /**
     * A class of the API ({@code org.shmem4j}) or the runtime ({@code org.shmem4j.core...}) loaded
     * from the library's own jar, so that programs in those packages elsewhere (tests) count as the program.
     */
    private static boolean inTheLibrary(Class<?> c) {
        String p = c.getPackageName();
        return (p.equals("org.shmem4j") || p.startsWith("org.shmem4j.core"))
                && c.getProtectionDomain().getCodeSource() == SymmetricHeap.class.getProtectionDomain().getCodeSource();
    }

    /** Called by the last finalize: every object of this heap becomes invalid. */
    public void close() {
        closed = true;
    }

    /**
     * Collective allocation of {@code bytes} of user heap aligned to {@code alignment}: the local
     * bookkeeping, the debug-mode agreement check, zeroing when asked, then the barrier on exit.
     * Size 0 does nothing and returns an empty allocation (C's NULL). When the heap cannot hold the
     * block a {@link ShmemException} names {@code routine} (alike on every PE: the allocator is
     * deterministic) and the heap is unchanged.
     */
    public Allocation allocate(String routine, long bytes, long alignment, long hints, boolean zero) {
        if (bytes < 0) {
            throw new IllegalArgumentException(routine + ": negative size " + bytes);
        }
        if (bytes == 0) {
            return new Allocation(this, userBase, 0, hints);
        }
        HeapEvent event = profiler.heapBegin();
        long offset;
        lock.lock();
        try {
            long off = user.allocate(bytes, alignment);
            if (off < 0) {
                throw exhausted(routine, bytes);
            }
            offset = userBase + off;
            born(offset, routine, bytes);
        } finally {
            lock.unlock();
        }
        sync.agree(routine + "(bytes=" + bytes + ", alignment=" + alignment + ") -> offset " + offset);
        if (zero) {
            local.asSlice(offset, bytes).fill((byte) 0);
        }
        sync.barrier();
        profiler.heapEnd(event, routine, bytes, offset);
        return new Allocation(this, offset, bytes, hints);
    }

    /** Collective free of {@code object}: barrier on entry, then the block is returned. Empty objects are ignored. */
    public void release(String routine, SymmetricObject object) {
        Allocation a = Handles.allocation(object);
        if (a.byteSize() == 0) {
            return;
        }
        object.checkLive(routine);
        HeapEvent event = profiler.heapBegin();
        sync.barrier();
        sync.agree(routine + "(offset " + a.offset() + ")");
        lock.lock();
        try {
            user.free(a.offset() - userBase);
            a.retire();
            if (origins != null) {
                origins.remove(a.offset());
            }
        } finally {
            lock.unlock();
        }
        profiler.heapEnd(event, routine, a.byteSize(), a.offset());
    }

    /**
     * Collective resize of {@code object} to {@code newBytes}, keeping the contents up to the smaller
     * size: barrier on entry (nobody still uses the old block), move if needed, barrier on exit.
     * An empty object is allocated afresh; size 0 frees. The old allocation is retired; when there
     * is no room a {@link ShmemException} is thrown and the old object stays valid.
     */
    public Allocation reallocate(String routine, SymmetricObject object, long newBytes) {
        Allocation a = Handles.allocation(object);
        if (a.byteSize() == 0) {
            object.checkLive(routine);
            return allocate(routine, newBytes, GRANULE, a.hints(), false);
        }
        if (newBytes == 0) {
            release(routine, object);
            return new Allocation(this, userBase, 0, a.hints());
        }
        if (newBytes < 0) {
            throw new IllegalArgumentException(routine + ": negative size " + newBytes);
        }
        object.checkLive(routine);
        HeapEvent event = profiler.heapBegin();
        sync.barrier();
        long newOffset;
        lock.lock();
        try {
            long moved = user.reallocate(a.offset() - userBase, newBytes);
            if (moved < 0) {
                throw exhausted(routine, newBytes);
            }
            newOffset = userBase + moved;
            if (newOffset != a.offset()) {
                MemorySegment.copy(local, a.offset(), local, newOffset, Math.min(a.byteSize(), newBytes));
            }
            a.retire();
            if (origins != null) {
                origins.remove(a.offset());
                born(newOffset, routine, newBytes);
            }
        } finally {
            lock.unlock();
        }
        sync.agree(routine + "(offset " + a.offset() + ", bytes=" + newBytes + ") -> offset " + newOffset);
        sync.barrier();
        profiler.heapEnd(event, routine, newBytes, newOffset);
        return new Allocation(this, newOffset, newBytes, a.hints());
    }

    /**
     * Allocates {@code bytes} of the internal reserved part (collective order, like user
     * allocation), zero: reserved blocks are never freed, so a block is bytes of the new region
     * no one wrote. Not filled: a fill touched every page of the block, the whole team pool of
     * every PE (at 256 PEs, 24 MiB each, 6 GiB of /dev/shm for an in-process job and most of its init).
     */
    public long allocateReserved(String purpose, long bytes) {
        lock.lock();
        try {
            long off = reserved.allocate(bytes, 64);
            if (off < 0) {
                throw new ShmemException("internal symmetric region exhausted allocating " + bytes + " bytes for "
                        + purpose + " (" + reserved.stats() + "); raise SHMEM_RESERVED_SIZE");
            }
            return off;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Bytes of the reserved part's largest free block (blocks start on 64-byte lines): the most one
     * more {@link #allocateReserved} can take (the team area takes the rest at init).
     */
    public long reservedRemaining() {
        lock.lock();
        try {
            return reserved.stats().largestFreeBlock();
        } finally {
            lock.unlock();
        }
    }

    private ShmemException exhausted(String routine, long bytes) {
        return new ShmemException(routine + ": symmetric heap exhausted: requested " + bytes + " bytes; "
                + user.stats() + " (SHMEM_SYMMETRIC_SIZE sets the heap size)");
    }
}
