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
 * many PEs of the process use it. A launched PE is alone in its process and gets a table of its
 * own; the PEs (threads) of an in-process job share their job's.
 *
 * <p>Why: every mapping is one entry of the process's memory map, which the kernel bounds
 * ({@code vm.max_map_count}, 65530 by default). With a mapping per PE and peer, N thread-PEs of
 * one node took N<sup>2</sup> entries (256 PEs: 65,536, so init failed with "Map failed"); with
 * this table a process holds one per region of its node, N.
 *
 * <p>The PEs that take part in one init {@link #join} the same {@link Share}: the mappings made
 * through it live in one shared arena, closed (every file unmapped, once) when the last of them
 * leaves. One arena, not one per file: closing a shared arena is a handshake with every thread of
 * the JVM, and 1,024 of them, one per file, made an in-process job of 1,024 PEs spend half a
 * minute finalizing. The next init's PEs start a new share: none can map a file of its init
 * before all PEs have exchanged their files' names, so after every PE left the previous one.
 */
public final class RegionMappings {
    /** The mappings of the PEs of one init, unmapped together when the last of them leaves. */
    public final class Share {
        private final Arena arena = Arena.ofShared();
        private final ConcurrentHashMap<Path, MemorySegment> byFile = new ConcurrentHashMap<>();
        private int users;

        /** {@code file} ({@code bytes} long) as mapped in this process, mapped now if no PE of the share has yet. */
        public MemorySegment map(Path file, long bytes) throws IOException {
            try {
                return byFile.computeIfAbsent(file, f -> {
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                        return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        /** This PE no longer uses the share's mappings; the last to leave unmaps them (they must be out of use in every thread). */
        public void leave() {
            RegionMappings.this.leave(this);
        }
    }

    private Share current;

    /** The share of the PEs of the init under way, with this PE counted as one more user. */
    public synchronized Share join() {
        if (current == null) {
            current = new Share();
        }
        current.users++;
        return current;
    }

    private synchronized void leave(Share share) {
        if (--share.users > 0) {
            return;
        }
        if (current == share) {
            current = null;
        }
        share.arena.close();
    }
}
