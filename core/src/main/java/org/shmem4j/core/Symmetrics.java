package org.shmem4j.core;

import org.shmem4j.SymmetricArray;
import org.shmem4j.SymmetricObject;

/**
 * The checks every routine makes of its symmetric arguments, null first: a null object fails
 * naming the routine and the argument, not with the JDK's text about a method of null.
 */
public final class Symmetrics {
    private Symmetrics() {
    }

    /** {@code object}, after checking it is not null. */
    public static <O extends SymmetricObject> O nonNull(String routine, String what, O object) {
        if (object == null) {
            throw new NullPointerException(routine + ": the " + what + " is null");
        }
        return object;
    }

    /** {@code object}, after checking it is not null and not freed. */
    public static <O extends SymmetricObject> O live(String routine, String what, O object) {
        nonNull(routine, what, object).checkLive(routine);
        return object;
    }

    /** The heap offset of elements {@code [index, index + count)} of {@code array}. */
    public static long offset(String routine, String what, SymmetricArray<?> array, long index, long count) {
        return nonNull(routine, what, array).elementOffset(routine, index, count);
    }

    /** The heap offset of bytes {@code [offset, offset + bytes)} of {@code object}. */
    public static long range(String routine, String what, SymmetricObject object, long offset, long bytes) {
        return nonNull(routine, what, object).byteRange(routine, offset, bytes);
    }

    /** Checks that {@code dest} and {@code source} are there and hold the same element type. */
    public static void sameElements(String routine, SymmetricArray<?> dest, SymmetricArray<?> source) {
        nonNull(routine, "destination", dest).requireSameElements(routine, nonNull(routine, "source", source));
    }
}
