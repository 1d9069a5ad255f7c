package org.shmem4j.coverage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.shmem4j.Binds;
import org.shmem4j.coverage.CoverageChecker.Result;
import org.shmem4j.coverage.SpecRoutines.Routine;

/** Proves each failure mode of the coverage guard fires, on a tiny fake spec and fake API. */
class CoverageCheckerTest {

    private static final List<Routine> SPEC = SpecRoutines.parse(List.of(
            "# fake",
            "shmem_init setup current c",
            "shmem_putmem rma current c",
            "shmem_ctx_putmem rma current c",
            "shmem_long_put rma current c",
            "shmem_int_put rma current c",
            "shmem_longdouble_put rma current c",
            "shmem_put8 rma current c",
            "shmem_put16 rma current c",
            "shmem_fence order current c",
            "shmem_short_wait_until wait deprecated c",
            "shmem_long_wait_until wait current c",
            "start_pes setup deprecated c",
            "shmem_put rma current c11"));

    /** Fake public API: an interface whose bindings a class inherits. */
    public interface FakeRma {
        @Binds({"shmem_putmem", "shmem_ctx_putmem"})
        void putmem();

        @Binds("shmem_TYPENAME_put")
        void put();
    }

    public abstract static class FakeShmem implements FakeRma {
        @Binds("shmem_init")
        public static void init() {}

        @Binds("shmem_putSIZE")
        public void putSized() {}
    }

    public static class FakeTypo {
        @Binds("shmem_putmme")
        public void typo() {}

        @Binds("shmem_TYPENAME_pput")
        public void typoTyped() {}
    }

    private static final List<String> STATUS = List.of(
            "# comment",
            "shmem_*longdouble*   unsupported no Java type for C long double",
            "shmem_fence          not-yet     issue-2: being written",
            "shmem_TYPENAME_wait_until not-yet issue-3: wait",
            "start_pes            not-yet     issue-13: deprecated layer",
            "shmem_short_wait_until not-yet   issue-13: deprecated layer");

    private static Result check(List<Class<?>> types, List<String> status) {
        return CoverageChecker.check(SPEC, BindsScanner.binds(types), CoverageChecker.parseStatus(status));
    }

    @Test
    void passesWhenEverythingIsBoundOrListed() {
        Result r = check(List.of(FakeShmem.class), STATUS);
        assertTrue(r.ok(), r::report);
        // Inherited interface bindings count; TYPENAME skips unsupported longdouble; SIZE expands.
        assertEquals(Set.of("shmem_init", "shmem_putmem", "shmem_ctx_putmem", "shmem_long_put", "shmem_int_put",
                "shmem_put8", "shmem_put16"), r.bound());
    }

    @Test
    void failsForAnUnlistedUnboundRoutine() {
        Result r = check(List.of(FakeShmem.class), List.of(STATUS.get(1), STATUS.get(3), STATUS.get(4), STATUS.get(5))); // no fence line
        assertFalse(r.ok());
        assertEquals(Map.of("order", List.of("shmem_fence")), r.unbound());
        assertTrue(r.report().contains("order (1): shmem_fence"), r::report);
    }

    @Test
    void failsForAStaleStatusLine() {
        var status = new java.util.ArrayList<>(STATUS);
        status.add("shmem_init           not-yet     issue-2: already bound, line forgotten");
        status.add("shmem_i*_put         not-yet     issue-2: glob covering only bound names");
        Result r = check(List.of(FakeShmem.class), status);
        assertFalse(r.ok());
        assertEquals(2, r.staleStatus().size(), r::report);
        assertTrue(r.staleStatus().get(0).contains(":7: shmem_init not-yet"), r::report);
        assertTrue(r.unbound().isEmpty() && r.unknownBinds().isEmpty(), r::report);
    }

    @Test
    void failsForABindsNameThatIsNoRoutine() {
        Result r = check(List.of(FakeShmem.class, FakeTypo.class), STATUS);
        assertFalse(r.ok());
        assertEquals(2, r.unknownBinds().size(), r::report);
        assertTrue(r.unknownBinds().get(0).startsWith("shmem_TYPENAME_pput (expands to no current routine)")
                || r.unknownBinds().get(1).startsWith("shmem_TYPENAME_pput (expands to no current routine)"), r::report);
        assertTrue(r.report().contains("shmem_putmme at " + FakeTypo.class.getName() + ".typo"), r::report);
    }

    @Test
    void deprecatedRoutinesMustBeBoundOrListedToo() {
        // start_pes is deprecated but still in the spec: without its line it is unbound (the
        // TYPENAME_wait_until status line covers the deprecated shmem_short_wait_until as well).
        Result r = check(List.of(FakeShmem.class), STATUS.subList(0, 4));
        assertEquals(Map.of("setup", List.of("start_pes")), r.unbound(), r::report);
        Result none = check(List.of(FakeShmem.class), List.of(STATUS.get(1), STATUS.get(2)));
        assertEquals(Map.of("setup", List.of("start_pes"), "wait", List.of("shmem_long_wait_until", "shmem_short_wait_until")),
                none.unbound(), none::report);
        // TYPENAME never expands into deprecated names, so a current binding cannot claim shmem_short_wait_until.
        assertEquals(Set.of("shmem_long_wait_until"),
                CoverageChecker.expand("shmem_TYPENAME_wait_until", SpecRoutines.names(SPEC, SpecRoutines.Api.C, true), List.of()));
        // Binding a deprecated routine explicitly binds it.
        var bound = CoverageChecker.check(SPEC, List.of(new CoverageChecker.Binding("start_pes", "test")),
                CoverageChecker.parseStatus(List.of()));
        assertTrue(bound.unknownBinds().isEmpty() && bound.bound().contains("start_pes"), bound::report);
    }
}
