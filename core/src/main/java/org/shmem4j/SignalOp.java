package org.shmem4j;

/** How a put-with-signal or signal routine updates the signal word ({@code SHMEM_SIGNAL_*}). */
public enum SignalOp {
    /** {@code SHMEM_SIGNAL_SET}: the signal word becomes the value. */
    SET,
    /** {@code SHMEM_SIGNAL_ADD}: the value is added to the signal word atomically. */
    ADD
}
