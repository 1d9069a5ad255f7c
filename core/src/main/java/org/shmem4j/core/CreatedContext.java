package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Team;
import org.shmem4j.transport.ChannelMode;

/**
 * A context made by {@code ctxCreate} or {@code Team.createCtx}: the RMA engine with the team's
 * routing table (so its PE numbers are the team's), optionally private to its creating thread.
 * On load/store paths every context completes its operations as issued, so contexts isolate
 * nothing that needs isolating and share no lock; on the network path each context opens its own
 * channel (its own completion state), used as its options allow.
 */
final class CreatedContext extends RmaContext {
    private final PeRuntime runtime;
    private final TeamImpl team;
    /** Set when the team or finalize destroyed this context (not its own close). */
    private volatile boolean retiredForOwner;

    CreatedContext(PeRuntime runtime, TeamImpl team, long options) {
        super(team.routes(), channelMode(options), (options & CTX_PRIVATE) != 0 ? Thread.currentThread() : null);
        this.runtime = runtime;
        this.team = team;
        useNetwork(runtime.network(), runtime.amosByNetwork());
        batchWith(runtime.batchLimits(), runtime.batchAll());
        profileWith(runtime.profiler());
    }

    /** What the context's options promise about its threads (spec 9.5.1), as its channel sees it. */
    private static ChannelMode channelMode(long options) {
        if ((options & CTX_PRIVATE) != 0) {
            return ChannelMode.PRIVATE;
        }
        return (options & CTX_SERIALIZED) != 0 ? ChannelMode.SERIALIZED : ChannelMode.SHARED;
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
        if (retiredForOwner) {
            return; // already destroyed with its team, or by finalize
        }
        checkUsable("shmem_ctx_destroy");
        retire("the context was destroyed");
        team.forget(this);
    }

    /**
     * Destroys this context on behalf of its team (being destroyed) or of finalize, from any
     * thread: later uses fail saying {@code why}, and {@code close()} does nothing.
     */
    void retireForOwner(String why) {
        retiredForOwner = true;
        retire(why);
    }
}
