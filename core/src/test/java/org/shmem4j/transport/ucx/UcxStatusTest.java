package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * {@code ucs_status_t} is a one-byte enum: an error must come back negative through the bindings
 * (read as an int, the upper bits of the return register are undefined, and a lost peer's
 * UCS_ERR_ENDPOINT_TIMEOUT once read as 176 and was reported as a plain failure).
 */
class UcxStatusTest {
    private static final int ERR_INVALID_PARAM = -5; // ucs/type/status.h

    @Test
    void anErrorStatusReadsAsTheNegativeNumberUcxDefines() throws Throwable {
        UcxAvailable.requireUcx("reading a UCX status");
        Ucx.Library ucx = Ucx.lib();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment configP = a.allocate(ADDRESS);
            ucx.check((int) ucx.configRead.invokeExact(MemorySegment.NULL, MemorySegment.NULL, configP), "ucp_config_read");
            MemorySegment config = configP.get(ADDRESS, 0);
            try {
                for (int i = 0; i < 64; i++) { // several calls: a stale upper half need not show the first time
                    int status = (int) ucx.configModify.invokeExact(config, a.allocateFrom("RNDV_THRESH"),
                            a.allocateFrom("not-a-size-" + i));
                    assertEquals(ERR_INVALID_PARAM, status, "ucp_config_modify with a bad value: " + ucx.describe(status));
                }
                assertTrue(Ucx.lostPeer(-80), "UCS_ERR_ENDPOINT_TIMEOUT is a lost peer");
            } finally {
                ucx.configRelease.invokeExact(config);
            }
        }
    }
}
