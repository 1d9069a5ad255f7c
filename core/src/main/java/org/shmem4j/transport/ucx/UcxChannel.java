package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Batch;
import org.shmem4j.transport.Batches;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.MessageOrder;
import org.shmem4j.transport.Traffic;

/**
 * One context's path over UCX: a worker of its own, an endpoint to each peer's home worker made
 * on first use (a job of N PEs with C contexts would otherwise open N x C connections at
 * start-up, most never used) with the peer's key unpacked for it. Requests are completed by
 * polling ({@link Requests}), so the only upcalls are UCX's error handler and the
 * acknowledgements of {@link SignalMessages} (no downcall is critical, so no upcall can run
 * inside a critical section of the JVM). Put-with-signal of a small payload is one such message;
 * see {@link MessageOrder} for how it is ordered with the RMA and atomics around it.
 *
 * <p>Java heap memory cannot be the buffer of an operation that outlives the call (the GC moves
 * arrays), so heap sources and destinations go through native memory: a bounce buffer for
 * blocking operations, staging that lives until quiet for non-blocking ones. A lock makes the
 * channel safe for every mode and lets the PE's {@link ProgressAgent} progress its worker while
 * the context's threads are elsewhere; it is uncontended unless threads really share the context.
 */
final class UcxChannel implements Channel {
    private final UcxTransport transport;
    private final Ucx.Library ucx;
    private final MemorySegment worker;
    private final MemorySegment[] endpoints;
    private final MemorySegment[] rkeys;

    private final ReentrantLock lock = new ReentrantLock();
    /** Operations that took the lock, counted: the agent leaves the worker to them while it moves. */
    private long uses;
    private static final java.lang.invoke.VarHandle USES;

    static {
        try {
            USES = java.lang.invoke.MethodHandles.lookup().findVarHandle(UcxChannel.class, "uses", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private final Arena arena = Arena.ofShared();
    /** Request parameters for plain transfers (all defaults) and for atomics (datatype and reply buffer set). */
    private final MemorySegment plainParam, atomicParam, closeParam;
    /** Operand, compare/reply words of a blocking atomic; the word a set's unwanted old value lands in. */
    private final MemorySegment operand, reply, sink;
    private final PostedAtomics posted;
    private MemorySegment bounce;
    /** Non-blocking operations not yet known complete, and what quiet then hands over. */
    private final List<Pending> pending = new ArrayList<>();
    private final Staging staging;
    private boolean closed;
    /** This channel's number for {@link EndpointFailures}. */
    private final long id;
    private final Requests requests;
    /** The order of the channel's messages with its RMA, and what confirms them; {@link MessageRoute} does what it decides. */
    private final MessageOrder order;
    private final MessageRoute route;
    /** Whether non-fetching atomics and signal additions may travel in messages ({@link ChannelOptions#atomicsAsMessages}). */
    private final boolean atomicsAsMessages;
    /** The transport's count of what this PE sent. */
    private final Traffic traffic;
    /** A session's batches (made by the first session that batches), sent as {@link MessageRoute} messages. */
    private Batches<MemorySegment> batches;
    /** Batches whose gets' reply is awaited, by PE and message number: where the data goes, in order. */
    private final java.util.Map<Reply, List<MemorySegment>> gets = new java.util.HashMap<>();

    private record Reply(int pe, long number) {}

    /** An operation in flight (its request may be null when it completed at once) and its delivery at quiet. */
    private record Pending(int pe, MemorySegment request, Runnable atQuiet, String what) {}

    UcxChannel(UcxTransport transport, ChannelOptions options, int npes, UcxTransport.SenderIdentity as) {
        this.transport = transport;
        this.atomicsAsMessages = options.atomicsAsMessages();
        this.ucx = transport.ucx();
        // Serialized for every mode: the channel's lock serializes its users and the progress agent,
        // which must progress even a private context's worker (its sends may wait in the worker).
        this.worker = UcxTransport.createWorker(ucx, transport.context(), Ucx.THREAD_MODE_SERIALIZED);
        this.endpoints = new MemorySegment[npes];
        AtomicIntegerArray failures = new AtomicIntegerArray(npes);
        this.id = EndpointFailures.register(failures);
        this.requests = new Requests(ucx, worker, transport, failures);
        this.rkeys = new MemorySegment[npes];
        this.plainParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        this.atomicParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        this.closeParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        closeParam.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK, Ucx.OP_ATTR_FIELD_FLAGS);
        closeParam.set(JAVA_INT, Ucx.REQ_FLAGS, Ucx.EP_CLOSE_FLAG_FORCE);
        this.operand = arena.allocate(8, 8);
        this.reply = arena.allocate(8, 8);
        this.sink = arena.allocate(8, 8);
        this.posted = new PostedAtomics(ucx, requests, arena);
        this.staging = new Staging(arena);
        this.bounce = arena.allocate(4096, 64);
        this.order = new MessageOrder(as.sent(), options.messagePutLimit());
        this.traffic = transport.traffic();
        this.route = new MessageRoute(ucx, worker, arena, endpoints, requests, order, traffic, as.key(), this::replied);
        transport.agent().watch(worker, lock, () -> (long) USES.getOpaque(this));
    }

    // ------------------------------------------------------------------ endpoints

    private MemorySegment endpoint(int pe, String what) {
        if (pe < 0 || pe >= endpoints.length || !transport.reaches(pe)) {
            throw new ShmemException(what + ": PE " + pe + " is not reached by the UCX network engine");
        }
        int failure = requests.failure(pe);
        if (failure != Ucx.OK) {
            throw transport.peerLost(pe, what + ": PE " + pe + " is unreachable, its UCX endpoint failed: " + ucx.describe(failure));
        }
        MemorySegment ep = endpoints[pe];
        return ep != null ? ep : connect(pe);
    }

    /** The endpoint for an RMA or atomic operation: after a fence, the signal messages before it are applied first. */
    private MemorySegment rmaEndpoint(int pe, String what) throws Throwable {
        MemorySegment ep = endpoint(pe, what);
        route.orderBeforeRma(pe);
        return ep;
    }

    /** An operation to {@code pe} that is not batched: {@code pe}'s batch goes first, so the PE sees the channel's order. */
    private void unbatched(int pe) {
        if (batches != null && pe >= 0 && pe < endpoints.length) {
            batches.send(pe);
        }
    }

    /** Sends one message ({@link MessageRoute#send}), its heap data through the bounce buffer. */
    private void message(int pe, long offset, MemorySegment src, long signalOffset, long signal, long flags, String what)
            throws Throwable {
        MemorySegment ep = endpoint(pe, what);
        long bytes = src.byteSize();
        MemorySegment data = bytes == 0 ? MemorySegment.NULL : src.isNative() ? src : bounce(bytes).copyFrom(src);
        route.send(ep, pe, offset, data, signalOffset, signal, flags, what);
    }

    private MemorySegment connect(int pe) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Ucx.EP_PARAMS_SIZE, 8);
            params.set(JAVA_LONG, Ucx.EP_FIELD_MASK, Ucx.EP_PARAM_FIELD_REMOTE_ADDRESS | Ucx.EP_PARAM_FIELD_ERR_HANDLING_MODE
                    | Ucx.EP_PARAM_FIELD_ERR_HANDLER);
            params.set(ADDRESS, Ucx.EP_ADDRESS, transport.address(pe));
            // Peer failure mode: a dead peer fails the requests to it instead of hanging them, and a
            // forced close (see close()) is allowed. The handler notes the failure (without one
            // UCX logs an error each time a peer that finalized first goes away).
            params.set(JAVA_INT, Ucx.EP_ERR_MODE, Ucx.ERR_HANDLING_MODE_PEER);
            params.set(ADDRESS, Ucx.EP_ERR_HANDLER, EndpointFailures.HANDLER);
            params.set(ADDRESS, Ucx.EP_ERR_HANDLER_ARG, MemorySegment.ofAddress(EndpointFailures.key(id, pe)));
            MemorySegment epP = a.allocate(ADDRESS);
            int created = (int) ucx.epCreate.invokeExact(worker, params, epP);
            if (created != Ucx.OK) {
                throw requests.failed("ucp_ep_create", pe, created);
            }
            MemorySegment ep = epP.get(ADDRESS, 0);
            byte[] key = transport.rkey(pe);
            MemorySegment packed = a.allocate(key.length).copyFrom(MemorySegment.ofArray(key));
            MemorySegment rkeyP = a.allocate(ADDRESS);
            ucx.check((int) ucx.epRkeyUnpack.invokeExact(ep, packed, rkeyP), "ucp_ep_rkey_unpack for PE " + pe);
            rkeys[pe] = rkeyP.get(ADDRESS, 0);
            endpoints[pe] = ep;
            return ep;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("connecting to PE " + pe + " over UCX failed: " + t, t);
        }
    }

    /** How many messages this channel sent to {@code pe}: the tests see which route an operation took. */
    long messagesSent(int pe) {
        lock.lock();
        try {
            return order.sent(pe);
        } finally {
            lock.unlock();
        }
    }

    /** How many queries this channel sent, and how many of its messages asked for an answer (to any PE): the tests see when a quiet asked. */
    long[] queriesAndAnswersAsked() {
        lock.lock();
        try {
            return new long[] {order.queriesSent(), order.answersAsked()};
        } finally {
            lock.unlock();
        }
    }

    /** Bytes staged for non-blocking operations until the next quiet (tests: what a loop without quiet accumulates). */
    long stagedBytes() {
        lock.lock();
        try {
            return staging.used();
        } finally {
            lock.unlock();
        }
    }

    /** Whether answers to this channel's messages are still awaited. */
    boolean answersAwaited() {
        lock.lock();
        try {
            return order.answersDue();
        } finally {
            lock.unlock();
        }
    }

    /** The bounce buffer, grown to at least {@code bytes}. */
    private MemorySegment bounce(long bytes) {
        if (bounce.byteSize() < bytes) {
            bounce = arena.allocate(Math.max(bytes, bounce.byteSize() * 2), 64);
        }
        return bounce.asSlice(0, bytes);
    }

    private MemorySegment put(MemorySegment ep, int pe, long offset, MemorySegment src) throws Throwable {
        traffic.count(Traffic.Kind.PUTS, src.byteSize());
        return (MemorySegment) ucx.putNbx.invokeExact(ep, src, src.byteSize(), transport.base(pe) + offset, rkeys[pe], plainParam);
    }

    private MemorySegment get(MemorySegment ep, int pe, long offset, MemorySegment dst) throws Throwable {
        traffic.count(Traffic.Kind.GETS, dst.byteSize());
        return (MemorySegment) ucx.getNbx.invokeExact(ep, dst, dst.byteSize(), transport.base(pe) + offset, rkeys[pe], plainParam);
    }

    // ------------------------------------------------------------------ the contract

    /** A step of an operation: downcalls throw {@link Throwable}. */
    @FunctionalInterface
    private interface Step {
        long run() throws Throwable;
    }

    /**
     * Runs {@code step} under the channel's lock; a downcall's failure becomes a
     * {@link ShmemException} naming {@code what} and the peer (none when {@code pe} is negative).
     */
    private long locked(String what, int pe, Step step) {
        lock.lock();
        USES.setOpaque(this, uses + 1); // opaque: the agent sees it move, and it costs no fence
        try {
            if (closed) { // its worker, endpoints and memory are gone: a context destroyed meanwhile
                throw new IllegalStateException(what + ": the UCX channel is closed");
            }
            return step.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException(what + (pe < 0 ? "" : " with PE " + pe) + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        locked("put", pe, () -> {
            if (batches == null || !batches.put(pe, offset, src)) {
                unbatchedPut(pe, offset, src);
            }
            return 0;
        });
    }

    /** A blocking put that no session batch takes (the caller holds the lock). */
    private void unbatchedPut(int pe, long offset, MemorySegment src) throws Throwable {
        unbatched(pe);
        if (order.putAsMessage(pe, src.byteSize())) {
            message(pe, offset, src, 0, 0, SignalMessages.FLAG_DATA_ONLY, "put");
            return;
        }
        MemorySegment ep = rmaEndpoint(pe, "put");
        MemorySegment from = src.isNative() ? src : bounce(src.byteSize()).copyFrom(src);
        requests.await(put(ep, pe, offset, from), "put", pe); // local completion: src reusable
        order.rmaIssued(pe);
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        locked("put_nbi", pe, () -> {
            if (batches != null && batches.put(pe, offset, src)) {
                return 0;
            }
            unbatched(pe);
            if (order.putAsMessage(pe, src.byteSize())) {
                message(pe, offset, src, 0, 0, SignalMessages.FLAG_DATA_ONLY, "put_nbi");
                return 0;
            }
            MemorySegment ep = rmaEndpoint(pe, "put_nbi");
            MemorySegment from = src.isNative() ? src : staging.allocate(src.byteSize()).copyFrom(src);
            track(pe, requests.inFlight(put(ep, pe, offset, from), "put_nbi", pe), null, "put_nbi");
            order.rmaIssued(pe);
            return 0;
        });
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        locked("get", pe, () -> {
            unbatched(pe);
            MemorySegment ep = rmaEndpoint(pe, "get");
            MemorySegment into = dst.isNative() ? dst : bounce(dst.byteSize());
            requests.await(get(ep, pe, offset, into), "get", pe);
            if (into != dst) {
                dst.copyFrom(into);
            }
            return 0;
        });
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        locked("get_nbi", pe, () -> {
            if (batches != null && batches.get(pe, offset, dst)) {
                return 0;
            }
            unbatched(pe);
            MemorySegment ep = rmaEndpoint(pe, "get_nbi");
            MemorySegment into = dst.isNative() ? dst : staging.allocate(dst.byteSize());
            Runnable deliver = into == dst ? null : () -> dst.copyFrom(into);
            track(pe, requests.inFlight(get(ep, pe, offset, into), "get_nbi", pe), deliver, "get_nbi");
            return 0;
        });
    }

    private static int opcode(AtomicOp op) {
        return switch (op) {
            case ADD -> Ucx.ATOMIC_ADD;
            case AND -> Ucx.ATOMIC_AND;
            case OR -> Ucx.ATOMIC_OR;
            case XOR -> Ucx.ATOMIC_XOR;
            case SWAP -> Ucx.ATOMIC_SWAP;
            case COMPARE_SWAP -> Ucx.ATOMIC_CSWAP;
        };
    }

    private static void checkWord(int bytes) {
        if (bytes != 4 && bytes != 8) {
            throw new IllegalArgumentException("atomic operations are on 4- or 8-byte words, not " + bytes);
        }
    }

    private static void store(MemorySegment word, int bytes, long value) {
        if (bytes == 4) {
            word.set(JAVA_INT_UNALIGNED, 0, (int) value);
        } else {
            word.set(JAVA_LONG_UNALIGNED, 0, value);
        }
    }

    private static long load(MemorySegment word, int bytes) {
        return bytes == 4 ? word.get(JAVA_INT_UNALIGNED, 0) : word.get(JAVA_LONG_UNALIGNED, 0);
    }

    /**
     * Issues an AMO whose operand is in {@code buffer} and, when fetching, whose old value lands
     * in {@code result} (for compare-and-swap UCX takes the compare value in {@code buffer} and
     * the new value in {@code result}, and returns the old value there).
     */
    private MemorySegment atomic(String what, AtomicOp op, int bytes, int pe, long offset, MemorySegment buffer,
            MemorySegment result) throws Throwable {
        checkWord(bytes);
        MemorySegment ep = rmaEndpoint(pe, what);
        atomicParam.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK,
                Ucx.OP_ATTR_FIELD_DATATYPE | (result == null ? 0 : Ucx.OP_ATTR_FIELD_REPLY_BUFFER));
        atomicParam.set(JAVA_LONG, Ucx.REQ_DATATYPE, Ucx.contig(bytes));
        atomicParam.set(ADDRESS, Ucx.REQ_REPLY_BUFFER, result == null ? MemorySegment.NULL : result);
        traffic.count(Traffic.Kind.ATOMICS, bytes);
        return (MemorySegment) ucx.atomicOpNbx.invokeExact(ep, opcode(op), buffer, 1L, transport.base(pe) + offset, rkeys[pe],
                atomicParam);
    }

    @Override
    public long fetchingAtomic(AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        return locked("fetching atomic", pe, () -> {
            unbatched(pe);
            boolean cswap = op == AtomicOp.COMPARE_SWAP;
            store(this.operand, bytes, cswap ? compare : operand);
            store(reply, bytes, cswap ? operand : 0);
            requests.await(atomic("fetching atomic", op, bytes, pe, offset, this.operand, reply), "fetching atomic", pe);
            return load(reply, bytes);
        });
    }

    @Override
    public void fetchingAtomicNbi(MemorySegment result, AtomicOp op, int bytes, int pe, long offset, long operand,
            long compare) {
        locked("fetching atomic nbi", pe, () -> {
            unbatched(pe);
            boolean cswap = op == AtomicOp.COMPARE_SWAP;
            MemorySegment in = staging.allocate(8), out = staging.allocate(8);
            store(in, bytes, cswap ? compare : operand);
            store(out, bytes, cswap ? operand : 0);
            track(pe, requests.inFlight(atomic("fetching atomic nbi", op, bytes, pe, offset, in, out), "fetching atomic nbi", pe),
                    () -> result.asSlice(0, bytes).copyFrom(out.asSlice(0, bytes)), "fetching atomic nbi");
            order.rmaIssued(pe);
            return 0;
        });
    }

    /**
     * Issued and not awaited: delivery is quiet's business. UCX has no non-fetching swap (the
     * target aborts on one), so a set fetches into a sink word that nobody reads.
     */
    @Override
    public void atomic(AtomicOp op, int bytes, int pe, long offset, long operand) {
        if (op == AtomicOp.COMPARE_SWAP) {
            throw new IllegalArgumentException("atomic: a compare-and-swap always fetches (use fetchingAtomic)");
        }
        locked("atomic", pe, () -> {
            if (batches != null) { // the batch's handler applies them with CPU atomics: only where it may
                if (atomicsAsMessages && batches.atomic(pe, op, bytes, offset, operand)) {
                    return 0;
                }
                unbatched(pe);
            }
            MemorySegment slot = posted.take();
            store(slot, bytes, operand);
            posted.issued(pe, requests.inFlight(atomic("atomic", op, bytes, pe, offset, slot, op == AtomicOp.SWAP ? sink : null),
                    "atomic", pe));
            order.rmaIssued(pe);
            return 0;
        });
    }

    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        putSignal(false, pe, offset, src, signalOffset, signal, update);
    }

    @Override
    public void putSignalNbi(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        putSignal(true, pe, offset, src, signalOffset, signal, update);
    }

    /**
     * A small payload: one {@link SignalMessages message} with the data and the signal. A large one:
     * the data, a fence on the worker (later operations on an endpoint complete after earlier ones),
     * then the signal.
     */
    private void putSignal(boolean nbi, int pe, long offset, MemorySegment src, long signalOffset, long signal,
            AtomicOp update) {
        String what = nbi ? "put_signal_nbi" : "put_signal";
        boolean add = AtomicOp.checkSignal(what, update) == AtomicOp.ADD;
        // the message's handler adds with a CPU atomic: only where it may
        if (src.byteSize() <= SignalMessages.MAX_PAYLOAD && (!add || atomicsAsMessages)) {
            locked(what, pe, () -> {
                if (batches != null && batches.putSignal(pe, offset, src, signalOffset, signal, update)) {
                    return 0;
                }
                unbatched(pe);
                message(pe, offset, src, signalOffset, signal, add ? SignalMessages.FLAG_ADD : 0, what);
                return 0;
            });
            return;
        }
        lock.lock();
        try {
            if (nbi) {
                putNbi(pe, offset, src);
            } else {
                put(pe, offset, src);
            }
            fence();
            atomic(update, 8, pe, signalOffset, signal);
        } finally {
            lock.unlock();
        }
    }

    /**
     * One message, or for more data than a message holds, up to {@link SignalMessages#MAX_STREAMED}
     * and where puts may travel as messages, the data in messages of the raise's kind ahead of it
     * (the target applies them in order, so the raise waits for no round trip, and quiet no more for
     * them than for the raise); else a put, which the raise's message flushes first. See {@link MessageOrder} for its order with what
     * came before.
     */
    @Override
    public void putRaise(int pe, long offset, MemorySegment src, long flagOffset, long value) {
        locked("signal", pe, () -> {
            unbatched(pe);
            long bytes = src.byteSize(), piece = SignalMessages.MAX_PAYLOAD;
            long tail = 0; // where the raise's own message starts
            if (bytes > piece && bytes <= SignalMessages.MAX_STREAMED && order.putAsMessage(pe, piece)) {
                for (; bytes - tail > piece; tail += piece) {
                    message(pe, offset + tail, src.asSlice(tail, piece), 0, 0,
                            SignalMessages.FLAG_RAISE | SignalMessages.FLAG_DATA_ONLY, "signal");
                }
            } else if (bytes > piece) {
                unbatchedPut(pe, offset, src); // never into a batch, which the raise would overtake
                tail = bytes;
            }
            message(pe, offset + tail, src.asSlice(tail), flagOffset, value, SignalMessages.FLAG_RAISE, "signal");
            return 0;
        });
    }

    /** UCX's fence orders RMA and atomics among themselves; {@link MessageOrder} orders them with the messages. */
    @Override
    public void fence() {
        locked("fence", -1, () -> {
            ucx.check((int) ucx.workerFence.invokeExact(worker), "ucp_worker_fence");
            order.fence();
            if (batches != null) {
                batches.fence();
            }
            return 0;
        });
    }

    /** A batch's get reply: its data goes into the destinations, in order (inside this channel's worker progress). */
    private void replied(int pe, long number, MemorySegment data) {
        List<MemorySegment> into = gets.remove(new Reply(pe, number));
        if (into == null) {
            return; // not ours, or a repeat: UCX delivers each message once, so only a corrupt one
        }
        long at = 0;
        for (MemorySegment dst : into) {
            long bytes = Math.min(dst.byteSize(), Math.max(0, data.byteSize() - at));
            MemorySegment.copy(data, at, dst, 0, bytes);
            at += (dst.byteSize() + 7) & ~7L;
        }
    }

    /** Waits for the get replies of the batches sent to {@code pe} (every PE when negative); a PE gone fails it. */
    private void awaitGets(int pe) throws Throwable {
        for (int round = 0; gets.keySet().stream().anyMatch(r -> pe < 0 || r.pe() == pe); round++) {
            if ((int) ucx.workerProgress.invokeExact(worker) > 0) {
                continue;
            }
            for (Reply r : gets.keySet()) {
                if (requests.failure(r.pe()) != Ucx.OK) {
                    throw requests.lost(r.pe(), "the reply to batched gets outstanding");
                }
            }
            requests.idle(round);
        }
    }

    /** A session's batches travel as {@link MessageRoute} messages; their memory is the channel's. */
    @Override
    public void startBatching(Batches.Limits limits, long totalOps) {
        locked("shmem_ctx_session_start", -1, () -> {
            if (batches == null) {
                batches = new Batches<>(endpoints.length, limits, SignalMessages.HEADER_BYTES, bytes -> arena.allocate(bytes, 8),
                        new BatchSender());
            }
            batches.start(totalOps);
            transport.batching(this, true);
            return 0;
        });
    }

    @Override
    public Batches.Counts stopBatching() {
        lock.lock();
        try {
            if (batches == null || closed) {
                return Batches.Counts.NONE;
            }
            transport.batching(this, false);
            return batches.stop();
        } finally {
            lock.unlock();
        }
    }

    /** Sends the batches older than their delay, unless another thread holds the channel (it checks them itself). */
    boolean sendAgedBatches(long now) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return !closed && batches != null && batches.anyOpen() && batches.sendAged(now);
        } finally {
            lock.unlock();
        }
    }

    /** Sends batches as {@link MessageRoute} messages; a send completes when UCX is done with the batch's memory. */
    private final class BatchSender implements Batches.Engine<MemorySegment> {
        @Override
        public MemorySegment send(Batch batch) {
            try {
                int pe = batch.pe();
                MemorySegment request = route.sendBatch(endpoint(pe, "session batch"), batch);
                if (batch.replyBytes() > 0) {
                    gets.put(new Reply(pe, order.sent(pe)), List.copyOf(batch.destinations()));
                }
                return request;
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new ShmemException("sending a session batch to PE " + batch.pe() + " failed: " + t, t);
            }
        }

        @Override
        public boolean completed(MemorySegment request) {
            try {
                int status = (int) ucx.requestCheckStatus.invokeExact(request);
                if (status == Ucx.INPROGRESS) {
                    return false;
                }
                ucx.requestFree.invokeExact(request);
                if (status != Ucx.OK) {
                    throw requests.failed("session batch", -1, status);
                }
                return true;
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new ShmemException("session batch failed: " + t, t);
            }
        }

        @Override
        public void await(MemorySegment request) {
            requests.await(request, "session batch", -1);
        }
    }

    private void track(int pe, MemorySegment request, Runnable atQuiet, String what) {
        if (request != null || atQuiet != null) {
            pending.add(new Pending(pe, request, atQuiet, what));
        }
    }

    /** Remote completion of everything issued (a worker flush), then the staged results. */
    @Override
    public void quiet() {
        locked("quiet", -1, () -> {
            if (batches != null) {
                batches.sendAll();
            }
            requests.await((MemorySegment) ucx.workerFlushNbx.invokeExact(worker, plainParam), "quiet", -1);
            route.complete(-1);
            awaitGets(-1);
            finish(-1);
            return 0;
        });
    }

    /** Remote completion of what went to {@code pe} (an endpoint flush), then its staged results. */
    @Override
    public void quiet(int pe) {
        locked("pe_quiet", pe, () -> {
            unbatched(pe);
            MemorySegment ep = pe >= 0 && pe < endpoints.length ? endpoints[pe] : null;
            if (ep != null) { // else nothing was ever issued to it
                requests.await((MemorySegment) ucx.epFlushNbx.invokeExact(ep, plainParam), "pe_quiet", pe);
                route.complete(pe);
                awaitGets(pe);
                finish(pe);
            }
            return 0;
        });
    }

    /** A quiet, then confirmation of every message to {@code pes}, raises included (a PE applies them in the order sent). */
    @Override
    public void settle(int[] pes) {
        quiet();
        locked("settle", -1, () -> {
            route.completeAll(pes);
            return 0;
        });
    }

    /** After a flush: frees the requests of {@code pe}'s operations (all when negative) and delivers their results. */
    private void finish(int pe) {
        posted.completed(pe);
        if (batches != null) {
            batches.reclaim();
        }
        List<Pending> done = new ArrayList<>();
        pending.removeIf(p -> (pe < 0 || p.pe() == pe) && done.add(p));
        for (Pending p : done) {
            if (p.request() != null) {
                requests.await(p.request(), p.what(), p.pe());
            }
            if (p.atQuiet() != null) {
                p.atQuiet().run();
            }
        }
        if (pending.isEmpty()) {
            staging.reset();
        }
    }

    @Override
    public void parking() {
        transport.agent().waiterParking();
    }

    @Override
    public boolean progress() {
        int advanced = transport.progressHome(); // what peers do to this PE arrives there
        if (transport.sendAgedBatches()) { // a waiter may be waiting for an answer to its own batch
            advanced++;
        }
        if (lock.tryLock()) { // a thread inside an operation is progressing it already
            try {
                // Only replies to this channel's operations arrive at its worker: with none in
                // flight, a waiter's poll costs one worker's progress instead of two.
                if (!closed && (!pending.isEmpty() || posted.any() || order.awaitingAnswers() || !gets.isEmpty())) {
                    advanced += (int) ucx.workerProgress.invokeExact(worker);
                }
            } catch (Throwable t) {
                throw new ShmemException("ucp_worker_progress failed: " + t, t);
            } finally {
                lock.unlock();
            }
        }
        return advanced > 0;
    }

    /**
     * Completes everything (quiet), then closes the endpoints: forcibly, since a flush already
     * completed our operations and a peer that finalized first no longer answers a closing
     * handshake. Then the worker and the channel's memory go.
     */
    @Override
    public void close() {
        UcxTransport.SenderIdentity retired = null;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            boolean flushed = false;
            try {
                quiet();
                locked("closing the channel", -1, () -> {
                    route.completeAll();
                    return 0;
                });
                flushed = true;
                retired = route.retired();
            } finally {
                closed = true;
                release(flushed);
            }
        } finally {
            lock.unlock();
            EndpointFailures.unregister(id);
            route.stopListening();
            transport.batching(this, false);
            transport.forget(this, retired);
        }
    }

    /** A forced close: it needs nothing from the peer, and a failed endpoint is closed all the same. */
    private void closeEndpoint(int pe) throws Throwable {
        try {
            requests.await((MemorySegment) ucx.epCloseNbx.invokeExact(endpoints[pe], closeParam), "closing the endpoint", pe, false);
        } catch (ShmemException failedEndpoint) {
            // its failure was reported by the operation that met it
        }
    }

    /**
     * Closes the endpoints and destroys the worker. UCX wants a key destroyed after the operations
     * using it were flushed and before its endpoint goes: so when the flush failed (a peer is
     * gone), the forced close cancels those operations first and the key goes after it.
     */
    private void release(boolean flushed) {
        transport.agent().unwatch(worker, lock);
        try {
            posted.abandon(); // quiet completed them, unless a gone peer or the job's end made it fail
            if (!flushed) { // connections under way are set up (or fail) before they are closed: see flushWithin
                UcxTransport.flushWithin(ucx, worker);
            }
            for (int pe = 0; pe < endpoints.length; pe++) {
                if (endpoints[pe] != null) {
                    if (flushed) {
                        ucx.rkeyDestroy.invokeExact(rkeys[pe]);
                    }
                    closeEndpoint(pe);
                    if (!flushed) {
                        ucx.rkeyDestroy.invokeExact(rkeys[pe]);
                    }
                    endpoints[pe] = null;
                }
            }
            ucx.workerDestroy.invokeExact(worker);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("closing a UCX channel failed: " + t, t);
        } finally {
            staging.reset();
            arena.close();
        }
    }
}
