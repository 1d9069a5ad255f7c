package org.shmem4j.litmus;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.bootstrap.InProcessHub;

/**
 * Where a litmus program runs: its placement, the network engine between nodes
 * ({@code SHMEM_NETWORK}: {@code deferred}, {@code deferred-nic}, {@code ucx}) and whether every
 * AMO and signal update goes through it ({@code SHMEM_NETWORK_ATOMICS=1}). Its id, as in
 * {@code 4pe2n-deferred-nic+atomics}, is what a replay names.
 */
record Config(Placement placement, String network, boolean networkAtomics) {
    private static final Pattern ID = Pattern.compile("(\\d+)pe(\\d+)n(?:-([a-z-]+?))?(\\+atomics)?");

    static Config parse(String id) {
        Matcher m = ID.matcher(id.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a litmus configuration: '" + id + "' (e.g. 4pe2n-deferred, 2pe1n-ucx+atomics)");
        }
        return new Config(new Placement(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
                m.group(3) == null ? "deferred" : m.group(3), m.group(4) != null);
    }

    /** Whether a network engine is open at all: some PE is remote, or every AMO goes through one. */
    boolean usesNetwork() {
        return placement.nodes() > 1 || networkAtomics;
    }

    String id() {
        return placement.npes() + "pe" + placement.nodes() + "n" + (usesNetwork() ? "-" + network : "")
                + (networkAtomics ? "+atomics" : "");
    }

    Map<String, String> env() {
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(placement.nodes()), "SHMEM_NETWORK", network,
                "SHMEM_NETWORK_ATOMICS", networkAtomics ? "1" : "0");
    }

    @Override
    public String toString() {
        return id() + " (" + placement + (usesNetwork() ? ", SHMEM_NETWORK=" + network : ", no network")
                + (networkAtomics ? ", SHMEM_NETWORK_ATOMICS=1" : "") + ")";
    }
}
