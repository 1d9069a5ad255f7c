package org.shmem4j;

import java.lang.foreign.MemorySegment;
import org.shmem4j.core.heap.Allocation;
import org.shmem4j.core.heap.Handles;

/**
 * A symmetric data object: a block of the symmetric heap that exists at the same offset on every
 * PE. It is a handle, valid from the collective allocation that made it until the collective
 * {@link #close()} ({@code shmem_free}) or {@code realloc} that retires it, or the last finalize;
 * using it afterwards throws {@link IllegalStateException}. Objects are created only by the
 * allocation routines of {@link Shmem}.
 */
public abstract sealed class SymmetricObject implements AutoCloseable permits SymmetricArray, SymmetricSegment {
    private final Allocation allocation;
    private final long offset;
    private final long byteSize;
    /**
     * This PE's copy, sliced once: element accessors go through final fields only, so the JIT
     * proves bounds and liveness once per loop instead of once per element.
     */
    final MemorySegment local;

    SymmetricObject(Allocation allocation) {
        this.allocation = allocation;
        this.offset = allocation.offset();
        this.byteSize = allocation.byteSize();
        this.local = allocation.heap().localSlice(offset, byteSize);
    }

    static {
        Handles.install(new SymmetricHandles()); // the runtime's only way to make and open handles
    }

    /** The runtime's record of this block (package-private: the runtime reaches it through {@link Handles}). */
    final Allocation allocation() {
        return allocation;
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
        return allocation.hints();
    }

    /** True until the object is freed or resized, or the library finalized. */
    public final boolean isLive() {
        return allocation.isLive();
    }

    /**
     * This PE's own copy of the object, for local loads and stores: a view of exactly
     * {@link #byteSize()} bytes at the object's place in this PE's heap, the same view on every call.
     * Remote PEs may write it at any time, so synchronise (barrier, wait) before reading data that
     * others put.
     *
     * <p>The view checks its own bounds, and it stops working (an {@link IllegalStateException})
     * when the library is finalized and the heap unmapped. It cannot know that the object was
     * freed: after {@link #close()} it still reaches the same bytes, which the next allocation may
     * reuse. Take it again after each allocation call rather than keeping it beyond the object.
     */
    public final MemorySegment segment() {
        checkLive("segment");
        return local;
    }

    /**
     * Collectively frees the object ({@code shmem_free}): every PE must call it, in the same order
     * of collective allocation calls; it begins with a barrier. An empty object (size 0) needs no
     * freeing and its {@code close()} does nothing, like {@code shmem_free(NULL)}.
     */
    @Override
    @Binds("shmem_free")
    public final void close() {
        allocation.heap().release("shmem_free", this);
    }

    /**
     * Checks that bytes {@code [byteOffset, byteOffset + bytes)} lie inside this live object and
     * returns their region offset; messages name {@code routine} and the bad range.
     */
    public final long byteRange(String routine, long byteOffset, long bytes) {
        checkLive(routine);
        if (byteOffset < 0 || bytes < 0 || byteOffset > byteSize - bytes) {
            throw new IndexOutOfBoundsException(routine + ": byte range [" + byteOffset + ", " + byteOffset + " + " + bytes
                    + ") is out of bounds for " + this);
        }
        return offset + byteOffset;
    }

    /** Throws {@link IllegalStateException} naming {@code routine} if the object is not live. */
    public final void checkLive(String routine) {
        if (!allocation.isLive()) {
            throw new IllegalStateException(routine + ": " + this + " is no longer valid: " + allocation.deadReason());
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[offset=" + offset + ", bytes=" + byteSize + "]";
    }
}
