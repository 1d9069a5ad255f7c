package org.shmem4j.transport;

/**
 * A network engine that can carry a job's traffic between nodes ("ucx"). The runtime opens one
 * when some PE is on another node, choosing it by name ({@code SHMEM_NETWORK}, found with
 * {@link java.util.ServiceLoader}); a job whose PEs share one node never opens any, so it needs
 * neither the engine's native library nor native access.
 */
public interface NetworkProvider {
    /** The name users select this engine by. */
    String name();

    /**
     * Whether this machine can run the engine, for {@code oshrun --info}: its native library and
     * version (e.g. {@code "UCX 1.13.1"}), or {@code "not available: "} and why. May load the
     * engine's native library.
     */
    default String availability() {
        return "available";
    }

    /**
     * Collective over every PE of the job (each calls it once, in the same order as the other
     * start-up exchanges): registers this PE's region and connects to the PEs the setup marks
     * remote. On failure every PE must learn of it (the exchange still completes) and throw.
     */
    Transport open(NetworkSetup setup);
}
