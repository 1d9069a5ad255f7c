package org.shmem4j;

/**
 * An OpenSHMEM operation failed for a reason other than a plain misuse of an argument (those
 * throw the JDK's own {@code IllegalArgumentException}, {@code IndexOutOfBoundsException} and
 * {@code IllegalStateException}): the environment is invalid, the heap is exhausted, a peer is
 * gone. Messages name the routine and the offending value.
 */
public class ShmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ShmemException(String message) {
        super(message);
    }

    public ShmemException(String message, Throwable cause) {
        super(message, cause);
    }
}
