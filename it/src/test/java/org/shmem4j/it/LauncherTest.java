package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.core.info.BuildInfo;
import org.shmem4j.examples.Hello;

/** Launcher features seen from outside: tagged output, re-initialisation, the bin/oshrun script. */
@Timeout(120)
class LauncherTest {

    private static List<String> sorted(List<String> lines) {
        var s = new ArrayList<>(lines);
        s.sort(null);
        return s;
    }

    @Test
    void tagOutputPrefixesEveryLineWithItsRank() {
        var args = new ArrayList<>(List.of("-n", "3", "--oversubscribe", "--tag-output", "-cp", Jobs.peClasspath(), Hello.class.getName()));
        var r = Jobs.run("Hello -n 3 --tag-output", Jobs.oshrun(args));
        assertEquals(0, r.exit(), r::describe);
        assertEquals(IntStream.range(0, 3).mapToObj(i -> "[1," + i + "]<stdout>: Hello from PE " + i + " of 3").toList(),
                sorted(r.stdout()), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }

    @Test
    void eachPeInitializesAndFinalizesTwice() {
        Set<String> shmBefore = Jobs.shmFiles();
        var r = Jobs.run("Reinit -n 3", Jobs.oshrun(3, Reinit.class));
        assertEquals(0, r.exit(), r::describe);
        var expected = new ArrayList<String>();
        for (int epoch = 1; epoch <= 2; epoch++) {
            for (int pe = 0; pe < 3; pe++) {
                expected.add("epoch " + epoch + " PE " + pe + " got " + (100 * epoch + (pe + 2) % 3));
            }
        }
        assertEquals(sorted(expected), sorted(r.stdout()), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
        assertEquals(Set.of(), Jobs.leakedShmFiles(shmBefore));
    }

    /** The source tree's root, after checking that its bin/oshrun and the jars the build made are there. */
    private static Path builtTree() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        Path root = module.getParent();
        Path script = root.resolve("bin/oshrun");
        var jars = List.of(root.resolve("core/target/shmem4j.jar"), root.resolve("launcher/target/shmem4j-launcher.jar"),
                root.resolve("examples/target/shmem4j-examples.jar"));
        assumeTrue(Files.isExecutable(script), () -> script + " is missing (not run from the it module of the source tree?)");
        for (Path jar : jars) {
            assumeTrue(Files.isRegularFile(jar), () -> jar + " is not built: this test needs the jars of `mvn verify`"
                    + " (or install), not just `mvn test`");
        }
        return root;
    }

    /** SHMEM_VERSION and SHMEM_INFO print once per job: from PE 0 only, and not again when it re-initializes. */
    @Test
    void shmemInfoAndVersionPrintOncePerJob() {
        var r = Jobs.run("Reinit -n 3 SHMEM_INFO", Jobs.oshrun(3, Reinit.class),
                Map.of("SHMEM_INFO", "1", "SHMEM_VERSION", "1"), Jobs.BOUND);
        assertEquals(0, r.exit(), r::describe);
        assertEquals(1, r.stdout().stream().filter(l -> l.equals(BuildInfo.current().describe() + ", 3 PEs, Java "
                + Runtime.version())).count(), r::describe);
        assertEquals(1, r.stdout().stream().filter(l -> l.startsWith("shmem4j bootstrap: ")).count(), r::describe);
        assertEquals(1, r.stdout().stream().filter(l -> l.contains("parameters")).count(), r::describe);
        assertEquals(1, r.stdout().stream().filter(l -> l.startsWith("  SHMEM_INFO ")).count(), r::describe);
        assertEquals(6, r.stdout().stream().filter(l -> l.startsWith("epoch ")).count(), r::describe);
    }

    /** The command of the README, with the jars the build made: {@code bin/oshrun -n 2 -cp examples.jar Hello}. */
    @Test
    void theOshrunScriptRunsAJobFromTheBuiltJars() {
        Path root = builtTree();
        Path examplesJar = root.resolve("examples/target/shmem4j-examples.jar");
        var r = Jobs.run("bin/oshrun Hello -n 2",
                List.of(root.resolve("bin/oshrun").toString(), "-n", "2", "-cp", examplesJar.toString(), Hello.class.getName()),
                Map.of(), Jobs.BOUND);
        assertEquals(0, r.exit(), r::describe);
        assertEquals(List.of("Hello from PE 0 of 2", "Hello from PE 1 of 2"), sorted(r.stdout()), r::describe);
        assertEquals(List.of(), r.stderr(), r::describe);
    }

    /** {@code oshrun --version} and {@code --info} answer and start nothing; an invalid variable makes --info fail. */
    @Test
    void theOshrunScriptAnswersVersionAndInfo() {
        String script = builtTree().resolve("bin/oshrun").toString();
        var version = Jobs.run("bin/oshrun --version", List.of(script, "--version"), Map.of(), Jobs.BOUND);
        assertEquals(0, version.exit(), version::describe);
        // the jars' build, which may be older than this module's classes after a bare `mvn test`
        String build = "shmem4j " + java.util.regex.Pattern.quote(BuildInfo.current().version())
                + " \\(commit ([0-9a-f]{40}(-dirty)?|unknown)\\), OpenSHMEM 1\\.6";
        assertEquals(1, version.stdout().size(), version::describe);
        assertTrue(version.stdout().getFirst().matches(build), version::describe);
        assertEquals(List.of(), version.stderr(), version::describe);

        var info = Jobs.run("bin/oshrun --info", List.of(script, "--info"), Map.of("SHMEM_TEAMS_MAX", "64"), Jobs.BOUND);
        assertEquals(0, info.exit(), info::describe);
        assertTrue(info.stdout().getFirst().matches(build), info::describe);
        for (String expected : List.of("  shared memory:", "  network ucx:", "  PMIx:", "  barrier:", "  reduce:")) {
            assertTrue(info.stdout().stream().anyMatch(l -> l.startsWith(expected)), () -> expected + " missing: " + info.describe());
        }
        assertTrue(info.stdout().stream().anyMatch(l -> l.matches("  SHMEM_TEAMS_MAX +64 +256 +SHMEM_TEAMS_MAX .*")), info::describe);
        assertEquals(List.of(), info.stderr(), info::describe); // no native-access warning: the script grants it

        var invalid = Jobs.run("bin/oshrun --info", List.of(script, "--info"), Map.of("SHMEM_TEAMS_MAX", "many"), Jobs.BOUND);
        assertEquals(1, invalid.exit(), invalid::describe);
        assertTrue(invalid.stdout().stream().anyMatch(l -> l.contains("SHMEM_TEAMS_MAX='many'")), invalid::describe);
    }
}
