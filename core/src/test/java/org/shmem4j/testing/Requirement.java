package org.shmem4j.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests that need something from the system (a library, a compiler, a resource manager) skip
 * without it, saying why on stderr as well; where the environment variable {@code requiredBy} is
 * 1 (CI, which installs it all) a skip is a failure instead.
 */
public final class Requirement {
    private Requirement() {}

    /** Skips or fails the test {@code what} because of {@code missing}, unless that is null. */
    public static void require(String requiredBy, String what, String missing) {
        if (missing == null) {
            return;
        }
        String message = what + " NOT TESTED: " + missing;
        if ("1".equals(System.getenv(requiredBy))) {
            fail(message + " (" + requiredBy + "=1)");
        }
        System.err.println("WARNING: " + message);
        assumeTrue(false, message);
    }
}
