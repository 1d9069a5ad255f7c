package org.shmem4j.core.sync;

import java.util.function.BooleanSupplier;

/**
 * Asked by a parked wait about the member it waits for: throws if that member can no longer
 * deliver (it entered finalize while this PE did not) and the awaited condition, read after that
 * observation, still does not hold. Reading the condition after the member's finalize marker
 * matters: a member sets the marker after its last signal, so a signal sent before finalizing is
 * always seen.
 */
@FunctionalInterface
public interface PeerLiveness {
    void check(int member, BooleanSupplier satisfied);
}
