package org.shmem4j.core.coll;

import java.util.Map;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;

/**
 * Which algorithm runs a collective call: the one an {@code SHMEM_*_ALGORITHM} variable names, or
 * the automatic choice by team size, message size and locality. The names were validated when the
 * parameters were read, so a bad name fails at init, never at the first call.
 */
public final class CollectivePolicy {
    private final Algorithms.Barrier barrier;
    private final Algorithms.Broadcast broadcast;
    private final Algorithms.Collect collect;
    private final Algorithms.Collect fcollect;
    private final Algorithms.Alltoall alltoall;
    private final Algorithms.Reduce reduce;
    private final Algorithms.Scan scan;

    public CollectivePolicy(Parameters params) {
        this.barrier = forced(CollectiveCatalog.BARRIER, params.get(Params.BARRIER_ALGORITHM));
        this.broadcast = forced(CollectiveCatalog.BROADCAST, params.get(Params.BCAST_ALGORITHM));
        this.collect = forced(CollectiveCatalog.COLLECT, params.get(Params.COLLECT_ALGORITHM));
        this.fcollect = forced(CollectiveCatalog.COLLECT, params.get(Params.FCOLLECT_ALGORITHM));
        this.alltoall = forced(CollectiveCatalog.ALLTOALL, params.get(Params.ALLTOALL_ALGORITHM));
        this.reduce = forced(CollectiveCatalog.REDUCE, params.get(Params.REDUCE_ALGORITHM));
        this.scan = forced(CollectiveCatalog.SCAN, params.get(Params.SCAN_ALGORITHM));
    }

    /** The algorithm named by a parameter, or null for {@code auto}. */
    private static <A> A forced(Map<String, A> catalog, String name) {
        return "auto".equals(name) ? null : catalog.get(name);
    }

    Algorithms.Barrier barrier(CollectiveSupport s) {
        return barrier != null ? barrier : CollectiveCatalog.DISSEMINATION_BARRIER;
    }

    Algorithms.Broadcast broadcast(CollectiveSupport s, long bytes) {
        return broadcast != null ? broadcast : LinearAlgorithms.BROADCAST;
    }

    Algorithms.Collect collect(CollectiveSupport s, long bytes) {
        return collect != null ? collect : LinearAlgorithms.COLLECT;
    }

    Algorithms.Collect fcollect(CollectiveSupport s, long bytes) {
        return fcollect != null ? fcollect : LinearAlgorithms.COLLECT;
    }

    Algorithms.Alltoall alltoall(CollectiveSupport s, long bytes) {
        return alltoall != null ? alltoall : LinearAlgorithms.ALLTOALL;
    }

    Algorithms.Reduce reduce(CollectiveSupport s, long bytes) {
        return reduce != null ? reduce : LinearAlgorithms.REDUCE;
    }

    Algorithms.Scan scan(CollectiveSupport s, long bytes) {
        return scan != null ? scan : LinearAlgorithms.SCAN;
    }
}
