package org.shmem4j.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One mapping per file per process: shared by the PEs of an init, unmapped once, when the last leaves. */
class RegionMappingsTest {
    private static final long BYTES = 8192;

    @Test
    void thePesOfAnInitShareEachMappingUntilTheLastLeaves(@TempDir Path dir) throws IOException {
        Path a = Files.write(dir.resolve("a"), new byte[(int) BYTES]);
        Path b = Files.write(dir.resolve("b"), new byte[(int) BYTES]);
        RegionMappings table = new RegionMappings();
        RegionMappings.Share first = table.join();
        RegionMappings.Share second = table.join();
        assertSame(first, second);
        MemorySegment aOnce = first.map(a, BYTES);
        assertSame(aOnce, second.map(a, BYTES), "mapped once for both");
        MemorySegment bOnce = second.map(b, BYTES);
        aOnce.set(ValueLayout.JAVA_LONG, 64, 42L);
        first.leave();
        assertEquals(42L, aOnce.get(ValueLayout.JAVA_LONG, 64), "still mapped for its other user");
        second.leave();
        assertFalse(aOnce.scope().isAlive(), "the last to leave unmaps");
        assertFalse(bOnce.scope().isAlive());

        RegionMappings.Share next = table.join();
        assertNotSame(first, next, "the next init's PEs start a new share");
        MemorySegment again = next.map(a, BYTES);
        assertTrue(again.scope().isAlive());
        assertEquals(42L, again.get(ValueLayout.JAVA_LONG, 64), "a new mapping of the same file");
        next.leave();
        assertFalse(again.scope().isAlive());
    }

    @Test
    void aMissingFileFailsAndTheShareStaysUsable(@TempDir Path dir) throws IOException {
        RegionMappings.Share share = new RegionMappings().join();
        Path file = dir.resolve("gone");
        assertThrows(NoSuchFileException.class, () -> share.map(file, BYTES));
        Files.write(file, new byte[(int) BYTES]);
        MemorySegment m = share.map(file, BYTES);
        share.leave();
        assertFalse(m.scope().isAlive());
    }
}
