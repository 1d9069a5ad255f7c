package org.shmem4j.transport.ucx;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The UCX tests need Debian's libucx0 (and gcc with libucx-dev for the layout check). Without them
 * they are skipped, saying why on stderr as well; under {@code SHMEM4J_REQUIRE_UCX=1} (CI, which
 * installs UCX) a skip is a failure instead.
 */
public final class UcxAvailable {
    private UcxAvailable() {}

    static void require(String what, String missing) {
        if (missing == null) {
            return;
        }
        String message = what + " NOT TESTED: " + missing;
        if ("1".equals(System.getenv("SHMEM4J_REQUIRE_UCX"))) {
            fail(message + " (SHMEM4J_REQUIRE_UCX=1)");
        }
        System.err.println("WARNING: " + message);
        assumeTrue(false, message);
    }

    public static void requireUcx(String what) {
        require(what, Ucx.unavailable().orElse(null));
    }
}
