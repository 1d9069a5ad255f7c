package org.shmem4j.core.coll;

import java.util.List;
import java.util.Map;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;

/**
 * Which algorithm runs a collective call: the one an {@code SHMEM_*_ALGORITHM} variable names, or
 * the automatic choice by team size, message size and locality. The names were validated when the
 * parameters were read, so a bad name fails at init, never at the first call.
 *
 * <h2>The automatic choice</h2>
 * <ol>
 * <li><b>Teams with members on other nodes</b>: {@code push} reductions, and broadcast up to
 * {@value #PUSH_TEAM} hosts, while the data fits the collective scratch, and fcollect up to
 * {@value #PUSH_TEAM} hosts, beyond the scratch (into the leaders' dest) where hosts have several
 * members or a block goes one way ({@link PushAlgorithms#oneWay})
 * ({@link PushAlgorithms}): a put and its signal cost one network trip where a pull costs a round
 * trip and an acknowledgement. They cross the network through one member per host and share
 * memory within it, so they serve teams that go through leaders (see 4) too. alltoall pushes
 * whenever some member is on another node and the n - 1 incoming blocks fit the scratch or each
 * block goes one way ({@link PushAlgorithms#oneWay}: into the receivers' dest), at any team
 * size and also through leaders (it has no hierarchical algorithm).</li>
 * <li><b>Tiny teams</b> ({@code n <= }{@value #TINY_TEAM}): {@code linear} for every collective
 * but the barrier (one exchange with one peer; nothing to gain from a schedule), except
 * rabenseifner for reductions at or above the crossover.</li>
 * <li><b>Small one-host teams</b> ({@code n <= }{@value #DIRECT_TEAM}): direct pulls (linear)
 * for broadcast and collects; reductions host-local hierarchical below the crossover, ring at or
 * above it (measurements at the reduce choice).</li>
 * <li><b>Locality</b>: when the team spans hosts and has on average at least two members per host
 * ({@code n >= 2 * hosts}), barrier, broadcast and reductions are {@code hierarchical}
 * ({@link HierarchicalAlgorithms}): only one leader per host crosses hosts.</li>
 * <li><b>Message size</b> against the crossovers {@code SHMEM_*_CROSSOVER}: below, the
 * latency-optimal algorithm (dissemination barrier, binomial broadcast, recursive_doubling
 * reduction, recursive_doubling (power-of-two teams) or bruck collect, linear alltoall); at or
 * above, the bandwidth-optimal one (scatter_allgather broadcast, rabenseifner reduction (ring where
 * absent), ring fcollect, pairwise alltoall). Scans use {@code log}.</li>
 * <li><b>Team size</b> bounds what is linear in it: push broadcast and fcollect (a send per
 * other host by the root or by every leader) up to {@value #PUSH_TEAM} hosts, rings
 * ({@code n - 1} latencies) only up to {@value #RING_TEAM} (the broadcast beyond that only while
 * each ring step moves at least the crossover). What remains linear in n at any size is alltoall (every member has a block for
 * every other: push sends those n - 1 blocks as n - 1 messages, the fewest for blocks sent
 * once, so only the scratch bounds it) and the hierarchical algorithms' work within one host. docs/collectives.md has
 * every algorithm's cost and the choices at 2 to 65,536 members.</li>
 * </ol>
 * Every member of a team must choose the same algorithm, so choices depend only on what all
 * members agree on: the team (size, hosts) and the call's element count. collect's contribution
 * size differs between members, so it never enters the choice.
 *
 * <p>Names are looked up in {@link CollectiveCatalog}; {@link #REFERENCED} lists every name used
 * here, and a test checks that the catalog has them all.
 *
 * <p>A forced algorithm runs whatever the team: {@code hierarchical} on a team within one host
 * degenerates to its host-local part (gather to the leader, release from it), which is correct.
 */
public final class CollectivePolicy {
    /** Teams of at most this many members use {@code linear} (except the barrier). */
    static final int TINY_TEAM = 2;

    /**
     * Teams of at most this many members on one host pull directly from every member (linear
     * broadcast and collects): on shared memory a direct read is the cheapest route, and with PEs
     * outnumbering cores every extra round of a logarithmic schedule costs a context switch. Measured
     * at 4 PEs on 2 cores (us, linear / binomial / scatter_allgather broadcast of 1, 1024, 65536
     * longs): 4.0 / 4.9 / 4.7, 4.1 / 3.3 / 6.9, 45 / 66 / 57; fcollect linear / ring /
     * recursive_doubling / bruck: 4.2 / 19.9 / 29.3 / 4.7, 5.5 / 9.4 / 9.4 / 15.9, 217 / 299 / 302 / 854.
     */
    static final int DIRECT_TEAM = 8;

    /**
     * Teams on at most this many hosts push broadcast and fcollect over the network. Both cost
     * H - 1 network sends on one member per call (the broadcast's root; every host's leader in
     * fcollect, H(H - 1) messages in all), one network trip each, plus a store per member of its
     * host: cheaper than a tree's ceil(log2 H) round trips for a few hosts, but at 64 nodes the
     * root would send 63 messages where a binomial tree's busiest member sends 6. The push
     * reduction is recursive doubling: any size.
     */
    static final int PUSH_TEAM = 8;

    /**
     * Beyond this many members the ring-based algorithms (ring fcollect and reduction,
     * scatter_allgather broadcast), whose n - 1 steps each cost a latency, are chosen only where
     * they save bandwidth: fcollect's logarithmic algorithms move the same bytes in ceil(log2 n)
     * steps, and the broadcast keeps scatter_allgather only while each of its n - 1 ring steps
     * moves at least the crossover ({@code bytes / n >= SHMEM_BCAST_CROSSOVER}).
     */
    static final int RING_TEAM = 16;

    // Reductions on small one-host teams: below the crossover the host-local part of the
    // hierarchical algorithm (members to the lowest member, which combines and releases them: two
    // hand-offs, which is what counts when PEs outnumber cores), at or above it ring. Measured at 4
    // PEs on 2 cores, float sum (us, hierarchical / linear / tree / recursive_doubling / ring /
    // rabenseifner): 1 element 1.9 / 3.7 / 3.4 / 3.9 / 5.8 / 4.9; 1024: 6.2 / 10.9 / 7.9 / 10.0 /
    // 9.8 / 8.2; 16384: 82 / 125 / 51 / 110 / 44 / 58; 65536: 321 / 497 / 191 / 421 / 150 / 215.
    // At 2 PEs (a tiny team) linear is best below the crossover (0.37 us for 1 long) and
    // rabenseifner above (70-85 us for 65536 longs against ring 86-93, linear 105-118).

    static final String LINEAR = "linear", DISSEMINATION = "dissemination", HIERARCHICAL = HierarchicalAlgorithms.NAME,
            BINOMIAL = "binomial", SCATTER_ALLGATHER = "scatter_allgather", RECURSIVE_DOUBLING = "recursive_doubling",
            RABENSEIFNER = "rabenseifner", RING = "ring", BRUCK = "bruck", PAIRWISE = "pairwise", LOG = "log",
            PUSH = PushAlgorithms.NAME;

    /** Every algorithm name the automatic choice may pick, per collective (as the catalogs are named). */
    static final Map<String, List<String>> REFERENCED = Map.of(
            "barrier", List.of(HIERARCHICAL, DISSEMINATION),
            "broadcast", List.of(PUSH, LINEAR, HIERARCHICAL, BINOMIAL, SCATTER_ALLGATHER),
            "collect", List.of(PUSH, LINEAR, RECURSIVE_DOUBLING, BRUCK, RING),
            "alltoall", List.of(PUSH, LINEAR, PAIRWISE),
            "reduce", List.of(PUSH, LINEAR, HIERARCHICAL, RECURSIVE_DOUBLING, RABENSEIFNER, RING),
            "scan", List.of(LINEAR, LOG));

    private final Algorithms.Barrier barrier;
    private final Algorithms.Broadcast broadcast;
    private final Algorithms.Collect collect;
    private final Algorithms.Collect fcollect;
    private final Algorithms.Alltoall alltoall;
    private final Algorithms.Reduce reduce;
    private final Algorithms.Scan scan;

    private final long bcastCrossover, reduceCrossover, collectCrossover, alltoallCrossover;

    // The automatic choices, resolved once.
    private final Algorithms.Barrier hierBarrier = pick(CollectiveCatalog.BARRIER, HIERARCHICAL),
            flatBarrier = pick(CollectiveCatalog.BARRIER, DISSEMINATION);
    private final Algorithms.Broadcast pushBcast = pick(CollectiveCatalog.BROADCAST, PUSH),
            linearBcast = pick(CollectiveCatalog.BROADCAST, LINEAR),
            hierBcast = pick(CollectiveCatalog.BROADCAST, HIERARCHICAL),
            smallBcast = pick(CollectiveCatalog.BROADCAST, BINOMIAL),
            largeBcast = pick(CollectiveCatalog.BROADCAST, SCATTER_ALLGATHER);
    private final Algorithms.Collect pushCollect = pick(CollectiveCatalog.COLLECT, PUSH),
            linearCollect = pick(CollectiveCatalog.COLLECT, LINEAR),
            smallCollectPow2 = pick(CollectiveCatalog.COLLECT, RECURSIVE_DOUBLING),
            smallCollect = pick(CollectiveCatalog.COLLECT, BRUCK),
            largeCollect = pick(CollectiveCatalog.COLLECT, RING);
    private final Algorithms.Alltoall pushAlltoall = pick(CollectiveCatalog.ALLTOALL, PUSH),
            linearAlltoall = pick(CollectiveCatalog.ALLTOALL, LINEAR),
            largeAlltoall = pick(CollectiveCatalog.ALLTOALL, PAIRWISE);
    private final Algorithms.Reduce pushReduce = pick(CollectiveCatalog.REDUCE, PUSH),
            linearReduce = pick(CollectiveCatalog.REDUCE, LINEAR),
            hierReduce = pick(CollectiveCatalog.REDUCE, HIERARCHICAL),
            smallReduce = pick(CollectiveCatalog.REDUCE, RECURSIVE_DOUBLING),
            largeReduce = pick(CollectiveCatalog.REDUCE, RABENSEIFNER),
            directLargeReduce = pick(CollectiveCatalog.REDUCE, RING);
    private final Algorithms.Scan linearScan = pick(CollectiveCatalog.SCAN, LINEAR),
            logScan = pick(CollectiveCatalog.SCAN, LOG);

    public CollectivePolicy(Parameters params) {
        this.barrier = forced(CollectiveCatalog.BARRIER, params.get(Params.BARRIER_ALGORITHM));
        this.broadcast = forced(CollectiveCatalog.BROADCAST, params.get(Params.BCAST_ALGORITHM));
        this.collect = forced(CollectiveCatalog.COLLECT, params.get(Params.COLLECT_ALGORITHM));
        this.fcollect = forced(CollectiveCatalog.COLLECT, params.get(Params.FCOLLECT_ALGORITHM));
        this.alltoall = forced(CollectiveCatalog.ALLTOALL, params.get(Params.ALLTOALL_ALGORITHM));
        this.reduce = forced(CollectiveCatalog.REDUCE, params.get(Params.REDUCE_ALGORITHM));
        this.scan = forced(CollectiveCatalog.SCAN, params.get(Params.SCAN_ALGORITHM));
        this.bcastCrossover = params.get(Params.BCAST_CROSSOVER);
        this.reduceCrossover = params.get(Params.REDUCE_CROSSOVER);
        this.collectCrossover = params.get(Params.COLLECT_CROSSOVER);
        this.alltoallCrossover = params.get(Params.ALLTOALL_CROSSOVER);
    }

    /** The algorithm named by a parameter, or null for {@code auto}. */
    private static <A> A forced(Map<String, A> catalog, String name) {
        return "auto".equals(name) ? null : catalog.get(name);
    }

    /** The algorithm {@code name} of a catalog (PolicyNamesInCatalogTest keeps every name used here present). */
    private static <A> A pick(Map<String, A> catalog, String name) {
        A a = catalog.get(name);
        if (a == null) {
            throw new IllegalStateException("no algorithm " + name + " in " + catalog.keySet());
        }
        return a;
    }

    private static boolean tiny(CollectiveSupport s) {
        return s.size() <= TINY_TEAM;
    }

    private static boolean direct(CollectiveSupport s) {
        return s.size() <= DIRECT_TEAM && !s.spansHosts();
    }

    /** The team spans hosts with on average at least two members per host: worth going through leaders. */
    static boolean hierarchical(CollectiveSupport s) {
        HostGroups g = s.hostGroups();
        return g.spansHosts() && g.size() >= 2 * g.hosts();
    }

    private static boolean powerOfTwo(int n) {
        return (n & (n - 1)) == 0;
    }

    Algorithms.Barrier barrier(CollectiveSupport s) {
        if (barrier != null) {
            return barrier;
        }
        return hierarchical(s) ? hierBarrier : flatBarrier;
    }

    Algorithms.Broadcast broadcast(CollectiveSupport s, long bytes) {
        if (broadcast != null) {
            return broadcast;
        }
        // through leaders too: the push broadcast crosses the network once per host
        if (s.reachesSomeoneByNetwork() && s.hostGroups().hosts() <= PUSH_TEAM && PushAlgorithms.broadcastFits(s, bytes)) {
            return pushBcast;
        }
        if (tiny(s)) {
            return linearBcast;
        }
        if (hierarchical(s)) {
            return hierBcast;
        }
        if (direct(s)) {
            return linearBcast;
        }
        if (bytes < bcastCrossover || s.size() > RING_TEAM && bytes / s.size() < bcastCrossover) {
            return smallBcast;
        }
        return largeBcast;
    }

    /** collect: {@code bytes} is this member's own contribution, which others do not know: not used. */
    Algorithms.Collect collect(CollectiveSupport s, long bytes) {
        if (collect != null) {
            return collect;
        }
        if (tiny(s) || direct(s)) {
            return linearCollect;
        }
        return powerOfTwo(s.size()) ? smallCollectPow2 : smallCollect;
    }

    Algorithms.Collect fcollect(CollectiveSupport s, long bytes) {
        if (fcollect != null) {
            return fcollect;
        }
        // through leaders too: a block crosses the network once per other host; beyond the
        // scratch where hosts have several members, or where a put with signal of a block needs
        // no round trip (one member per node: with a flush before its signal, at 2 PEs on 2
        // pseudo-nodes 65,536 longs took 776 us against linear's 432)
        if (s.reachesSomeoneByNetwork() && s.hostGroups().hosts() <= PUSH_TEAM
                && (PushAlgorithms.fcollectFits(s, bytes) || s.hostGroups().maxPerHost() > 1
                        || PushAlgorithms.oneWay(s, bytes))) {
            return pushCollect;
        }
        if (tiny(s) || direct(s)) {
            return linearCollect;
        }
        if (bytes >= collectCrossover && s.size() <= RING_TEAM) {
            return largeCollect;
        }
        return powerOfTwo(s.size()) ? smallCollectPow2 : smallCollect;
    }

    /**
     * Push has no member bound: its n - 1 messages per member are what any algorithm moving each
     * block once sends (linear and pairwise send as many gets, plus barriers or acknowledgements),
     * and the scratch bounds n: (n - 1) blocks of 8 bytes fit 16 KiB up to 2,049 members; beyond
     * the scratch, blocks that a put with signal carries without a round trip (UCX: up to 8 KiB)
     * go into the receivers' dest after an "entered" word from each (at 8 PEs on 2 pseudo-nodes,
     * 1,024 longs: 871-1,073 us against pairwise's 2,957-3,411). Only Bruck (not implemented) sends fewer,
     * log2 n messages carrying n/2 blocks each.
     *
     * @param bytes bytes per block (what each member sends to each other member)
     */
    Algorithms.Alltoall alltoall(CollectiveSupport s, long bytes) {
        if (alltoall != null) {
            return alltoall;
        }
        // No hierarchical alltoall exists, so teams that go through leaders push too.
        if (s.reachesSomeoneByNetwork() && (PushAlgorithms.alltoallFits(s, bytes) || PushAlgorithms.oneWay(s, bytes))) {
            return pushAlltoall;
        }
        if (tiny(s)) {
            return linearAlltoall;
        }
        return bytes < alltoallCrossover ? linearAlltoall : largeAlltoall;
    }

    Algorithms.Reduce reduce(CollectiveSupport s, long bytes) {
        if (reduce != null) {
            return reduce;
        }
        if (s.reachesSomeoneByNetwork() && PushAlgorithms.reduceFits(s, bytes)) { // through leaders too
            return pushReduce;
        }
        if (tiny(s)) {
            return bytes < reduceCrossover ? linearReduce : largeReduce;
        }
        if (hierarchical(s)) {
            return hierReduce;
        }
        if (direct(s)) {
            return bytes < reduceCrossover ? hierReduce : directLargeReduce;
        }
        return bytes < reduceCrossover ? smallReduce : largeReduce;
    }

    Algorithms.Scan scan(CollectiveSupport s, long bytes) {
        if (scan != null) {
            return scan;
        }
        return tiny(s) ? linearScan : logScan;
    }
}
