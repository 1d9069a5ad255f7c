package org.shmem4j;

import java.lang.foreign.MemorySegment;
import org.shmem4j.core.heap.SymmetricHeap;

/**
 * A symmetric data object: a block of the symmetric heap that exists at the same offset on every
 * PE. It is a handle (heap offset and size), valid from the collective allocation that made it until
 * the collective {@link #close()} (or {@code Shmem.free}) that releases it; using it afterwards throws
 * {@link IllegalStateException}. Objects are created only by the allocation routines of {@link Shmem}.
 */
public abstract sealed class SymmetricObject implements AutoCloseable permits SymmetricArray, SymmetricSegment {
    private final SymmetricHeap heap;
    private final long offset;
    private final long byteSize;
    private final long hints;
    private volatile boolean freed;

    SymmetricObject(SymmetricHeap heap, long offset, long byteSize, long hints) {
        this.heap = heap;
        this.offset = offset;
        this.byteSize = byteSize;
        this.hints = hints;
    }

    /** The heap this object was allocated from (implementation detail of the runtime). */
    public final SymmetricHeap heap() {
        return heap;
    }

    /** Offset of the object in every PE's symmetric region: its symmetric address. */
    public final long offset() {
        return offset;
    }

    /** Size in bytes. */
    public final long byteSize() {
        return byteSize;
    }

    /** The hints given to {@code mallocWithHints} (0 for the other allocation routines). */
    public final long hints() {
        return hints;
    }

    /** True after the object was freed (or the library finalized). */
    public final boolean isFreed() {
        return freed || heap.isClosed();
    }

    /**
     * This PE's own copy of the object, for local loads and stores. Remote PEs may write it at any
     * time, so synchronise (barrier, wait) before reading data that others put.
     */
    public final MemorySegment segment() {
        checkLive("segment");
        return heap.localSlice(offset, byteSize);
    }

    /**
     * Collectively frees the object: {@code shmem_free}. Every PE must call it (same order of
     * collective allocation calls on all PEs); it begins with a barrier.
     */
    @Override
    @Binds("shmem_free")
    public final void close() {
        heap.free(this);
    }

    /** Marks the object freed; called by the heap. */
    final void markFreed() {
        freed = true;
    }

    /** Throws if the object was freed or belongs to a finalized library instance. */
    public final void checkLive(String routine) {
        if (freed || heap.isClosed()) {
            throw new IllegalStateException(routine + ": symmetric object " + this + " was freed"
                    + (heap.isClosed() ? " (the library was finalized)" : ""));
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[offset=" + offset + ", bytes=" + byteSize + "]";
    }
}
