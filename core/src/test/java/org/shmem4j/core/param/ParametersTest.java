package org.shmem4j.core.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

class ParametersTest {
    private static final String SIZE_FORM =
            "expected a non-negative number with an optional k, m, g or t suffix (e.g. 512m)";

    @Test
    void defaults() {
        Parameters p = Parameters.from(Map.of());
        assertEquals(false, p.get(Params.VERSION));
        assertEquals(false, p.get(Params.INFO));
        assertEquals(false, p.get(Params.DEBUG));
        assertEquals(134_217_728L, p.get(Params.SYMMETRIC_SIZE));
        assertEquals(Path.of("/dev/shm"), p.get(Params.SHM_DIR));
        assertEquals(4000, p.get(Params.WAIT_SPINS));
        assertEquals(200, p.get(Params.WAIT_YIELDS));
        assertEquals(200, p.get(Params.WAIT_PARK_MAX_US));
        assertEquals(67_108_864L, p.get(Params.RESERVED_SIZE));
        assertEquals(60, p.get(Params.BOOTSTRAP_TIMEOUT_S));
        for (Parameter<?> param : Parameters.all()) {
            assertEquals("default", p.source(param), param.name());
        }
        assertEquals(List.of(), p.unknownVariables());
        assertEquals(Parameters.defaults().get(Params.SYMMETRIC_SIZE), p.get(Params.SYMMETRIC_SIZE));
    }

    /** oshrun and the bootstraps name these variables by LaunchEnv's constants; the core reads them here. */
    @Test
    void theLaunchEnvironmentNamesTheSameVariables() {
        assertEquals(Params.BOOTSTRAP_TIMEOUT_S.name(), LaunchEnv.BOOTSTRAP_TIMEOUT_S);
        assertEquals(Params.SHM_DIR.name(), LaunchEnv.SHM_DIR);
    }

    @Test
    void registryContent() {
        assertEquals(List.of("SHMEM_VERSION", "SHMEM_INFO", "SHMEM_DEBUG", "SHMEM_SYMMETRIC_SIZE",
                        "SHMEM_SHM_DIR", "SHMEM_NETWORK", "SHMEM_NETWORK_ATOMICS", "SHMEM_WAIT_SPINS", "SHMEM_WAIT_YIELDS",
                        "SHMEM_WAIT_PARK_MAX_US", "SHMEM_RESERVED_SIZE", "SHMEM_BOOTSTRAP_TIMEOUT_S",
                        "SHMEM_TEAMS_MAX", "SHMEM_COLLECTIVE_SCRATCH", "SHMEM_BARRIER_ALGORITHM", "SHMEM_BCAST_ALGORITHM",
                        "SHMEM_REDUCE_ALGORITHM", "SHMEM_COLLECT_ALGORITHM", "SHMEM_FCOLLECT_ALGORITHM",
                        "SHMEM_ALLTOALL_ALGORITHM", "SHMEM_SCAN_ALGORITHM", "SHMEM_BCAST_CROSSOVER",
                        "SHMEM_REDUCE_CROSSOVER", "SHMEM_COLLECT_CROSSOVER", "SHMEM_ALLTOALL_CROSSOVER",
                        "SHMEM_BATCH_BYTES", "SHMEM_BATCH_MEMORY", "SHMEM_BATCH_DELAY_US", "SHMEM_BATCH_ALL",
                        "SHMEM_JFR_RMA_SIZE", "SHMEM_JFR_RMA_US"),
                Parameters.all().stream().map(Parameter::name).toList());
        assertEquals(Params.ALL, Parameters.all());
        for (Parameter<?> p : List.of(Params.VERSION, Params.INFO, Params.DEBUG, Params.SYMMETRIC_SIZE)) {
            assertEquals(Parameter.Kind.SPEC, p.kind());
            assertEquals(Optional.of(p.name().replaceFirst("^SHMEM_", "SMA_")), p.alias());
        }
        for (Parameter<?> p : Parameters.all().subList(4, Parameters.all().size())) {
            assertEquals(Parameter.Kind.IMPLEMENTATION, p.kind(), p.name());
            assertEquals(Optional.empty(), p.alias(), p.name());
        }
    }

    @Test
    void valuesFromEnvironment() {
        Parameters p = Parameters.from(Map.of(
                "SHMEM_SYMMETRIC_SIZE", "3.1M",
                "SHMEM_SHM_DIR", " /tmp/heaps ",
                "SHMEM_WAIT_SPINS", "0",
                "SHMEM_WAIT_YIELDS", "+7",
                "SHMEM_WAIT_PARK_MAX_US", "1000000",
                "SHMEM_RESERVED_SIZE", "1k",
                "SHMEM_BOOTSTRAP_TIMEOUT_S", "5"));
        assertEquals(3_250_586L, p.get(Params.SYMMETRIC_SIZE));
        assertEquals("SHMEM_SYMMETRIC_SIZE", p.source(Params.SYMMETRIC_SIZE));
        assertEquals(Path.of("/tmp/heaps"), p.get(Params.SHM_DIR));
        assertEquals(0, p.get(Params.WAIT_SPINS));
        assertEquals(7, p.get(Params.WAIT_YIELDS));
        assertEquals(1_000_000, p.get(Params.WAIT_PARK_MAX_US));
        assertEquals(1024L, p.get(Params.RESERVED_SIZE));
        assertEquals(5, p.get(Params.BOOTSTRAP_TIMEOUT_S));
        assertEquals("SHMEM_BOOTSTRAP_TIMEOUT_S", p.source(Params.BOOTSTRAP_TIMEOUT_S));
        assertEquals("default", p.source(Params.DEBUG));
    }

    @Test
    void smaAliasIsUsedWhenOnlyItIsSet() {
        Parameters p = Parameters.from(Map.of("SMA_SYMMETRIC_SIZE", "20m", "SMA_DEBUG", "1"));
        assertEquals(20_971_520L, p.get(Params.SYMMETRIC_SIZE));
        assertEquals("SMA_SYMMETRIC_SIZE", p.source(Params.SYMMETRIC_SIZE));
        assertEquals(true, p.get(Params.DEBUG));
        assertEquals("SMA_DEBUG", p.source(Params.DEBUG));
    }

    @Test
    void shmemVariableWinsOverSmaAlias() {
        Parameters p = Parameters.from(Map.of(
                "SHMEM_SYMMETRIC_SIZE", "1g", "SMA_SYMMETRIC_SIZE", "20m",
                "SHMEM_INFO", "off", "SMA_INFO", "1"));
        assertEquals(1L << 30, p.get(Params.SYMMETRIC_SIZE));
        assertEquals("SHMEM_SYMMETRIC_SIZE", p.source(Params.SYMMETRIC_SIZE));
        assertEquals(false, p.get(Params.INFO));
        assertEquals("SHMEM_INFO", p.source(Params.INFO));
    }

    @Test
    void invalidAliasIsIgnoredWhenShmemVariableIsSet() {
        Parameters p = Parameters.from(Map.of(
                "SHMEM_SYMMETRIC_SIZE", "64k", "SMA_SYMMETRIC_SIZE", "garbage"));
        assertEquals(65_536L, p.get(Params.SYMMETRIC_SIZE));
    }

    @Test
    void invalidShmemVariableIsAnErrorEvenWithValidAlias() {
        ShmemException e = assertThrows(ShmemException.class, () -> Parameters.from(Map.of(
                "SHMEM_SYMMETRIC_SIZE", "20x", "SMA_SYMMETRIC_SIZE", "20m")));
        assertEquals("SHMEM_SYMMETRIC_SIZE='20x' is not a valid size: " + SIZE_FORM, e.getMessage());
    }

    @Test
    void invalidAliasErrorNamesTheAlias() {
        ShmemException e = assertThrows(ShmemException.class,
                () -> Parameters.from(Map.of("SMA_SYMMETRIC_SIZE", "-1")));
        assertEquals("SMA_SYMMETRIC_SIZE='-1' is not a valid size: " + SIZE_FORM, e.getMessage());
    }

    @Test
    void everyInvalidVariableIsReportedTogether() {
        ShmemException e = assertThrows(ShmemException.class, () -> Parameters.from(Map.of(
                "SHMEM_SYMMETRIC_SIZE", "1.2.3",
                "SHMEM_WAIT_SPINS", "lots",
                "SHMEM_WAIT_PARK_MAX_US", "0",
                "SHMEM_DEBUG", "1",
                "SHMEM_BOOTSTRAP_TIMEOUT_S", "60")));
        assertEquals("""
                3 environment variables are invalid:
                  SHMEM_SYMMETRIC_SIZE='1.2.3' is not a valid size: %s
                  SHMEM_WAIT_SPINS='lots' is not a valid integer: expected an integer from 0 to 1000000000
                  SHMEM_WAIT_PARK_MAX_US='0' is out of range: expected an integer from 1 to 1000000"""
                .formatted(SIZE_FORM), e.getMessage());
        assertEquals(3, e.getSuppressed().length);
        assertEquals("SHMEM_WAIT_PARK_MAX_US='0' is out of range: expected an integer from 1 to 1000000",
                e.getSuppressed()[2].getMessage());
    }

    @Test
    void rangeErrorsNameVariableAndRange() {
        assertEquals("SHMEM_WAIT_SPINS='-1' is out of range: expected an integer from 0 to 1000000000",
                error("SHMEM_WAIT_SPINS", "-1"));
        assertEquals("SHMEM_WAIT_SPINS='1000000001' is out of range: expected an integer from 0 to 1000000000",
                error("SHMEM_WAIT_SPINS", "1000000001"));
        assertEquals("SHMEM_WAIT_PARK_MAX_US='1000001' is out of range: expected an integer from 1 to 1000000",
                error("SHMEM_WAIT_PARK_MAX_US", "1000001"));
        assertEquals("SHMEM_BOOTSTRAP_TIMEOUT_S='99999999999999999999999' is out of range: expected an"
                        + " integer from 1 to 86400",
                error("SHMEM_BOOTSTRAP_TIMEOUT_S", "99999999999999999999999"));
        assertEquals("SHMEM_WAIT_YIELDS='1.5' is not a valid integer: expected an integer from 0 to"
                        + " 1000000000",
                error("SHMEM_WAIT_YIELDS", "1.5"));
        assertEquals("SHMEM_WAIT_YIELDS='' is not a valid integer: expected an integer from 0 to"
                        + " 1000000000",
                error("SHMEM_WAIT_YIELDS", ""));
        assertEquals("SHMEM_SHM_DIR='  ' is not a valid directory: expected a non-empty path",
                error("SHMEM_SHM_DIR", "  "));
        assertEquals("SHMEM_RESERVED_SIZE='4q' is not a valid size: " + SIZE_FORM,
                error("SHMEM_RESERVED_SIZE", "4q"));
    }

    @Test
    void rangeBoundsAreInclusive() {
        Parameters p = Parameters.from(Map.of("SHMEM_WAIT_SPINS", "1000000000",
                "SHMEM_WAIT_PARK_MAX_US", "1", "SHMEM_BOOTSTRAP_TIMEOUT_S", "86400"));
        assertEquals(1_000_000_000, p.get(Params.WAIT_SPINS));
        assertEquals(1, p.get(Params.WAIT_PARK_MAX_US));
        assertEquals(86_400, p.get(Params.BOOTSTRAP_TIMEOUT_S));
    }

    @ParameterizedTest(name = "flag \"{0}\" is on")
    @ValueSource(strings = {"1", "yes", "true", "TRUE", "on", "anything", "2", "00", " x "})
    void flagOn(String value) {
        Parameters p = Parameters.from(Map.of("SHMEM_DEBUG", value, "SHMEM_VERSION", value));
        assertEquals(true, p.get(Params.DEBUG));
        assertEquals(true, p.get(Params.VERSION));
    }

    @ParameterizedTest(name = "flag \"{0}\" is off")
    @ValueSource(strings = {"", "0", "false", "False", "NO", "no", "off", "OFF", " 0 ", "\tfalse"})
    void flagOff(String value) {
        Parameters p = Parameters.from(Map.of("SHMEM_DEBUG", value, "SMA_DEBUG", "1"));
        assertEquals(false, p.get(Params.DEBUG));
        assertEquals("SHMEM_DEBUG", p.source(Params.DEBUG));
    }

    @Test
    void unknownShmemVariablesAreCollectedButLauncherVariablesAreNot() {
        Parameters p = Parameters.from(Map.of(
                "SHMEM_DEBUGG", "1",
                "SHMEM_SYMETRIC_SIZE", "1g",
                "SHMEM_DEBUG", "1",
                "SHMEM4J_NPES", "4",
                "SHMEM4J_RANK", "0",
                "SMA_FOO", "1",
                "PATH", "/bin"));
        assertEquals(List.of("SHMEM_DEBUGG", "SHMEM_SYMETRIC_SIZE"), p.unknownVariables());
        assertThrows(UnsupportedOperationException.class, () -> p.unknownVariables().clear());
    }

    @Test
    void infoTextListsEveryParameterWithValueAndSource() {
        Parameters p = Parameters.from(Map.of(
                "SMA_SYMMETRIC_SIZE", "1g", "SHMEM_INFO", "1", "SHMEM_WAIT_SPINS", "10"));
        String text = p.infoText();
        List<String> lines = text.lines().toList();
        assertEquals("shmem4j environment parameters:", lines.getFirst());
        assertEquals(List.of("VARIABLE", "VALUE", "DEFAULT", "SOURCE", "KIND", "DESCRIPTION"), cells(lines.get(1)));
        assertEquals(2 + Parameters.all().size() + 1, lines.size());
        for (int i = 0; i < Parameters.all().size(); i++) {
            Parameter<?> param = Parameters.all().get(i);
            List<String> row = cells(lines.get(2 + i));
            assertEquals(param.name(), row.get(0));
            assertEquals(p.source(param), row.get(3));
            assertEquals(param.description(), row.get(5));
        }
        assertEquals(List.of("SHMEM_SYMMETRIC_SIZE", "1073741824 (1g)", "134217728 (128m)", "SMA_SYMMETRIC_SIZE", "spec",
                        Params.SYMMETRIC_SIZE.description()), rowNamed(lines, "SHMEM_SYMMETRIC_SIZE"));
        assertEquals(List.of("SHMEM_INFO", "true", "false", "SHMEM_INFO", "spec",
                        Params.INFO.description()), rowNamed(lines, "SHMEM_INFO"));
        assertEquals(List.of("SHMEM_WAIT_SPINS", "10", "4000", "SHMEM_WAIT_SPINS", "shmem4j",
                        Params.WAIT_SPINS.description()), rowNamed(lines, "SHMEM_WAIT_SPINS"));
        assertEquals(List.of("SHMEM_SHM_DIR", "/dev/shm", "/dev/shm", "default", "shmem4j",
                        Params.SHM_DIR.description()), rowNamed(lines, "SHMEM_SHM_DIR"));
        assertEquals(List.of("SHMEM_RESERVED_SIZE", "67108864 (64m)", "67108864 (64m)", "default", "shmem4j",
                        Params.RESERVED_SIZE.description()), rowNamed(lines, "SHMEM_RESERVED_SIZE"));
        assertEquals("Deprecated aliases, read only when the SHMEM_ variable is unset: "
                + "SMA_VERSION -> SHMEM_VERSION, SMA_INFO -> SHMEM_INFO, SMA_DEBUG -> SHMEM_DEBUG, "
                + "SMA_SYMMETRIC_SIZE -> SHMEM_SYMMETRIC_SIZE", lines.getLast());
        assertTrue(text.endsWith("\n"));
        // Columns line up: every value starts at the same offset as the header's.
        int valueColumn = lines.get(1).indexOf("VALUE");
        for (String line : lines.subList(2, lines.size() - 1)) {
            assertFalse(Character.isWhitespace(line.charAt(valueColumn)), line);
            assertTrue(Character.isWhitespace(line.charAt(valueColumn - 1)), line);
        }
    }

    @Test
    void unregisteredParameterIsRejected() {
        Parameter<Boolean> stray = Parameter.flag("SHMEM_STRAY", "not registered");
        Parameters p = Parameters.defaults();
        assertThrows(IllegalArgumentException.class, () -> p.get(stray));
        assertThrows(IllegalArgumentException.class, () -> p.source(stray));
    }

    @Test
    void customRegistryWithChoice() {
        Parameter<String> algo = Parameter.choice("SHMEM_BARRIER_ALGORITHM", "dissemination",
                List.of("dissemination", "tree", "central"), "Barrier algorithm");
        List<Parameter<?>> registry = List.of(algo);
        assertEquals("dissemination", Parameters.from(Map.of(), registry).get(algo));
        assertEquals("tree", Parameters.from(Map.of("SHMEM_BARRIER_ALGORITHM", " TREE "), registry)
                .get(algo));
        ShmemException e = assertThrows(ShmemException.class,
                () -> Parameters.from(Map.of("SHMEM_BARRIER_ALGORITHM", "ring"), registry));
        assertEquals("SHMEM_BARRIER_ALGORITHM='ring' is not a valid choice: expected one of"
                + " dissemination, tree, central", e.getMessage());
        // Variables of the default registry are unknown to a custom one.
        assertEquals(List.of("SHMEM_DEBUG"),
                Parameters.from(Map.of("SHMEM_DEBUG", "1"), registry).unknownVariables());
    }

    @Test
    void duplicateRegistryEntriesAreRejected() {
        Parameter<Boolean> a = Parameter.flag("SHMEM_A", "a");
        Parameter<Boolean> b = Parameter.flag("SHMEM_B", "b").withAlias("SMA_A");
        Parameter<Boolean> c = Parameter.flag("SHMEM_C", "c").withAlias("SMA_A");
        assertThrows(IllegalArgumentException.class,
                () -> Parameters.from(Map.of(), List.of(a, Parameter.flag("SHMEM_A", "again"))));
        assertThrows(IllegalArgumentException.class, () -> Parameters.from(Map.of(), List.of(b, c)));
        assertEquals(false, Parameters.from(Map.of(), List.of(a, b)).get(a));
    }

    @Test
    void definitionsValidateTheirArguments() {
        assertThrows(IllegalArgumentException.class, () -> Parameter.intRange("SHMEM_X", 0, 1, 10, "x"));
        assertThrows(IllegalArgumentException.class, () -> Parameter.longRange("SHMEM_X", 5, 10, 1, "x"));
        assertThrows(IllegalArgumentException.class, () -> Parameter.size("SHMEM_X", -1, "x"));
        assertThrows(IllegalArgumentException.class,
                () -> Parameter.choice("SHMEM_X", "c", List.of("a", "b"), "x"));
        assertThrows(IllegalArgumentException.class,
                () -> Parameter.choice("SHMEM_X", "a", List.of("a", "A"), "x"));
        assertThrows(IllegalArgumentException.class, () -> Parameter.flag("shmem_x", "x"));
        assertThrows(IllegalArgumentException.class, () -> Parameter.flag("SHMEM_X", "x").withAlias("SHMEM_X"));
    }

    @Test
    void longRangeAndCustomParameter() {
        Parameter<Long> big = Parameter.longRange("SHMEM_BIG", 1, 1, Long.MAX_VALUE, "big");
        Parameter<Integer> len = Parameter.of("SHMEM_LEN", 0, (variable, text) -> text.length(), "len")
                .withFormatter(n -> n + " chars");
        List<Parameter<?>> registry = List.of(big, len);
        Parameters p = Parameters.from(Map.of("SHMEM_BIG", "9223372036854775807", "SHMEM_LEN", "abc"),
                registry);
        assertEquals(Long.MAX_VALUE, p.get(big));
        assertEquals(3, p.get(len));
        assertTrue(p.infoText().contains("  3 chars  "), p.infoText());
        assertEquals("SHMEM_BIG='9223372036854775808' is out of range: expected an integer from 1 to"
                        + " 9223372036854775807",
                assertThrows(ShmemException.class,
                        () -> Parameters.from(Map.of("SHMEM_BIG", "9223372036854775808"), registry))
                        .getMessage());
    }

    private static String error(String variable, String value) {
        return assertThrows(ShmemException.class, () -> Parameters.from(Map.of(variable, value)))
                .getMessage();
    }

    /** The cells of the info table's row for {@code variable}. */
    private static List<String> rowNamed(List<String> lines, String variable) {
        return lines.stream().map(ParametersTest::cells).filter(c -> c.getFirst().equals(variable)).findFirst().orElseThrow();
    }

    private static List<String> cells(String line) {
        return Arrays.asList(line.strip().split("\\s{2,}"));
    }
}
