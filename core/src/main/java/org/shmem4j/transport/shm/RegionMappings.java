package org.shmem4j.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mappings of region files held by the PEs of one process: each file is mapped once, however
 * many PEs of the process use it, and unmapped when the last of them releases it. A launched PE
 * is alone in its process and gets a table of its own; the PEs (threads) of an in-process job
 * share their job's.
 *
 * <p>Why: every mapping is one entry of the process's memory map, which the kernel bounds
 * ({@code vm.max_map_count}, 65530 by default). With a mapping per PE and peer, N thread-PEs of
 * one node took N<sup>2</sup> entries (256 PEs: 65,536, so init failed with "Map failed"); with
 * this table a process holds one per region of its node, N.
 */
public final class RegionMappings {
    /** One file's mapping: its own arena, so each file is unmapped as soon as nobody uses it. */
    public static final class Mapping {
        private final Path file;
        private final Arena arena;
        private final MemorySegment segment;
        private int users;

        private Mapping(Path file, Arena arena, MemorySegment segment) {
            this.file = file;
            this.arena = arena;
            this.segment = segment;
        }

        public MemorySegment segment() {
            return segment;
        }
    }

    private final ConcurrentHashMap<Path, Mapping> byFile = new ConcurrentHashMap<>();

    /** Maps {@code file} ({@code bytes} long) unless this process already does, and counts one more user. */
    public Mapping acquire(Path file, long bytes) throws IOException {
        try {
            // compute runs under the entry's lock: an acquire and the last release of one file never interleave
            return byFile.compute(file, (f, held) -> {
                Mapping m = held != null ? held : map(f, bytes);
                m.users++;
                return m;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One user fewer; the last one unmaps the file (which must then be out of use in every thread). */
    public void release(Mapping mapping) {
        byFile.compute(mapping.file, (f, held) -> {
            if (--mapping.users > 0) {
                return mapping;
            }
            mapping.arena.close();
            return null;
        });
    }

    private static Mapping map(Path file, long bytes) {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new Mapping(file, arena, ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena));
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }
}
