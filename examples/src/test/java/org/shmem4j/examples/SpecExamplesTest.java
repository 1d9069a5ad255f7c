package org.shmem4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;
import org.shmem4j.inprocess.InProcessJob.Result;

/**
 * Runs every example program with its PEs as threads of this JVM, at each PE count it supports.
 * The programs check their own results and end the job with status 1 on a wrong one, so a job
 * that ends with status 0 passed.
 */
@Timeout(600)
class SpecExamplesTest {
    /**
     * The jobs' environment: a small heap, plus any {@code SHMEM_*_ALGORITHM} override of this
     * process (.ci/run reruns the tests under such overrides).
     */
    private static final Map<String, String> ENV = environment();

    private static Map<String, String> environment() {
        Map<String, String> env = new java.util.HashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("SHMEM_") && k.endsWith("_ALGORITHM")) {
                env.put(k, v);
            }
        });
        env.put("SHMEM_SYMMETRIC_SIZE", "8m");
        return Map.copyOf(env);
    }
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String[] NO_ARGS = {};

    /** An example's {@code main}. */
    @FunctionalInterface
    interface Main {
        void main(String[] args) throws Exception;
    }

    private static Stream<Arguments> example(String name, Main main, int... peCounts) {
        return Arrays.stream(peCounts).mapToObj(npes -> Arguments.of(Named.of(name, main), npes));
    }

    /** Every example with the PE counts among 1, 2, 3, 5, 8 that it supports. */
    static Stream<Arguments> examples() {
        return Stream.of(
                example("Hello", Hello::main, 1, 2, 3, 5, 8),
                example("InitExample (5)", InitExample::main, 1, 2, 3, 5, 8),
                example("MyPeExample (6)", MyPeExample::main, 1, 2, 3, 5, 8),
                example("FinalizeExample (7)", FinalizeExample::main, 1, 2, 3, 5, 8),
                // needs PE 1
                example("PtrExample (9)", PtrExample::main, 2, 3, 5, 8),
                example("PutExample (17)", PutExample::main, 2, 3, 5, 8),
                example("PExample (18)", PExample::main, 2, 3, 5, 8),
                example("IputExample (19)", IputExample::main, 2, 3, 5, 8),
                example("TeamTranslatePeExample (10)", TeamTranslatePeExample::main, 1, 2, 3, 5, 8),
                example("TeamSplitStridedExample (11)", TeamSplitStridedExample::main, 1, 2, 3, 5, 8),
                example("TeamSplit2dExample (12)", TeamSplit2dExample::main, 1, 2, 3, 5, 8, 12),
                example("TeamCreateCtxExample (13)", TeamCreateCtxExample::main, 1, 2, 3, 5, 8),
                example("CtxSharedCounterExample (14)", CtxSharedCounterExample::main, 1, 2, 3, 5, 8),
                example("PipelinedCtxExample (15)", PipelinedCtxExample::main, 1, 2, 3, 5, 8),
                example("ThreadCtxExample (16)", ThreadCtxExample::main, 1, 2, 3, 5, 8),
                example("GExample (20)", GExample::main, 1, 2, 3, 5, 8),
                example("SessionExample (28)", SessionExample::main, 1, 2, 3, 5, 8),
                example("BarrierAllExample (29)", BarrierAllExample::main, 1, 2, 3, 5, 8),
                // needs PEs 1 and 2
                example("FenceExample (45)", FenceExample::main, 3, 5, 8),
                example("QuietExample (46)", QuietExample::main, 3, 5, 8),
                example("AtomicCompareSwapExample (21)", AtomicCompareSwapExample::main, 1, 2, 3, 5, 8),
                example("AtomicSwapExample (22)", AtomicSwapExample::main, 1, 2, 3, 5, 8),
                // need PE 1
                example("AtomicFetchIncExample (23)", AtomicFetchIncExample::main, 2, 3, 5, 8),
                example("AtomicIncExample (24)", AtomicIncExample::main, 2, 3, 5, 8),
                example("AtomicFetchAddExample (25)", AtomicFetchAddExample::main, 2, 3, 5, 8),
                example("AtomicAddExample (26)", AtomicAddExample::main, 2, 3, 5, 8),
                example("PutSignalExample (27)", PutSignalExample::main, 1, 2, 3, 5, 8),
                example("WaitUntilAllExample (38)", WaitUntilAllExample::main, 1, 2, 3, 5, 8),
                example("WaitUntilAnyExample (39)", WaitUntilAnyExample::main, 1, 2, 3, 5, 8),
                example("WaitUntilSomeExample (40)", WaitUntilSomeExample::main, 1, 2, 3, 5, 8),
                // total 6 on 4 PEs
                example("WaitUntilAnyVectorExample (41)", WaitUntilAnyVectorExample::main, 1, 2, 3, 4, 5, 8),
                // needs another PE to update PE 0
                example("TestExample (42)", TestExample::main, 2, 3, 5, 8),
                example("TestAnyExample (43)", TestAnyExample::main, 1, 2, 3, 5, 8),
                example("TestSomeExample (44)", TestSomeExample::main, 1, 2, 3, 5, 8),
                example("SetLockExample (47)", SetLockExample::main, 1, 2, 3, 5, 8))
                .flatMap(s -> s);
    }

    /**
     * The collective examples of section 9.10 (Example 30 through the deprecated active-set
     * {@code shmem_barrier} of {@link org.shmem4j.Legacy}), with the PE counts among 1, 2, 3, 5, 8
     * (and a few more) that they support. A test method of their own so that .ci/run can rerun just them
     * ({@code -Dtest='SpecExamplesTest#collective*'}) under SHMEM_*_ALGORITHM overrides.
     */
    static Stream<Arguments> collectiveExamples() {
        return Stream.of(
                example("BarrierExample (30)", BarrierExample::main, 1, 2, 3, 5, 8),
                // 4 and 7: the teams have 1 and 2 members, 3 and 2; on 7 and 8 PE 6 is in both
                example("TeamSyncExample (31)", TeamSyncExample::main, 1, 2, 3, 4, 5, 7, 8),
                example("AlltoallExample (32)", AlltoallExample::main, 1, 2, 3, 5, 8),
                example("AlltoallsExample (33)", AlltoallsExample::main, 1, 2, 3, 5, 8),
                example("BroadcastExample (34)", BroadcastExample::main, 1, 2, 3, 5, 8),
                example("CollectExample (35)", CollectExample::main, 1, 2, 3, 5, 8),
                example("ReduceExample (36)", ReduceExample::main, 1, 2, 3, 5, 8),
                example("CollectAtExample (37)", CollectAtExample::main, 1, 2, 3, 5, 8))
                .flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("collectiveExamples")
    void collectiveExampleEndsWithStatusZero(Main main, int npes) {
        run(npes, main, NO_ARGS).orThrow();
    }

    private static Result run(int npes, Main main, String... args) {
        return InProcessJob.run(npes, ENV, BOUND, () -> main.main(args));
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("examples")
    void exampleEndsWithStatusZero(Main main, int npes) {
        run(npes, main, NO_ARGS).orThrow();
    }

    /** Below its minimum PE count an example fails its own check: the job ends with status 1, not a crash. */
    static Stream<Arguments> tooFewPes() {
        return Stream.of(
                example("PtrExample (9)", PtrExample::main, 1),
                example("PutExample (17)", PutExample::main, 1),
                example("PExample (18)", PExample::main, 1),
                example("IputExample (19)", IputExample::main, 1),
                example("FenceExample (45)", FenceExample::main, 1, 2),
                example("QuietExample (46)", QuietExample::main, 1, 2),
                example("AtomicFetchIncExample (23)", AtomicFetchIncExample::main, 1),
                example("AtomicIncExample (24)", AtomicIncExample::main, 1),
                example("AtomicFetchAddExample (25)", AtomicFetchAddExample::main, 1),
                example("AtomicAddExample (26)", AtomicAddExample::main, 1),
                example("TestExample (42)", TestExample::main, 1))
                .flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("tooFewPes")
    void selfCheckFailureEndsTheJobWithStatusOne(Main main, int npes) {
        assertEndedByGlobalExit(run(npes, main, NO_ARGS), Checks.FAILED);
    }

    /** The job ended through {@code shmem_global_exit(status)} and nothing else went wrong. */
    private static void assertEndedByGlobalExit(Result result, int status) {
        assertEquals(status, result.status(), () -> "status of " + result);
        assertFalse(result.timedOut(), () -> "timed out: " + result);
        assertTrue(result.failures().isEmpty(), () -> "unexpected failures " + result.failures());
    }

    @ParameterizedTest(name = "on {0} PEs")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void globalExitExampleExitsWithFailureWhenTheFileIsMissing(int npes, @TempDir Path dir) {
        Path missing = dir.resolve("input.txt");
        assertEndedByGlobalExit(run(npes, GlobalExitExample::main, missing.toString()), GlobalExitExample.EXIT_FAILURE);
    }

    @ParameterizedTest(name = "on {0} PEs")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void globalExitExampleEndsNormallyWhenTheFileExists(int npes, @TempDir Path dir) throws IOException {
        Path input = Files.writeString(dir.resolve("input.txt"), "some input\n");
        Result result = run(npes, GlobalExitExample::main, input.toString()).orThrow();
        assertEquals(0, result.status());
    }
}
