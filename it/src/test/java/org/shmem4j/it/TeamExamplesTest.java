package org.shmem4j.it;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.examples.CtxSharedCounterExample;
import org.shmem4j.examples.PipelinedCtxExample;
import org.shmem4j.examples.SessionExample;
import org.shmem4j.examples.TeamCreateCtxExample;
import org.shmem4j.examples.TeamSplit2dExample;
import org.shmem4j.examples.TeamSplitStridedExample;
import org.shmem4j.examples.TeamTranslatePeExample;
import org.shmem4j.examples.ThreadCtxExample;

/**
 * The team, context and session example programs as real jobs of separate JVMs started by
 * {@code oshrun}, at a few PE counts each: the job ends with status 0, prints exactly the expected
 * lines (in any order across PEs) and nothing on stderr. The examples check their own results
 * (teams, team-relative puts and AMOs across processes, private contexts in threads) and fail the
 * job otherwise. The PE counts are few and small so that the class stays quick.
 */
@Timeout(180)
class TeamExamplesTest {

    /** Example 12's output: the dimensions, then each PE's coordinates. */
    private static List<String> cartesian(int n, int xdim, int ydim, int zdim) {
        var lines = new ArrayList<String>();
        lines.add("xdim = " + xdim + ", ydim = " + ydim + ", zdim = " + zdim);
        IntStream.range(0, n).forEach(pe -> lines.add(
                "(" + pe % xdim + ", " + pe / xdim % ydim + ", " + pe / (xdim * ydim) + ") is mype = " + pe));
        return lines;
    }

    private static final List<ExampleJob> EXAMPLES = List.of(
            new ExampleJob(TeamTranslatePeExample.class, new int[] {3, 5}, ExampleJob.SILENT),
            new ExampleJob(TeamSplitStridedExample.class, new int[] {1, 5}, ExampleJob.SILENT),
            new ExampleJob(TeamSplit2dExample.class, new int[] {4, 8},
                    n -> n == 4 ? cartesian(4, 2, 2, 1) : cartesian(8, 2, 2, 2)),
            new ExampleJob(TeamCreateCtxExample.class, new int[] {4, 7}, ExampleJob.SILENT),
            new ExampleJob(CtxSharedCounterExample.class, new int[] {3, 5}, ExampleJob.SILENT),
            new ExampleJob(PipelinedCtxExample.class, new int[] {2, 5}, ExampleJob.SILENT),
            new ExampleJob(ThreadCtxExample.class, new int[] {2, 4}, ExampleJob.SILENT),
            new ExampleJob(SessionExample.class, new int[] {2, 5}, ExampleJob.SILENT));

    static Stream<Arguments> jobs() {
        return ExampleJob.arguments(EXAMPLES);
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("jobs")
    void exampleSucceedsWithItsOutput(String name, int n) {
        ExampleJob.check(EXAMPLES, name, n);
    }
}
