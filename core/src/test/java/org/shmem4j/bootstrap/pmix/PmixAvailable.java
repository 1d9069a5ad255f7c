package org.shmem4j.bootstrap.pmix;

import org.shmem4j.testing.Requirement;

/**
 * The PMIx tests need Debian's libpmix2 (and gcc with libpmix-dev for the layout check; a PMIx
 * server such as Open MPI's mpirun or Slurm for the jobs). Without them they are skipped, saying
 * why on stderr as well; under {@code SHMEM4J_REQUIRE_PMIX=1} (CI, which installs them) a skip is
 * a failure instead.
 */
public final class PmixAvailable {
    private PmixAvailable() {}

    /** Skips (or fails under SHMEM4J_REQUIRE_PMIX=1) the test {@code what} because of {@code missing}, unless it is null. */
    public static void require(String what, String missing) {
        Requirement.require("SHMEM4J_REQUIRE_PMIX", what, missing);
    }

    /** Requires that libpmix.so.2 loads in this JVM. */
    public static void requireLibrary(String what) {
        require(what, Pmix.unavailable().orElse(null));
    }
}
