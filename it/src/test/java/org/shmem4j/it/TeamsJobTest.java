package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link TeamGrid} as a real job of separate JVMs: split_2d, team contexts and team syncs. */
@Timeout(180)
class TeamsJobTest {

    static List<String> expected(int n, int xrange) {
        int xr = Math.min(xrange, n);
        var lines = new ArrayList<String>();
        for (int me = 0; me < n; me++) {
            int x = me % xr, y = me / xr;
            int[] row = IntStream.range(y * xr, Math.min(n, y * xr + xr)).toArray();
            int[] col = IntStream.iterate(x, p -> p < n, p -> p + xr).toArray();
            lines.add("PE " + me + " x=" + x + " y=" + y + " row=" + Arrays.toString(row) + " column="
                    + Arrays.toString(col) + " ok");
        }
        lines.sort(null);
        return lines;
    }

    @ParameterizedTest(name = "{0} PEs, xrange {1}")
    @CsvSource({"5, 2", "5, 3", "8, 4", "8, 3"})
    void split2dWithTeamContextsAndSyncs(int n, int xrange) {
        var r = Jobs.run("TeamGrid -n " + n + " xrange " + xrange, Jobs.oshrun(n, TeamGrid.class, Integer.toString(xrange)));
        assertEquals(0, r.exit(), r::describe);
        // a JVM's unified-logging warning about a locked hsperfdata file (a PID reused across
        // containers sharing /tmp) is not the program's output
        var out = new ArrayList<>(r.stdout().stream().filter(l -> !l.matches("\\[[0-9.]+s\\]\\[warning\\]\\[perf.*")).toList());
        out.sort(null);
        assertEquals(expected(n, xrange), out, r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }
}
