package org.shmem4j.bootstrap;

import org.shmem4j.ShmemException;

/**
 * A PE met the end of its job, which its bootstrap reported (another PE failed, a host was lost,
 * the launcher was stopped): the failure repeats what the launcher already said once for the job,
 * so a PE's entry point need not print it. A program catches it as any {@link ShmemException}.
 */
public final class JobAborted extends ShmemException {
    private static final long serialVersionUID = 1L;

    public JobAborted(String message) {
        super(message);
    }

    /** Whether {@code t} or one of its causes is the job's end. */
    public static boolean in(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof JobAborted) {
                return true;
            }
        }
        return false;
    }
}
