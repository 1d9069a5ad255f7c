package org.shmem4j.transport;

/**
 * The atomic operations a {@link Channel} performs on a 32- or 64-bit word of a peer's region
 * (spec 9.7). Fetch, set and increment are not here: they are {@code OR 0} (or {@code ADD 0}),
 * {@link #SWAP} with the old value ignored, and {@code ADD 1}, as UCX expresses them too.
 */
public enum AtomicOp {
    ADD,
    AND,
    OR,
    XOR,
    SWAP,
    /** Replaces the word with the operand if it equals the compare value; always returns the old value. */
    COMPARE_SWAP;

    /**
     * Checks that {@code update} may update a signal word ({@link Channel#putSignal}): {@link #SWAP}
     * (the signal set) or {@link #ADD}.
     *
     * @return {@code update}
     * @throws IllegalArgumentException naming {@code routine} and the operation otherwise
     */
    public static AtomicOp checkSignal(String routine, AtomicOp update) {
        if (update != SWAP && update != ADD) {
            throw new IllegalArgumentException(routine + ": a signal is updated by SWAP (set) or ADD, not " + update);
        }
        return update;
    }
}
