package org.shmem4j.core.param;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The names of the collective algorithms, per collective, sorted: what the
 * {@code SHMEM_*_ALGORITHM} parameters may name besides {@code auto}. The algorithms themselves
 * live in {@code core.coll}, which reads the parameters and so lies above this package; its
 * {@code CollectiveCatalog} fails when loaded unless it holds an algorithm for each name here and
 * no other, so the two lists cannot drift apart.
 */
public final class AlgorithmNames {
    private AlgorithmNames() {
    }

    public static final List<String> BARRIER = List.of("dissemination", "hierarchical", "linear", "tree");
    public static final List<String> BROADCAST = List.of("binomial", "hierarchical", "linear", "push", "scatter_allgather");
    /** Also fcollect's. */
    public static final List<String> COLLECT = List.of("bruck", "linear", "push", "recursive_doubling", "ring");
    /** Also alltoalls'. */
    public static final List<String> ALLTOALL = List.of("linear", "pairwise", "push");
    public static final List<String> REDUCE = List.of("hierarchical", "linear", "push", "push_ring", "rabenseifner",
            "recursive_doubling", "ring", "tree");
    /** sum_inscan's and sum_exscan's. */
    public static final List<String> SCAN = List.of("linear", "log");

    /** The choices of an algorithm parameter: {@code auto} first, then {@code names}. */
    public static List<String> choices(List<String> names) {
        return Stream.concat(Stream.of("auto"), names.stream()).toList();
    }

    /**
     * Every algorithm's name (without {@code auto}) per collective: barrier, broadcast, collect
     * (also fcollect), alltoall (also alltoalls), reduce, scan.
     */
    public static Map<String, List<String>> byCollective() {
        Map<String, List<String>> all = new LinkedHashMap<>();
        all.put("barrier", BARRIER);
        all.put("broadcast", BROADCAST);
        all.put("collect", COLLECT);
        all.put("alltoall", ALLTOALL);
        all.put("reduce", REDUCE);
        all.put("scan", SCAN);
        return all;
    }
}
