package org.shmem4j.bootstrap.pmix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/** What needs no PMIx server: when the PMIx bootstrap is chosen, and the job id made of a namespace. */
class PmixBootstrapTest {
    @Test
    void chosenWhenAServerStartedTheProcess() {
        assertTrue(PmixBootstrap.inEnvironment(Map.of("PMIX_NAMESPACE", "slurm.pmix.7.0", "PMIX_RANK", "1")));
        assertTrue(PmixBootstrap.inEnvironment(Map.of("PMIX_SERVER_URI41", "pmix-server.1;tcp4://127.0.0.1:5")));
        assertFalse(PmixBootstrap.inEnvironment(Map.of("PMIX_RANK", "1")));
        assertFalse(PmixBootstrap.inEnvironment(Map.of("SLURM_PROCID", "0")));
    }

    @Test
    void aValidNamespaceIsTheJobId() {
        assertEquals("1032192001", PmixBootstrap.jobIdOf("1032192001"));
    }

    @Test
    void otherNamespacesGiveDistinctValidIds() {
        String a = PmixBootstrap.jobIdOf("slurm.pmix.12.34");
        String b = PmixBootstrap.jobIdOf("slurm.pmix.123.4");
        String long1 = PmixBootstrap.jobIdOf("x".repeat(200) + "1");
        String long2 = PmixBootstrap.jobIdOf("x".repeat(200) + "2");
        for (String id : new String[] {a, b, long1, long2}) {
            assertTrue(LaunchEnv.isValidJobId(id), id);
        }
        assertTrue(a.startsWith("slurmpmix1234"), a);
        assertNotEquals(a, b);
        assertNotEquals(long1, long2);
        assertEquals(a, PmixBootstrap.jobIdOf("slurm.pmix.12.34"), "every PE must compute the same id");
    }
}
