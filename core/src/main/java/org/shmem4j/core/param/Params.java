package org.shmem4j.core.param;

import java.nio.file.Path;
import java.util.List;

/**
 * The registry: every environment parameter of shmem4j, declared once. The four variables of
 * OpenSHMEM 1.6 section 8 come first, each with its deprecated {@code SMA_*} alias; the
 * implementation's own {@code SHMEM_*} variables follow. Values are resolved by
 * {@link Parameters#from}.
 */
public final class Params {
    private Params() {}

    /** {@code SHMEM_VERSION}: print the library version at start-up. */
    public static final Parameter<Boolean> VERSION =
            Parameter.flag("SHMEM_VERSION", "Print the library version at start-up")
                    .withAlias("SMA_VERSION").asSpec();

    /** {@code SHMEM_INFO}: print the table of all parameters ({@link Parameters#infoText}). */
    public static final Parameter<Boolean> INFO =
            Parameter.flag("SHMEM_INFO", "Print helpful text about all these environment variables")
                    .withAlias("SMA_INFO").asSpec();

    /** {@code SHMEM_DEBUG}: enable debugging messages. */
    public static final Parameter<Boolean> DEBUG =
            Parameter.flag("SHMEM_DEBUG", "Enable debugging messages")
                    .withAlias("SMA_DEBUG").asSpec();

    /** {@code SHMEM_SYMMETRIC_SIZE}: bytes of symmetric heap per PE, default 128 MiB. */
    public static final Parameter<Long> SYMMETRIC_SIZE =
            Parameter.size("SHMEM_SYMMETRIC_SIZE", 128L << 20,
                            "Size in bytes of the symmetric heap per PE (suffix k, m, g or t)")
                    .withAlias("SMA_SYMMETRIC_SIZE").asSpec();

    /** {@code SHMEM_SHM_DIR}: where the shared heap files live. */
    public static final Parameter<Path> SHM_DIR =
            Parameter.directory("SHMEM_SHM_DIR", Path.of("/dev/shm"),
                    "Directory for the shared-memory heap files");

    /** {@code SHMEM_WAIT_SPINS}: busy-spin iterations of a waiting PE before it yields. */
    public static final Parameter<Integer> WAIT_SPINS =
            Parameter.intRange("SHMEM_WAIT_SPINS", 4000, 0, 1_000_000_000,
                    "Busy-spin iterations of a wait before yielding");

    /** {@code SHMEM_WAIT_YIELDS}: {@link Thread#yield} calls of a waiting PE before it parks. */
    public static final Parameter<Integer> WAIT_YIELDS =
            Parameter.intRange("SHMEM_WAIT_YIELDS", 200, 0, 1_000_000_000,
                    "Thread yields of a wait before parking");

    /** {@code SHMEM_WAIT_PARK_MAX_US}: ceiling of the exponential park back-off. */
    public static final Parameter<Integer> WAIT_PARK_MAX_US =
            Parameter.intRange("SHMEM_WAIT_PARK_MAX_US", 200, 1, 1_000_000,
                    "Maximum park back-off of a wait, in microseconds");

    /** {@code SHMEM_RESERVED_SIZE}: bytes of the library's internal heap region per PE. */
    public static final Parameter<Long> RESERVED_SIZE =
            Parameter.size("SHMEM_RESERVED_SIZE", 64L << 20,
                    "Size in bytes of the internal reserved heap region (suffix k, m, g or t)");

    /** {@code SHMEM_BOOTSTRAP_TIMEOUT_S}: how long start-up waits for every PE to arrive. */
    public static final Parameter<Integer> BOOTSTRAP_TIMEOUT_S =
            Parameter.intRange("SHMEM_BOOTSTRAP_TIMEOUT_S", 60, 1, 86_400,
                    "Seconds to wait for all PEs at start-up");

    /** {@code SHMEM_NETWORK}: the network engine for PEs on other nodes (a {@code NetworkProvider}'s name). */
    public static final Parameter<String> NETWORK =
            Parameter.of("SHMEM_NETWORK", "ucx", (variable, text) -> text.strip(),
                    "Network engine for the PEs on other nodes (ucx)");

    /**
     * {@code SHMEM_NETWORK_ATOMICS}: every AMO, signal update and lock operation goes through the
     * network engine, to every PE including this node's and this one, for network atomics that are
     * not atomic with respect to CPU atomics (NIC atomics).
     */
    public static final Parameter<Boolean> NETWORK_ATOMICS =
            Parameter.flag("SHMEM_NETWORK_ATOMICS",
                    "Send every AMO, signal update and lock operation through the network engine, also to PEs of this node");

    /** {@code SHMEM_TEAMS_MAX}: how many teams (predefined ones included) may exist at once. */
    public static final Parameter<Integer> TEAMS_MAX =
            Parameter.intRange("SHMEM_TEAMS_MAX", 256, 8, 65_536,
                    "Teams a PE may have at once (the 4 predefined ones included), each taking reserved memory by its size");

    /** {@code SHMEM_COLLECTIVE_SCRATCH}: the most one collective stages in its team's scratch (a ring of 112 buffers of a sixteenth of this). */
    public static final Parameter<Long> COLLECTIVE_SCRATCH =
            Parameter.size("SHMEM_COLLECTIVE_SCRATCH", 16L << 10,
                    "Most bytes one collective stages in its team's scratch: a ring of 112 buffers of a sixteenth of this (suffix k, m, g or t)");

    /** {@code SHMEM_BARRIER_ALGORITHM}: the team_sync / barrier algorithm ({@code auto} lets the policy choose). */
    public static final Parameter<String> BARRIER_ALGORITHM = algorithm("SHMEM_BARRIER_ALGORITHM",
            AlgorithmNames.BARRIER, "barrier_all, sync_all and team_sync");
    /** {@code SHMEM_BCAST_ALGORITHM}. */
    public static final Parameter<String> BCAST_ALGORITHM = algorithm("SHMEM_BCAST_ALGORITHM",
            AlgorithmNames.BROADCAST, "broadcast");
    /** {@code SHMEM_REDUCE_ALGORITHM}. */
    public static final Parameter<String> REDUCE_ALGORITHM = algorithm("SHMEM_REDUCE_ALGORITHM",
            AlgorithmNames.REDUCE, "reductions");
    /** {@code SHMEM_COLLECT_ALGORITHM}. */
    public static final Parameter<String> COLLECT_ALGORITHM = algorithm("SHMEM_COLLECT_ALGORITHM",
            AlgorithmNames.COLLECT, "collect");
    /** {@code SHMEM_FCOLLECT_ALGORITHM}. */
    public static final Parameter<String> FCOLLECT_ALGORITHM = algorithm("SHMEM_FCOLLECT_ALGORITHM",
            AlgorithmNames.COLLECT, "fcollect");
    /** {@code SHMEM_ALLTOALL_ALGORITHM}. */
    public static final Parameter<String> ALLTOALL_ALGORITHM = algorithm("SHMEM_ALLTOALL_ALGORITHM",
            AlgorithmNames.ALLTOALL, "alltoall and alltoalls");
    /** {@code SHMEM_SCAN_ALGORITHM}. */
    public static final Parameter<String> SCAN_ALGORITHM = algorithm("SHMEM_SCAN_ALGORITHM",
            AlgorithmNames.SCAN, "sum_inscan and sum_exscan");

    /**
     * {@code SHMEM_BCAST_CROSSOVER}: message bytes from which the automatic broadcast switches
     * from the latency-optimal binomial tree to the bandwidth-optimal scatter_allgather; default 32 KiB.
     * On teams of more than 16 members, whose ring steps would each cost a latency, also each
     * member's share ({@code bytes / n}) must reach it.
     */
    public static final Parameter<Long> BCAST_CROSSOVER = Parameter.size("SHMEM_BCAST_CROSSOVER", 32L << 10,
            "Message bytes from which auto broadcast uses scatter_allgather instead of binomial");
    /**
     * {@code SHMEM_REDUCE_CROSSOVER}: bytes of the reduced array from which the automatic
     * reduction switches from recursive_doubling to rabenseifner (ring where absent); default 16 KiB.
     */
    public static final Parameter<Long> REDUCE_CROSSOVER = Parameter.size("SHMEM_REDUCE_CROSSOVER", 16L << 10,
            "Array bytes from which auto reductions use rabenseifner (or ring) instead of recursive_doubling");
    /**
     * {@code SHMEM_COLLECT_CROSSOVER}: bytes contributed per member from which the automatic
     * fcollect switches from recursive_doubling (powers of two) / bruck to ring, on teams of at
     * most 16 members (larger teams keep the logarithmic algorithms); default 16 KiB.
     * collect (sizes differ between members, and every member must choose alike) always uses the
     * small-message choice.
     */
    public static final Parameter<Long> COLLECT_CROSSOVER = Parameter.size("SHMEM_COLLECT_CROSSOVER", 16L << 10,
            "Bytes per member from which auto fcollect uses ring instead of recursive_doubling/bruck");
    /**
     * {@code SHMEM_ALLTOALL_CROSSOVER}: bytes per block (per destination member) from which the
     * automatic alltoall switches from linear to pairwise exchange; default 1 KiB.
     */
    public static final Parameter<Long> ALLTOALL_CROSSOVER = Parameter.size("SHMEM_ALLTOALL_CROSSOVER", 1L << 10,
            "Block bytes from which auto alltoall uses pairwise instead of linear");

    /** {@code SHMEM_JFR_RMA_SIZE}: at profiling level 1, JFR records the RMA and AMO that move at least this much. */
    public static final Parameter<Long> JFR_RMA_SIZE = Parameter.size("SHMEM_JFR_RMA_SIZE", 64L << 10,
            "JFR: at profiling level 1, record RMA/AMO of at least this many bytes (suffix k, m, g or t)");

    /** {@code SHMEM_JFR_RMA_US}: at profiling level 1, JFR records the RMA and AMO that take at least this long. */
    public static final Parameter<Integer> JFR_RMA_US = Parameter.intRange("SHMEM_JFR_RMA_US", 100, 0, 1_000_000_000,
            "JFR: at profiling level 1, record RMA/AMO that take at least this many microseconds");

    /** {@code SHMEM_BATCH_BYTES}: bytes of one destination's batch in a {@code SESSION_BATCH} session; 0 turns batching off. */
    public static final Parameter<Long> BATCH_BYTES = Parameter.sizeOrOff("SHMEM_BATCH_BYTES", 8L << 10, 256, 64L << 10,
            "Sessions (SESSION_BATCH): bytes of the batch of operations held for one remote PE (0: never batch)");

    /** {@code SHMEM_BATCH_MEMORY}: what all of one context's batches may take. */
    public static final Parameter<Long> BATCH_MEMORY = Parameter.size("SHMEM_BATCH_MEMORY", 1L << 20,
            "Sessions: bytes all of one context's batches may take (at least two batches)");

    /** {@code SHMEM_BATCH_DELAY_US}: how long a batch waits for more operations before it leaves anyway. */
    public static final Parameter<Integer> BATCH_DELAY_US = Parameter.intRange("SHMEM_BATCH_DELAY_US", 100, 0, 60_000_000,
            "Sessions: microseconds a batch waits for more operations before it is sent anyway");

    /** {@code SHMEM_BATCH_ALL}: every context batches as if always in a {@code SESSION_BATCH} session. */
    public static final Parameter<Boolean> BATCH_ALL = Parameter.flag("SHMEM_BATCH_ALL",
            "Every context batches as if in a SESSION_BATCH session from its creation (a session's stop sends the batches)");

    private static Parameter<String> algorithm(String name, List<String> names, String what) {
        List<String> choices = AlgorithmNames.choices(names);
        return Parameter.choice(name, "auto", choices, "Algorithm of " + what + ": " + String.join(", ", choices));
    }

    /** Every parameter, spec ones first, in the order {@code SHMEM_INFO} lists them. */
    public static final List<Parameter<?>> ALL = List.of(
            VERSION, INFO, DEBUG, SYMMETRIC_SIZE,
            SHM_DIR, NETWORK, NETWORK_ATOMICS, WAIT_SPINS, WAIT_YIELDS, WAIT_PARK_MAX_US, RESERVED_SIZE,
            BOOTSTRAP_TIMEOUT_S, TEAMS_MAX, COLLECTIVE_SCRATCH, BARRIER_ALGORITHM, BCAST_ALGORITHM,
            REDUCE_ALGORITHM, COLLECT_ALGORITHM, FCOLLECT_ALGORITHM, ALLTOALL_ALGORITHM, SCAN_ALGORITHM,
            BCAST_CROSSOVER, REDUCE_CROSSOVER, COLLECT_CROSSOVER, ALLTOALL_CROSSOVER, BATCH_BYTES, BATCH_MEMORY, BATCH_DELAY_US,
            BATCH_ALL, JFR_RMA_SIZE, JFR_RMA_US);
}
