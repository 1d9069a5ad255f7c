package org.shmem4j.core;

import org.shmem4j.transport.Capabilities;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.ChannelOptions;

/**
 * How a context's channel uses the network engine, decided from what the engine reports it can do
 * ({@link Capabilities}): the engine follows the {@link ChannelOptions} it is given and decides no
 * route itself (decision 0039).
 */
final class NetworkPolicy {
    private NetworkPolicy() {
    }

    /** The options of a channel used as {@code mode} says, over an engine that can do what {@code engine} says. */
    static ChannelOptions options(Capabilities engine, ChannelMode mode) {
        // Where the target's CPU carries RMA anyway, a small put costs less as one of the engine's
        // messages, confirmed by count once per quiet, than as emulated RMA the target answers one by
        // one: between 2 pseudo-nodes over UCX's tcp, an 8-byte put ping-pong took 19-20 us one way
        // as UCX puts, 9.5-17 us as messages.
        long messagePutLimit = engine.rmaWithoutTargetCpu() ? 0 : engine.maxMessagePayload();
        // A message's handler applies its atomics with CPU atomics: only where the engine's mix with those.
        boolean atomicsAsMessages = engine.maxMessagePayload() > 0 && engine.atomicsCoherentWithCpu();
        return new ChannelOptions(mode, messagePutLimit, atomicsAsMessages);
    }
}
