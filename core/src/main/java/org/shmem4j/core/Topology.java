package org.shmem4j.core;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.Bootstrap;

/**
 * Where every PE runs, as the PEs reported it at start-up: its declared host (teams SHARED, host
 * and leaders, {@code shmem_ptr}, the collective policy) and its physical node (what shared memory
 * can map). A host lies within one node; several (pseudo-)hosts may share a node.
 */
final class Topology {
    private final int me;
    private final String[] hostIds;
    private final String[] nodeIds;
    /** Hosts numbered 0, 1, ... in order of their lowest PE. */
    private final int[] hostIndex;

    private Topology(int me, String[] hostIds, String[] nodeIds) {
        this.me = me;
        this.hostIds = hostIds;
        this.nodeIds = nodeIds;
        this.hostIndex = new int[hostIds.length];
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int pe = 0; pe < hostIds.length; pe++) {
            hostIndex[pe] = index.computeIfAbsent(hostIds[pe], h -> index.size());
        }
        checkHostsWithinNodes();
    }

    /** Collective over the bootstrap: every PE's host and node identity. */
    static Topology gather(Bootstrap bootstrap) {
        return new Topology(bootstrap.rank(), gather(bootstrap, bootstrap.hostId()), gather(bootstrap, bootstrap.nodeId()));
    }

    /**
     * Every PE's identity, one String per distinct identity (a job has far fewer hosts than PEs:
     * at 65,536 PEs one String each would be about 3 MiB of this PE's Java heap per table, shared
     * ones leave the references).
     */
    private static String[] gather(Bootstrap bootstrap, String mine) {
        byte[][] all = bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8));
        String[] ids = new String[all.length];
        Map<String, String> distinct = new HashMap<>();
        for (int i = 0; i < all.length; i++) {
            String id = new String(all[i], StandardCharsets.UTF_8);
            ids[i] = distinct.computeIfAbsent(id, k -> k);
        }
        return ids;
    }

    private void checkHostsWithinNodes() {
        Map<String, String> nodeOfHost = new HashMap<>();
        for (int pe = 0; pe < hostIds.length; pe++) {
            String node = nodeOfHost.putIfAbsent(hostIds[pe], nodeIds[pe]);
            if (node != null && !node.equals(nodeIds[pe])) {
                throw new ShmemException("shmem_init: host " + hostIds[pe] + " is declared on two nodes (" + node
                        + " and " + nodeIds[pe] + " of PE " + pe + "); a host must lie within one node");
            }
        }
    }

    /** Every PE's node identity, indexed by rank (what the shared-memory transport maps by). */
    String[] nodeIds() {
        return nodeIds.clone();
    }

    /** The host number of world PE {@code pe}. */
    int hostIndex(int pe) {
        return hostIndex[pe];
    }

    /** True when {@code pe} is on this PE's declared host. */
    boolean sameHost(int pe) {
        return hostIndex[pe] == hostIndex[me];
    }

    /** Number of PEs on this PE's node (all of them compete for its cores). */
    int pesOnMyNode() {
        return (int) IntStream.range(0, nodeIds.length).filter(pe -> nodeIds[pe].equals(nodeIds[me])).count();
    }

    /** The PEs of this PE's host, ascending. */
    int[] myHost() {
        return IntStream.range(0, hostIds.length).filter(this::sameHost).toArray();
    }

    /** The lowest PE of every host, in host order. */
    int[] hostLeaders() {
        return IntStream.range(0, hostIds.length).filter(pe -> IntStream.range(0, pe).noneMatch(q -> hostIndex[q] == hostIndex[pe]))
                .toArray();
    }
}
