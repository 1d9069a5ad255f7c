package org.shmem4j.bootstrap;

/**
 * How a job's PEs are split into pseudo-hosts and pseudo-nodes ({@code oshrun --hosts/--nodes},
 * and the in-process job's {@link InProcessHub#HOSTS}/{@link InProcessHub#NODES}): the launcher and
 * the in-process hub place PEs alike.
 */
public final class PseudoHosts {
    private PseudoHosts() {}

    /**
     * The pseudo-host of PE {@code rank} when {@code size} PEs are split into {@code hosts}
     * pseudo-hosts: blocks of consecutive ranks, PE {@code r} on host {@code r * hosts / size}, so
     * host sizes differ by at most one and every host gets at least one PE (for
     * {@code 1 <= hosts <= size}). Example: 5 PEs on 2 hosts put ranks 0-2 on host 0 and 3-4 on
     * host 1; 12 PEs on 3 hosts put 4 on each.
     */
    public static int hostOf(int rank, int size, int hosts) {
        if (hosts < 1 || hosts > size) {
            throw new IllegalArgumentException("the number of pseudo-hosts must be in [1, " + size + "], not " + hosts);
        }
        return (int) ((long) rank * hosts / size);
    }

    /** The node id of pseudo-node {@code index} of the machine {@code machineId}. */
    public static String nodeId(String machineId, int index) {
        return machineId + "/node" + index;
    }

    /** The declared host id of pseudo-host {@code index} on the node {@code nodeId}. */
    public static String hostId(String nodeId, int index) {
        return nodeId + "#" + index;
    }
}
