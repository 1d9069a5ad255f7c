package org.shmem4j.bootstrap.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.JobMember;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * The bootstrap of a PE started by a PMIx server without {@code oshrun}: {@code srun --mpi=pmix}
 * or Open MPI's {@code mpirun}. Rank and namespace come from {@code PMIx_Init}, the job size from
 * {@code PMIx_Get} on the wildcard rank, the host from PMIx's host name of this rank (the kernel's
 * when PMIx has none); an all-gather is a put, commit and data-collecting fence under a key of its
 * own, then one get per peer.
 *
 * <p><b>One client per process.</b> As with the launcher's connection, the PMIx client is opened
 * once ({@link #processInstance}) and outlives {@code shmem_finalize}, so that a program may
 * initialize again. A shutdown hook ends it: after a normal finalize with a final fence (a PE that
 * finalizes while a peer still reads its data would leave the peer hanging in {@code PMIx_Get})
 * and {@code PMIx_Finalize}; a PE that exits while initialized (an uncaught exception, an exit
 * without {@code shmem_finalize}) calls {@code PMIx_Abort} instead, so the resource manager ends
 * the whole job rather than leaving the peers blocked.
 *
 * <p><b>What this PE can see of its peers.</b> What PMIx events tell: right after {@code PMIx_Init}
 * the PE registers a handler ({@link PmixEvents}) for a peer's failure (aborted, killed, ended
 * without finalizing or with a non-zero exit code), the job's end and the loss of the PMIx server,
 * deregistered before {@code PMIx_Finalize}. The first such event becomes the {@link #abortReason()}
 * (unless this PE's own global exit came first), so waits fail naming the peer, e.g. {@code PE 3
 * (host h) terminated (PMIx event PMIX_ERR_PROC_ABORTED)}, and the PE's exit asks PMIx to abort the
 * job instead of waiting for the peers in a final fence. A peer's end with exit code 0 (or none
 * said) is no failure: that is how a PE that finalized leaves. Which events come depends on the
 * server, and the two at hand send none about peers (measured with Slurm 22.05 and Open MPI 4.1.4
 * on PMIx 4.2):
 * <ul>
 *   <li>{@code srun --mpi=pmix}: when a task's PMIx connection closes before {@code PMIx_Finalize}
 *       (any exit, even with status 0) Slurm's PMIx plugin kills the whole step with SIGKILL at
 *       once, so the peers never learn why; srun's {@code task N: Killed} or {@code Exited with
 *       exit code N} names the PE. A task that finalized and then fails does not end the step.
 *   <li>{@code mpirun}: a PE exiting without finalizing or with a non-zero status makes mpirun end
 *       the job (SIGCONT at once, SIGTERM 1 s later, then SIGKILL) and name the rank in its own
 *       report; no event reaches the peers. With {@code --enable-recovery} mpirun tries to send
 *       one, but the PMIx library refuses it ({@code BAD-PARAM}), and the job goes on with the
 *       peers waiting. What does reach the PEs is the loss of mpirun itself
 *       ({@code PMIX_ERR_LOST_CONNECTION}, about 1 s after it died): an orphan then fails in its
 *       next wait that blocks, instead of waiting forever (waits polled on their slow path only:
 *       orphans whose barriers keep succeeding among themselves may run on).
 * </ul>
 * A server that does send events about peers is heard; none at hand does, so that path is tested
 * with events laid out in memory as PMIx hands them to the handler ({@code PmixEventsTest}).
 */
public final class PmixBootstrap extends JobMember {
    /** Lifecycle of the process's client; only moves forward, except FINALIZED back to ACTIVE on re-init. */
    private enum State { ACTIVE, FINALIZED, CLOSED, ABORTED }

    /** The server's variables: a namespace and rank, or the address of the server. */
    private static final String NAMESPACE_VAR = "PMIX_NAMESPACE", RANK_VAR = "PMIX_RANK", SERVER_URI_PREFIX = "PMIX_SERVER_URI";
    /** Letters kept from a namespace that needs hashing: with 16 hex digits, the 64 a job id may have. */
    private static final int HASHED_PREFIX = 48;

    // One client per process (see the class comment), as PMIx itself has.
    private static PmixBootstrap processInstance;

    private final Pmix.Library lib;
    private final String namespace;
    private final Object gatherLock = new Object();
    private long nextSeq; // guarded by gatherLock
    private final AtomicReference<State> state = new AtomicReference<>(State.ACTIVE);
    private volatile String abortReason;
    private final PmixEvents events;
    /** The registration of {@link #events}' handler. */
    private final long eventHandler;
    /**
     * {@code SHMEM_BOOTSTRAP_TIMEOUT_S}: how long a fence waits for every PE (PMIx's own timeout,
     * so a PE that never arrives fails the others' {@code shmem_init} instead of hanging it). Not
     * for the final fence, which waits for peers that may compute long after their finalize.
     */
    private final int arrivalTimeoutS;

    private PmixBootstrap(Pmix.Library lib, String namespace, int rank, int size, String host, int arrivalTimeoutS,
            PmixEvents events, long eventHandler) {
        super(rank, size, jobIdOf(namespace), host);
        this.lib = lib;
        this.namespace = namespace;
        this.events = events;
        this.eventHandler = eventHandler;
        this.arrivalTimeoutS = arrivalTimeoutS;
    }

    /**
     * Whether PEs can bootstrap through PMIx here, for {@code oshrun --info}: the version of
     * {@code libpmix.so.2} (e.g. {@code "OpenPMIx 4.2.2 ..."}) or {@code "not available: "} and why.
     * Loads the library but does not initialize it.
     */
    public static String libraryStatus() {
        return Pmix.describe();
    }

    /** True when {@code env} shows a PMIx server that started this process. */
    public static boolean inEnvironment(Map<String, String> env) {
        return env.containsKey(NAMESPACE_VAR) && env.containsKey(RANK_VAR)
                || env.keySet().stream().anyMatch(k -> k.startsWith(SERVER_URI_PREFIX));
    }

    /**
     * The process's PMIx client, initialized on the first call, its start-up fences bounded by
     * {@code arrivalTimeoutS} ({@code SHMEM_BOOTSTRAP_TIMEOUT_S}, which the creator reads:
     * parameters belong to the core); later calls return the same one and ignore it.
     *
     * @throws ShmemException if libpmix cannot be loaded (saying what to install or which flag to
     *     add) or the server refuses the client
     */
    public static synchronized PmixBootstrap processInstance(int arrivalTimeoutS) {
        if (processInstance == null) {
            processInstance = connect(arrivalTimeoutS);
            Thread hook = Thread.ofPlatform().name("shmem4j-pmix-exit").unstarted(processInstance::atExit);
            Runtime.getRuntime().addShutdownHook(hook);
        }
        return processInstance;
    }

    private static PmixBootstrap connect(int arrivalTimeoutS) {
        Pmix.Library lib = Pmix.lib("shmem_init");
        return call("PMIx_Init", a -> {
            MemorySegment self = a.allocate(Pmix.PROC_SIZE);
            lib.check((int) lib.init.invokeExact(self, MemorySegment.NULL, 0L), "shmem_init: PMIx_Init");
            String namespace = self.getString(Pmix.PROC_NSPACE);
            int rank = self.get(JAVA_INT, Pmix.PROC_RANK);
            long size = Integer.toUnsignedLong(lookup(lib, a, namespace, Pmix.RANK_WILDCARD, Pmix.KEY_JOB_SIZE, Pmix.TYPE_UINT32,
                    v -> v.get(JAVA_INT, Pmix.VALUE_DATA)).orElseThrow(() -> new ShmemException(
                            "shmem_init: PMIx has no " + Pmix.KEY_JOB_SIZE + " for namespace " + namespace)));
            if (size < 1 || size > Integer.MAX_VALUE || rank < 0 || rank >= size) {
                throw new ShmemException("shmem_init: PMIx gave rank " + Integer.toUnsignedString(rank) + " in a job of "
                        + size + " processes (namespace " + namespace + ")");
            }
            String host = lookup(lib, a, namespace, rank, Pmix.KEY_HOSTNAME, Pmix.TYPE_STRING, PmixBootstrap::string)
                    .orElseGet(PmixBootstrap::kernelHostName);
            var events = new PmixEvents(namespace, rank, (int) size, pe -> hostOf(lib, namespace, pe));
            MemorySegment codes = a.allocateFrom(JAVA_INT, Arrays.stream(Pmix.Event.values()).mapToInt(e -> e.status).toArray());
            // The handler lives as long as the process's one client: PMIx may call it until PMIx_Finalize.
            int handler = (int) lib.registerEventHandler.invokeExact(codes, (long) Pmix.Event.values().length, MemorySegment.NULL, 0L,
                    events.handler(Arena.global()), MemorySegment.NULL, MemorySegment.NULL);
            if (handler < 0) { // without a callback the call blocks and returns the registration, or an error
                lib.check(handler, "PMIx_Register_event_handler");
            }
            return new PmixBootstrap(lib, namespace, rank, (int) size, host, arrivalTimeoutS, events, handler);
        });
    }

    /** PMIx's host name of rank {@code pe}, or null if PMIx cannot say. */
    private static String hostOf(Pmix.Library lib, String namespace, int pe) {
        try {
            return call("PMIx_Get(" + Pmix.KEY_HOSTNAME + ")", a -> lookup(lib, a, namespace, pe, Pmix.KEY_HOSTNAME, Pmix.TYPE_STRING,
                    PmixBootstrap::string)).orElse(null);
        } catch (ShmemException e) {
            return null;
        }
    }

    /**
     * The job id of PMIx namespace {@code namespace}: the namespace itself when it is a valid id,
     * else its letters and digits (at most {@value #HASHED_PREFIX}) followed by 16 hex digits of its
     * SHA-256, so that namespaces differing only in punctuation ({@code a.12.3}, {@code a.1.23})
     * still give different ids. Every PE of a job computes the same id.
     */
    static String jobIdOf(String namespace) {
        if (LaunchEnv.isValidJobId(namespace)) {
            return namespace;
        }
        String letters = namespace.replaceAll("[^A-Za-z0-9]", "");
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(namespace.getBytes(StandardCharsets.UTF_8));
            return letters.substring(0, Math.min(letters.length(), HASHED_PREFIX)) + HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        synchronized (gatherLock) { // calls are matched in order, so one at a time
            activate("shmem4j bootstrap all-gather");
            String key = "shmem4j.ag." + nextSeq++;
            return call("all-gather " + key, a -> {
                putAndCommit(a, key, mine);
                // Without pmix.collect the data stays with its owner and a later get can hang.
                collectingFence(a, "PMIx_Fence(" + key + ")", arrivalTimeoutS);
                byte[][] all = new byte[size()][];
                for (int pe = 0; pe < all.length; pe++) {
                    int peer = pe;
                    all[pe] = pe == rank() ? mine.clone()
                            : lookup(lib, a, namespace, pe, key, Pmix.TYPE_BYTE_OBJECT, PmixBootstrap::bytes)
                                    .orElseThrow(() -> new ShmemException("PMIx_Get: rank " + peer + " of namespace "
                                            + namespace + " published no " + key));
                }
                return all;
            });
        }
    }

    /**
     * {@code PMIx_Put} and {@code PMIx_Commit} of the value under {@code key} and this PE's
     * all-gather count, without a fence of its own; a lookup is one {@code PMIx_Get} of the peer's
     * key. The init's last barrier is a data-collecting fence (see {@link #fence}), so by the time a
     * PE contacts a peer its server holds the value and the get is answered on the node; a get
     * before that waits in PMIx for the peer's commit.
     */
    @Override
    public Directory publish(String key, byte[] mine) {
        String name;
        synchronized (gatherLock) {
            activate("shmem4j bootstrap publish");
            name = "shmem4j." + key + "@" + nextSeq;
            call("publishing " + name, a -> {
                putAndCommit(a, name, mine);
                return null;
            });
        }
        return pe -> call("looking up " + name + " of rank " + pe, a -> lookup(lib, a, namespace, pe, name, Pmix.TYPE_BYTE_OBJECT,
                PmixBootstrap::bytes).orElseThrow(() -> new ShmemException("PMIx_Get: rank " + pe + " of namespace " + namespace
                        + " published no " + name)));
    }

    /** {@code PMIx_Put} of {@code mine} as a byte object under {@code key} (global scope), then {@code PMIx_Commit}. */
    private void putAndCommit(Arena a, String key, byte[] mine) throws Throwable {
        MemorySegment value = a.allocate(Pmix.VALUE_SIZE);
        MemorySegment bytes = a.allocate(Math.max(1, mine.length)); // never NULL, even for an empty blob
        bytes.copyFrom(MemorySegment.ofArray(mine));
        value.set(JAVA_SHORT, Pmix.VALUE_TYPE, (short) Pmix.TYPE_BYTE_OBJECT);
        value.set(ADDRESS, Pmix.VALUE_BO_BYTES, bytes);
        value.set(JAVA_LONG, Pmix.VALUE_BO_SIZE, mine.length);
        lib.check((int) lib.put.invokeExact((byte) Pmix.SCOPE_GLOBAL, a.allocateFrom(key), value), "PMIx_Put(" + key + ")");
        lib.check((int) lib.commit.invokeExact(), "PMIx_Commit");
    }

    @Override
    public void barrier() {
        synchronized (gatherLock) {
            activate("shmem4j bootstrap barrier");
            fence("PMIx_Fence (barrier)", arrivalTimeoutS);
        }
    }

    /** An exit is normal from now on (until the next collective call re-activates the client). */
    @Override
    public void finalized() {
        state.compareAndSet(State.ACTIVE, State.FINALIZED);
    }

    @Override
    public void globalExit(int status) {
        abort(status, "shmem4j: PE " + rank() + " called shmem_global_exit(" + status + ")", true);
        exitProcess(status);
    }

    /** This PE's own global exit, else the first failure a PMIx event reported (see the class comment), else null. */
    @Override
    public String abortReason() {
        String own = abortReason;
        return own != null ? own : events.reason();
    }

    /**
     * Leaves the job: a final fence, then {@code PMIx_Finalize}. The runtime never calls it (the
     * client belongs to the process); the shutdown hook does after a normal finalize.
     */
    @Override
    public void close() {
        synchronized (gatherLock) {
            State was = state.get();
            if ((was == State.ACTIVE || was == State.FINALIZED) && state.compareAndSet(was, State.CLOSED)) {
                fence("PMIx_Fence (before PMIx_Finalize)", 0);
                call("PMIx_Finalize", a -> {
                    int deregistered = (int) lib.deregisterEventHandler.invokeExact(eventHandler, MemorySegment.NULL, MemorySegment.NULL);
                    lib.check((int) lib.finalize.invokeExact(MemorySegment.NULL, 0L), "PMIx_Finalize");
                    lib.check(deregistered, "PMIx_Deregister_event_handler");
                    return null;
                });
            }
        }
    }

    @Override
    public String toString() {
        return "PmixBootstrap[rank " + rank() + " of " + size() + ", namespace " + namespace + ", job " + jobId() + ", host "
                + hostId() + "]";
    }

    /**
     * The shutdown hook: finalize after a normal finalize, else abort the job naming this PE. A
     * failure of the job (a PMIx event) means abort too: the final fence would wait for a dead peer.
     */
    private void atExit() {
        String who = "shmem4j: PE " + rank() + " (host " + hostId() + ")";
        State now = state.get();
        if (now == State.FINALIZED && events.failure() == null) {
            try {
                close();
            } catch (ShmemException e) {
                System.err.println("shmem4j: PE " + rank() + ": " + e.getMessage());
            }
        } else if (now == State.FINALIZED) {
            abort(1, who + " is exiting after shmem_finalize in a failed job (" + events.reason() + "); asking PMIx to abort the job",
                    false);
        } else if (now == State.ACTIVE) {
            // Also reached by a PE the resource manager terminates after a peer's abort: the message
            // states what is known here, the failing PE's own report precedes it.
            abort(1, who + " is exiting before shmem_finalize; asking PMIx to abort the job", false);
        }
    }

    /**
     * Asks the resource manager to end every process of this namespace with {@code status};
     * returns once the server has the request (the kill follows), or at once if the client is
     * already closed or aborting. {@code visible}: other threads of this PE see {@code message} as
     * the {@link #abortReason()} (not when the process is exiting anyway, where it would only add
     * their stack traces to the report).
     */
    private void abort(int status, String message, boolean visible) {
        State was = state.get();
        if (was == State.CLOSED || was == State.ABORTED || !state.compareAndSet(was, State.ABORTED)) {
            return;
        }
        if (visible) {
            abortReason = message;
        }
        System.err.println(message);
        System.err.flush();
        try {
            call("PMIx_Abort", a -> {
                lib.check((int) lib.abort.invokeExact(status, a.allocateFrom(message), MemorySegment.NULL, 0L), "PMIx_Abort");
                return null;
            });
        } catch (ShmemException e) {
            System.err.println("shmem4j: PE " + rank() + ": " + e.getMessage()); // exiting anyway
        }
    }

    /** Makes the client active for a collective call, or throws naming {@code routine} if it has ended. */
    private void activate(String routine) {
        if (!state.compareAndSet(State.FINALIZED, State.ACTIVE) && state.get() != State.ACTIVE) {
            throw new ShmemException(routine + ": the PMIx client of PE " + rank() + " is " + state.get().name().toLowerCase()
                    + (abortReason != null ? " (" + abortReason + ")" : ""));
        }
    }

    /**
     * A barrier over the whole job. Always a data-collecting fence, although nothing new was put:
     * Slurm's PMIx plugin (22.05) lets a fence without {@code pmix.collect} return on one node
     * before the processes of the other nodes have entered it (seen on two pseudo-hosts: the PEs
     * of one host left the init barrier while the other host's were still opening UCX, and a
     * finalize announcement sent that early was overwritten by the late PE's set-up, which hung
     * the job). The collecting fence is what the all-gather relies on, and it waits for everyone.
     */
    private void fence(String what, int timeoutS) {
        call(what, a -> {
            collectingFence(a, what, timeoutS);
            return null;
        });
    }

    /** A fence over the job that collects data, bounded by {@code timeoutS} seconds unless 0. */
    private void collectingFence(Arena a, String what, int timeoutS) throws Throwable {
        MemorySegment info = a.allocate(Pmix.INFO_SIZE * 2);
        Pmix.boolInfo(info, Pmix.KEY_COLLECT_DATA, true);
        Pmix.intInfo(info.asSlice(Pmix.INFO_SIZE), Pmix.KEY_TIMEOUT, timeoutS);
        int status = (int) lib.fence.invokeExact(MemorySegment.NULL, 0L, info, timeoutS > 0 ? 2L : 1L);
        if (status == Pmix.ERR_TIMEOUT) {
            throw new ShmemException("shmem_init: PE " + rank() + " waited " + timeoutS + " s (" + LaunchEnv.BOOTSTRAP_TIMEOUT_S
                    + ") in " + what + " and not every PE of the job arrived: one failed to start, or never called shmem_init");
        }
        lib.check(status, what);
    }

    /**
     * {@code PMIx_Get} of {@code key} for {@code rank} of {@code namespace}: the value read by
     * {@code read} (from the returned {@code pmix_value_t}), or empty if PMIx has no such key.
     */
    private static <T> Optional<T> lookup(Pmix.Library lib, Arena a, String namespace, long rank, String key, int type,
            Function<MemorySegment, T> read) throws Throwable {
        MemorySegment proc = a.allocate(Pmix.PROC_SIZE);
        Pmix.proc(proc, namespace, rank);
        MemorySegment result = a.allocate(ADDRESS);
        int status = (int) lib.get.invokeExact(proc, a.allocateFrom(key), MemorySegment.NULL, 0L, result);
        if (status == Pmix.ERR_NOT_FOUND) {
            return Optional.empty();
        }
        lib.check(status, "PMIx_Get(" + key + ") of rank " + Integer.toUnsignedString((int) rank));
        MemorySegment value = result.get(ADDRESS, 0).reinterpret(Pmix.VALUE_SIZE);
        try {
            int actual = Short.toUnsignedInt(value.get(JAVA_SHORT, Pmix.VALUE_TYPE));
            if (actual != type) {
                throw new ShmemException("PMIx_Get(" + key + ") returned a value of type " + actual + ", expected " + type);
            }
            return Optional.of(read.apply(value));
        } finally {
            lib.release(value);
        }
    }

    /** The text of a string value. */
    private static String string(MemorySegment value) {
        return value.get(ADDRESS, Pmix.VALUE_DATA).reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** The bytes of a byte-object value. */
    private static byte[] bytes(MemorySegment value) {
        long n = value.get(JAVA_LONG, Pmix.VALUE_BO_SIZE);
        return n == 0 ? new byte[0] : value.get(ADDRESS, Pmix.VALUE_BO_BYTES).reinterpret(n).toArray(JAVA_BYTE);
    }

    private static String kernelHostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            throw new ShmemException("shmem_init: PMIx gave no host name and /proc/sys/kernel/hostname cannot be read: " + e, e);
        }
    }

    @FunctionalInterface
    private interface NativeCall<T> {
        T run(Arena a) throws Throwable;
    }

    /** Runs {@code call} with a confined arena for its arguments; a checked failure becomes a ShmemException naming {@code what}. */
    private static <T> T call(String what, NativeCall<T> call) {
        try (Arena a = Arena.ofConfined()) {
            return call.run(a);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException(what + " failed: " + t, t);
        }
    }
}
