package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Team;
import org.shmem4j.ThreadLevel;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.route.Routes;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.Transport;

/**
 * The default context ({@code SHMEM_CTX_DEFAULT}): the RMA engine over the world's routes, made by
 * the init sequence and held by the runtime, which forwards {@code Shmem}'s context operations to
 * it. Collectives, barriers and finalize share its network channel. Closing it is part of the
 * runtime's teardown (after finalize every use fails saying so), never the program's:
 * {@code Shmem.close()} is {@code shmem_finalize}.
 */
final class DefaultContext extends RmaContext {
    private final PeRuntime runtime;
    private final MemorySegment local;

    /**
     * @param routes the world's routes
     * @param local this PE's own region
     * @param network the network engine, or null when every PE is mapped
     * @param level the thread level provided, which decides how the network channel may be used
     */
    DefaultContext(PeRuntime runtime, Routes routes, MemorySegment local, Transport network, boolean amosByNetwork,
            Profiler profiler, ThreadLevel level) {
        // Never an owner thread: at SINGLE and FUNNELED only one thread calls, but it need not be
        // the thread a private context would check for (in-process PEs are threads of one JVM).
        super(routes, channelMode(level), null);
        this.runtime = runtime;
        this.local = local;
        useNetwork(network, amosByNetwork);
        batchWith(runtime.batchLimits(), runtime.batchAll());
        profileWith(profiler);
    }

    /**
     * The channel mode the thread level allows (spec 9.2): one thread (SINGLE, FUNNELED) needs no
     * sharing, SERIALIZED threads take turns, MULTIPLE threads use it at once.
     */
    static ChannelMode channelMode(ThreadLevel level) {
        return switch (level) {
            case SINGLE, FUNNELED -> ChannelMode.PRIVATE;
            case SERIALIZED -> ChannelMode.SERIALIZED;
            case MULTIPLE -> ChannelMode.SHARED;
        };
    }

    @Override
    protected MemorySegment localRegion() {
        return local;
    }

    @Override
    public Team team() {
        checkUsable("shmem_ctx_get_team");
        return runtime.teams().world();
    }

    /** Completes the context's operations and closes its channel: the runtime's teardown step (idempotent). */
    @Override
    public void close() {
        if (!retired()) {
            retire("shmem_finalize was called");
        }
    }
}
