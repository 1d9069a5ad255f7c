package org.shmem4j.core.coll;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every collective algorithm by name, per collective: what {@code SHMEM_*_ALGORITHM} may name
 * (besides {@code auto}) and what the policy chooses from.
 */
public final class CollectiveCatalog {
    private CollectiveCatalog() {
    }

    /** The team barrier itself: dissemination over the team's barrier lines. */
    static final Algorithms.Barrier DISSEMINATION_BARRIER = new Algorithms.Barrier() {
        @Override
        public String name() {
            return "dissemination";
        }

        @Override
        public void run(CollectiveSupport s) {
            s.barrier();
        }
    };

    static final Map<String, Algorithms.Barrier> BARRIER = catalog(LinearAlgorithms.BARRIER, DISSEMINATION_BARRIER,
            BarrierAlgorithms.TREE, HierarchicalAlgorithms.BARRIER);
    static final Map<String, Algorithms.Broadcast> BROADCAST = catalog(LinearAlgorithms.BROADCAST, PushAlgorithms.BROADCAST,
            BroadcastAlgorithms.BINOMIAL, BroadcastAlgorithms.SCATTER_ALLGATHER, HierarchicalAlgorithms.BROADCAST);
    static final Map<String, Algorithms.Collect> COLLECT = catalog(LinearAlgorithms.COLLECT, PushAlgorithms.COLLECT,
            CollectAlgorithms.RING, CollectAlgorithms.RECURSIVE_DOUBLING, CollectAlgorithms.BRUCK);
    static final Map<String, Algorithms.Alltoall> ALLTOALL = catalog(LinearAlgorithms.ALLTOALL,
            AlltoallAlgorithms.PAIRWISE);
    static final Map<String, Algorithms.Reduce> REDUCE = catalog(LinearAlgorithms.REDUCE, PushAlgorithms.REDUCE, ReduceAlgorithms.TREE,
            ReduceAlgorithms.RECURSIVE_DOUBLING, ReduceAlgorithms.RING, ReduceAlgorithms.RABENSEIFNER,
            HierarchicalAlgorithms.REDUCE);
    static final Map<String, Algorithms.Scan> SCAN = catalog(LinearAlgorithms.SCAN, ScanAlgorithms.LOG);

    @SafeVarargs
    private static <A extends Algorithms.Named> Map<String, A> catalog(A... algorithms) {
        Map<String, A> byName = new LinkedHashMap<>();
        for (A a : algorithms) {
            if (byName.put(a.name(), a) != null) {
                throw new IllegalStateException("two algorithms named " + a.name());
            }
        }
        return Map.copyOf(byName);
    }

    /** The choices of an algorithm parameter: {@code auto} first, then the algorithms' names. */
    public static List<String> choices(Map<String, ? extends Algorithms.Named> catalog) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of("auto"), names(catalog).stream()).toList();
    }

    private static List<String> names(Map<String, ?> catalog) {
        return catalog.keySet().stream().sorted().toList();
    }

    /**
     * Every algorithm's name (without {@code auto}), sorted, per collective: barrier, broadcast,
     * collect (also fcollect), alltoall (also alltoalls), reduce, scan.
     */
    public static Map<String, List<String>> byCollective() {
        Map<String, List<String>> all = new LinkedHashMap<>();
        all.put("barrier", names(BARRIER));
        all.put("broadcast", names(BROADCAST));
        all.put("collect", names(COLLECT));
        all.put("alltoall", names(ALLTOALL));
        all.put("reduce", names(REDUCE));
        all.put("scan", names(SCAN));
        return all;
    }

    public static List<String> barrierChoices() {
        return choices(BARRIER);
    }

    public static List<String> broadcastChoices() {
        return choices(BROADCAST);
    }

    public static List<String> collectChoices() {
        return choices(COLLECT);
    }

    public static List<String> alltoallChoices() {
        return choices(ALLTOALL);
    }

    public static List<String> reduceChoices() {
        return choices(REDUCE);
    }

    public static List<String> scanChoices() {
        return choices(SCAN);
    }
}
