package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.shmem4j.Shmem;

/**
 * PE programs started by a PMIx server instead of oshrun ({@code srun --mpi=pmix}, Open MPI's
 * {@code mpirun}): the PE command line, the skip-or-fail rule for what the system lacks, and a
 * failure run measured from the failing PE's report to the end of the job.
 */
final class PmixJobs {
    /** Every PMIx job's wall time is bounded by this, by {@code timeout} as well as by the test. */
    static final Duration BOUND = Duration.ofSeconds(60);

    private PmixJobs() {}

    /** {@code timeout ... java --enable-native-access=ALL-UNNAMED -cp <core, examples, it> main args}, after {@code launcher}. */
    static List<String> command(List<String> launcher, Class<?> main, String... args) {
        var cmd = new ArrayList<>(List.of("timeout", "-k", "5", Long.toString(BOUND.toSeconds())));
        cmd.addAll(launcher);
        cmd.addAll(List.of(Jobs.javaExecutable(), "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", Jobs.location(Shmem.class) + File.pathSeparator + Jobs.peClasspath(), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Skips the test {@code what} because {@code missing} (unless null), saying so on stderr; fails
     * instead under {@code SHMEM4J_REQUIRE_PMIX=1} (CI, which installs Open MPI and Slurm).
     */
    static void require(String what, String missing) {
        if (missing == null) {
            return;
        }
        String message = what + " NOT TESTED: " + missing;
        if ("1".equals(System.getenv("SHMEM4J_REQUIRE_PMIX"))) {
            fail(message + " (SHMEM4J_REQUIRE_PMIX=1)");
        }
        System.err.println("WARNING: " + message);
        assumeTrue(false, message);
    }

    /** The executable {@code name} found on the PATH. */
    static Optional<Path> onPath(String name) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
                .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
    }

    /**
     * Runs {@link ThrowBeforeFinalize} (PE 1 throws after the first barrier, the others would wait
     * 60 s): the job must end with a non-zero status and the failing PE's report; records the time
     * from that report reaching stderr to the end of the job.
     */
    static void failingPeEndsTheJob(String name, List<String> launcher, Map<String, String> env) throws InterruptedException {
        try (var job = Jobs.start(name, command(launcher, ThrowBeforeFinalize.class, "1"), env)) {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (job.err.lines.stream().noneMatch(l -> l.contains("deliberate failure on PE 1")) && job.process.isAlive()
                    && System.nanoTime() - deadline < 0) {
                Thread.sleep(5); // polling stderr for the report; the bound is the job's
            }
            long reported = System.nanoTime();
            boolean ended = job.process.waitFor(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            long endMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - reported);
            var r = job.await(Duration.ofSeconds(5));
            Jobs.record(name + ": failure report to end of job " + endMs + " ms (exit " + r.exit() + ")");
            assertTrue(ended, r::describe);
            assertTrue(r.exit() != 0, r::describe);
            assertTrue(r.stderrText().contains("deliberate failure on PE 1 before shmem_finalize"), r::describe);
            assertTrue(r.stderrText().contains("shmem4j: PE 1 (host "), r::describe);
            assertTrue(r.stderrText().contains(") is exiting before shmem_finalize; asking PMIx to abort the job"), r::describe);
        }
    }
}
