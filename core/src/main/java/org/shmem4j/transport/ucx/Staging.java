package org.shmem4j.transport.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory for the Java-heap data of a channel's non-blocking operations, reclaimed all at
 * once when quiet has nothing outstanding: a region reused from its start (closing a shared arena
 * at every quiet would cost a handshake with every thread of the JVM), and an arena for what does
 * not fit, closed then.
 */
final class Staging {
    private static final long REGION = 256 * 1024;
    private final MemorySegment region;
    private long used, overflowBytes;
    private Arena overflow;

    /** @param arena the channel's memory, which holds the region */
    Staging(Arena arena) {
        this.region = arena.allocate(REGION, 64);
    }

    MemorySegment allocate(long bytes) {
        long start = (used + 7) & ~7L;
        if (start + bytes <= REGION) {
            used = start + bytes;
            return region.asSlice(start, bytes);
        }
        if (overflow == null) {
            overflow = Arena.ofShared();
        }
        overflowBytes += bytes;
        return overflow.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
    }

    /** Bytes handed out since the last reset, the overflow's included. */
    long used() {
        return used + overflowBytes;
    }

    void reset() {
        used = 0;
        overflowBytes = 0;
        if (overflow != null) {
            overflow.close();
            overflow = null;
        }
    }
}
