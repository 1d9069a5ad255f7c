package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A PE whose exception unwinds through {@code try (Shmem shmem = Shmem.init())} while its peers
 * wait for it: the job ends with status 1 and says which PE failed and how, as separate JVMs
 * under oshrun (no --timeout: without the fix it hung until the test's bound).
 */
@Timeout(300)
class TryWithResourcesFailureTest {

    @ParameterizedTest(name = "{0} PEs, {1}")
    @CsvSource({"2, barrier", "3, barrier", "2, wait", "3, wait"})
    void theJobEndsWithStatusOneNamingThePeAndItsException(int n, String mode) {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("ThrowInsideTryWithResources -n " + n + " " + mode,
                Jobs.oshrun(n, ThrowInsideTryWithResources.class, mode), Map.of(), Duration.ofSeconds(120));
        Jobs.record("try-with-resources failure, " + n + " PEs, " + mode + ": oshrun exit " + r.exit() + " after "
                + r.wallMillis() + " ms");
        assertEquals(1, r.exit(), r::describe);
        int thrower = n - 1;
        String err = r.stderrText();
        assertTrue(err.contains("deliberate failure on PE " + thrower + " inside try-with-resources"), r::describe);
        assertTrue(err.matches("(?s).*oshrun: PE \\d \\(pid \\d+\\) exited with status 1.*"), r::describe);
        assertTrue(r.stdout().stream().noneMatch(l -> l.contains("passed the step")), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore), "shmem4j-* files left in " + Jobs.SHM_DIR);
    }
}
