package org.shmem4j.transport.ucx;

import org.shmem4j.transport.NetworkProvider;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Transport;

/** The UCX network engine ({@code SHMEM_NETWORK=ucx}, the default). */
public final class UcxProvider implements NetworkProvider {
    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public String availability() {
        return Ucx.describe();
    }

    @Override
    public Transport open(NetworkSetup setup) {
        return UcxTransport.open(setup);
    }
}
