package org.shmem4j.core.heap;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.ShmemException;

/**
 * This PE's symmetric region and the allocators that carve it up. The region is
 * {@code [0, reservedBytes)} for the library's own symmetric structures (barrier and lock words,
 * collective scratch) followed by the user heap of {@code SHMEM_SYMMETRIC_SIZE} bytes. Both parts are
 * managed by deterministic allocators, so the same sequence of collective calls yields the same
 * offsets on every PE and an offset is a symmetric address.
 *
 * <p>Collective semantics (barriers around allocation, agreement checks) are the caller's: this
 * class only does the local bookkeeping, under a lock so that threads of one PE can allocate.
 */
public final class SymmetricHeap {
    private final MemorySegment local;
    private final long userBase;
    private final SymmetricAllocator user;
    private final SymmetricAllocator reserved;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;

    /**
     * @param local this PE's mapping of its whole region
     * @param reservedBytes size of the internal part at the start of the region (multiple of 64)
     */
    public SymmetricHeap(MemorySegment local, long reservedBytes) {
        this.local = local;
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

    /** Size of the user heap in bytes ({@code SHMEM_SYMMETRIC_SIZE}). */
    public long userCapacity() {
        return local.byteSize() - userBase;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Called by the last finalize: every object of this heap becomes invalid. */
    public void close() {
        closed = true;
    }

    /**
     * Allocates {@code bytes} (greater than 0) of user heap aligned to {@code alignment}; returns the
     * region offset. Throws a {@link ShmemException} naming {@code routine} when the heap is exhausted
     * (the heap is unchanged then).
     */
    public long allocate(String routine, long bytes, long alignment) {
        lock.lock();
        try {
            long off = user.allocate(bytes, alignment);
            if (off < 0) {
                throw exhausted(routine, bytes);
            }
            return userBase + off;
        } finally {
            lock.unlock();
        }
    }

    /** Frees the user-heap block at region offset {@code offset}. */
    public void free(long offset) {
        lock.lock();
        try {
            user.free(offset - userBase);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Resizes the user-heap block at {@code offset}; returns its new region offset (the contents
     * are copied when the block moves). Throws when there is no room (the old block stays).
     */
    public long reallocate(String routine, long offset, long newBytes) {
        lock.lock();
        try {
            long oldBytes = user.sizeOf(offset - userBase);
            long moved = user.reallocate(offset - userBase, newBytes);
            if (moved < 0) {
                throw exhausted(routine, newBytes);
            }
            long newOffset = userBase + moved;
            if (newOffset != offset) {
                MemorySegment.copy(local, offset, local, newOffset, Math.min(oldBytes, newBytes));
            }
            return newOffset;
        } finally {
            lock.unlock();
        }
    }

    /** Allocates {@code bytes} of the internal reserved part (collective order, like user allocation). */
    public long allocateReserved(String purpose, long bytes) {
        lock.lock();
        try {
            long off = reserved.allocate(bytes, 64);
            if (off < 0) {
                throw new ShmemException("internal symmetric region exhausted allocating " + bytes + " bytes for "
                        + purpose + " (" + reserved.stats() + "); raise SHMEM_RESERVED_SIZE");
            }
            local.asSlice(off, bytes).fill((byte) 0);
            return off;
        } finally {
            lock.unlock();
        }
    }

    /** Returns a reserved block to the internal allocator. */
    public void freeReserved(long offset) {
        lock.lock();
        try {
            reserved.free(offset);
        } finally {
            lock.unlock();
        }
    }

    /** Allocation statistics of the user heap. */
    public SymmetricAllocator.Stats stats() {
        lock.lock();
        try {
            return user.stats();
        } finally {
            lock.unlock();
        }
    }

    private ShmemException exhausted(String routine, long bytes) {
        return new ShmemException(routine + ": symmetric heap exhausted: requested " + bytes + " bytes; "
                + user.stats() + " (SHMEM_SYMMETRIC_SIZE sets the heap size)");
    }
}
