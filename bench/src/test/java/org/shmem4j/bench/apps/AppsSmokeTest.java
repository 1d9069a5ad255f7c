package org.shmem4j.bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.inprocess.InProcessJob;

/**
 * Every application kernel, small, at several PE counts in-process: it must verify its own result
 * (each kernel checks its answer against a closed form), print its two result lines (all timed
 * iterations, and the second half of them) in the format bench/apps-summary.py reads, and end
 * with status 0. Also the --plain and --vector variants.
 */
class AppsSmokeTest {
    /** Runs {@code args} on {@code pes} PEs; returns what PE 0 printed. */
    private static String run(int pes, String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        InProcessJob.Result result;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            result = InProcessJob.run(pes, System.getenv(), Duration.ofSeconds(100), () -> {
                int status = Apps.run(args);
                if (status != 0) {
                    throw new IllegalStateException(String.join(" ", args) + " returned status " + status);
                }
            });
        } finally {
            System.setOut(saved);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        saved.print(text);
        result.orThrow();
        return text;
    }

    private static void assertVerified(String text, String kernel, String impl, int pes) {
        assertTrue(text.contains("# " + kernel + " verified"), kernel + " did not verify:\n" + text);
        long results = text.lines().filter(l -> !l.startsWith("#")).count();
        assertEquals(2, results, "result lines of " + kernel + ":\n" + text);
        String rate = " [A-Za-z_]+=\\d+\\.\\d$";
        assertTrue(Pattern.compile("(?m)^" + kernel + " impl=" + impl + " pes=" + pes + " .* iterations=\\d+" + rate).matcher(text).find(),
                "result line of " + kernel + ":\n" + text);
        assertTrue(Pattern.compile("(?m)^" + kernel + "_steady impl=" + impl + " pes=" + pes + " .* iterations=\\d+ last=\\d+" + rate)
                .matcher(text).find(), "steady result line of " + kernel + ":\n" + text);
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @CsvSource({"stencil,1,3 40", "stencil,2,3 40", "stencil,3,3 40", "stencil,5,3 40", "stencil,8,3 40",
            "transpose,1,3 120", "transpose,2,3 120", "transpose,3,3 120", "transpose,5,3 120", "transpose,8,3 120",
            "p2p,1,3 40 40", "p2p,2,3 40 40", "p2p,3,3 40 40", "p2p,5,3 40 40", "p2p,8,3 40 40",
            "isx,1,3 4096", "isx,2,3 4096", "isx,3,3 4096", "isx,5,3 4096", "isx,8,3 4096"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void kernelVerifies(String kernel, int pes, String args) {
        assertVerified(run(pes, (kernel + " " + args).split(" ")), kernel, "java", pes);
    }

    @ParameterizedTest(name = "{0} --plain")
    @CsvSource({"stencil,3 40", "transpose,3 120", "p2p,3 40 40", "isx,3 4096"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void plainVariantVerifies(String kernel, String args) {
        assertVerified(run(1, (kernel + " --plain " + args).split(" ")), kernel, "java-plain", 1);
    }

    @ParameterizedTest(name = "stencil --vector on {0} PEs")
    @CsvSource({"1", "2", "3"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void vectorStencilVerifies(int pes) {
        // n = 43: interior rows that are not a multiple of the vector length, so the remainder loop runs too
        assertVerified(run(pes, "stencil", "--vector", "3", "43"), "stencil", "java-vector", pes);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void usageErrorsReturnTwo() {
        assertEquals(2, Apps.run(new String[0]));
        assertEquals(2, Apps.run(new String[] {"transpose", "--vector", "3", "64"}));
        assertEquals(2, Apps.run(new String[] {"stencil", "three"}));
    }
}
