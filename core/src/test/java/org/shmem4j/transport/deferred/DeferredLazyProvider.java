package org.shmem4j.transport.deferred;

/**
 * {@code SHMEM_NETWORK=deferred-lazy}: the deferred network at its laziest, delivering a channel's
 * operations only once the sender quiets, accesses a PE blockingly, closes the channel or raises
 * one of the library's flags (which follow what the channel sent before).
 * No real network is that lazy (the spec wants progress); tests use it to force the orders a
 * network may take, such as a finalize announcement overtaking a context's puts.
 */
public final class DeferredLazyProvider extends DeferredProvider {
    public DeferredLazyProvider() {
        super("deferred-lazy", false, true);
    }
}
