package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ScaleJob} as separate JVMs started by oshrun, spread over pseudo-nodes whose PEs reach
 * each other through UCX (issue 25): a few small jobs in the README's test command, and 128 PEs
 * on 4 pseudo-nodes ({@code @Tag("scale")}, run by .ci/run after it). Each job also reports its
 * wall time and the peak of its PEs' memory (the sum of their proportional set sizes, so pages
 * the PEs share are counted once), measured, not asserted.
 */
class ScaleJobTest {
    /** Small symmetric heaps so that 128 PEs' regions fit /dev/shm easily; every other setting is the default. */
    private static final Map<String, String> ENV = Map.of("SHMEM_NETWORK", "ucx", "SHMEM_SYMMETRIC_SIZE", "1m",
            // oshrun then prints what the bootstrap exchange moved (recorded below), and every PE its settings
            "SHMEM_INFO", "1");

    @ParameterizedTest(name = "{0} PEs on {1} pseudo-nodes, rows of {2}")
    @CsvSource({"2, 2, 1", "6, 2, 3", "9, 3, 4"})
    void smallJobs(int n, int nodes, int columns) {
        run(n, nodes, columns, List.of(), Duration.ofSeconds(120));
    }

    /**
     * 128 JVMs on this 2-core machine: oshrun gives each a small share (one processor, 50/128 % of
     * memory for its heap). {@code -Xms8m}: the JVM's initial heap is otherwise its whole maximum
     * (1/64 of memory is more than 0.39 %), whose young part a PE fills before its first
     * collection; 32 PEs took 1.66 GB (sum of PSS) with it, 0.96 GB with 8 MB, and 128 PEs 9.1 GB
     * without it, at the limit of what this shared machine can give one job.
     */
    @Test
    @Tag("scale")
    @Timeout(value = 25, unit = TimeUnit.MINUTES) // beyond the job's own bound, which kills it and prints its output
    void oneHundredTwentyEightJvmsOnFourPseudoNodes() {
        run(128, 4, 16, List.of("-Xms8m"), Duration.ofMinutes(20));
    }

    private static void run(int n, int nodes, int columns, List<String> jvmOptions, Duration bound) {
        var args = new ArrayList<>(List.of("-n", Integer.toString(n), "--oversubscribe", "--nodes", Integer.toString(nodes)));
        args.addAll(jvmOptions);
        args.addAll(List.of("-cp", Jobs.peClasspath(), ScaleJob.class.getName(), Integer.toString(columns)));
        String name = "ScaleJob -n " + n + " --nodes " + nodes;
        Jobs.Result r;
        var peak = new AtomicLong();
        try (var job = Jobs.start(name, Jobs.oshrun(args), ENV)) {
            Thread sampler = Thread.ofPlatform().daemon().name("scale-memory").start(() -> {
                while (job.process.isAlive()) {
                    peak.accumulateAndGet(pssKiB(job.process.toHandle()), Math::max);
                    Jobs.sleep(1000); // a sampling period, not a wait for an event
                }
            });
            r = job.await(bound);
            try {
                sampler.join(); // ends with the job, within its sampling period
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Jobs.record(name + ": peak memory of the job's processes " + peak.get() / 1024 + " MiB (sum of PSS)");
        r.stderr().stream().filter(l -> l.startsWith("oshrun: bootstrap exchange")).forEach(l -> Jobs.record(name + ": " + l));
        assertEquals(0, r.exit(), () -> "the " + n + "-PE scale job failed:\n" + r.describe());
        assertTrue(r.stdout().stream().anyMatch(l -> l.startsWith("scale: " + n + " PEs ok")),
                () -> "the " + n + "-PE scale job did not report its checks passed:\n" + r.describe());
    }

    /** The proportional set size of {@code root} and its descendants, in KiB (0 for a process already gone). */
    private static long pssKiB(ProcessHandle root) {
        long sum = pssKiB(root.pid());
        for (var p : root.descendants().toList()) {
            sum += pssKiB(p.pid());
        }
        return sum;
    }

    private static long pssKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
                if (line.startsWith("Pss:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended meanwhile
        }
        return 0;
    }
}
