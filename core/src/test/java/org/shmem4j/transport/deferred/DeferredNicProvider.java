package org.shmem4j.transport.deferred;

import org.shmem4j.transport.NetworkProvider;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Transport;

/** {@code SHMEM_NETWORK=deferred-nic}: the deferred network with {@link NicAtomics}. */
public final class DeferredNicProvider implements NetworkProvider {
    private final DeferredProvider engine = new DeferredProvider("deferred-nic", true);

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public Transport open(NetworkSetup setup) {
        return engine.open(setup);
    }
}
