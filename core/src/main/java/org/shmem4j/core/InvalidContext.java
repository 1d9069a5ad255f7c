package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Team;

/**
 * {@code SHMEM_CTX_INVALID}: a context retired from the start. The routines the spec defines on it
 * do nothing (fence, quiet, sessions, destroy) or answer {@code SHMEM_TEAM_INVALID} (get_team);
 * every other operation fails naming its routine.
 */
final class InvalidContext extends RmaContext {
    static final InvalidContext INSTANCE = new InvalidContext();

    private InvalidContext() {
        super(org.shmem4j.core.route.Routes.none(), org.shmem4j.transport.ChannelMode.PRIVATE, null);
        retire("the context is SHMEM_CTX_INVALID");
    }

    @Override
    protected MemorySegment localRegion() {
        throw new IllegalStateException("SHMEM_CTX_INVALID has no local region");
    }

    @Override
    public Team team() {
        return InvalidTeam.INSTANCE;
    }

    @Override
    public void fence() {
    }

    @Override
    public void quiet() {
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "Context[SHMEM_CTX_INVALID]";
    }
}
