package org.shmem4j.transport;

/**
 * What a {@link Transport}'s routes can do: facts about the engine and the machine it runs on,
 * reported once it is open, never policy (as UCT's interface capability flags and NVSHMEM's
 * transport capabilities are). The core reads them to decide how it uses the transport, and tells
 * each channel what it decided ({@link ChannelOptions}). Only what the core reads is here.
 *
 * @param atomicsCoherentWithCpu its atomics on a word are atomic with respect to CPU atomics on the
 *        same word by the PEs of that node: without it every AMO must go through the transport (the
 *        runtime refuses it otherwise), and its messages may not carry atomics that the target's CPU
 *        applies
 * @param rmaWithoutTargetCpu its RMA completes without the target's CPU (an RDMA device): without it
 *        the target's CPU carries every put anyway, and a small one costs less as a message
 * @param maxMessagePayload the largest payload one of its messages delivers whole (0: it has none):
 *        bounds the puts that may travel as messages
 * @param oneWayRaisePayload the most data a put with raise ({@link Channel#putRaise}) carries
 *        without waiting for a round trip before its raise (in the raise's message, or as RMA its
 *        route orders before the raise): the collectives put larger blocks into a peer's memory
 *        another way
 */
public record Capabilities(boolean atomicsCoherentWithCpu, boolean rmaWithoutTargetCpu, long maxMessagePayload,
        long oneWayRaisePayload) {
    public Capabilities {
        if (maxMessagePayload < 0) {
            throw new IllegalArgumentException("Capabilities: maxMessagePayload " + maxMessagePayload + " is negative");
        }
        if (oneWayRaisePayload < 0) {
            throw new IllegalArgumentException("Capabilities: oneWayRaisePayload " + oneWayRaisePayload + " is negative");
        }
    }
}
