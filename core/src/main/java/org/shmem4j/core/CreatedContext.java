package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Team;

/**
 * A context made by {@code ctxCreate} or {@code Team.createCtx}: the RMA engine with the team's
 * routing table (so its PE numbers are the team's), optionally private to its creating thread.
 * On load/store paths every context completes its operations as issued, so contexts isolate
 * nothing that needs isolating and share no lock; a network context would keep its own
 * completion state here.
 */
final class CreatedContext extends RmaContext {
    private final PeRuntime runtime;
    private final TeamImpl team;
    private volatile boolean retiredWithTeam;

    CreatedContext(PeRuntime runtime, TeamImpl team, long options) {
        super(team.peers(), (options & CTX_PRIVATE) != 0 ? Thread.currentThread() : null);
        this.runtime = runtime;
        this.team = team;
    }

    @Override
    protected MemorySegment localRegion() {
        return runtime.localRegion();
    }

    @Override
    public Team team() {
        checkUsable("shmem_ctx_get_team");
        return team;
    }

    @Override
    public void close() {
        if (retiredWithTeam) {
            return; // already destroyed with its team
        }
        checkUsable("shmem_ctx_destroy");
        retire("the context was destroyed");
        team.forget(this);
    }

    /** Destroys this context because its team is being destroyed (from any thread). */
    void retireWithTeam() {
        retiredWithTeam = true;
        retire("the context's team was destroyed (shmem_team_destroy destroys its contexts)");
    }
}
