package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.Shmem;
import org.shmem4j.launcher.Oshrun;

/**
 * Jobs run with oshrun's per-PE JVM settings: each PE's JVM gets its share of this machine's
 * cores and of its memory, the user's own options win, {@code --jvm-defaults=none} drops them,
 * and the AOT cache beside the launcher jar is used when present and current, while a job runs
 * all the same when it is missing or stale.
 */
@Timeout(300)
class PeJvmSettingsJobTest {
    private static final Pattern REPORT = Pattern.compile(
            "pe=(\\d+) cpus=(\\d+) gc=(\\S+) maxheap=(\\d+) .* background_compilation=(\\w+)");
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private record Report(int cpus, String gc, long maxHeap, boolean backgroundCompilation) {}

    /** Every PE's report of a finished job, after checking that it succeeded. */
    private static List<Report> reports(Jobs.Result r, int n) {
        assertEquals(0, r.exit(), r::describe);
        var out = new ArrayList<Report>();
        for (String line : r.stdout()) {
            Matcher m = REPORT.matcher(line);
            if (m.find()) {
                out.add(new Report(Integer.parseInt(m.group(2)), m.group(3), Long.parseLong(m.group(4)),
                        Boolean.parseBoolean(m.group(5))));
            }
        }
        assertEquals(n, out.size(), r::describe);
        return out;
    }

    private static Jobs.Result job(int n, String... jvmOptions) {
        var args = new ArrayList<>(List.of("-n", Integer.toString(n), "--oversubscribe"));
        args.addAll(List.of(jvmOptions));
        args.addAll(List.of("-cp", Jobs.peClasspath(), JvmReport.class.getName()));
        return Jobs.run("jvm-settings-" + n, Jobs.oshrun(args), Map.of(), Duration.ofSeconds(120));
    }

    @Test
    void eachPeSeesItsShareOfTheCoresAndCompilesInTheForegroundWhenThePesFillThem() {
        for (int n : new int[] {1, 2, 3, 5, 8}) {
            int share = n == 1 ? CORES : (CORES + n - 1) / n;
            for (Report rep : reports(job(n), n)) {
                assertEquals(share, rep.cpus(), n + " PEs on " + CORES + " cores");
                assertEquals(n == 1 || n < CORES, rep.backgroundCompilation(), n + " PEs on " + CORES + " cores: " + rep);
                if (share == 1) {
                    // the JVM's ergonomics pick the serial collector for one processor
                    assertTrue(rep.gc().contains("MarkSweepCompact"), rep::toString);
                }
            }
        }
    }

    @Test
    void theUsersOptionsWinAndNoneDropsTheDefaults() {
        long mb = 1 << 20;
        var ours = reports(job(4), 4);
        var none = reports(job(4, "--jvm-defaults=none"), 4);
        var mine = reports(job(4, "-XX:ActiveProcessorCount=3", "-Xmx96m"), 4);
        for (int i = 0; i < 4; i++) {
            assertEquals(CORES, none.get(i).cpus(), "--jvm-defaults=none: the JVM sees every core");
            assertTrue(none.get(i).backgroundCompilation(), "--jvm-defaults=none: the JVM's own compilation");
            assertTrue(ours.get(i).maxHeap() < none.get(i).maxHeap(), () -> "4 PEs share half the memory: " + ours + " " + none);
            assertEquals(3, mine.get(i).cpus());
            assertTrue(mine.get(i).maxHeap() <= 96 * mb && mine.get(i).maxHeap() > 48 * mb, mine.get(i)::toString);
        }
    }

    /** Copies the jar {@code c} was loaded from into {@code dir} as {@code name}, or jars its classes directory. */
    private static Path jarOf(Class<?> c, Path dir, String name) throws IOException {
        Path from = Path.of(Jobs.location(c)), jar = dir.resolve(name);
        if (Files.isRegularFile(from)) {
            Files.copy(from, jar);
        } else {
            int rc = ToolProvider.findFirst("jar").orElseThrow().run(System.out, System.err, "--create", "--file",
                    jar.toString(), "-C", from.toString(), ".");
            assertEquals(0, rc, "jar of " + from);
        }
        return jar;
    }

    /** oshrun from {@code launcher} and {@code core}, as bin/oshrun runs it from the build's jars. */
    private static List<String> oshrun(Path launcher, Path core, String... args) {
        var cmd = new ArrayList<>(List.of(Jobs.javaExecutable(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                launcher + File.pathSeparator + core, Oshrun.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** How PE classes of the library were loaded: the {@code source:} of {@code org.shmem4j.Shmem}, once per PE. */
    private static List<String> shmemSources(Jobs.Result r) {
        return r.stdout().stream().filter(l -> l.contains(" org.shmem4j.Shmem source: "))
                .map(l -> l.substring(l.indexOf("source: ") + 8)).toList();
    }

    @Test
    void theAotCacheIsUsedWhenPresentAndTheJobRunsWithoutIt(@TempDir Path dir) throws IOException {
        Path launcher = jarOf(Oshrun.class, dir, "shmem4j-launcher.jar");
        Path core = jarOf(Shmem.class, dir, "shmem4j.jar");
        Path cache = dir.resolve("shmem4j-pe.aot");
        // the build's training run, made here for these jars
        var training = Jobs.run("aot-training", oshrun(launcher, core, "-n", "1", "--jvm-defaults=none",
                "-XX:AOTCacheOutput=" + cache, "-cp", core.toString(), "org.shmem4j.core.StartupTraining"),
                Map.of("SHMEM_SYMMETRIC_SIZE", "1m"), Duration.ofSeconds(180));
        assertEquals(0, training.exit(), training::describe);
        assertTrue(Files.isRegularFile(cache), training::describe);

        String[] job = {"-n", "2", "--oversubscribe", "-Xlog:class+load=info", "-cp", Jobs.peClasspath(), JvmReport.class.getName()};
        var info = Map.of("SHMEM_INFO", "1");
        var warm = Jobs.run("aot-present", oshrun(launcher, core, job), info, Duration.ofSeconds(120));
        reports(warm, 2);
        assertEquals(List.of("shared objects file", "shared objects file"), shmemSources(warm), warm::describe);
        assertTrue(warm.stderrText().contains("AOT cache: " + cache), warm::describe);

        // a core jar newer than the cache (rebuilt): the cache is left out, the classes come from the jar
        Files.setLastModifiedTime(core, FileTime.fromMillis(Files.getLastModifiedTime(cache).toMillis() + 2000));
        var stale = Jobs.run("aot-stale", oshrun(launcher, core, job), info, Duration.ofSeconds(120));
        reports(stale, 2);
        assertEquals(2, shmemSources(stale).stream().filter(s -> s.startsWith("file:") && s.endsWith("shmem4j.jar")).count(),
                stale::describe);
        assertTrue(stale.stderrText().contains("is older than"), stale::describe);

        Files.delete(cache);
        var missing = Jobs.run("aot-missing", oshrun(launcher, core, job), info, Duration.ofSeconds(120));
        reports(missing, 2);
        assertTrue(missing.stderrText().contains("AOT cache: none (no " + cache), missing::describe);
    }
}
