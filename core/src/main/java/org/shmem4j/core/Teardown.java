package org.shmem4j.core;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * The release half of an init sequence: each step that built something registers how to release
 * it, and {@link #release()} releases them in the opposite order of construction, so a part is
 * never released while a later part still uses it (the network engine closes before the heap it
 * registered is unmapped). A step that throws releases the steps before it
 * ({@link #failed(Throwable)}).
 */
final class Teardown {
    private final Deque<Runnable> built = new ArrayDeque<>();

    /**
     * Registers {@code part}, just built, to be released by {@code release}; returns it. A null
     * part (a step that had nothing to build, as the network engine of a job on one node) is skipped.
     */
    <T> T add(T part, Consumer<? super T> release) {
        if (part != null) {
            built.push(() -> release.accept(part));
        }
        return part;
    }

    /**
     * Releases every registered part, the last built first. Every release runs even when one
     * throws (nothing may stay mapped or open); the first failure is thrown after all of them, the
     * others attached to it as suppressed.
     */
    void release() {
        Throwable first = null;
        while (!built.isEmpty()) {
            try {
                built.pop().run();
            } catch (RuntimeException | Error e) { // errors too: a global exit met in a wait must not leave the heap mapped
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw (RuntimeException) first;
        }
    }

    /**
     * A step of the init sequence threw {@code cause}: releases the parts built before it, any
     * failure of theirs attached to {@code cause} (which the caller rethrows) as suppressed.
     */
    void failed(Throwable cause) {
        try {
            release();
        } catch (RuntimeException | Error secondary) {
            cause.addSuppressed(secondary);
        }
    }
}
