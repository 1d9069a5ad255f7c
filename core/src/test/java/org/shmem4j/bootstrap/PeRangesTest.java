package org.shmem4j.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PeRangesTest {
    @Test
    void ranksAreWrittenAsRangesWithTheirCount() {
        assertEquals("PEs 0-3, 7, 9-12 (9)", PeRanges.of(List.of(0, 1, 2, 3, 7, 9, 10, 11, 12)));
        assertEquals("PEs 0-255 (256)", PeRanges.of(java.util.stream.IntStream.range(0, 256).boxed().toList()));
        assertEquals("PEs 4, 5 (2)", PeRanges.of(List.of(4, 5)), "two neighbours are not a range");
        assertEquals("PEs 1, 3 (2)", PeRanges.of(List.of(1, 3)));
        assertEquals("PEs 0, 2-4, 6 (5)", PeRanges.of(List.of(0, 2, 3, 4, 6)));
        assertEquals("PE 7", PeRanges.of(List.of(7)));
        assertEquals("no PE", PeRanges.of(List.of()));
    }

    @Test
    void equalMessagesAreOneLineInTheOrderOfTheirLowestRank() {
        TreeMap<Integer, String> byPe = new TreeMap<>();
        for (int pe = 0; pe < 8; pe++) {
            byPe.put(pe, "job aborted: PE 5 failed");
        }
        byPe.put(5, "boom");
        byPe.put(9, "late");
        assertEquals(List.of("PEs 0-4, 6, 7 (7): job aborted: PE 5 failed", "PE 5: boom", "PE 9: late"), PeRanges.lines(byPe));
        assertEquals(Map.of("boom", List.of(5)), PeRanges.group(new TreeMap<>(Map.of(5, "boom"))));
    }
}
