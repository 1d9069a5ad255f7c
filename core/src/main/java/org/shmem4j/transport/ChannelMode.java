package org.shmem4j.transport;

/** Who may use a {@link Channel}: spec 9.5's context options, as a transport sees them. */
public enum ChannelMode {
    /** One thread only ({@code SHMEM_CTX_PRIVATE}): the transport may skip all locking. */
    PRIVATE,
    /** Several threads, never at the same time ({@code SHMEM_CTX_SERIALIZED}). */
    SERIALIZED,
    /** Several threads at once (shareable contexts, the default context at THREAD_MULTIPLE). */
    SHARED
}
