package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * The internal point-to-point interface every collective algorithm is written against: byte
 * transfers to and from team members' symmetric regions and single-word flags. Offsets are region
 * offsets (the same on every PE); PE numbers are team numbers. {@link RoutedPeerAccess} serves
 * them over each member's route (mapped shared memory or a network channel), so the algorithms run
 * unchanged over either.
 */
public interface PeerAccess {
    /** Number of team members. */
    int size();

    /** This PE's team number. */
    int rank();

    /** This PE's own region (for local loads, stores and reductions). */
    MemorySegment local();

    /** Copies {@code bytes} of {@code src} from {@code srcOffset} to member {@code peer} at {@code remoteOffset}. */
    void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes);

    /** Copies {@code bytes} from member {@code peer} at {@code remoteOffset} into {@code dst} at {@code dstOffset}. */
    void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes);

    /** Writes a flag word on {@code peer}, ordered after every earlier put of this PE (a release store). */
    void signal(int peer, long offset, long value);

    /**
     * {@link #put} then {@link #signal} to the same member, as one operation: over a network one
     * message carries both (flags only grow, so a signal needs no order with other signals).
     */
    void putSignal(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes, long flag, long value);

    /** True when member {@code peer}'s region is mapped here (else every access is a network operation). */
    boolean mapped(int peer);

    /**
     * The most bytes a {@link #putSignal} to a member that is not mapped carries without a round
     * trip before its signal (the network engine's {@code Capabilities.oneWayRaisePayload}); a
     * larger one waits for its put to complete first.
     */
    long oneWayPutSignalBytes();
}
