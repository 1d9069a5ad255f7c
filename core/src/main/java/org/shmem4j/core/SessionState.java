package org.shmem4j.core;

import org.shmem4j.Context;
import org.shmem4j.SessionConfig;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.jfr.SessionEvent;
import org.shmem4j.transport.Batches;
import org.shmem4j.transport.Channel;

/**
 * One context's sessions (spec 9.9) and whether its network channel batches. On load/store paths
 * every operation is complete when issued, so there is nothing to batch: measured, the cheapest
 * correct session is none. A {@code SESSION_BATCH} session tells the network channel to batch its
 * small operations to each PE (see {@link Channel#startBatching}). Used by its {@link RmaEngine}
 * only, which passes its channel in (null while none is open).
 */
final class SessionState {
    /** How the channel batches in a SESSION_BATCH session (null: never); with {@code always}, as if always in one. */
    private final Batches.Limits limits;
    private final boolean always;
    /** The channel is told to batch (when it opens, if later). */
    private boolean batching;
    private boolean inSession;
    /** The session's options so far (a start ORs its options in) and its hint of total operations. */
    private long options, totalOps = Long.MAX_VALUE;
    /** The session's JFR event, null when not recording. */
    private SessionEvent event;

    SessionState(Batches.Limits limits, boolean always) {
        this.limits = limits;
        this.always = always && limits != null;
        this.batching = this.always;
    }

    /** A channel just opened: it batches if a session (or {@code always}) says so. */
    void opened(Channel c) {
        if (batching) {
            c.startBatching(limits, totalOps);
        }
    }

    /** {@code shmem_ctx_session_start}, after the context's own checks. */
    void start(long newOptions, SessionConfig config, long configMask, Channel c, Profiler profiler) {
        if ((newOptions & ~Context.SESSION_BATCH) != 0) {
            throw new IllegalArgumentException("shmem_ctx_session_start: unknown option bits 0x" + Long.toHexString(newOptions));
        }
        if ((configMask & ~Context.SESSION_TOTAL_OPS) != 0) {
            throw new IllegalArgumentException("shmem_ctx_session_start: unknown config mask bits 0x" + Long.toHexString(configMask));
        }
        if (configMask != 0 && config == null) {
            throw new IllegalArgumentException("shmem_ctx_session_start: config is null but config_mask is " + configMask);
        }
        if (!inSession) {
            totalOps = Long.MAX_VALUE;
            event = profiler.sessionBegin();
        }
        inSession = true;
        options |= newOptions; // spec 9.9.2: a start within a session combines its options
        if ((configMask & Context.SESSION_TOTAL_OPS) != 0) { // and replaces the values its mask names
            totalOps = config.totalOps() < 0 ? Long.MAX_VALUE : config.totalOps();
        }
        if ((options & Context.SESSION_BATCH) != 0 && limits != null) {
            batching = true;
            if (c != null) {
                c.startBatching(limits, totalOps);
            }
        }
    }

    /** {@code shmem_ctx_session_stop}, after the context's own checks. */
    void stop(Channel c, Profiler profiler) {
        if (!inSession) {
            return;
        }
        long ended = options;
        inSession = false;
        options = 0;
        totalOps = Long.MAX_VALUE;
        Batches.Counts batched = Batches.Counts.NONE;
        if (batching && c != null) {
            batched = c.stopBatching(); // sends the batches; completion stays quiet's (spec 9.9.3)
            if (always) {
                c.startBatching(limits, totalOps);
            }
        }
        batching = always;
        profiler.sessionEnd(event, ended, batched.ops(), batched.batches());
        event = null;
    }
}
