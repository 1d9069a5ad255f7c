package org.shmem4j.it;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.examples.AlltoallExample;
import org.shmem4j.examples.AlltoallsExample;
import org.shmem4j.examples.BarrierExample;
import org.shmem4j.examples.BroadcastExample;
import org.shmem4j.examples.CollectAtExample;
import org.shmem4j.examples.CollectExample;
import org.shmem4j.examples.ReduceExample;
import org.shmem4j.examples.TeamSyncExample;

/**
 * The collective example programs of spec section 9.10 (Examples 30 to 37; 30 is the deprecated
 * active-set {@code shmem_barrier}) as real jobs of separate
 * JVMs started by {@code oshrun}, at two PE counts each: the job ends with status 0, prints exactly
 * the expected lines (in any order across PEs) and nothing on stderr. The examples check their own
 * results. Exported {@code SHMEM_*_ALGORITHM} variables reach the PEs (oshrun passes its
 * environment on), so .ci/run's algorithm matrix covers these jobs too.
 */
@Timeout(120)
class CollectiveExamplesTest {

    /** Example 34: every PE prints the broadcast values. */
    private static List<String> broadcast(int n) {
        return IntStream.range(0, n).mapToObj(pe -> pe + ": 0, 1, 2, 3").toList();
    }

    /** Example 35: every PE prints 0 .. n(n+1)/2 - 1. */
    private static List<String> collect(int n) {
        String all = String.join(", ", IntStream.range(0, n * (n + 1) / 2).mapToObj(Integer::toString).toList());
        return IntStream.range(0, n).mapToObj(pe -> pe + ": " + all).toList();
    }

    private static final List<ExampleJob> EXAMPLES = List.of(
            new ExampleJob(BarrierExample.class, new int[] {2, 5}, BarrierExample::expectedOutput),
            new ExampleJob(TeamSyncExample.class, new int[] {3, 7}, ExampleJob.SILENT),
            new ExampleJob(AlltoallExample.class, new int[] {2, 5}, ExampleJob.SILENT),
            new ExampleJob(AlltoallsExample.class, new int[] {3, 4}, ExampleJob.SILENT),
            new ExampleJob(BroadcastExample.class, new int[] {2, 5}, CollectiveExamplesTest::broadcast),
            new ExampleJob(CollectExample.class, new int[] {3, 4}, CollectiveExamplesTest::collect),
            new ExampleJob(ReduceExample.class, new int[] {2, 5}, ReduceExample::expectedOutput),
            new ExampleJob(CollectAtExample.class, new int[] {3, 5}, ExampleJob.SILENT));

    static Stream<Arguments> jobs() {
        return ExampleJob.arguments(EXAMPLES);
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("jobs")
    void exampleSucceedsWithItsOutput(String name, int n) {
        ExampleJob.check(EXAMPLES, name, n);
    }
}
