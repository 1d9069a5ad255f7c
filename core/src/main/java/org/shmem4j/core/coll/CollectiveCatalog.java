package org.shmem4j.core.coll;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.shmem4j.core.param.AlgorithmNames;

/**
 * Every collective algorithm by name, per collective: what {@code SHMEM_*_ALGORITHM} may name
 * (besides {@code auto}: the names {@link AlgorithmNames} lists, checked here) and what the policy
 * chooses from.
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

    static final Map<String, Algorithms.Barrier> BARRIER = catalog(AlgorithmNames.BARRIER, LinearAlgorithms.BARRIER,
            DISSEMINATION_BARRIER, BarrierAlgorithms.TREE, HierarchicalAlgorithms.BARRIER);
    static final Map<String, Algorithms.Broadcast> BROADCAST = catalog(AlgorithmNames.BROADCAST, LinearAlgorithms.BROADCAST,
            PushAlgorithms.BROADCAST, BroadcastAlgorithms.BINOMIAL, BroadcastAlgorithms.SCATTER_ALLGATHER,
            HierarchicalAlgorithms.BROADCAST);
    static final Map<String, Algorithms.Collect> COLLECT = catalog(AlgorithmNames.COLLECT, LinearAlgorithms.COLLECT,
            PushAlgorithms.COLLECT, CollectAlgorithms.RING, CollectAlgorithms.RECURSIVE_DOUBLING, CollectAlgorithms.BRUCK);
    static final Map<String, Algorithms.Alltoall> ALLTOALL = catalog(AlgorithmNames.ALLTOALL, LinearAlgorithms.ALLTOALL,
            AlltoallAlgorithms.PAIRWISE, PushAlgorithms.ALLTOALL);
    static final Map<String, Algorithms.Reduce> REDUCE = catalog(AlgorithmNames.REDUCE, LinearAlgorithms.REDUCE,
            PushAlgorithms.REDUCE, PushAlgorithms.RING, ReduceAlgorithms.TREE, ReduceAlgorithms.RECURSIVE_DOUBLING, ReduceAlgorithms.RING,
            ReduceAlgorithms.RABENSEIFNER, HierarchicalAlgorithms.REDUCE);
    static final Map<String, Algorithms.Scan> SCAN = catalog(AlgorithmNames.SCAN, LinearAlgorithms.SCAN, ScanAlgorithms.LOG);

    /** The algorithms by name, which must be exactly {@code names} (the parameter's choices). */
    @SafeVarargs
    private static <A extends Algorithms.Named> Map<String, A> catalog(List<String> names, A... algorithms) {
        Map<String, A> byName = new LinkedHashMap<>();
        for (A a : algorithms) {
            if (byName.put(a.name(), a) != null) {
                throw new IllegalStateException("two algorithms named " + a.name());
            }
        }
        if (!byName.keySet().equals(Set.copyOf(names))) {
            throw new IllegalStateException("the algorithms " + byName.keySet() + " are not the ones AlgorithmNames lists: "
                    + names);
        }
        return Map.copyOf(byName);
    }
}
