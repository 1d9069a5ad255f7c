package org.shmem4j;

/**
 * Thrown in PEs that run as threads of one JVM when the job ends through {@code shmem_global_exit}
 * (the calling PE's thread gets it from {@code globalExit}, the others from whatever they are
 * blocked in). A PE that is its own process never sees it: the process exits with the status.
 * It is an {@link Error} so that ordinary {@code catch (RuntimeException e)} blocks do not swallow
 * the end of the job.
 */
public final class ShmemGlobalExit extends Error {
    private static final long serialVersionUID = 1L;
    private final int status;

    public ShmemGlobalExit(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The status passed to {@code shmem_global_exit}. */
    public int status() {
        return status;
    }
}
