package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.shmem4j.coverage.BindsScanner;
import org.shmem4j.coverage.CoverageChecker;
import org.shmem4j.coverage.SpecRoutines;

/**
 * The binding coverage guard: every OpenSHMEM 1.6 C routine, current or deprecated (Annex F: the
 * spec still requires them), is either bound by a
 * {@link Binds} annotation in package {@code org.shmem4j} or listed in binding-status.txt, no status
 * line is stale, and no {@code @Binds} names a routine the spec does not have.
 */
class BindingCoverageTest {

    private static final String ROUTINES = "/org/shmem4j/spec-routines.txt";
    private static final String STATUS = "/org/shmem4j/binding-status.txt";

    private static String resource(String name) throws IOException {
        try (InputStream in = BindingCoverageTest.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The spec is optional (CI may not have it): SHMEM4J_SPEC, else the shared reference copy. */
    static Optional<Path> specPath() {
        String env = System.getenv("SHMEM4J_SPEC");
        Path p = env != null && !env.isBlank() ? Path.of(env)
                : Path.of("../../shared/reference/openshmem-1.6-spec.md"); // surefire runs in the module dir
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    @Test
    void committedRoutineListMatchesTheSpec() throws IOException {
        Optional<Path> spec = specPath();
        org.junit.jupiter.api.Assumptions.assumeTrue(spec.isPresent(), "spec not available; using committed list");
        var extraction = SpecRoutines.extract(Files.readString(spec.get(), StandardCharsets.UTF_8));
        // Whole-file comparison so the list cannot rot; the message says how to refresh it.
        assertEquals(SpecRoutines.render(extraction.routines()), resource(ROUTINES),
                "spec-routines.txt is out of date with " + spec.get() + "; regenerate with: " + SpecRoutines.COMMAND);
    }

    @Test
    void everyCurrentRoutineIsBoundOrHasAStatus() throws IOException {
        var routines = SpecRoutines.parse(resource(ROUTINES).lines().toList());
        var status = CoverageChecker.parseStatus(resource(STATUS).lines().toList());
        List<Class<?>> api = BindsScanner.publicTypes(Binds.class, "org.shmem4j");
        var result = CoverageChecker.check(routines, BindsScanner.binds(api), status);
        assertTrue(result.ok(), () -> "binding coverage (" + result.bound().size() + " routines bound by "
                + api.size() + " public types):\n" + result.report());
    }
}
