package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.shmem4j.bootstrap.Bootstrap;

/**
 * What a {@link NetworkProvider} needs from the runtime to open a transport.
 *
 * @param rank this PE's world rank
 * @param remote indexed by world rank: true for the PEs this transport must reach (those on other nodes)
 * @param region this PE's whole symmetric region (peers address it by offset), already mapped
 * @param allGather the bootstrap's exchange: every PE's contribution, indexed by rank
 * @param publish the bootstrap's on-demand exchange ({@link Bootstrap#publish}): this PE's value
 *        under a key, the peers' looked up when first needed
 * @param health asked whether the job is being torn down while an operation waits long for a
 *        peer, and told of a peer the transport lost
 * @param everyAmo every AMO goes through this transport ({@code SHMEM_NETWORK_ATOMICS}): its atomics
 *        need not be atomic with respect to CPU atomics, so it may use the NIC's
 */
public record NetworkSetup(int rank, boolean[] remote, MemorySegment region, Function<byte[], byte[][]> allGather,
        BiFunction<String, byte[], Bootstrap.Directory> publish, JobHealth health, boolean everyAmo) {
    public NetworkSetup {
        remote = remote.clone();
    }

    /** A setup whose publications are all-gathers (every peer's value fetched at once). */
    public NetworkSetup(int rank, boolean[] remote, MemorySegment region, Function<byte[], byte[][]> allGather, JobHealth health,
            boolean everyAmo) {
        this(rank, remote, region, allGather, (key, mine) -> {
            byte[][] all = allGather.apply(mine);
            return pe -> all[pe];
        }, health, everyAmo);
    }

    public int npes() {
        return remote.length;
    }

    @Override
    public boolean[] remote() {
        return remote.clone();
    }
}
