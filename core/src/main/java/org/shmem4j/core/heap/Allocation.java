package org.shmem4j.core.heap;

/**
 * The runtime's record of one live block of the symmetric heap, shared by the public handle that
 * names it. Freeing (or resizing, which retires the old handle) marks it dead, so that every later
 * use of the handle fails with a clear message instead of touching memory that now belongs to
 * another object.
 */
public final class Allocation {
    private final SymmetricHeap heap;
    private final long offset;
    private final long byteSize;
    private final long hints;
    private boolean retired;

    Allocation(SymmetricHeap heap, long offset, long byteSize, long hints) {
        this.heap = heap;
        this.offset = offset;
        this.byteSize = byteSize;
        this.hints = hints;
    }

    public SymmetricHeap heap() {
        return heap;
    }

    /** Offset in the symmetric region (the same on every PE). */
    public long offset() {
        return offset;
    }

    public long byteSize() {
        return byteSize;
    }

    public long hints() {
        return hints;
    }

    /** True until the block is freed or resized, or the library finalized. */
    public boolean isLive() {
        return !retired && !heap.isClosed();
    }

    /** Why the block is not live, for error messages. */
    public String deadReason() {
        return heap.isClosed() ? "the library was finalized" : "it was freed";
    }

    void retire() {
        retired = true;
    }
}
