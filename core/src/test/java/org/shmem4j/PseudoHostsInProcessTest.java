package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.inprocess.InProcessJob;

/** Pseudo-hosts of an in-process job: teams SHARED, host and leaders, shmem_ptr and team ptr follow them. */
@Timeout(120)
class PseudoHostsInProcessTest {

    /** PE r of n on host r * h / n. */
    static int hostOf(int pe, int n, int h) {
        return pe * h / n;
    }

    static int[] hostMembers(int pe, int n, int h) {
        return IntStream.range(0, n).filter(q -> hostOf(q, n, h) == hostOf(pe, n, h)).toArray();
    }

    static void checkTeams(Shmem shmem, int hosts) {
        int me = shmem.myPe(), n = shmem.nPes();
        int[] mine = hostMembers(me, n, hosts);
        for (Team t : new Team[] {shmem.teamShared(), shmem.teamHost()}) {
            assertEquals(mine.length, t.nPes());
            assertEquals(me - mine[0], t.myPe());
            for (int i = 0; i < mine.length; i++) {
                assertEquals(mine[i], t.translatePe(i, shmem.teamWorld()));
            }
            t.sync();
        }
        int[] leaders = IntStream.range(0, n).filter(q -> q == hostMembers(q, n, hosts)[0]).toArray();
        assertEquals(hosts, leaders.length);
        Team lt = shmem.teamLeaders();
        if (me == mine[0]) {
            assertTrue(lt.isValid());
            assertEquals(hosts, lt.nPes());
            assertEquals(hostOf(me, n, hosts), lt.myPe());
            for (int i = 0; i < hosts; i++) {
                assertEquals(leaders[i], lt.translatePe(i, shmem.teamWorld()));
            }
            lt.sync();
        } else {
            assertFalse(lt.isValid());
            assertEquals(-1, lt.myPe());
        }

        SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 2);
        x.set(0, 1000 + me);
        shmem.barrierAll();
        for (int pe = 0; pe < n; pe++) {
            boolean sameHost = hostOf(pe, n, hosts) == hostOf(me, n, hosts);
            assertTrue(shmem.peAccessible(pe), "PE " + pe + " is reachable by RMA");
            assertTrue(shmem.addrAccessible(x, pe));
            assertEquals(sameHost, shmem.ptr(x, pe) != null, "shmem_ptr to PE " + pe);
            assertEquals(sameHost, shmem.teamWorld().ptr(x, pe) != null, "team ptr to PE " + pe);
            if (sameHost) {
                assertEquals(1000 + pe, shmem.ptr(x, pe).get(ValueLayout.JAVA_LONG, 0));
            }
            assertEquals(1000 + pe, shmem.g(x, 0, pe), "RMA across pseudo-hosts moves data");
        }
        // team ptr within SHARED reaches every member (all on my host)
        for (int i = 0; i < mine.length; i++) {
            assertNotNull(shmem.teamShared().ptr(x, i));
        }
        // a split team that interleaves hosts: ptr only to members of my host
        Team odd = shmem.teamWorld().splitStrided(1, 2, n / 2, null, 0);
        if (me % 2 == 1) {
            for (int i = 0; i < odd.nPes(); i++) {
                int pe = odd.translatePe(i, shmem.teamWorld());
                assertEquals(hostOf(pe, n, hosts) == hostOf(me, n, hosts), odd.ptr(x, i) != null);
            }
            odd.close();
        }
        shmem.barrierAll();
        x.close();
    }

    @Test
    void twelvePesOnThreePseudoHosts() {
        InProcessJob.run(12, 3, InProcessTestSupport.oneNodeEnv(), Duration.ofSeconds(60), () -> {
            try (Shmem shmem = Shmem.init()) {
                checkTeams(shmem, 3);
            }
        }).orThrow();
    }

    @ParameterizedTest(name = "{0} PEs on {1} pseudo-hosts (environment variable)")
    @CsvSource({"12, 3", "5, 2", "4, 4", "3, 1"})
    void pseudoHostsFromTheEnvironment(int n, int hosts) {
        InProcessTestSupport.runWith(n, InProcessTestSupport.oneNodeEnv(InProcessHub.HOSTS, Integer.toString(hosts)), () -> {
            try (Shmem shmem = Shmem.init()) {
                checkTeams(shmem, hosts);
            }
        }).orThrow();
    }

    @Test
    void withoutPseudoHostsEveryPeIsOnOneHost() {
        InProcessTestSupport.runWith(4, InProcessTestSupport.oneNodeEnv(), () -> {
            try (Shmem shmem = Shmem.init()) {
                assertEquals(4, shmem.teamShared().nPes());
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int pe = 0; pe < 4; pe++) {
                    assertNotNull(shmem.ptr(x, pe));
                }
                x.close();
            }
        }).orThrow();
    }

    @Test
    void ptrAcrossPseudoHostsIsNull() {
        InProcessJob.run(4, 2, InProcessTestSupport.oneNodeEnv(), Duration.ofSeconds(60), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricIntArray x = shmem.calloc(ValueLayout.JAVA_INT, 4);
                int me = shmem.myPe();
                assertNotNull(shmem.ptr(x, me));
                assertNotNull(shmem.ptr(x, me ^ 1)); // 0-1 and 2-3 share a host
                assertNull(shmem.ptr(x, me ^ 2));
                assertNull(shmem.ptr(x, me ^ 3));
                x.close();
            }
        }).orThrow();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 5})
    void badPseudoHostCounts(int hosts) {
        assertThrows(IllegalArgumentException.class,
                () -> InProcessJob.run(4, hosts, InProcessTestSupport.oneNodeEnv(), Duration.ofSeconds(10), () -> {
                }));
        assertThrows(IllegalArgumentException.class, () -> InProcessTestSupport.runWith(4,
                InProcessTestSupport.oneNodeEnv(InProcessHub.HOSTS, Integer.toString(hosts)), () -> {
                }));
        assertThrows(IllegalArgumentException.class, () -> InProcessTestSupport.runWith(4,
                InProcessTestSupport.oneNodeEnv(InProcessHub.HOSTS, "two"), () -> {
                }));
    }

    @Test
    void blocksOfConsecutiveRanks() {
        assertArrayEquals(new int[] {0, 0, 0, 1, 1}, IntStream.range(0, 5)
                .map(r -> org.shmem4j.bootstrap.PseudoHosts.hostOf(r, 5, 2)).toArray());
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, IntStream.range(0, 12)
                .map(r -> org.shmem4j.bootstrap.PseudoHosts.hostOf(r, 12, 3)).toArray());
    }
}
