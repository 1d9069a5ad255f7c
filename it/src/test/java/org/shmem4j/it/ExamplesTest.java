package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.examples.BarrierAllExample;
import org.shmem4j.examples.FenceExample;
import org.shmem4j.examples.FinalizeExample;
import org.shmem4j.examples.GExample;
import org.shmem4j.examples.GlobalExitExample;
import org.shmem4j.examples.Hello;
import org.shmem4j.examples.InitExample;
import org.shmem4j.examples.IputExample;
import org.shmem4j.examples.MyPeExample;
import org.shmem4j.examples.PExample;
import org.shmem4j.examples.PtrExample;
import org.shmem4j.examples.PutExample;
import org.shmem4j.examples.QuietExample;

/**
 * Every example program as a real job of separate JVMs started by {@code oshrun}, at each of the
 * PE counts 1, 2, 3, 5, 8 it supports: the job ends with status 0, prints exactly the expected
 * lines (in any order across PEs) and nothing on stderr.
 */
@Timeout(180)
class ExamplesTest {
    private static final int[] COUNTS = {1, 2, 3, 5, 8};

    /** An example, the fewest PEs it runs on, and its stdout lines on {@code n} PEs. */
    private record Example(Class<?> main, int minPes, IntFunction<List<String>> lines) {}

    private static List<String> perPe(int n, IntFunction<String> line) {
        return IntStream.range(0, n).mapToObj(line).toList();
    }

    private static final List<Example> EXAMPLES = List.of(
            new Example(Hello.class, 1, n -> perPe(n, i -> "Hello from PE " + i + " of " + n)),
            new Example(InitExample.class, 1, n -> List.of("PE " + (1 % n) + " targ=33 (expect 33)")),
            new Example(MyPeExample.class, 1, n -> perPe(n, i -> "I am #" + i + " of " + n + " PEs executing this program")),
            new Example(FinalizeExample.class, 1, n -> perPe(n, i -> i + ": y = " + (i == 0 ? 10101 : -1))),
            new Example(GExample.class, 1, n -> perPe(n, i -> i + ": y = " + (i == 0 ? 10101 : -1))),
            new Example(BarrierAllExample.class, 1, n -> perPe(n, i -> i + ": x = 4")),
            new Example(PtrExample.class, 2, n -> List.of("PE 1 dest: 1, 2, 3, 4")),
            new Example(PutExample.class, 2, n -> perPe(n, i -> "dest[0] on PE " + i + " is " + (i == 1 ? 1 : 0))),
            new Example(PExample.class, 2, n -> List.of("OK")),
            new Example(IputExample.class, 2, n -> List.of("dest on PE 1 is 1 3 5 7 9")),
            new Example(FenceExample.class, 3,
                    n -> perPe(n, i -> "dest[0] on PE " + i + " is " + (i == 1 || i == 2 ? 1 : 0))),
            new Example(QuietExample.class, 3, n -> List.of("x: { 1, 2, 3 }", "y: 90")));

    static Stream<Arguments> jobs() {
        return EXAMPLES.stream().flatMap(e -> IntStream.of(COUNTS).filter(n -> n >= e.minPes())
                .mapToObj(n -> Arguments.of(e.main().getSimpleName(), n)));
    }

    private static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(lines);
        s.sort(null);
        return s;
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("jobs")
    void exampleSucceedsWithItsOutput(String name, int n) {
        Example e = EXAMPLES.stream().filter(x -> x.main().getSimpleName().equals(name)).findFirst().orElseThrow();
        var r = Jobs.run(name + " -n " + n, Jobs.oshrun(n, e.main()));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(sorted(e.lines().apply(n)), sorted(r.stdout()), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }

    @Test
    void globalExitWithAMissingFileEndsTheJobWithExitFailure(@TempDir Path dir) {
        Set<String> shmBefore = Jobs.shmFiles();
        Path missing = dir.resolve("no-such-input.txt");
        var r = Jobs.run("GlobalExitExample (missing file) -n 4",
                Jobs.oshrun(4, GlobalExitExample.class, missing.toString()));
        assertEquals(GlobalExitExample.EXIT_FAILURE, r.exit(), r::describe);
        assertTrue(r.wallMillis() < 10_000, () -> "slow global exit: " + r.describe());
        assertTrue(r.stderrText().contains("PE 0 (pid ") && r.stderrText().contains("called shmem_global_exit(1)"),
                r::describe);
        assertTrue(r.stderrText().contains("PE 0: cannot open " + missing), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }

    @Test
    void globalExitExampleWithAnExistingFileSucceeds(@TempDir Path dir) throws IOException {
        Path input = Files.writeString(dir.resolve("input.txt"), "twelve bytes");
        var r = Jobs.run("GlobalExitExample (existing file) -n 4",
                Jobs.oshrun(4, GlobalExitExample.class, input.toString()));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(List.of("PE 0 read 12 bytes from " + input), r.stdout(), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }
}
