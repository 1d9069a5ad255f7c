package org.shmem4j.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.shmem4j.bootstrap.PeRanges;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.bootstrap.launcher.LauncherBootstrap;
import org.shmem4j.bootstrap.launcher.Wire;

/**
 * The launcher's view of one job: per-PE state, the all-gather exchange, and the containment
 * policy that decides when the job ends and with which status. Events arrive from the rendezvous
 * connection threads, process-exit callbacks and timers; every decision is made under the job's
 * monitor, while network sends and kills happen outside it.
 */
final class Job {
    /**
     * Delay between the end of an abort's grace and SIGTERM: an aborted PE ends by itself once its
     * program has reported (a PE waiting in the library fails at once), within its grace.
     */
    static final long GRACE_TO_TERM_MS = 200;
    /**
     * The grace of an abort for a lost host: no PE that can still report caused it, and a PE's
     * program may be held in a native call toward the lost host (a UCX connection to it), which
     * only the halt ends; 100 ms lets output under way finish.
     */
    static final int HOST_LOST_GRACE_MS = 100;
    /** Delay between SIGTERM and SIGKILL. */
    static final long TERM_TO_KILL_MS = 300;
    /** How long a PE that called global exit gets to finish its own exit. */
    static final long GLOBAL_EXIT_GRACE_MS = 1500;
    /** How long a dead PE's connection may stay open (or an open PE its dropped connection). */
    private static final long LINGER_MS = 500;

    enum State { NOT_CONNECTED, ACTIVE, FINALIZED }

    /** One PE as the launcher tracks it. */
    private final class Pe {
        final int rank;
        Process process;
        String host; // where it runs, when not on this machine (from the starter, else its HELLO)
        long reportedPid = -1; // its pid on its host, from its HELLO
        State state = State.NOT_CONNECTED;
        boolean everConnected;
        Rendezvous.Connection conn; // null before HELLO and after the connection ended
        long nextSeq;
        Integer exitStatus; // null while running
        boolean exitJudged;
        long disconnectedAt = Long.MAX_VALUE; // System.nanoTime() when its connection ended

        Pe(int rank) {
            this.rank = rank;
        }

        long pid() {
            return reportedPid >= 0 ? reportedPid : process == null ? -1 : process.pid();
        }

        String who() {
            if (remoteStarts && reportedPid < 0) { // known only as a task of the srun step
                return "PE " + rank + " (of the srun step, pid " + pid() + ", before it connected)";
            }
            return "PE " + rank + " (pid " + pid() + (host == null ? "" : " on host " + host) + ")";
        }
    }

    private final int n;
    private final String jobId;
    private final Path shmDir;
    private final PrintStream log;
    private final ScheduledExecutorService timer;
    private final Pe[] pes;
    private final boolean remoteStarts;
    private final CompletableFuture<Integer> outcome = new CompletableFuture<>();

    // Guarded by this.
    private boolean ending;
    private int connectedEver;
    private boolean bootstrapTimerPending;
    private long gatherSeq = -1;
    private byte[][] gatherBlobs;
    private int gatherCount;
    private boolean shmCleaned;
    /** What the job's bootstrap exchange moved, for {@code SHMEM_INFO}. */
    private final ExchangeTally tally = new ExchangeTally();
    /** Values published for lookup, by key, indexed by rank; lookups waiting for one, by key#peer. Guarded by this. */
    private final Map<String, byte[][]> published = new HashMap<>();
    private final Map<String, List<Waiting>> waitingLookups = new HashMap<>();
    /** When a frame of each PE last arrived ({@link System#nanoTime}; {@link Long#MIN_VALUE}: never). */
    private final java.util.concurrent.atomic.AtomicLongArray heardAt;
    /** Hosts found gone by the heartbeat: no clean-up is attempted there. Guarded by this. */
    private final java.util.Set<String> lostHosts = new java.util.TreeSet<>();

    Job(int n, String jobId, Path shmDir, PrintStream log, ScheduledExecutorService timer) {
        this(n, jobId, shmDir, log, timer, false);
    }

    /** With {@code remoteStarts}, PEs placed by someone else (srun) are named by the host they report. */
    Job(int n, String jobId, Path shmDir, PrintStream log, ScheduledExecutorService timer, boolean remoteStarts) {
        this.remoteStarts = remoteStarts;
        this.n = n;
        this.jobId = jobId;
        this.shmDir = shmDir;
        this.log = log;
        this.timer = timer;
        this.pes = new Pe[n];
        this.heardAt = new java.util.concurrent.atomic.AtomicLongArray(n);
        for (int i = 0; i < n; i++) {
            pes[i] = new Pe(i);
            heardAt.set(i, Long.MIN_VALUE);
        }
    }

    int size() {
        return n;
    }

    /** Completes with the launcher's exit status once the job has ended (normally or not). */
    CompletableFuture<Integer> outcome() {
        return outcome;
    }

    /**
     * Registers the started process of {@code rank} (a local PE, or the process standing for a
     * remote one) running on {@code host} (null: this machine, or not known yet); its exit is
     * judged when it happens. A PE that started while the job was already ending is terminated at
     * once.
     */
    void started(int rank, Process p, String host) {
        boolean late;
        synchronized (this) {
            pes[rank].process = p;
            pes[rank].host = host;
            late = ending;
        }
        p.onExit().thenAccept(done -> exited(p, done.exitValue()));
        if (late) {
            terminate(p.toHandle());
        }
    }

    /** True once the job is ending: no more PEs should be started. */
    synchronized boolean isEnding() {
        return ending;
    }

    /** Every started process (for waiting on their exits). */
    synchronized List<Process> processes() {
        var out = new ArrayList<Process>(n);
        for (Pe pe : pes) {
            if (pe.process != null) {
                out.add(pe.process);
            }
        }
        return out;
    }

    // ---- rendezvous events ----------------------------------------------------------------

    /**
     * A PE sent a valid HELLO with its {@code pid} and {@code host} name; returns why it is
     * rejected, or null when it is accepted.
     */
    synchronized String accept(int rank, long pid, String host, Rendezvous.Connection c) {
        if (ending) {
            return "the job is ending";
        }
        if (rank < 0 || rank >= n) {
            return "rank " + rank + " is outside 0.." + (n - 1);
        }
        Pe pe = pes[rank];
        if (pe.everConnected) {
            return "rank " + rank + " has already connected";
        }
        pe.everConnected = true;
        pe.conn = c;
        pe.reportedPid = pid;
        if (pe.host == null && remoteStarts && !host.isEmpty()) {
            pe.host = host; // a PE placed by srun: named as it names itself
        }
        pe.state = State.ACTIVE;
        if (connectedEver++ == 0 && bootstrapTimerPending) {
            bootstrapTimerPending = false;
            armBootstrapTimer(Oshrun.bootstrapTimeoutSeconds());
        }
        return null;
    }

    void allGather(int rank, long seq, byte[] blob) {
        Wire.AllGatherResult result = null;
        List<Rendezvous.Connection> to = new ArrayList<>(n);
        synchronized (this) {
            if (ending) {
                return;
            }
            Pe pe = pes[rank];
            pe.state = State.ACTIVE; // an all-gather after finalize starts a new initialisation
            if (seq != pe.nextSeq || (gatherCount > 0 && seq != gatherSeq)) {
                protocolError(pe, "sent all-gather number " + seq + " while " + (gatherCount > 0 ? gatherSeq : pe.nextSeq)
                        + " was due");
                return;
            }
            pe.nextSeq++;
            if (gatherCount == 0) {
                gatherSeq = seq;
                gatherBlobs = new byte[n][];
            }
            gatherBlobs[rank] = blob;
            tally.received(seq, blob.length);
            if (++gatherCount == n) {
                result = new Wire.AllGatherResult(seq, gatherBlobs);
                gatherBlobs = null;
                gatherCount = 0;
                for (Pe p : pes) {
                    to.add(p.conn);
                }
            } else {
                checkStuckGather();
            }
        }
        if (result != null) {
            byte[] frame;
            try {
                frame = Wire.encode(result);
            } catch (Wire.ProtocolException e) {
                end(1, "oshrun: " + e.getMessage() + "; ending the job", -1);
                return;
            }
            tally.sent(result.seq(), n, frame.length);
            for (var c : to) {
                if (c != null) {
                    c.sendFrame(frame); // a failed send shows up as that PE's disconnect/exit
                }
            }
        }
    }

    /** What the bootstrap exchange moved so far (see {@link ExchangeTally#report}). */
    ExchangeTally tally() {
        return tally;
    }

    /** A lookup waiting for its peer's value: who asked, and the answer's id. */
    private record Waiting(int rank, long id) {}

    /**
     * PE {@code rank} published {@code blob} under {@code key} (its init's point, so the values of
     * an earlier init are not overwritten): kept for the other PEs' lookups, answering those that
     * wait for it. The values stay until the job ends (a few hundred bytes per PE and init).
     */
    void publish(int rank, String key, byte[] blob) {
        var answers = new ArrayList<Map.Entry<Rendezvous.Connection, byte[]>>();
        synchronized (this) {
            if (ending) {
                return;
            }
            published.computeIfAbsent(key, k -> new byte[n][])[rank] = blob;
            tally.published(blob.length);
            List<Waiting> waiting = waitingLookups.remove(key + "#" + rank);
            if (waiting != null) {
                for (Waiting w : waiting) {
                    answers.add(answer(w.rank(), w.id(), blob));
                }
            }
        }
        answers.forEach(a -> send(a.getKey(), a.getValue()));
    }

    /** PE {@code rank} asks for the value {@code peer} published under {@code key}: answered now, or once published. */
    void lookup(int rank, long id, int peer, String key) {
        Map.Entry<Rendezvous.Connection, byte[]> answer;
        synchronized (this) {
            if (ending) {
                return;
            }
            if (peer < 0 || peer >= n) {
                protocolError(pes[rank], "looked up PE " + peer);
                return;
            }
            byte[][] values = published.get(key);
            byte[] value = values == null ? null : values[peer];
            if (value == null) {
                waitingLookups.computeIfAbsent(key + "#" + peer, k -> new ArrayList<>()).add(new Waiting(rank, id));
                return;
            }
            answer = answer(rank, id, value);
        }
        send(answer.getKey(), answer.getValue());
    }

    /** The frame answering lookup {@code id} of {@code rank}, and its connection. Caller holds the monitor. */
    private Map.Entry<Rendezvous.Connection, byte[]> answer(int rank, long id, byte[] value) {
        try {
            byte[] frame = Wire.encode(new Wire.LookupResult(id, value));
            tally.answered(frame.length);
            return new java.util.AbstractMap.SimpleEntry<>(pes[rank].conn, frame);
        } catch (Wire.ProtocolException e) {
            throw new IllegalStateException("a published value that fit a frame fits its answer", e);
        }
    }

    private static void send(Rendezvous.Connection c, byte[] frame) {
        if (c != null) {
            c.sendFrame(frame); // a failed send shows up as that PE's disconnect/exit
        }
    }

    synchronized void finalized(int rank) {
        Pe pe = pes[rank];
        if (pe.state == State.ACTIVE) {
            pe.state = State.FINALIZED;
        }
    }

    void globalExit(int rank, int status) {
        Pe caller;
        synchronized (this) {
            caller = pes[rank];
        }
        end(status, "oshrun: " + caller.who() + " called shmem_global_exit(" + status + "); ending the job", rank);
        Process p = caller.process;
        if (p != null) {
            timer.schedule(() -> terminate(p.toHandle()), GLOBAL_EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * PE {@code rank}'s network transport lost {@code peer} and the PE is about to fail because of
     * it: the job ends naming the peer (whose host may be gone), not the PE that noticed first.
     */
    void peerLost(int rank, int peer, String reason) {
        String msg;
        synchronized (this) {
            if (peer < 0 || peer >= n || peer == rank) {
                protocolError(pes[rank], "reported losing PE " + peer);
                return;
            }
            Pe lost = pes[peer];
            String known = lost.exitStatus != null ? " (it had exited with status " + lost.exitStatus + ")"
                    : lost.state == State.FINALIZED ? " (it had finalized)" : "";
            msg = "oshrun: " + lost.who() + " cannot be reached from " + pes[rank].who() + known + ": " + reason
                    + "; ending the job";
        }
        end(1, msg, -1);
    }

    /**
     * PE {@code rank}'s shmem_init failed with {@code reason}: the job ends with that one line. A
     * configuration error fails every PE alike (and a PE whose peer failed may relay the peer's
     * reason), so only the first report is printed; the PEs print nothing themselves.
     */
    void initFailed(int rank, String reason) {
        String msg;
        synchronized (this) {
            msg = "oshrun: the job could not initialize (" + pes[rank].who() + " said first): " + reason + "; ending the job";
        }
        end(1, msg, -1);
    }

    /** The connection of {@code rank} ended (EOF, error, or protocol violation). */
    void disconnected(int rank) {
        synchronized (this) {
            Pe pe = pes[rank];
            pe.conn = null;
            pe.disconnectedAt = System.nanoTime();
            if (pe.exitStatus != null) {
                judgeExit(pe); // its last frames have been read now
                return;
            }
            if (ending) {
                return;
            }
            checkStuckGather();
            if (pe.state == State.FINALIZED) {
                return; // normal: the PE is on its way out
            }
        }
        // Usually the process exit follows at once and reports the status; if not, the PE lives
        // on without a connection and can never take part in the job again.
        timer.schedule(() -> {
            synchronized (this) {
                Pe pe = pes[rank];
                if (ending || pe.exitStatus != null || pe.state == State.FINALIZED) {
                    return;
                }
            }
            end(1, "oshrun: " + pes[rank].who() + " closed its connection to oshrun before finalizing; ending the job", -1);
        }, LINGER_MS, TimeUnit.MILLISECONDS);
    }

    // ---- heartbeat ------------------------------------------------------------------------

    /** A frame of {@code rank} arrived: it, and its host, are alive. */
    void heard(int rank) {
        heardAt.set(rank, System.nanoTime());
    }

    /** When a frame of {@code rank} last arrived ({@link System#nanoTime}), {@link Long#MIN_VALUE} if never. */
    long heardAt(int rank) {
        return heardAt.get(rank);
    }

    /** A PE the heartbeat watches: connected, initialized, running, on {@code host}. */
    record Live(int rank, Rendezvous.Connection conn, String host, String who) {}

    /** PE {@code rank} if the heartbeat should hear from it (connected, not finalized, not exited, host known), else null. */
    synchronized Live live(int rank) {
        Pe pe = pes[rank];
        if (ending || pe.conn == null || pe.state != State.ACTIVE || pe.exitStatus != null || pe.host == null) {
            return null;
        }
        return new Live(rank, pe.conn, pe.host, pe.who());
    }

    /**
     * The heartbeat heard nothing from {@code host} (its PEs {@code ranks}): the job ends with
     * {@code message}, and the processes standing for those PEs (ssh clients) are terminated at
     * once, without the grace for an ABORT they cannot receive.
     */
    void hostLost(String host, List<Integer> ranks, String message) {
        var standIns = new ArrayList<Process>();
        synchronized (this) {
            if (ending) {
                return;
            }
            lostHosts.add(host);
            for (int rank : ranks) {
                Process p = pes[rank].process;
                if (p != null && !remoteStarts) { // under srun one process stands for every PE
                    standIns.add(p);
                }
            }
        }
        end(1, message, -1, HOST_LOST_GRACE_MS);
        standIns.forEach(p -> terminate(p.toHandle()));
    }

    /**
     * A remote PE's start found that the job's PEs cannot fit its host ({@link NodeCapacity#shellGuard}):
     * {@code line} says why, once for the job; every PE then ends before its JVM started.
     */
    void refusedByHost(String line) {
        end(Oshrun.CONFIGURATION_ERROR, line, -1);
    }

    /** Whether {@code pe} ended as a start its host refused. Caller holds the monitor. */
    private boolean refusedByItsHost(Pe pe) {
        return pe.state == State.NOT_CONNECTED && pe.exitStatus != null && pe.exitStatus == NodeCapacity.REFUSED
                && pe.host != null && !remoteStarts;
    }

    /** The hosts the heartbeat found gone. */
    synchronized java.util.Set<String> lostHosts() {
        return java.util.Set.copyOf(lostHosts);
    }

    /** The PE violated the protocol: the job cannot continue. Caller holds the monitor. */
    private void protocolError(Pe pe, String what) {
        end(1, "oshrun: " + pe.who() + " " + what + " (protocol error); ending the job", -1);
    }

    // ---- process events -------------------------------------------------------------------

    /**
     * A process ended: every PE it stands for (one, or all of an srun step's) has exited with its
     * status. They are judged in the order their connections ended, so that when one step stands
     * for every PE, the PE that failed first is named, not the lowest rank Slurm then killed.
     * (Each PE registered the callback; the first run takes them all, later ones find none.)
     */
    private void exited(Process p, int status) {
        List<Pe> its;
        synchronized (this) {
            its = Arrays.stream(pes).filter(pe -> pe.process == p && pe.exitStatus == null)
                    .sorted(Comparator.comparingLong((Pe pe) -> pe.disconnectedAt).thenComparingInt(pe -> pe.rank))
                    .toList();
            its.forEach(pe -> pe.exitStatus = status);
        }
        for (Pe pe : its) {
            synchronized (this) {
                if (pe.conn == null && !refusedByItsHost(pe)) { // (whose line may still be in its pipe)
                    judgeExit(pe);
                    continue;
                }
            }
            // Frames the PE sent just before exiting (FINALIZED, GLOBAL_EXIT) may still be unread;
            // the connection's EOF triggers the judgement, this timer bounds the wait for it.
            timer.schedule(() -> {
                synchronized (this) {
                    judgeExit(pe);
                }
            }, LINGER_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Decides what the exit of {@code pe} means for the job. Caller holds the monitor. */
    private void judgeExit(Pe pe) {
        if (pe.exitJudged) {
            return;
        }
        pe.exitJudged = true;
        int status = pe.exitStatus;
        if (!ending) {
            boolean normal = pe.state == State.FINALIZED || (pe.state == State.NOT_CONNECTED && status == 0);
            if (refusedByItsHost(pe)) { // the host's line, if it came, ended the job already (refusedByHost)
                end(Oshrun.CONFIGURATION_ERROR, "oshrun: " + pe.who() + " was refused by its host: the job's PEs cannot fit it; ending the job", -1);
                return;
            }
            if (!normal) {
                String msg = "oshrun: " + pe.who() + " " + describeExit(status) + remoteHint(pe, status)
                        + " before finalizing; ending the job" + finalizeHint(pe, status);
                end(status == 0 ? 1 : status, msg, -1);
                return;
            }
            if (status != 0) {
                // As mpirun does: a PE's failure ends the job even after it finalized. Its peers
                // may still be running, or waiting for something it will never do (a PE whose
                // exception unwound through try-with-resources finalized on its way out).
                end(status, "oshrun: " + pe.who() + " " + describeExit(status) + " after finalizing; ending the job", -1);
                return;
            }
            checkStuckGather();
        }
        for (Pe p : pes) {
            if (p.process == null || !p.exitJudged) {
                return;
            }
        }
        if (!ending) {
            ending = true;
            outcome.complete(0);
        }
    }

    /**
     * Ends the job when an all-gather is waiting for a PE that can never take part (it exited, or
     * lost its connection, after finalizing or without ever connecting). Caller holds the monitor.
     */
    private void checkStuckGather() {
        if (gatherCount == 0 || ending) {
            return;
        }
        for (Pe pe : pes) {
            boolean gone = pe.exitStatus != null || (pe.everConnected && pe.conn == null);
            if (gone && gatherBlobs[pe.rank] == null) {
                var waiting = new ArrayList<Integer>();
                for (Pe w : pes) {
                    if (gatherBlobs[w.rank] != null) {
                        waiting.add(w.rank);
                    }
                }
                String msg = "oshrun: " + pe.who() + (pe.exitStatus != null ? " exited" : " disconnected")
                        + (pe.everConnected ? " after finalizing" : " without calling shmem_init")
                        + " while " + PeRanges.of(waiting) + (waiting.size() == 1 ? " waits" : " wait") + " for it in a collective bootstrap exchange; ending the job";
                end(1, msg, -1);
                return;
            }
        }
    }

    // ---- timers ---------------------------------------------------------------------------

    /** Ends the job if some PEs have not connected {@code seconds} after the first one did. */
    synchronized void armBootstrapTimer(long seconds) {
        timer.schedule(() -> {
            String msg;
            synchronized (this) {
                if (ending) {
                    return;
                }
                if (connectedEver == 0) {
                    bootstrapTimerPending = true; // the program may not use SHMEM at all; wait for a first PE
                    return;
                }
                var missing = new ArrayList<Integer>();
                for (Pe pe : pes) {
                    if (!pe.everConnected && pe.exitStatus == null) {
                        missing.add(pe.rank);
                    }
                }
                if (missing.isEmpty()) {
                    return;
                }
                msg = "oshrun: " + PeRanges.of(missing) + " did not reach the rendezvous (shmem_init) within " + seconds
                        + " s (" + LaunchEnv.BOOTSTRAP_TIMEOUT_S + "); ending the job";
            }
            end(1, msg, -1);
        }, seconds, TimeUnit.SECONDS);
    }

    // ---- ending ---------------------------------------------------------------------------

    /**
     * Ends the job with {@code status}: prints {@code message}, sends ABORT to every connected PE
     * but {@code spareRank}, then terminates them (SIGTERM, SIGKILL {@value #TERM_TO_KILL_MS} ms
     * later, descendants included). Only the first call has an effect. May be called with the
     * monitor held (monitors are reentrant; the sends are small frames to PEs that always read).
     */
    void end(int status, String message, int spareRank) {
        end(status, message, spareRank, (int) LauncherBootstrap.ABORT_GRACE_MS);
    }

    /** {@link #end(int, String, int)}, giving the PEs' programs {@code graceMs} to end before they halt. */
    private void end(int status, String message, int spareRank, int graceMs) {
        var conns = new ArrayList<Rendezvous.Connection>();
        var procs = new java.util.LinkedHashSet<Process>(); // under Slurm one process stands for every PE
        synchronized (this) {
            if (ending) {
                return;
            }
            ending = true;
            for (Pe pe : pes) {
                if (pe.rank == spareRank) {
                    continue;
                }
                if (pe.conn != null) {
                    conns.add(pe.conn);
                }
                if (pe.process != null && pe.exitStatus == null) {
                    procs.add(pe.process);
                }
            }
        }
        if (message != null) {
            log.println(message);
            log.flush();
        }
        String reason = message == null ? "oshrun is ending the job"
                : message.replaceFirst("^oshrun: ", "oshrun is ending the job: ").replaceFirst("; ending the job$", "");
        byte[] abort;
        try {
            abort = Wire.encode(new Wire.Abort(graceMs, reason));
        } catch (Wire.ProtocolException e) {
            throw new AssertionError(e);
        }
        for (var c : conns) {
            c.sendFrame(abort);
        }
        if (!procs.isEmpty()) {
            timer.schedule(() -> procs.forEach(p -> terminate(p.toHandle())), graceMs + GRACE_TO_TERM_MS, TimeUnit.MILLISECONDS);
        }
        outcome.complete(status);
    }

    /** SIGTERM to {@code h} and its descendants now, SIGKILL to those alive after a moment. */
    void terminate(ProcessHandle h) {
        // Collect descendants first: once the parent dies they are no longer findable through it.
        var tree = new ArrayList<ProcessHandle>();
        h.descendants().forEach(tree::add);
        tree.add(h);
        tree.forEach(ProcessHandle::destroy);
        timer.schedule(() -> {
            h.descendants().forEach(ProcessHandle::destroyForcibly);
            tree.forEach(ProcessHandle::destroyForcibly);
        }, TERM_TO_KILL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Last resort at launcher shutdown (signal, or any exit path): SIGKILL whatever is still alive
     * of the job, descendants included, without waiting.
     */
    void killAllNow() {
        for (Process p : processes()) {
            if (p.isAlive()) { // an exited PE's pid may already belong to someone else
                p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    /** Deletes the job's leftover shared-memory files ({@code shmem4j-<jobId>-*}); idempotent. */
    synchronized int cleanShm() {
        if (shmCleaned) {
            return 0;
        }
        shmCleaned = true;
        int deleted = 0;
        String prefix = LaunchEnv.shmFilePrefix(jobId);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(shmDir, prefix + "*")) {
            for (Path p : ds) {
                try {
                    if (Files.deleteIfExists(p)) {
                        deleted++;
                    }
                } catch (IOException e) {
                    log.println("oshrun: cannot delete " + p + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            // no such directory: nothing to clean
        }
        return deleted;
    }

    /** What ssh's status 255 means for a PE started over ssh. */
    /**
     * For a PE that initialized and then exited (not killed) without finalizing: the program most
     * likely threw or returned past its {@code close()}.
     */
    private static String finalizeHint(Pe pe, int status) {
        boolean signalled = status > 128 && status < 128 + 65;
        return pe.everConnected && !signalled ? " (hint: initialize with try (Shmem shmem = Shmem.init()) { ... }: it"
                + " finalizes on every way out, exceptions included, so the peers fail at once naming this PE)" : "";
    }

    private String remoteHint(Pe pe, int status) {
        return pe.host != null && !remoteStarts && status == 255 ? " (ssh: the PE was killed by a signal, or the connection was lost)" : "";
    }

    /** "exited with status 3", or "was killed by signal 9 (SIGKILL)" for Java's 128+signal. */
    static String describeExit(int status) {
        if (status > 128 && status < 128 + 65) {
            int sig = status - 128;
            return "was killed by signal " + sig + " (" + signalName(sig) + ")";
        }
        return "exited with status " + status;
    }

    private static String signalName(int sig) {
        return switch (sig) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 5 -> "SIGTRAP";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 10 -> "SIGUSR1";
            case 11 -> "SIGSEGV";
            case 12 -> "SIGUSR2";
            case 13 -> "SIGPIPE";
            case 14 -> "SIGALRM";
            case 15 -> "SIGTERM";
            default -> "signal " + sig;
        };
    }
}
