package org.shmem4j.bench;

import org.shmem4j.Context;
import org.shmem4j.SessionConfig;
import org.shmem4j.Shmem;

/**
 * The frame of a timed pass that runs plain or in a batching session (histo, ig, gups' session
 * line, issue 26): {@link #begin} meets the other PEs at a barrier, starts the clock and, for a
 * session, starts {@code SESSION_BATCH} on the created context with {@code SESSION_TOTAL_OPS} = the
 * pass's operation count; the pass issues on the context it returns; {@link #end()} stops the
 * session, quiets that context and meets the others again.
 */
final class SessionPass {
    /** Where a pass issues: the default context, the created one, the created one in a session. */
    enum Mode {
        PLAIN, CTX, SESSION;

        /** The mode's name in result lines and knobs ({@code mode=plain|ctx|session}). */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Shmem shmem;
    private final Context ctx;
    private Context current;
    private Mode mode;
    private long t0;

    /** Passes of {@code shmem}'s PEs; the sessions run on {@code ctx}, a context created from it. */
    SessionPass(Shmem shmem, Context ctx) {
        this.shmem = shmem;
        this.ctx = ctx;
    }

    /** {@link #begin(Mode, long)} of {@code SESSION} or {@code PLAIN}. */
    Context begin(boolean inSession, long ops) {
        return begin(inSession ? Mode.SESSION : Mode.PLAIN, ops);
    }

    /** Barrier, clock, and for a session its start (hinting {@code ops} operations); the context to issue on. */
    Context begin(Mode m, long ops) {
        mode = m;
        current = m == Mode.PLAIN ? shmem : ctx;
        shmem.barrierAll();
        t0 = System.nanoTime();
        if (m == Mode.SESSION) {
            ctx.sessionStart(Context.SESSION_BATCH, new SessionConfig(ops), Context.SESSION_TOTAL_OPS);
        }
        return current;
    }

    /** The session's stop, the context's quiet, a barrier; seconds since {@link #begin}. */
    double end() {
        if (mode == Mode.SESSION) {
            ctx.sessionStop();
        }
        current.quiet();
        shmem.barrierAll();
        return (System.nanoTime() - t0) / 1e9;
    }
}
