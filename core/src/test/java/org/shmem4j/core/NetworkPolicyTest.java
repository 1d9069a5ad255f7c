package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.shmem4j.transport.Capabilities;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.ChannelOptions;

/** The channel options the policy derives from every combination of an engine's capabilities. */
class NetworkPolicyTest {
    private static final long[] PAYLOADS = {0, 1, 8192};

    @Test
    void everyCombinationOfCapabilities() {
        for (int bits = 0; bits < 4; bits++) {
            boolean coherent = (bits & 1) != 0, rdma = (bits & 2) != 0;
            for (long payload : PAYLOADS) {
                Capabilities engine = new Capabilities(coherent, rdma, payload, payload);
                for (ChannelMode mode : ChannelMode.values()) {
                    ChannelOptions o = NetworkPolicy.options(engine, mode);
                    String what = engine + " " + mode;
                    assertEquals(mode, o.mode(), what + ": the mode passes through");
                    // puts as messages only where the target's CPU carries RMA anyway, as large as a message holds
                    assertEquals(rdma ? 0 : payload, o.messagePutLimit(), what + ": message put limit");
                    assertTrue(o.messagePutLimit() <= payload, what + ": never more than a message holds");
                    // a message's handler applies atomics with CPU atomics: only where those mix with the engine's
                    assertEquals(coherent && payload > 0, o.atomicsAsMessages(), what + ": atomics as messages");
                }
            }
        }
    }

    /** The engines as they report themselves: UCX on a node without and with an RDMA device, the test double. */
    @Test
    void theEnginesThatExist() {
        ChannelMode mode = ChannelMode.SHARED;
        assertEquals(new ChannelOptions(mode, 8192, true), NetworkPolicy.options(new Capabilities(true, false, 8192, 8192), mode),
                "UCX over tcp only: small puts, atomics and signal additions travel as messages");
        assertEquals(new ChannelOptions(mode, 0, true), NetworkPolicy.options(new Capabilities(true, true, 8192, 8192), mode),
                "UCX with RDMA, CPU atomic mode: puts as RDMA, session atomics still batched");
        assertEquals(new ChannelOptions(mode, 0, false), NetworkPolicy.options(new Capabilities(false, true, 8192, 8192), mode),
                "UCX with RDMA, NIC atomics (every AMO through UCX): no atomic in a message");
        assertEquals(new ChannelOptions(mode, 0, false), NetworkPolicy.options(new Capabilities(true, true, 0, Long.MAX_VALUE), mode),
                "an engine without messages");
    }

    @Test
    void badValuesAreNamed() {
        var payload = assertThrows(IllegalArgumentException.class, () -> new Capabilities(true, true, -1, 0));
        assertEquals("Capabilities: maxMessagePayload -1 is negative", payload.getMessage());
        var raise = assertThrows(IllegalArgumentException.class, () -> new Capabilities(true, true, 0, -2));
        assertEquals("Capabilities: oneWayRaisePayload -2 is negative", raise.getMessage());
        var limit = assertThrows(IllegalArgumentException.class, () -> new ChannelOptions(ChannelMode.PRIVATE, -8, true));
        assertEquals("ChannelOptions: messagePutLimit -8 is negative", limit.getMessage());
        var mode = assertThrows(NullPointerException.class, () -> new ChannelOptions(null, 0, true));
        assertEquals("ChannelOptions: mode", mode.getMessage());
    }
}
