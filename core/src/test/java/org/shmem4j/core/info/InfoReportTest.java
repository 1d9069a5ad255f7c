package org.shmem4j.core.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.shmem4j.core.param.AlgorithmNames;
import org.shmem4j.core.param.Parameter;
import org.shmem4j.core.param.Params;

/** What {@code oshrun --info} reports. */
class InfoReportTest {

    private static String line(String text, String label) {
        return text.lines().filter(l -> l.startsWith("  " + label + ":")).findFirst()
                .orElseThrow(() -> new AssertionError("no line '" + label + ":' in\n" + text));
    }

    @Test
    void theBuildIsNamedByVersionAndCommit() {
        BuildInfo build = BuildInfo.current();
        assertNotEquals("unknown", build.version(), "build-info.properties was not generated");
        assertTrue(build.commit().matches("[0-9a-f]{40}(-dirty)?|unknown"), build.commit());
        String first = InfoReport.of(Map.of()).text().lines().findFirst().orElseThrow();
        assertEquals("shmem4j " + build.version() + " (commit " + build.commit() + "), OpenSHMEM 1.6", first);
    }

    /** The cells of the parameter table's row of {@code variable} (cells are 2+ spaces apart). */
    private static List<String> row(String text, String variable) {
        return text.lines().map(l -> List.of(l.strip().split("\\s{2,}"))).filter(cells -> cells.getFirst().equals(variable))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + variable + " in\n" + text));
    }

    @Test
    void everyParameterHasItsDefaultAndCurrentValue() {
        var report = InfoReport.of(Map.of("SHMEM_BCAST_ALGORITHM", "binomial", "SMA_SYMMETRIC_SIZE", "64m"));
        assertTrue(report.valid());
        String text = report.text();
        for (Parameter<?> p : Params.ALL) {
            assertEquals(defaultShown(p), row(text, p.name()).get(2), p.name());
        }
        assertEquals(List.of("SHMEM_BCAST_ALGORITHM", "binomial", "auto", "SHMEM_BCAST_ALGORITHM"),
                row(text, "SHMEM_BCAST_ALGORITHM").subList(0, 4));
        assertEquals(List.of("SHMEM_SYMMETRIC_SIZE", "67108864 (64m)", "134217728 (128m)", "SMA_SYMMETRIC_SIZE"),
                row(text, "SHMEM_SYMMETRIC_SIZE").subList(0, 4));
    }

    private static <T> String defaultShown(Parameter<T> p) {
        return p.format(p.defaultValue());
    }

    @Test
    void theCatalogueListsEveryAlgorithmOfEveryCollective() {
        String text = InfoReport.of(Map.of()).text();
        var choices = Map.of("barrier", AlgorithmNames.choices(AlgorithmNames.BARRIER), "broadcast", AlgorithmNames.choices(AlgorithmNames.BROADCAST),
                "collect", AlgorithmNames.choices(AlgorithmNames.COLLECT), "alltoall", AlgorithmNames.choices(AlgorithmNames.ALLTOALL),
                "reduce", AlgorithmNames.choices(AlgorithmNames.REDUCE), "scan", AlgorithmNames.choices(AlgorithmNames.SCAN));
        choices.forEach((collective, names) -> {
            String row = line(text, collective);
            List<String> listed = List.of(row.substring(row.indexOf(':') + 1).strip().split(", "));
            assertEquals(names.stream().filter(n -> !n.equals("auto")).sorted().toList(), listed, row);
        });
    }

    @Test
    void theMachineJdkAndTransportsAreReported() {
        String text = InfoReport.of(Map.of()).text();
        assertTrue(line(text, "JDK").contains(Runtime.version().toString()), text);
        assertTrue(line(text, "library").contains("shmem4j") || line(text, "library").contains("classes"), text);
        String shm = line(text, "shared memory");
        assertTrue(shm.matches(".*/dev/shm \\(SHMEM_SHM_DIR\\): [0-9.]+ GiB free of [0-9.]+ GiB; a PE maps 0\\.19 GiB.*"
                + "room for \\d+ PEs"), shm);
        // Found here with its version, or said why not; CI installs both, so there they must be found.
        String ucx = line(text, "network ucx");
        assertTrue(ucx.matches(".*: +(UCX \\d+\\.\\d+\\.\\d+|not available: .*libucp.*) \\(SHMEM_NETWORK; for PEs on other nodes\\)"),
                ucx);
        if ("1".equals(System.getenv("SHMEM4J_REQUIRE_UCX"))) {
            assertTrue(ucx.matches(".*: +UCX 1\\..*"), ucx);
        }
        String pmix = line(text, "PMIx");
        assertTrue(pmix.matches(".*: +(.*PMIx \\d+\\.\\d+.*|not available: .*libpmix.*) \\(srun --mpi=pmix, mpirun\\)"), pmix);
        if ("1".equals(System.getenv("SHMEM4J_REQUIRE_PMIX"))) {
            assertFalse(pmix.contains("not available"), pmix);
        }
    }

    @Test
    void aMissingHeapDirectoryIsSaidToStopEveryPe() {
        String shm = line(InfoReport.of(Map.of("SHMEM_SHM_DIR", "/nonexistent/shm")).text(), "shared memory");
        assertTrue(shm.endsWith("/nonexistent/shm (SHMEM_SHM_DIR) is missing: no PE can start"), shm);
    }

    @Test
    void anInvalidEnvironmentIsReportedAndTheDefaultsShown() {
        var report = InfoReport.of(Map.of("SHMEM_SYMMETRIC_SIZE", "lots", "SHMEM_TEAMS_MAX", "2"));
        assertFalse(report.valid());
        String text = report.text();
        assertTrue(text.contains("The environment is invalid (the table shows defaults instead):\n  2 environment variables are invalid:"),
                text);
        assertTrue(text.contains("SHMEM_SYMMETRIC_SIZE='lots'") && text.contains("SHMEM_TEAMS_MAX='2'"), text);
        assertTrue(text.contains("Collective algorithms"), text);
    }
}
