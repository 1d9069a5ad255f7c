package org.shmem4j.core.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A session on a context (spec 9.9), from its start to its stop. */
@Name("shmem4j.Session")
@Label("Session")
@Description("A session on a context, from shmem_ctx_session_start to shmem_ctx_session_stop")
public final class SessionEvent extends PeEvent {
    SessionEvent() {
    }

    @Label("Options")
    @Description("The session's options (1: SESSION_BATCH)")
    long options;

    @Label("Operations batched")
    @Description("Operations to remote PEs that travelled in batches")
    long opsBatched;

    @Label("Batches")
    @Description("Messages the batches went in")
    long batches;
}
