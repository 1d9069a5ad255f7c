package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.examples.ReduceExample;

/** {@code oshrun --jfr DIR}: one recording per PE, named by rank, holding that PE's shmem4j events. */
@Timeout(120)
class JfrJobTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 3})
    void everyPeWritesItsRecordingWithItsCollectives(int n) throws Exception {
        Path dir = tmp.resolve("recordings"); // created by oshrun
        var args = new ArrayList<>(List.of("-n", Integer.toString(n), "--oversubscribe", "--jfr", dir.toString(), "-cp",
                Jobs.peClasspath(), ReduceExample.class.getName()));
        // starting JFR in every PE takes seconds of CPU on a shared 2-core machine: a wider bound than Jobs.BOUND
        var r = Jobs.run("ReduceExample --jfr on " + n + " PEs", Jobs.oshrun(args), java.util.Map.of(), Duration.ofSeconds(90));
        assertEquals(0, r.exit(), r::describe);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(IntStream.range(0, n).mapToObj(pe -> "pe-" + pe + ".jfr").sorted().toList(),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        for (int pe = 0; pe < n; pe++) {
            List<RecordedEvent> events = RecordingFile.readAllEvents(dir.resolve("pe-" + pe + ".jfr"));
            int rank = pe;
            List<RecordedEvent> reductions = events.stream().filter(e -> e.getEventType().getName().equals("shmem4j.Collective")
                    && e.getString("routine").equals("shmem_or_reduce")).toList();
            assertFalse(reductions.isEmpty(), "PE " + pe + " recorded no shmem_or_reduce");
            assertTrue(reductions.stream().allMatch(e -> e.getInt("pe") == rank && e.getInt("teamSize") == n), reductions::toString);
            assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.JVMInformation")),
                    "JFR's default settings are in effect");
        }
    }
}
