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
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.examples.AtomicAddExample;
import org.shmem4j.examples.AtomicCompareSwapExample;
import org.shmem4j.examples.AtomicFetchAddExample;
import org.shmem4j.examples.AtomicFetchIncExample;
import org.shmem4j.examples.AtomicIncExample;
import org.shmem4j.examples.AtomicSwapExample;
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
import org.shmem4j.examples.PutSignalExample;
import org.shmem4j.examples.QuietExample;
import org.shmem4j.examples.SetLockExample;
import org.shmem4j.examples.TestAnyExample;
import org.shmem4j.examples.TestExample;
import org.shmem4j.examples.TestSomeExample;
import org.shmem4j.examples.WaitUntilAllExample;
import org.shmem4j.examples.WaitUntilAnyExample;
import org.shmem4j.examples.WaitUntilAnyVectorExample;
import org.shmem4j.examples.WaitUntilSomeExample;

/**
 * Every example program as a real job of separate JVMs started by {@code oshrun}, at each of the
 * PE counts 1, 2, 3, 5, 8 it supports (the point-to-point examples, whose in-process runs cover
 * every count, at two of them only): the job ends with status 0, prints exactly the expected lines
 * (in any order across PEs; where the output depends on a race, lines matching the expected
 * patterns) and nothing on stderr.
 */
@Timeout(180)
class ExamplesTest {
    private static final int[] COUNTS = {1, 2, 3, 5, 8};

    /**
     * An example, the PE counts it runs on, and its stdout lines on {@code n} PEs: exact lines, or
     * regular expressions if {@code patterns}.
     */
    record Example(Class<?> main, int[] counts, IntFunction<List<String>> lines, boolean patterns) {
        /** Runs at every one of {@link #COUNTS} from {@code minPes} up; exact lines. */
        Example(Class<?> main, int minPes, IntFunction<List<String>> lines) {
            this(main, IntStream.of(COUNTS).filter(n -> n >= minPes).toArray(), lines, false);
        }

        /** Runs at {@code counts}; exact lines. */
        static Example at(Class<?> main, int[] counts, IntFunction<List<String>> lines) {
            return new Example(main, counts, lines, false);
        }

        /** Runs at {@code counts}; lines matching the patterns. */
        static Example matching(Class<?> main, int[] counts, IntFunction<List<String>> patterns) {
            return new Example(main, counts, patterns, true);
        }
    }

    private static int[] pes(int... counts) {
        return counts;
    }

    /** A regular expression matching any of the numbers {@code from .. to - 1}. */
    private static String peNumber(int from, int to) {
        return IntStream.range(from, to).mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining("|", "(?:", ")"));
    }

    private static List<String> perPe(int n, IntFunction<String> line) {
        return IntStream.range(0, n).mapToObj(line).toList();
    }

    static final List<Example> EXAMPLES = List.of(
            new Example(Hello.class, 1, n -> perPe(n, i -> "Hello from PE " + i + " of " + n)),
            new Example(InitExample.class, 1, n -> List.of("PE " + (1 % n) + " targ=33 (expect 33)")),
            new Example(MyPeExample.class, 1, n -> perPe(n, i -> "I am #" + i + " of " + n + " PEs executing this program")),
            new Example(FinalizeExample.class, 1, n -> perPe(n, i -> i + ": y = " + (i == 0 ? 10101 : -1))),
            new Example(GExample.class, 1, n -> perPe(n, i -> i + ": y = " + (i == 0 ? 10101 : -1))),
            new Example(BarrierAllExample.class, 1, n -> perPe(n, i -> i + ": x = 4")),
            // PEs 0 and 1 on different pseudo-nodes (in blocks, only when there are as many nodes
            // as PEs) cannot reach each other by load/store: the example takes the spec's fallback
            new Example(PtrExample.class, 2, n -> Jobs.PSEUDO_NODES >= n
                    ? List.of("can't use pointer to directly access PE 1's dest array", "PE 1 dest: 0, 0, 0, 0")
                    : List.of("PE 1 dest: 1, 2, 3, 4")),
            new Example(PutExample.class, 2, n -> perPe(n, i -> "dest[0] on PE " + i + " is " + (i == 1 ? 1 : 0))),
            new Example(PExample.class, 2, n -> List.of("OK")),
            new Example(IputExample.class, 2, n -> List.of("dest on PE 1 is 1 3 5 7 9")),
            new Example(FenceExample.class, 3,
                    n -> perPe(n, i -> "dest[0] on PE " + i + " is " + (i == 1 || i == 2 ? 1 : 0))),
            new Example(QuietExample.class, 3, n -> List.of("x: { 1, 2, 3 }", "y: 90")),
            Example.matching(AtomicCompareSwapExample.class, pes(2, 5), n -> List.of("PE " + peNumber(0, n) + " was first")),
            Example.at(AtomicSwapExample.class, pes(2, 5), n -> IntStream.range(0, n).filter(i -> i % 2 == 1)
                    .mapToObj(i -> i + ": dest = " + i + ", swapped = " + (i + 1) % n).toList()),
            Example.at(AtomicFetchIncExample.class, pes(2, 5), n -> perPe(n,
                    i -> i + ": old = " + (i == 0 ? 22 : -1) + ", dst = " + (i == 1 ? 23 : 22))),
            Example.at(AtomicIncExample.class, pes(2, 5), n -> perPe(n, i -> i + ": dst = " + (i == 1 ? 75 : 74))),
            Example.at(AtomicFetchAddExample.class, pes(2, 5), n -> perPe(n,
                    i -> i + ": old = " + (i == 1 ? 22 : -1) + ", dst = " + (i == 0 ? 66 : 22))),
            Example.at(AtomicAddExample.class, pes(2, 5), n -> perPe(n, i -> i + ": dst = " + (i == 0 ? 66 : 22))),
            Example.at(PutSignalExample.class, pes(2, 5), n -> List.of()),
            Example.at(WaitUntilAllExample.class, pes(2, 5), n -> List.of()),
            Example.at(WaitUntilAnyExample.class, pes(2, 5), n -> List.of()),
            Example.at(WaitUntilSomeExample.class, pes(2, 5), n -> List.of()),
            Example.at(WaitUntilAnyVectorExample.class, pes(4, 5), n -> List.of()),
            Example.matching(TestExample.class, pes(2, 5),
                    n -> List.of("PE 0 observed first update from PE " + peNumber(1, n))),
            Example.at(TestAnyExample.class, pes(2, 5), n -> List.of()),
            Example.at(TestSomeExample.class, pes(2, 5), n -> List.of()),
            Example.matching(SetLockExample.class, pes(2, 5), n -> perPe(n, i -> i + ": count is " + peNumber(0, n))));

    static Stream<Arguments> jobs() {
        return EXAMPLES.stream().flatMap(e -> IntStream.of(e.counts())
                .mapToObj(n -> Arguments.of(e.main().getSimpleName(), n)));
    }

    private static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(lines);
        s.sort(null);
        return s;
    }

    /**
     * Each line matches a different one of the patterns, in some order (the patterns of one
     * example are chosen disjoint, so matching greedily is enough).
     */
    private static void assertMatch(List<String> patterns, List<String> lines, Supplier<String> describe) {
        assertEquals(patterns.size(), lines.size(), () -> "lines " + lines + " for patterns " + patterns + "\n" + describe.get());
        var unmatched = new ArrayList<>(lines);
        for (String p : patterns) {
            Pattern pattern = Pattern.compile(p);
            int at = IntStream.range(0, unmatched.size()).filter(i -> pattern.matcher(unmatched.get(i)).matches())
                    .findFirst().orElse(-1);
            assertTrue(at >= 0, () -> "no line matches " + p + " in " + lines + "\n" + describe.get());
            unmatched.remove(at);
        }
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("jobs")
    void exampleSucceedsWithItsOutput(String name, int n) {
        Example e = example(name);
        assertSucceeded(e, n, Jobs.run(name + " -n " + n, Jobs.oshrun(n, e.main())));
    }

    /** The example whose main class has this simple name. */
    static Example example(String name) {
        return EXAMPLES.stream().filter(x -> x.main().getSimpleName().equals(name)).findFirst().orElseThrow();
    }

    /** The job of {@code e} on {@code n} PEs ended with status 0, its expected output and nothing on stderr. */
    static void assertSucceeded(Example e, int n, Jobs.Result r) {
        assertEquals(0, r.exit(), r::describe);
        if (e.patterns()) {
            assertMatch(e.lines().apply(n), r.stdout(), r::describe);
        } else {
            assertEquals(sorted(e.lines().apply(n)), sorted(r.stdout()), r::describe);
        }
        assertEquals(List.of(), r.stderr(), r::describe);
    }

    @Test
    void globalExitWithAMissingFileEndsTheJobWithExitFailure(@TempDir Path dir) {
        Set<String> shmBefore = Jobs.shmFiles();
        Path missing = dir.resolve("no-such-input.txt");
        var r = Jobs.run("GlobalExitExample (missing file) -n 4",
                Jobs.oshrun(4, GlobalExitExample.class, missing.toString()));
        assertEquals(GlobalExitExample.EXIT_FAILURE, r.exit(), r::describe);
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
