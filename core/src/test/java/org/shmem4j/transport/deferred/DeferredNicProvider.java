package org.shmem4j.transport.deferred;

/** {@code SHMEM_NETWORK=deferred-nic}: the deferred network with {@link NicAtomics}. */
public final class DeferredNicProvider extends DeferredProvider {
    public DeferredNicProvider() {
        super("deferred-nic", true, false);
    }
}
