package org.shmem4j.litmus;

/**
 * {@code npes} in-process PEs on {@code nodes} pseudo-nodes in blocks, as
 * {@code SHMEM4J_INPROCESS_NODES} places them: PEs of one node are mapped to each other (load and
 * store), the others reach each other through the network engine.
 */
record Placement(int npes, int nodes) {
    Placement {
        if (npes < 1 || nodes < 1 || nodes > npes) {
            throw new IllegalArgumentException(npes + " PEs on " + nodes + " nodes");
        }
    }

    int node(int pe) {
        return pe * nodes / npes;
    }

    /** The plain route from {@code from} to {@code to} is load/store (AMOs may still take the network). */
    boolean mapped(int from, int to) {
        return node(from) == node(to);
    }

    @Override
    public String toString() {
        return npes + " PEs on " + nodes + (nodes == 1 ? " node" : " nodes");
    }
}
