package org.shmem4j.core;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.info.BuildInfo;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.core.param.SizeParser;

/**
 * What a PE says about itself: {@code SHMEM_VERSION} and {@code SHMEM_INFO} at start-up, and the
 * {@code SHMEM_DEBUG} checks (unknown variables, PEs disagreeing on a collective allocation,
 * objects never freed).
 */
final class Diagnostics {
    private final Bootstrap bootstrap;
    private final Parameters params;
    private final boolean debug;
    private long collectiveCalls;

    Diagnostics(Bootstrap bootstrap, Parameters params) {
        this.bootstrap = bootstrap;
        this.params = params;
        this.debug = params.get(Params.DEBUG);
    }

    /** PE 0, at the first start-up of its slot: the version, the bootstrap and the parameters, as asked. */
    void announce(PeSlot slot) {
        if (bootstrap.rank() != 0 || !slot.firstAnnouncement()) {
            return;
        }
        PrintStream out = System.out;
        if (params.get(Params.VERSION)) {
            out.println(BuildInfo.current().describe() + ", " + bootstrap.size() + " PEs, Java " + Runtime.version());
        }
        if (params.get(Params.INFO)) {
            out.println("shmem4j bootstrap: " + bootstrap);
            out.print(params.infoText());
        }
        if (debug && !params.unknownVariables().isEmpty()) {
            System.err.println("shmem4j: warning: unknown variables ignored: " + params.unknownVariables());
        }
        if (debug) {
            System.err.println("shmem4j: debug: heap " + SizeParser.format(params.get(Params.SYMMETRIC_SIZE))
                    + " per PE in " + params.get(Params.SHM_DIR));
        }
    }

    /**
     * SHMEM_DEBUG: every PE publishes its description of the collective call and compares it with
     * PE 0's, so a program whose PEs allocate in different orders fails at the diverging call
     * instead of corrupting memory later.
     */
    void agreeOnCollective(String call) {
        if (!debug) {
            return;
        }
        long n;
        synchronized (this) {
            n = ++collectiveCalls;
        }
        String mine = "#" + n + " " + call;
        byte[][] all = bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8));
        String reference = new String(all[0], StandardCharsets.UTF_8);
        for (int pe = 1; pe < all.length; pe++) {
            String theirs = new String(all[pe], StandardCharsets.UTF_8);
            if (!theirs.equals(reference)) {
                throw new ShmemException("SHMEM_DEBUG: PEs disagree on collective allocation call: PE 0 made "
                        + reference + " but PE " + pe + " made " + theirs);
            }
        }
    }

    /**
     * SHMEM_INFO, at the last finalize: PE 0 says what it sent over the network and what its
     * sessions batched ({@link org.shmem4j.Shmem#performanceCounters}; JFR's shmem4j.Session events have every PE's).
     */
    void reportCounters(java.util.Map<String, Long> counts) {
        if (!params.get(Params.INFO) || bootstrap.rank() != 0) {
            return;
        }
        long operations = counts.get("network.puts") + counts.get("network.gets") + counts.get("network.atomics")
                + counts.get("network.messages");
        if (operations > 0) {
            System.out.printf("shmem4j: PE 0 sent %,d operations over the network (%,d puts, %,d gets, %,d atomics, %,d other"
                    + " messages) carrying %,d bytes%n", operations, counts.get("network.puts"), counts.get("network.gets"),
                    counts.get("network.atomics"), counts.get("network.messages"), counts.get("network.bytes"));
        }
        long batched = counts.get("session.operations"), batches = counts.get("session.batches");
        if (batched > 0) {
            System.out.printf("shmem4j: PE 0's sessions batched %,d operations to remote PEs into %,d messages (%.1f per message)%n",
                    batched, batches, (double) batched / Math.max(1, batches));
        }
    }

    /**
     * SHMEM_DEBUG, at the last finalize: the symmetric objects the program never freed, grouped by
     * where it allocated them. Allocation is collective and checked to agree, so PE 0 speaks for every PE.
     */
    void reportUnfreed(SymmetricHeap heap) {
        if (!debug || bootstrap.rank() != 0) {
            return;
        }
        List<SymmetricHeap.Origin> unfreed = heap.unfreed();
        if (unfreed.isEmpty()) {
            return;
        }
        Map<SymmetricHeap.Origin, Long> counts = unfreed.stream()
                .collect(Collectors.groupingBy(o -> o, LinkedHashMap::new, Collectors.counting()));
        StringBuilder report = new StringBuilder("shmem4j: debug: PE 0: ").append(unfreed.size())
                .append(" symmetric allocation(s) of ").append(unfreed.stream().mapToLong(SymmetricHeap.Origin::bytes).sum())
                .append(" bytes never freed (close() frees one; the same on every PE):");
        counts.forEach((o, n) -> report.append("\n  ").append(n).append(" x ").append(o.bytes()).append(" bytes by ")
                .append(o.routine()).append(" at ").append(o.where()));
        System.err.println(report);
    }
}
