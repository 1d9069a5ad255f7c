package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code oshrun --hosts H}: separate JVMs on pseudo-hosts, with {@link HostTeams} checking teams, ptr and collectives. */
@Timeout(180)
class PseudoHostsJobTest {

    static List<String> expected(int n, int hosts) {
        return expected(n, pe -> pe * hosts / n);
    }

    /** HostTeams' lines when PE {@code pe} runs on host {@code hostOf(pe)}. */
    static List<String> expected(int n, java.util.function.IntUnaryOperator hostOf) {
        var lines = new ArrayList<String>();
        for (int me = 0; me < n; me++) {
            int h = hostOf.applyAsInt(me);
            int[] host = IntStream.range(0, n).filter(q -> hostOf.applyAsInt(q) == h).toArray();
            int[] leaders = IntStream.range(0, n).filter(q -> IntStream.range(0, q).noneMatch(
                    r -> hostOf.applyAsInt(r) == hostOf.applyAsInt(q))).toArray();
            String lead = Arrays.toString(me == host[0] ? leaders : new int[0]);
            lines.add("PE " + me + " shared=" + Arrays.toString(host) + " host=" + Arrays.toString(host) + " leaders=" + lead
                    + " ptr=" + Arrays.toString(host) + " ok");
        }
        lines.sort(null);
        return lines;
    }

    @ParameterizedTest(name = "{0} PEs on {1} pseudo-hosts, algorithms {2}")
    @CsvSource({"6, 2, auto", "5, 2, auto", "5, 2, hierarchical", "4, 1, hierarchical"})
    void teamsPtrAndCollectivesFollowThePseudoHosts(int n, int hosts, String algorithm) {
        var args = new ArrayList<>(List.of("--hosts", Integer.toString(hosts), "-n", Integer.toString(n), "-cp",
                Jobs.peClasspath(), HostTeams.class.getName()));
        Map<String, String> env = Map.of("SHMEM_BARRIER_ALGORITHM", algorithm, "SHMEM_BCAST_ALGORITHM", algorithm,
                "SHMEM_REDUCE_ALGORITHM", algorithm);
        var r = Jobs.run("HostTeams -n " + n + " --hosts " + hosts, Jobs.oshrun(args), env, Jobs.BOUND);
        assertEquals(0, r.exit(), r::describe);
        var out = new ArrayList<>(r.stdout().stream().filter(l -> !l.matches("\\[[0-9.]+s\\]\\[warning\\]\\[perf.*")).toList());
        out.sort(null);
        assertEquals(expected(n, hosts), out, r::describe);
    }

    @Test
    void badHostCountsAreUsageErrors() {
        for (String hosts : List.of("0", "7", "x")) {
            var r = Jobs.run("--hosts " + hosts, Jobs.oshrun(List.of("--hosts", hosts, "-n", "6", "-cp", Jobs.peClasspath(),
                    HostTeams.class.getName())));
            assertEquals(2, r.exit(), r::describe);
            assertTrue(String.join("\n", r.stderr()).contains("--hosts"), r::describe);
        }
    }
}
