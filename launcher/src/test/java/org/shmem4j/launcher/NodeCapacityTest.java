package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeCapacityTest {
    private static final long MIB = 1L << 20, GIB = 1L << 30;
    private static final Path SHM = Path.of("/dev/shm");

    @Test
    void memoryCountsTheJvmAndItsInitialHeap() {
        assertNull(NodeCapacity.refusal(64, List.of(), 64 * NodeCapacity.PE_JVM_BYTES, MIB, SHM, GIB));
        String r = NodeCapacity.refusal(65, List.of(), 64 * NodeCapacity.PE_JVM_BYTES, MIB, SHM, GIB);
        assertEquals("oshrun: 65 PEs cannot fit this machine's memory: each PE's JVM needs about 32 MiB,"
                + " 2 GiB is available (MemAvailable), room for 64 PEs", r);
        // the last -Xms counts; -Xmx does not (committed only as the heap grows)
        String x = NodeCapacity.refusal(5, List.of("-Xms1g", "-Xmx64g", "-Xms480m"), 2 * GIB, MIB, SHM, GIB);
        assertEquals("oshrun: 5 PEs cannot fit this machine's memory: each PE's JVM needs about 512 MiB (32 MiB plus its -Xms),"
                + " 2 GiB is available (MemAvailable), room for 4 PEs", x);
        assertNull(NodeCapacity.refusal(4, List.of("-Xmx64g"), 2 * GIB, MIB, SHM, GIB));
        assertEquals(3L << 30, NodeCapacity.initialHeap(List.of("-XX:InitialHeapSize=3G")));
        assertEquals(0, NodeCapacity.initialHeap(List.of("-Xmsgarbage")));
        // unknown memory is not checked; an absurd count does not overflow into a pass
        assertNull(NodeCapacity.refusal(1_000_000, List.of(), -1, MIB, SHM, -1));
        assertTrue(NodeCapacity.refusal(Integer.MAX_VALUE, List.of("-Xms8t"), Long.MAX_VALUE / 2, MIB, SHM, -1) != null);
    }

    @Test
    void sharedMemoryCountsEveryPesHeapFile() {
        assertNull(NodeCapacity.refusal(6, List.of(), -1, 160 * MIB, SHM, GIB));
        assertEquals("oshrun: 7 PEs cannot fit /dev/shm (SHMEM_SHM_DIR): each PE's heap file needs 160 MiB"
                + " (SHMEM_SYMMETRIC_SIZE + SHMEM_RESERVED_SIZE), 1 GiB is free, room for 6 PEs",
                NodeCapacity.refusal(7, List.of(), -1, 160 * MIB, SHM, GIB));
    }

    @Test
    void memAvailableIsReadFromMeminfo(@TempDir Path tmp) throws Exception {
        Path f = Files.writeString(tmp.resolve("meminfo"), "MemTotal:       24683656 kB\nMemFree: 1 kB\nMemAvailable:   23717400 kB\n");
        assertEquals(23717400L * 1024, NodeCapacity.memAvailable(f));
        assertEquals(-1, NodeCapacity.memAvailable(tmp.resolve("none")));
        assertTrue(NodeCapacity.memAvailable(Path.of("/proc/meminfo")) > 0);
    }

    /**
     * The check a remote PE's start makes on its host, run here by sh as ssh's login shell would:
     * silent when the PEs fit, else one launcher line and status {@link NodeCapacity#REFUSED}, its
     * figures computed by the host's shell.
     */
    @Test
    void theRemoteGuardRefusesOnTheHostItRunsOn() throws Exception {
        var fits = guard(NodeCapacity.shellGuard("h1", 1, List.of(), MIB, SHM));
        assertEquals(List.of(0, "ran", ""), fits, "one small PE fits this machine");

        var memory = guard(NodeCapacity.shellGuard("h1", 3, List.of("-Xms8t"), MIB, SHM));
        assertEquals(NodeCapacity.REFUSED, memory.get(0));
        assertEquals("", memory.get(1), "nothing after the guard ran");
        assertTrue(memory.get(2).toString().matches("\u0001oshrun: 3 PEs cannot fit host h1's memory: each PE's JVM needs about 8 TiB"
                + " \\(32 MiB plus its -Xms\\), [1-9][0-9]* MiB is available \\(MemAvailable\\), room for 0 PEs\n"), memory.get(2).toString());

        var shm = guard(NodeCapacity.shellGuard("h1", 2, List.of(), 1L << 50, SHM));
        assertEquals(NodeCapacity.REFUSED, shm.get(0));
        assertTrue(shm.get(2).toString().matches("\u0001oshrun: 2 PEs cannot fit /dev/shm \\(SHMEM_SHM_DIR\\): each PE's heap file needs"
                + " 1 PiB \\(SHMEM_SYMMETRIC_SIZE \\+ SHMEM_RESERVED_SIZE\\), [0-9]+ MiB is free, room for 0 PEs\n"), shm.get(2).toString());

        // a directory that does not exist (the PE says so itself) and a quote in its name: not checked
        assertEquals(List.of(0, "ran", ""), guard(NodeCapacity.shellGuard("h1", 2, List.of(), 1L << 50, Path.of("/nonexistent/it's"))));
    }

    /** Runs {@code guard} then {@code echo ran} in sh: its status, stdout and stderr. */
    private static List<Object> guard(String guard) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", guard + "echo ran").start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "sh ended");
        return List.of(p.exitValue(), out, err);
    }
}
