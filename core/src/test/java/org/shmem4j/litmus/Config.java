package org.shmem4j.litmus;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.bootstrap.InProcessHub;

/**
 * Where a litmus program runs: its placement, the network engine between nodes
 * ({@code SHMEM_NETWORK}: {@code deferred}, {@code deferred-nic}, {@code ucx}), whether every
 * AMO and signal update goes through it ({@code SHMEM_NETWORK_ATOMICS=1}) and whether every
 * context behaves as in a {@code SESSION_BATCH} session, with small batches
 * ({@code +session}: {@code SHMEM_BATCH_ALL=1}, {@code SHMEM_BATCH_BYTES=256}). Its id, as in
 * {@code 4pe2n-deferred-nic+atomics} or {@code 2pe2n-ucx+session}, is what a replay names.
 */
record Config(Placement placement, String network, boolean networkAtomics, boolean session) {
    private static final Pattern ID = Pattern.compile("(\\d+)pe(\\d+)n(?:-([a-z-]+?))?(\\+atomics)?(\\+session)?");
    /** What {@code +session} sets: every context batching, a batch sent every few operations. */
    private static final String BATCH_BYTES = "256";

    static Config parse(String id) {
        Matcher m = ID.matcher(id.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a litmus configuration: '" + id + "' (e.g. 4pe2n-deferred, 2pe1n-ucx+atomics, 2pe2n-ucx+session)");
        }
        return new Config(new Placement(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
                m.group(3) == null ? "deferred" : m.group(3), m.group(4) != null, m.group(5) != null);
    }

    /** Whether a network engine is open at all: some PE is remote, or every AMO goes through one. */
    boolean usesNetwork() {
        return placement.nodes() > 1 || networkAtomics;
    }

    String id() {
        return placement.npes() + "pe" + placement.nodes() + "n" + (usesNetwork() ? "-" + network : "")
                + (networkAtomics ? "+atomics" : "") + (session ? "+session" : "");
    }

    Map<String, String> env() {
        Map<String, String> env = InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(placement.nodes()), "SHMEM_NETWORK", network,
                "SHMEM_NETWORK_ATOMICS", networkAtomics ? "1" : "0");
        // the id names the whole setting, so a replay reproduces it: no batching inherited from the run
        env.keySet().removeIf(k -> k.startsWith("SHMEM_BATCH_"));
        if (session) {
            env.put("SHMEM_BATCH_ALL", "1");
            env.put("SHMEM_BATCH_BYTES", BATCH_BYTES);
        }
        return env;
    }

    @Override
    public String toString() {
        return id() + " (" + placement + (usesNetwork() ? ", SHMEM_NETWORK=" + network : ", no network")
                + (networkAtomics ? ", SHMEM_NETWORK_ATOMICS=1" : "")
                + (session ? ", SHMEM_BATCH_ALL=1, SHMEM_BATCH_BYTES=" + BATCH_BYTES : "") + ")";
    }
}
