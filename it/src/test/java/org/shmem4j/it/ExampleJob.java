package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * A spec example run as an oshrun job: the program, the PE counts it runs at, and its stdout lines
 * on {@code n} PEs (in any order). Shared by the example test classes of the it module.
 */
record ExampleJob(Class<?> main, int[] counts, IntFunction<List<String>> lines) {
    /** An example that prints nothing when it succeeds. */
    static final IntFunction<List<String>> SILENT = n -> List.of();

    /** The (name, PE count) arguments of a parameterized test over {@code examples}. */
    static Stream<Arguments> arguments(List<ExampleJob> examples) {
        return examples.stream().flatMap(e -> IntStream.of(e.counts())
                .mapToObj(n -> Arguments.of(e.main().getSimpleName(), n)));
    }

    /** Runs the example named {@code name} of {@code examples} on {@code n} PEs: exit 0, its lines, no stderr. */
    static void check(List<ExampleJob> examples, String name, int n) {
        ExampleJob e = examples.stream().filter(x -> x.main().getSimpleName().equals(name)).findFirst().orElseThrow();
        var r = Jobs.run(name + " -n " + n, Jobs.oshrun(n, e.main()));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(sorted(e.lines().apply(n)), sorted(r.stdout()), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }

    private static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(lines);
        s.sort(null);
        return s;
    }
}
