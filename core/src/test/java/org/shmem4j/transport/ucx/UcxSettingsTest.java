package org.shmem4j.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which UCX settings shmem4j applies, and when UCX's atomics may mix with the node's CPU atomics (no UCX needed). */
class UcxSettingsTest {
    private static List<String> applied(Map<String, String> env, boolean everyAmo) {
        return UcxTransport.settings(env, everyAmo, true).stream().map(s -> s.name() + "=" + s.value()).toList();
    }

    @Test
    void onAnRdmaNodeByDefaultNetworkTransportsLargeTcpSegmentsAndCpuAtomics() {
        assertEquals(List.of("TLS=^shm,cma,self", "TX_SEG_SIZE=64k", "ATOMIC_MODE=cpu"), applied(Map.of(), false));
    }

    @Test
    void everyAmoThroughUcxLeavesTheAtomicModeToUcx() {
        assertEquals(List.of("TLS=^shm,cma,self", "TX_SEG_SIZE=64k"), applied(Map.of(), true));
    }

    @Test
    void withoutAnRdmaDeviceTheAtomicModeIsLeftAlone() { // UCX has only tcp, whose atomics it does on the CPU
        assertEquals(List.of("TLS=^shm,cma,self", "TX_SEG_SIZE=64k"),
                UcxTransport.settings(Map.of(), false, false).stream().map(s -> s.name() + "=" + s.value()).toList());
    }

    @Test
    void theUsersVariablesWin() {
        assertEquals(List.of("TX_SEG_SIZE=64k"), applied(Map.of("UCX_TLS", "tcp", "UCX_ATOMIC_MODE", "device"), false));
        assertEquals(List.of("TLS=^shm,cma,self", "ATOMIC_MODE=cpu"), applied(Map.of("UCX_TCP_TX_SEG_SIZE", "8k"), false));
    }

    @Test
    void noTcpSettingWhereTheUsersTransportsLeaveTcpOut() {
        assertEquals(List.of("ATOMIC_MODE=cpu"), applied(Map.of("UCX_TLS", "rc,ud"), false));
        assertEquals(List.of("ATOMIC_MODE=cpu"), applied(Map.of("UCX_TLS", "^tcp,shm"), false));
        assertEquals(List.of("TX_SEG_SIZE=64k", "ATOMIC_MODE=cpu"), applied(Map.of("UCX_TLS", "^ib"), false));
        assertEquals(List.of("TX_SEG_SIZE=64k", "ATOMIC_MODE=cpu"), applied(Map.of("UCX_TLS", "all"), false));
        assertEquals(List.of("TX_SEG_SIZE=64k", "ATOMIC_MODE=cpu"), applied(Map.of("UCX_TLS", "rc,tcp"), false));
    }

    @Test
    void atomicsMixWithCpuAtomicsUnlessAnRdmaDeviceDoesThem() {
        // no RDMA device: UCX has only tcp and applies atomics on the target's CPU, whatever the mode
        assertTrue(UcxTransport.atomicsCoherentWithCpu(Map.of("UCX_ATOMIC_MODE", "device"), false, false));
        // an RDMA device: coherent in cpu mode (shmem4j's setting, or the user's), not in device or guess mode
        assertTrue(UcxTransport.atomicsCoherentWithCpu(Map.of(), false, true));
        assertTrue(UcxTransport.atomicsCoherentWithCpu(Map.of("UCX_ATOMIC_MODE", "cpu"), true, true));
        assertFalse(UcxTransport.atomicsCoherentWithCpu(Map.of("UCX_ATOMIC_MODE", "device"), false, true));
        assertFalse(UcxTransport.atomicsCoherentWithCpu(Map.of("UCX_ATOMIC_MODE", "guess"), false, true));
        assertFalse(UcxTransport.atomicsCoherentWithCpu(Map.of(), true, true)); // every AMO through UCX: the device's
    }
}
