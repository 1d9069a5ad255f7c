package org.shmem4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.core.heap.Allocation;

/**
 * A symmetric array of one Java primitive type. {@code A} is the matching Java array type
 * ({@code long[]} for {@link SymmetricLongArray}), which lets one generic RMA method serve every
 * element type with compile-time type safety: a {@code long[]} can only be put into a
 * {@code SymmetricArray<long[]>}.
 *
 * @param <A> the Java array type of the elements
 */
public abstract sealed class SymmetricArray<A> extends SymmetricObject
        permits SymmetricByteArray, SymmetricShortArray, SymmetricIntArray, SymmetricLongArray,
                SymmetricFloatArray, SymmetricDoubleArray, SymmetricCharArray {
    private final long length;

    SymmetricArray(Allocation allocation, long length) {
        super(allocation);
        this.length = length;
    }

    /** Number of elements. */
    public final long length() {
        return length;
    }

    /** Layout of one element (native byte order, naturally aligned). */
    public abstract ValueLayout elementLayout();

    /** Size of one element in bytes. */
    public final long elementBytes() {
        return elementLayout().byteSize();
    }

    /**
     * Throws unless {@code other} holds the same element type: the generic signatures make mixing
     * impossible at compile time, but raw types and unchecked casts can still get here, and a copy
     * counted in one type's elements over another's would read or write the wrong bytes.
     */
    public final void requireSameElements(String routine, SymmetricArray<?> other) {
        if (other != null && other.getClass() != getClass()) {
            throw new IllegalArgumentException(routine + ": dest holds " + elementLayout().carrier() + " elements but source holds "
                    + other.elementLayout().carrier() + " elements");
        }
    }

    /**
     * Checks that {@code [index, index + count)} lies inside this live object and returns the heap
     * offset of element {@code index}; the message names {@code routine} and the bad range.
     */
    public final long elementOffset(String routine, long index, long count) {
        checkLive(routine);
        if (index < 0 || count < 0 || index > length - count) {
            throw new IndexOutOfBoundsException(routine + ": element range [" + index + ", " + index + " + " + count
                    + ") is out of bounds for " + this);
        }
        return offset() + index * elementBytes();
    }

    /** This PE's copy of the elements; see {@link SymmetricObject#segment()}. */
    public final MemorySegment elements() {
        return segment();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[offset=" + offset() + ", length=" + length + "]";
    }
}
