package org.shmem4j.transport;

import java.util.Objects;

/**
 * How the core will use a {@link Channel}, given when it is opened: who uses it, and the routes it
 * takes where its engine could go either way. The core decides them from the transport's
 * {@link Capabilities}; the engine follows them and decides no route itself.
 *
 * @param mode who may use the channel
 * @param messagePutLimit puts of at most this many bytes travel as the engine's messages instead of
 *        its RMA (0: none do); at most the engine's {@link Capabilities#maxMessagePayload}
 * @param atomicsAsMessages non-fetching atomics and signal additions may travel in the engine's
 *        messages (session batches, puts with signal), applied there by the target's CPU
 */
public record ChannelOptions(ChannelMode mode, long messagePutLimit, boolean atomicsAsMessages) {
    public ChannelOptions {
        Objects.requireNonNull(mode, "ChannelOptions: mode");
        if (messagePutLimit < 0) {
            throw new IllegalArgumentException("ChannelOptions: messagePutLimit " + messagePutLimit + " is negative");
        }
    }
}
