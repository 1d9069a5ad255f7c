package org.shmem4j.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One mapping per file per process: shared by its users, unmapped by the last one's release. */
class RegionMappingsTest {
    private static final long BYTES = 8192;

    @Test
    void usersOfOneFileShareItsMappingUntilTheLastReleasesIt(@TempDir Path dir) throws IOException {
        Path file = Files.write(dir.resolve("region"), new byte[(int) BYTES]);
        RegionMappings table = new RegionMappings();
        RegionMappings.Mapping first = table.acquire(file, BYTES);
        RegionMappings.Mapping second = table.acquire(file, BYTES);
        assertSame(first, second);
        first.segment().set(ValueLayout.JAVA_LONG, 64, 42L);
        table.release(first);
        assertEquals(42L, second.segment().get(ValueLayout.JAVA_LONG, 64), "still mapped for its other user");
        table.release(second);
        assertFalse(second.segment().scope().isAlive(), "the last release unmaps");
        RegionMappings.Mapping again = table.acquire(file, BYTES);
        assertTrue(again.segment().scope().isAlive());
        assertEquals(42L, again.segment().get(ValueLayout.JAVA_LONG, 64), "a new mapping of the same file");
        table.release(again);
    }

    @Test
    void distinctFilesAreDistinctMappings(@TempDir Path dir) throws IOException {
        RegionMappings table = new RegionMappings();
        RegionMappings.Mapping a = table.acquire(Files.write(dir.resolve("a"), new byte[(int) BYTES]), BYTES);
        RegionMappings.Mapping b = table.acquire(Files.write(dir.resolve("b"), new byte[(int) BYTES]), BYTES);
        table.release(a);
        assertFalse(a.segment().scope().isAlive());
        assertTrue(b.segment().scope().isAlive());
        table.release(b);
    }

    @Test
    void aMissingFileFailsAndHoldsNothing(@TempDir Path dir) throws IOException {
        RegionMappings table = new RegionMappings();
        Path file = dir.resolve("gone");
        assertThrows(NoSuchFileException.class, () -> table.acquire(file, BYTES));
        Files.write(file, new byte[(int) BYTES]);
        RegionMappings.Mapping m = table.acquire(file, BYTES);
        table.release(m);
        assertFalse(m.segment().scope().isAlive(), "one user after the failed attempt: its release unmaps");
    }
}
