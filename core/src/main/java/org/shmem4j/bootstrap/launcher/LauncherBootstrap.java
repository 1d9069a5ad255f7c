package org.shmem4j.bootstrap.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.JobAborted;
import org.shmem4j.bootstrap.JobMember;

/**
 * The bootstrap of a PE started by {@code oshrun}: identity comes from the {@link LaunchEnv}
 * variables, all-gathers and job-level events go over one TCP connection to the launcher's
 * rendezvous service (framing in {@link Wire}).
 *
 * <p><b>One connection per process.</b> OpenSHMEM allows {@code init}, {@code finalize} and
 * {@code init} again in one program, and the launcher knows each PE by exactly one connection. So
 * the connection is opened once ({@link #processInstance}) and lives as long as the process;
 * {@link #close()} deliberately keeps it. {@link #finalized()} tells the launcher that an exit is
 * now normal; a later {@link #allGather} makes the PE active again.
 *
 * <p><b>Teardown.</b> A daemon thread reads the launcher's frames. On ABORT (another PE failed or
 * called global exit) the reason becomes visible through {@link #abortReason()}, a pending
 * all-gather fails, the reason is printed and the process halts with status 1 once its program has
 * ended (reporting its own failure) or a grace has passed:
 * this PE cannot continue without its peers. If the launcher itself disappears the process halts
 * as well, so no PE outlives its job.
 */
public final class LauncherBootstrap extends JobMember {
    /**
     * Time an aborted PE's program gets by default to end and report before the PE halts itself
     * (the failing PE may still be printing why); oshrun sends SIGTERM only after it. The ABORT
     * frame carries the grace of each abort.
     */
    public static final long ABORT_GRACE_MS = 1500;
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    /** The answer to the launcher's heartbeat, encoded once. */
    private static final byte[] PONG = Wire.encodeFixed(new Wire.Pong());

    // The only justified static state: the process is the PE, the launcher knows it by one
    // connection, which must survive finalize/init cycles, and its program runs on one thread.
    private static LauncherBootstrap processInstance;
    /** The thread running the program's main, once oshrun's PeMain started it (null in a PE not started by oshrun). */
    private static volatile Thread programThread;

    private final String rendezvous;
    private final Socket socket;
    private final DataOutputStream out;
    private final Object gatherLock = new Object();
    private final java.util.BitSet lostPeers = new java.util.BitSet();
    private long nextSeq; // guarded by gatherLock
    private volatile CompletableFuture<byte[][]> pending; // the all-gather awaiting its result
    private volatile String abortReason;
    /** Lookups awaiting the launcher's answer, by id. */
    private final Map<Long, CompletableFuture<byte[]>> lookups = new ConcurrentHashMap<>();
    private final AtomicLong nextLookup = new AtomicLong();

    private LauncherBootstrap(int rank, int size, String jobId, String hostId, String nodeId, String rendezvous,
            Socket socket) throws IOException {
        super(rank, size, jobId, hostId, nodeId);
        this.rendezvous = rendezvous;
        this.socket = socket;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * The process-wide connection to the launcher, opened on the first call from {@code env}
     * (normally {@link System#getenv()}) within {@code patienceS} seconds (as {@link #connect});
     * later calls return the same instance and ignore both.
     *
     * @throws ShmemException if a variable is missing or invalid, or the launcher is unreachable
     */
    public static synchronized LauncherBootstrap processInstance(Map<String, String> env, int patienceS) {
        if (processInstance == null) {
            processInstance = connect(env, patienceS);
        }
        return processInstance;
    }

    /** oshrun's PeMain runs the program's main on {@code thread}: an abort waits for it (its grace). */
    public static void programRunsOn(Thread thread) {
        programThread = thread;
    }

    /**
     * Opens a new connection to the launcher described by {@code env}. A process should hold only
     * one (the launcher rejects a second HELLO for the same rank); use {@link #processInstance}.
     * The PE is in once the launcher answers its HELLO with WELCOME; a connection the launcher
     * closes before answering (it sheds handshakes when flooded) is opened again, for
     * {@code patienceS} seconds at most ({@code SHMEM_BOOTSTRAP_TIMEOUT_S}, which the creator reads:
     * parameters belong to the core).
     *
     * @throws ShmemException naming the variable at fault, or the unreachable rendezvous
     */
    public static LauncherBootstrap connect(Map<String, String> env, int patienceS) {
        String rendezvous = LaunchEnv.require(env, LaunchEnv.RENDEZVOUS);
        String secret = LaunchEnv.require(env, LaunchEnv.JOB_SECRET);
        String jobId = LaunchEnv.require(env, LaunchEnv.JOB_ID);
        if (!LaunchEnv.isValidJobId(jobId)) {
            throw new ShmemException("shmem4j: environment variable " + LaunchEnv.JOB_ID + "=" + jobId
                    + " is not 1 to 64 characters of [A-Za-z0-9]");
        }
        int size = LaunchEnv.requireInt(env, LaunchEnv.SIZE, 1, Integer.MAX_VALUE);
        int rank = LaunchEnv.requireInt(env, LaunchEnv.RANK, 0, size - 1);
        String hostIdValue = env.get(LaunchEnv.HOST_ID);
        String hostId = hostIdValue == null || hostIdValue.isBlank() ? LaunchEnv.kernelHostName() : hostIdValue.strip();
        String nodeIdValue = env.get(LaunchEnv.NODE_ID);
        String nodeId = nodeIdValue == null || nodeIdValue.isBlank() ? hostId : nodeIdValue.strip();
        int colon = rendezvous.lastIndexOf(':');
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(rendezvous.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port <= 0 || port > 65535) {
            throw new ShmemException("shmem4j: environment variable " + LaunchEnv.RENDEZVOUS + "=" + rendezvous
                    + " is not host:port");
        }
        String host = rendezvous.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        long deadline = System.nanoTime() + patienceS * 1_000_000_000L;
        var address = new InetSocketAddress(host, port);
        var hello = new Wire.Hello(secret, rank, ProcessHandle.current().pid(), LaunchEnv.kernelHostName());
        for (int attempt = 1; ; attempt++) {
            Socket socket;
            try {
                socket = connectWithin(address, deadline);
            } catch (IOException e) {
                throw unreachable(rendezvous, e);
            }
            try {
                var b = new LauncherBootstrap(rank, size, jobId, hostId, nodeId, rendezvous, socket);
                Wire.write(b.out, hello); // nobody else has b yet
                var in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                Wire.Message answer = awaitAnswer(socket, in, deadline);
                if (answer instanceof Wire.Welcome) {
                    Thread.ofPlatform().daemon().name("shmem4j-launcher-reader").stackSize(256 << 10)
                            .start(() -> b.readLoop(in));
                    return b;
                } else if (answer instanceof Wire.Abort a) { // rejected, or the job is ending: as a later ABORT
                    b.abort(a.reason(), a.graceMs()); // halts the process
                } else if (answer != null) {
                    throw new Wire.ProtocolException("unexpected " + answer.getClass().getSimpleName() + " from the launcher");
                }
                socket.close(); // closed before an answer: shed in a flood of handshakes, never part of the job
            } catch (SocketTimeoutException | Wire.ProtocolException e) {
                closeQuietly(socket, e);
                throw unreachable(rendezvous, e);
            } catch (IOException e) {
                closeQuietly(socket, e); // reset during the handshake: as a close
            }
            if (deadline - System.nanoTime() <= 0) {
                throw new ShmemException("shmem4j: PE " + rank + " was not admitted by the launcher's rendezvous at "
                        + rendezvous + " (" + LaunchEnv.RENDEZVOUS + ") within " + patienceS + " s: it closed all "
                        + attempt + " connections before answering the HELLO");
            }
            pauseBeforeRetry(attempt);
        }
    }

    private static ShmemException unreachable(String rendezvous, IOException e) {
        return new ShmemException("shmem4j: cannot reach the launcher's rendezvous at " + rendezvous
                + " (" + LaunchEnv.RENDEZVOUS + "): " + e.getMessage(), e);
    }

    /**
     * The launcher's first frame after the HELLO (WELCOME or ABORT), null if it closed the
     * connection first; waits until {@code deadline} at most (then {@link SocketTimeoutException}).
     */
    private static Wire.Message awaitAnswer(Socket socket, DataInputStream in, long deadline) throws IOException {
        long leftMs = (deadline - System.nanoTime()) / 1_000_000;
        if (leftMs <= 0) {
            throw new SocketTimeoutException("no answer to its HELLO in time");
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMs));
        Wire.Message m = Wire.read(in);
        socket.setSoTimeout(0);
        return m;
    }

    /** A short, growing, jittered pause (10 ms to about 0.3 s) before connecting again. */
    private static void pauseBeforeRetry(int attempt) {
        long ms = Math.min(200, 10L << Math.min(attempt, 5));
        try {
            Thread.sleep(ms + java.util.concurrent.ThreadLocalRandom.current().nextLong(ms / 2 + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShmemException("shmem4j: interrupted while connecting to the launcher", e);
        }
    }

    private static void closeQuietly(Socket socket, Exception cause) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }

    /**
     * A socket connected to {@code address}, trying again after each {@link #CONNECT_TIMEOUT_MS}
     * without an answer until {@code deadline} ({@code System.nanoTime()}; the job's
     * {@code SHMEM_BOOTSTRAP_TIMEOUT_S}, within which oshrun waits for its PEs anyway). A
     * launcher whose PEs all start at once can have a full accept queue, which drops a
     * connection's first packets rather than refusing it: 128 JVMs started on 2 cores left one PE
     * unanswered for 10 s, which failed the job. A refusal (nobody listens) fails at once.
     */
    private static Socket connectWithin(InetSocketAddress address, long deadline) throws IOException {
        while (true) {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true); // frames are small and latency-bound
                long leftMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                socket.connect(address, (int) Math.min(CONNECT_TIMEOUT_MS, leftMs));
                return socket;
            } catch (SocketTimeoutException e) {
                socket.close();
                if (deadline - System.nanoTime() <= 0) {
                    throw e;
                }
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        synchronized (gatherLock) { // calls are matched in order, so one at a time
            failIfAborted();
            long seq = nextSeq++;
            var result = new CompletableFuture<byte[][]>();
            pending = result;
            try {
                send(new Wire.AllGather(seq, mine.clone()));
                failIfAborted(); // an abort that raced with publishing `pending`
                byte[][] blobs = result.get(); // blocks; the reader thread completes it
                if (blobs.length != size()) {
                    throw new ShmemException("shmem4j: the launcher returned " + blobs.length
                            + " all-gather blobs for a job of " + size() + " PEs");
                }
                return blobs;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof ShmemException se ? se
                        : new ShmemException("shmem4j: all-gather " + seq + " failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ShmemException("shmem4j: interrupted in the bootstrap all-gather " + seq, e);
            } finally {
                pending = null;
            }
        }
    }

    /**
     * Sends the value to the launcher, which keeps it under {@code key} and this PE's all-gather
     * count (equal on every PE at the same point of init); each lookup is one round trip to the
     * launcher, answered once the peer has published.
     */
    @Override
    public Directory publish(String key, byte[] mine) {
        String name;
        synchronized (gatherLock) { // the count must not move while it names the value
            failIfAborted();
            name = key + "@" + nextSeq;
            send(new Wire.Publish(name, mine.clone()));
        }
        return pe -> lookup(pe, name);
    }

    private byte[] lookup(int pe, String name) {
        failIfAborted();
        long id = nextLookup.getAndIncrement();
        var answer = new CompletableFuture<byte[]>();
        lookups.put(id, answer);
        try {
            send(new Wire.Lookup(id, pe, name));
            failIfAborted(); // an abort that raced with registering the lookup
            return answer.get(); // the reader thread completes it
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ShmemException se ? se
                    : new ShmemException("shmem4j: looking up PE " + pe + "'s " + name + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShmemException("shmem4j: interrupted looking up PE " + pe + "'s " + name, e);
        } finally {
            lookups.remove(id);
        }
    }

    @Override
    public void finalized() {
        send(new Wire.Finalized());
    }

    @Override
    public void globalExit(int status) {
        try {
            send(new Wire.GlobalExit(status));
        } catch (ShmemException e) {
            System.err.println(e.getMessage()); // exit anyway: that is what the caller asked for
        }
        exitProcess(status);
    }

    @Override
    public boolean initFailed(String reason) {
        try {
            send(new Wire.InitFailed(reason));
            return true;
        } catch (ShmemException e) {
            return false; // no launcher to tell: the PE reports it itself
        }
    }

    @Override
    public void peerLost(int pe, String reason) {
        synchronized (lostPeers) {
            if (lostPeers.get(pe)) {
                return;
            }
            lostPeers.set(pe);
        }
        try {
            send(new Wire.PeerLost(pe, reason));
        } catch (ShmemException e) {
            // the connection to oshrun is gone too: the job is ending anyway
        }
    }

    @Override
    public String abortReason() {
        return abortReason;
    }

    /**
     * Does nothing: the connection belongs to the process, not to one initialisation (see the class
     * comment); it closes when the process ends.
     */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return "LauncherBootstrap[rank " + rank() + " of " + size() + ", job " + jobId() + ", host " + hostId() + ", node " + nodeId()
                + ", rendezvous " + rendezvous + "]";
    }

    private void failIfAborted() {
        String reason = abortReason;
        if (reason != null) {
            throw new JobAborted("shmem4j: the job is being torn down: " + reason);
        }
    }

    private void send(Wire.Message m) {
        try {
            synchronized (out) {
                Wire.write(out, m);
            }
        } catch (IOException e) {
            throw new ShmemException("shmem4j: PE " + rank() + " lost its connection to the launcher (oshrun) at "
                    + rendezvous + ": " + e.getMessage(), e);
        }
    }

    private void readLoop(DataInputStream in) {
        String lost;
        try {
            while (true) {
                Wire.Message m = Wire.read(in);
                // instanceof, not a type switch: see Wire.Message
                if (m == null) {
                    throw new java.io.EOFException("connection closed");
                } else if (m instanceof Wire.AllGatherResult r) {
                    var p = pending;
                    if (p != null) {
                        p.complete(r.blobs());
                    }
                } else if (m instanceof Wire.LookupResult r) {
                    var answer = lookups.get(r.id());
                    if (answer != null) {
                        answer.complete(r.blob());
                    }
                } else if (m instanceof Wire.Ping) {
                    synchronized (out) { // answered by this thread at once: the launcher's heartbeat
                        out.write(PONG);
                        out.flush();
                    }
                } else if (m instanceof Wire.Abort a) {
                    abort(a.reason(), a.graceMs());
                    return;
                } else {
                    throw new Wire.ProtocolException("unexpected " + m.getClass().getSimpleName() + " from the launcher");
                }
            }
        } catch (IOException e) {
            lost = e.getMessage();
        }
        if (abortReason != null) {
            Runtime.getRuntime().halt(1); // already being torn down; stay quiet
        }
        System.err.println("shmem4j: lost the launcher (oshrun) at " + rendezvous + " (PE " + rank() + ": " + lost
                + "), exiting");
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    /**
     * Waits up to {@code ms} for the program's main to end, returning at once if it already has
     * or this PE was not started through PeMain (then it sleeps briefly instead): an aborted PE
     * gives its program this long to report. The exception that fails a PE unwinds through
     * {@code close()} first, and the finalize there lets the peers fail too, so without the wait
     * the launcher's abort would often halt the failing PE before it printed its own exception.
     */
    private static void awaitProgramEnd(long ms) throws InterruptedException {
        Thread program = programThread;
        if (ms <= 0) {
            return; // (join(0) would wait for ever)
        } else if (program == null) {
            Thread.sleep(Math.min(ms, 200));
        } else if (program != Thread.currentThread()) {
            program.join(ms);
        }
    }

    private void abort(String reason, long graceMs) {
        abortReason = reason;
        var p = pending;
        if (p != null) {
            p.completeExceptionally(new JobAborted("shmem4j: the job is being torn down: " + reason));
        }
        lookups.values().forEach(l -> l.completeExceptionally(new JobAborted("shmem4j: the job is being torn down: " + reason)));
        // Nothing printed here: oshrun said why it ends the job, once; a line per PE repeated it N times.
        try {
            awaitProgramEnd(graceMs); // PEs waiting in the library fail at once; a failing PE reports
        } catch (InterruptedException ignored) {
            // halting anyway
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }
}
