package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.SignalOp;
import org.shmem4j.SymmetricArray;
import org.shmem4j.SymmetricLongArray;

/**
 * The argument checks of the point-to-point routines ({@link RmaEngine}) on their local
 * arguments (Java arrays, segments, strides, counts), and the heap segments their network path
 * makes of Java arrays. Every message names the routine and the bad value.
 */
final class RmaChecks {
    private RmaChecks() {
    }

    /** Extent {@code (nblocks-1)*stride + bsize} of a block-strided access, after validating its arguments. */
    static long span(String routine, String strideName, long stride, long bsize, long nblocks) {
        if (nblocks < 0 || bsize < 0) {
            throw new IllegalArgumentException(routine + ": negative " + (nblocks < 0 ? "count " + nblocks : "block size " + bsize));
        }
        if (nblocks == 0 || bsize == 0) {
            return 0;
        }
        if (nblocks > 1 && stride < bsize) {
            throw new IllegalArgumentException(routine + ": stride " + strideName + "=" + stride + " is less than the block size " + bsize);
        }
        try {
            return Math.addExact(Math.multiplyExact(nblocks - 1, stride), bsize);
        } catch (ArithmeticException e) {
            throw new IndexOutOfBoundsException(routine + ": stride " + strideName + "=" + stride + " times " + nblocks + " overflows");
        }
    }

    /**
     * Checks a Java array argument of a typed routine: its element type is the symmetric array's
     * (raw types and unchecked casts can mix them), and {@code [index, index + count)} lies in it.
     * A null array is accepted with {@code count} 0, as C accepts a null pointer with length 0
     * (Annex C). Returns whether there is anything to copy.
     */
    static boolean checkArray(String routine, String what, Object array, SymmetricArray<?> symmetric, long index, long count) {
        if (array != null && array.getClass().getComponentType() != symmetric.elementLayout().carrier()) {
            throw new IllegalArgumentException(routine + ": the " + what + " is a " + array.getClass().getSimpleName()
                    + " but the symmetric array holds " + symmetric.elementLayout().carrier() + " elements");
        }
        return checkRange(routine, what, array, index, count);
    }

    /** {@link #checkArray} for the byte arrays of the {@code *mem} routines. */
    static boolean checkBytes(String routine, String what, byte[] array, long index, long count) {
        return checkRange(routine, what, array, index, count);
    }

    private static boolean checkRange(String routine, String what, Object array, long index, long count) {
        if (array == null) {
            if (count == 0) {
                return false;
            }
            throw new NullPointerException(routine + ": the " + what + " array is null but " + count + " elements are to be moved");
        }
        int arrayLength = java.lang.reflect.Array.getLength(array);
        if (index < 0 || count < 0 || index > arrayLength - count) {
            throw new IndexOutOfBoundsException(routine + ": " + what + " range [" + index + ", " + index + " + " + count
                    + ") is out of bounds for an array of length " + arrayLength);
        }
        return count > 0;
    }

    /** Checks the Java array a fetching AMO's nbi form delivers into. */
    static void checkFetch(String routine, Object fetch, int fetchIndex) {
        if (fetch == null) {
            throw new IllegalArgumentException(routine + ": the fetch array is null");
        }
        checkRange(routine, "fetch", fetch, fetchIndex, 1);
    }

    /**
     * {@code segment} after checking it holds {@code bytes}; a null segment is an empty one
     * (C's null pointer with length 0, Annex C), and an error where bytes are to be moved.
     */
    static MemorySegment segment(String routine, String what, MemorySegment segment, long bytes) {
        if (segment == null) {
            if (bytes == 0) {
                return MemorySegment.NULL;
            }
            throw new NullPointerException(routine + ": the " + what + " segment is null but " + bytes + " bytes are to be moved");
        }
        if (bytes > segment.byteSize()) {
            throw new IndexOutOfBoundsException(routine + ": " + what + " segment of " + segment.byteSize()
                    + " bytes is smaller than the " + bytes + " bytes accessed");
        }
        return segment;
    }

    /**
     * A segment whose whole length is moved: null is an error, not an empty segment (nothing says
     * the caller meant none; {@code MemorySegment.NULL} does).
     */
    static MemorySegment wholeSegment(String routine, String what, MemorySegment segment) {
        if (segment == null) {
            throw new NullPointerException(routine + ": the " + what + " segment is null (MemorySegment.NULL moves nothing)");
        }
        return segment;
    }

    static long wholeElements(String routine, MemorySegment segment, long elementBytes) {
        if (segment.byteSize() % elementBytes != 0) {
            throw new IllegalArgumentException(routine + ": segment of " + segment.byteSize()
                    + " bytes is not a whole number of " + elementBytes + "-byte elements");
        }
        return segment.byteSize() / elementBytes;
    }

    /** The bytes of {@code nelems} elements of {@code elementBytes} (the sized routines' count). */
    static long sizedBytes(String routine, long nelems, long elementBytes) {
        if (nelems < 0 || nelems > Long.MAX_VALUE / elementBytes) {
            throw new IllegalArgumentException(routine + ": nelems " + nelems + " is negative or too large");
        }
        return nelems * elementBytes;
    }

    /** The signal word's offset after checking it and the operation. */
    static long checkSignal(String routine, SymmetricLongArray sig, long sigIndex, SignalOp sigOp) {
        if (sigOp == null) {
            throw new IllegalArgumentException(routine + ": signal operation is null");
        }
        return Symmetrics.offset(routine, "signal array", sig, sigIndex, 1);
    }

    /** Elements {@code [index, index + count)} of a primitive Java array, as a heap segment. */
    static MemorySegment slice(Object array, long index, long count, long elementBytes) {
        MemorySegment whole = switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
        };
        return whole.asSlice(index * elementBytes, count * elementBytes);
    }
}
