package org.shmem4j;

/**
 * {@code shmem_ctx_session_config_t}: hints for a session. Fields are used only when the session
 * start's mask names them ({@link Context#SESSION_TOTAL_OPS}).
 *
 * @param totalOps expected maximum number of RMA calls in the session ({@code SIZE_MAX}: unknown, here -1)
 */
public record SessionConfig(long totalOps) {
    /** The defaults of spec 9.9.1: total_ops unknown. */
    public static final SessionConfig DEFAULT = new SessionConfig(-1);
}
