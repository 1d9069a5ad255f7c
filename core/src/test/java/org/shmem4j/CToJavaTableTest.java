package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.coverage.BindsScanner;
import org.shmem4j.coverage.CoverageChecker;
import org.shmem4j.coverage.SpecRoutines;

/**
 * docs/c-to-java.md and the Javadoc's C-name search entries, both made by build-tools/CNames.java
 * from the {@code @Binds} annotations: the table is current, and both name exactly the routines that
 * {@link BindingCoverageTest}'s independent expansion (of the compiled annotations) finds bound.
 */
class CToJavaTableTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize(); // surefire runs in core/
    private static final String RESOURCES = "core/src/test/resources/org/shmem4j/";
    private static final List<String> SOURCES = List.of("core/src/main/java", "core/target/generated-sources/templates");
    private static final String TABLE = "docs/c-to-java.md";

    /** Runs {@code java build-tools/CNames.java MODE ROUTINES STATUS args...} from the root; returns its stdout. */
    private static String cnames(String mode, List<String> args) throws IOException, InterruptedException {
        var cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "build-tools/CNames.java", mode, RESOURCES + "spec-routines.txt", RESOURCES + "binding-status.txt"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "CNames did not finish");
        assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + " failed");
        return out;
    }

    /** The routines the compiled {@code @Binds} annotations bind, expanded as the coverage guard does. */
    private static Set<String> boundByAnnotations() throws IOException {
        try (var in = CToJavaTableTest.class.getResourceAsStream("/org/shmem4j/spec-routines.txt");
                var st = CToJavaTableTest.class.getResourceAsStream("/org/shmem4j/binding-status.txt")) {
            var routines = SpecRoutines.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
            var status = CoverageChecker.parseStatus(new String(st.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
            var binds = BindsScanner.binds(BindsScanner.publicTypes(Binds.class, "org.shmem4j"));
            return CoverageChecker.check(routines, binds, status).bound();
        }
    }

    private static Set<String> all(Pattern p, String text) {
        var out = new TreeSet<String>();
        for (Matcher m = p.matcher(text); m.find();) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theTableIsCurrentAndNamesEveryBoundRoutine() throws Exception {
        var args = new ArrayList<>(List.of("-"));
        args.addAll(SOURCES);
        String expected = cnames("table", args);
        String command = "java build-tools/CNames.java table " + RESOURCES + "spec-routines.txt " + RESOURCES
                + "binding-status.txt " + TABLE + " " + String.join(" ", SOURCES);
        assertEquals(expected, Files.readString(ROOT.resolve(TABLE), StandardCharsets.UTF_8),
                TABLE + " is stale; after a build, regenerate it from the root with: " + command);
        Set<String> inTable = all(Pattern.compile("(?m)^\\| `(\\w+)` \\| `"), expected);
        assertEquals(boundByAnnotations(), inTable, "routines with a Java method in the table");
        // every routine of the spec has a row
        var rows = all(Pattern.compile("(?m)^\\| `(\\w+)` \\|"), expected);
        try (var in = CToJavaTableTest.class.getResourceAsStream("/org/shmem4j/spec-routines.txt")) {
            var c = SpecRoutines.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()).stream()
                    .filter(r -> r.api() == SpecRoutines.Api.C).map(SpecRoutines.Routine::name).toList();
            assertEquals(new TreeSet<>(c), rows);
        }
    }

    @Test
    void theJavadocIndexNamesEveryBoundRoutineWithoutMovingALine(@TempDir Path copy) throws Exception {
        for (String dir : SOURCES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Path to = copy.resolve(ROOT.resolve(dir).relativize(f));
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        cnames("index", List.of(copy.toString()));
        var indexed = new TreeSet<String>();
        Path api = copy.resolve("org/shmem4j");
        try (Stream<Path> files = Files.list(api)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                indexed.addAll(all(Pattern.compile("\\{@index (\\w+)}"), text));
                Path original = SOURCES.stream().map(d -> ROOT.resolve(d).resolve("org/shmem4j").resolve(f.getFileName()))
                        .filter(Files::exists).findFirst().orElseThrow();
                assertEquals(Files.readAllLines(original).size(), text.lines().count(), () -> f + " gained or lost lines");
            }
        }
        assertEquals(boundByAnnotations(), indexed, "routines with a Javadoc search entry");
    }
}
