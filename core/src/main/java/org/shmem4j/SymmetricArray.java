package org.shmem4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
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

    /**
     * This PE's copy of the elements, for hot loops: the same view as {@link #segment()}
     * (element {@code i} at byte offset {@code i * elementBytes()}), with the same rules. Per-element
     * {@code get}/{@code set} already cost what a Java array access costs in a loop (the checks are
     * proven once per loop); the view is for code that wants the segment API itself, such as
     * {@code MemorySegment.copy}, {@code asSlice}, or the Vector API:
     * <pre>{@code
     * MemorySegment x = array.elements();              // once, outside the loop
     * for (long i = 0; i < array.length(); i++) {
     *     x.setAtIndex(JAVA_DOUBLE, i, 2 * x.getAtIndex(JAVA_DOUBLE, i));
     * }
     * // jdk.incubator.vector (--add-modules jdk.incubator.vector):
     * DoubleVector v = DoubleVector.fromMemorySegment(SPECIES, x, byteOffset, ByteOrder.nativeOrder());
     * }</pre>
     * With the Vector API, do a loop's last elements (fewer than a vector) one by one rather than
     * with a masked load or store: without mask registers (AVX2, not AVX-512) those run in Java,
     * and made a stencil sweep 12x slower in bench's {@code VectorSweep}.
     */
    public final MemorySegment elements() {
        return segment();
    }

    /**
     * Copies {@code count} elements of the Java array {@code src}, from {@code srcIndex}, into this
     * PE's copy from element {@code index} (a local copy; both ranges are checked once).
     *
     * @throws IndexOutOfBoundsException naming the method and the range when either range is out of bounds
     */
    public final void copyFrom(long index, A src, int srcIndex, int count) {
        checkLive("copyFrom");
        checkArrayRange("copyFrom", index, src, srcIndex, count);
        MemorySegment.copy(src, srcIndex, local, elementLayout(), index * elementBytes(), count);
    }

    /**
     * Copies {@code count} of this PE's elements, from element {@code index}, into the Java array
     * {@code dst} from {@code dstIndex} (a local copy; both ranges are checked once).
     *
     * @throws IndexOutOfBoundsException naming the method and the range when either range is out of bounds
     */
    public final void copyTo(long index, A dst, int dstIndex, int count) {
        checkLive("copyTo");
        checkArrayRange("copyTo", index, dst, dstIndex, count);
        MemorySegment.copy(local, elementLayout(), index * elementBytes(), dst, dstIndex, count);
    }

    private void checkArrayRange(String method, long index, A array, int arrayIndex, int count) {
        int arrayLength = java.lang.reflect.Array.getLength(Objects.requireNonNull(array,
                () -> getClass().getSimpleName() + "." + method + ": the Java array is null"));
        if (index < 0 || count < 0 || index > length - count) {
            throw new IndexOutOfBoundsException(getClass().getSimpleName() + "." + method + ": element range ["
                    + index + ", " + index + " + " + count + ") is out of bounds for " + this);
        }
        if (arrayIndex < 0 || arrayIndex > arrayLength - count) {
            throw new IndexOutOfBoundsException(getClass().getSimpleName() + "." + method + ": Java array range ["
                    + arrayIndex + ", " + arrayIndex + " + " + count + ") is out of bounds for length " + arrayLength);
        }
    }

    /** The exception of an element accessor given a bad index (built only when it is thrown). */
    final IndexOutOfBoundsException badIndex(String method, long index) {
        return new IndexOutOfBoundsException(getClass().getSimpleName() + "." + method + ": index " + index
                + " is out of bounds for " + this);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[offset=" + offset() + ", length=" + length + "]";
    }
}
