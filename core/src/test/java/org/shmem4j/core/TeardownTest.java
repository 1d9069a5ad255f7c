package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
