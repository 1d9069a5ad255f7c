package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shmem4j.ShmemGlobalExit;

/** The init sequence's teardown: reverse order, every part released even when one fails, failures kept. */
class TeardownTest {
    private final List<String> released = new ArrayList<>();
    private final Teardown teardown = new Teardown();

    private String part(String name) {
        return teardown.add(name, released::add);
    }

    @Test
    void releasesInTheOppositeOrderOfConstructionAndOnlyOnce() {
        assertEquals("memory", part("memory"));
        part("network");
        part("context");
        teardown.release();
        assertArrayEquals(new String[] {"context", "network", "memory"}, released.toArray());
        teardown.release();
        assertEquals(3, released.size(), "a second release must not release again");
    }

    @Test
    void aStepThatBuiltNothingIsSkipped() {
        part("memory");
        assertEquals(null, teardown.add((String) null, s -> released.add("null part")));
        teardown.release();
        assertEquals(List.of("memory"), released);
    }

    @Test
    void everyPartIsReleasedWhenReleasesFailAndTheFirstFailureCarriesTheOthers() {
        part("memory");
        teardown.add("network", s -> {
            throw new IllegalStateException("network close failed");
        });
        part("context");
        teardown.add("teams", s -> {
            throw new IllegalArgumentException("teams failed");
        });
        IllegalArgumentException first = assertThrows(IllegalArgumentException.class, teardown::release);
        assertEquals(List.of("context", "memory"), released);
        assertEquals(1, first.getSuppressed().length);
        assertEquals("network close failed", first.getSuppressed()[0].getMessage());
    }

    /**
     * A global exit ends every wait with an error, also a wait inside a release (a channel's close
     * completing its operations): the parts after it are released all the same (before, the error
     * skipped them, leaving the network engine running over a heap that stayed mapped).
     */
    @Test
    void anErrorInAReleaseStillReleasesTheRestAndIsThrown() {
        part("memory");
        part("network");
        teardown.add("context", s -> {
            throw new ShmemGlobalExit(3, "PE 1 called shmem_global_exit(3)");
        });
        part("teams");
        ShmemGlobalExit exit = assertThrows(ShmemGlobalExit.class, teardown::release);
        assertEquals(3, exit.status());
        assertEquals(List.of("teams", "network", "memory"), released);
    }

    @Test
    void aFailedStepReleasesTheStepsBeforeItAndKeepsItsOwnException() {
        part("memory");
        part("network");
        teardown.add("context", s -> {
            throw new IllegalStateException("context close failed");
        });
        RuntimeException cause = new RuntimeException("teams step threw");
        teardown.failed(cause);
        assertEquals(List.of("network", "memory"), released);
        assertSame(IllegalStateException.class, cause.getSuppressed()[0].getClass());
    }
}
