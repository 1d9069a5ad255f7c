package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** AMO uniqueness and lock-protected updates between PEs that are separate JVMs. */
@Timeout(300)
class AtomicsAndLocksTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8})
    void fetchAddUniquenessAndLockedCounterAcrossJvms(int n) {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("AmoLockCheck -n " + n, Jobs.oshrun(n, AmoLockCheck.class, "500"), Map.of(),
                Duration.ofSeconds(120));
        assertEquals(0, r.exit(), r::describe);
        var amo = new TreeSet<String>();
        var lock = new TreeSet<String>();
        for (String l : r.stdout()) {
            if (l.startsWith("amo-ok ")) {
                amo.add(l);
            } else if (l.startsWith("lock-ok ")) {
                lock.add(l);
            }
        }
        var wantAmo = new TreeSet<String>();
        var wantLock = new TreeSet<String>();
        for (int p = 0; p < n; p++) {
            wantAmo.add("amo-ok " + p);
            wantLock.add("lock-ok " + p);
        }
        assertEquals(wantAmo, amo, r::describe);
        assertEquals(wantLock, lock, r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore), "shmem4j-* files left behind");
    }
}
