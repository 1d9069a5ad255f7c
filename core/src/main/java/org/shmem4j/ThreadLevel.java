package org.shmem4j;

/** Thread support levels (spec 9.2), in increasing order as the spec requires. */
public enum ThreadLevel {
    /** {@code SHMEM_THREAD_SINGLE}: the program is not multithreaded. */
    SINGLE,
    /** {@code SHMEM_THREAD_FUNNELED}: only the initializing thread calls OpenSHMEM. */
    FUNNELED,
    /** {@code SHMEM_THREAD_SERIALIZED}: calls never overlap. */
    SERIALIZED,
    /** {@code SHMEM_THREAD_MULTIPLE}: any thread may call at any time. */
    MULTIPLE
}
