package org.shmem4j.examples;

import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * The self-checks of the example programs: a wrong result is reported on standard error and
 * ends the whole job with {@code shmem_global_exit(1)}, so that {@code oshrun} exits non-zero.
 */
final class Checks {
    /** The status every failed check ends the job with. */
    static final int FAILED = 1;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private Checks() {
    }

    /** Ends the job unless {@code condition} holds; {@code what} describes the expectation. */
    static void check(Shmem shmem, boolean condition, String what) {
        if (!condition) {
            fail(shmem, what);
        }
    }

    /**
     * Ends the job unless {@code actual} equals {@code expected}; primitive arrays are compared
     * element by element.
     */
    static void expectEquals(Shmem shmem, String what, Object expected, Object actual) {
        if (!Objects.deepEquals(expected, actual)) {
            fail(shmem, what + " is " + show(actual) + ", expected " + show(expected));
        }
    }

    /** Ends the job unless it has at least {@code minimum} PEs (the example addresses PE {@code minimum - 1}). */
    static void requirePes(Shmem shmem, int minimum, String example) {
        if (shmem.nPes() < minimum) {
            fail(shmem, example + " needs at least " + minimum + " PEs, the job has " + shmem.nPes());
        }
    }

    /**
     * Waits until this PE's {@code array[index]} holds {@code value} (a remote PE puts it),
     * reading it with acquire semantics so that what was delivered before it is visible too;
     * ends the job if it does not arrive within {@code timeout}.
     */
    static void awaitValue(Shmem shmem, SymmetricIntArray array, long index, int value, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long offset = index * Integer.BYTES;
        while ((int) INT.getAcquire(array.segment(), offset) != value) {
            if (System.nanoTime() - deadline > 0) {
                fail(shmem, "element " + index + " of " + array + " did not become " + value + " within " + timeout
                        + " (it is " + (int) INT.getAcquire(array.segment(), offset) + ")");
            }
            Thread.onSpinWait();
        }
    }

    /** Reports {@code message} and ends the job; does not return. */
    static void fail(Shmem shmem, String message) {
        System.err.printf("FAILED on PE %d of %d: %s%n", shmem.myPe(), shmem.nPes(), message);
        System.err.flush();
        shmem.globalExit(FAILED);
    }

    private static String show(Object value) {
        String shown = Arrays.deepToString(new Object[] {value});
        return shown.substring(1, shown.length() - 1);
    }
}
