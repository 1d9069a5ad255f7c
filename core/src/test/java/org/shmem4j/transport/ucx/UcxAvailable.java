package org.shmem4j.transport.ucx;

import org.shmem4j.testing.Requirement;

/**
 * The UCX tests need Debian's libucx0 (and gcc with libucx-dev for the layout check). Without them
 * they are skipped, saying why on stderr as well; under {@code SHMEM4J_REQUIRE_UCX=1} (CI, which
 * installs UCX) a skip is a failure instead.
 */
public final class UcxAvailable {
    private UcxAvailable() {}

    static void require(String what, String missing) {
        Requirement.require("SHMEM4J_REQUIRE_UCX", what, missing);
    }

    public static void requireUcx(String what) {
        require(what, Ucx.unavailable().orElse(null));
    }
}
