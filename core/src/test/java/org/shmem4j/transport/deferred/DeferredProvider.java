package org.shmem4j.transport.deferred;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.NetworkProvider;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Transport;

/**
 * A network engine for in-process pseudo-nodes ({@code SHMEM_NETWORK=deferred}): the PEs of one JVM
 * exchange their regions' addresses, and every operation is delivered later, by a thread of the
 * channel, in an order that only fences and quiet constrain. It lets the tests run the core's
 * network path, and catch code that relies on delivery the contract does not promise, without UCX.
 */
public class DeferredProvider implements NetworkProvider {
    private final String name;
    private final boolean nicAtomics;
    private final boolean lazy;

    /** The options {@code channel} was opened with, if this engine opened it; empty for another engine's (UCX in CI). */
    public static Optional<ChannelOptions> optionsOf(Channel channel) {
        return channel instanceof DeferredChannel c ? Optional.of(c.options) : Optional.empty();
    }

    public DeferredProvider() {
        this("deferred", false, false);
    }

    /**
     * @param nicAtomics AMOs as a NIC would do them: not atomic with respect to CPU atomics (see {@link NicAtomics})
     * @param lazy deliver nothing until the sender drains or raises a flag (a lazy network, to force orders in tests)
     */
    DeferredProvider(String name, boolean nicAtomics, boolean lazy) {
        this.name = name;
        this.nicAtomics = nicAtomics;
        this.lazy = lazy;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Transport open(NetworkSetup setup) {
        MemorySegment mine = setup.region();
        // PE 0's token names the job's liveness record, shared by its PEs in this JVM.
        byte[] where = ByteBuffer.allocate(24).putLong(mine.address()).putLong(mine.byteSize())
                .putLong(ThreadLocalRandom.current().nextLong()).array();
        byte[][] all = setup.allGather().apply(where);
        Liveness liveness = Liveness.join(Long.toHexString(ByteBuffer.wrap(all[0]).getLong(16)), all.length);
        boolean[] remote = setup.remote();
        MemorySegment[] regions = new MemorySegment[all.length];
        for (int pe = 0; pe < all.length; pe++) {
            if (remote[pe]) {
                ByteBuffer b = ByteBuffer.wrap(all[pe]);
                regions[pe] = MemorySegment.ofAddress(b.getLong()).reinterpret(b.getLong());
            }
        }
        return new DeferredTransport(setup.rank(), regions, liveness, nicAtomics, lazy);
    }
}
