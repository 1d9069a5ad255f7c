package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;

/** A PE that fails ends its peers' collectives promptly, whatever algorithm they wait in. */
@Timeout(120)
class CollectiveAbortInProcessTest {

    @ParameterizedTest
    @ValueSource(strings = {"linear", "tree", "recursive_doubling", "ring", "rabenseifner"})
    void aFailingPeEndsTheOthersReduction(String algorithm) {
        var result = InProcessJob.run(3, InProcessTestSupport.env("SHMEM_REDUCE_ALGORITHM", algorithm), Duration.ofSeconds(60), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1024);
                if (shmem.myPe() == 2) {
                    throw new IllegalStateException("PE 2 gives up");
                }
                shmem.teamWorld().sumReduce(x, x, 1024);
            }
        });
        assertEquals(1, result.status());
        assertFalse(result.timedOut(), "the others hung in " + algorithm);
        assertTrue(result.failures().toString().contains("PE 2 gives up"), result.failures().toString());
    }
}
