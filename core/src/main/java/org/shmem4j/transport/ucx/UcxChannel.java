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
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;

/**
 * One context's path over UCX: a worker of its own, an
 * endpoint to each peer's home worker made on first use (a job of N PEs with C contexts would
 * otherwise open N x C connections at start-up, most never used) with the peer's key unpacked
 * for it. Requests are completed by polling ({@code ucp_request_check_status} while progressing
 * the worker): no upcalls, so no callback can ever run inside a critical section of the JVM.
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
    private final Arena arena = Arena.ofShared();
    /** Request parameters for plain transfers (all defaults) and for atomics (datatype and reply buffer set). */
    private final MemorySegment plainParam, atomicParam, closeParam;
    /** Operand, compare/reply words of a blocking atomic. */
    private final MemorySegment operand, reply;
    private MemorySegment bounce;
    /** Non-blocking operations not yet known complete, and what quiet then hands over. */
    private final List<Pending> pending = new ArrayList<>();
    /** Native staging of non-blocking operations; freed at quiet. */
    private Arena staging = Arena.ofShared();
    private boolean closed;
    /** This channel's number for {@link EndpointFailures}, and the status each peer's endpoint failed with (0: none). */
    private final long id;
    private final AtomicIntegerArray failures;

    /** An operation in flight (its request may be null when it completed at once) and its delivery at quiet. */
    private record Pending(int pe, MemorySegment request, Runnable atQuiet, String what) {}

    UcxChannel(UcxTransport transport, int npes) {
        this.transport = transport;
        this.ucx = transport.ucx();
        // Serialized for every mode: the channel's lock serializes its users and the progress agent,
        // which must progress even a private context's worker (its sends may wait in the worker).
        this.worker = UcxTransport.createWorker(ucx, transport.context(), Ucx.THREAD_MODE_SERIALIZED);
        this.endpoints = new MemorySegment[npes];
        this.failures = new AtomicIntegerArray(npes);
        this.id = EndpointFailures.register(failures);
        this.rkeys = new MemorySegment[npes];
        this.plainParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        this.atomicParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        this.closeParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        closeParam.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK, Ucx.OP_ATTR_FIELD_FLAGS);
        closeParam.set(JAVA_INT, Ucx.REQ_FLAGS, Ucx.EP_CLOSE_FLAG_FORCE);
        this.operand = arena.allocate(8, 8);
        this.reply = arena.allocate(8, 8);
        this.bounce = arena.allocate(4096, 64);
        transport.agent().watch(worker, lock);
    }

    // ------------------------------------------------------------------ endpoints

    private MemorySegment endpoint(int pe, String what) {
        if (pe < 0 || pe >= endpoints.length || !transport.reaches(pe)) {
            throw new ShmemException(what + ": PE " + pe + " is not reached by the UCX network engine");
        }
        if (closed) {
            throw new IllegalStateException(what + ": the UCX channel is closed");
        }
        int failure = failures.get(pe);
        if (failure != Ucx.OK) {
            throw new ShmemException(what + ": PE " + pe + " is unreachable, its UCX endpoint failed: " + ucx.describe(failure));
        }
        MemorySegment ep = endpoints[pe];
        return ep != null ? ep : connect(pe);
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
            ucx.check((int) ucx.epCreate.invokeExact(worker, params, epP), "ucp_ep_create to PE " + pe);
            MemorySegment ep = epP.get(ADDRESS, 0);
            byte[] key = transport.rkey(pe);
            MemorySegment packed = a.allocate(key.length).copyFrom(MemorySegment.ofArray(key));
            MemorySegment rkeyP = a.allocate(ADDRESS);
            ucx.check((int) ucx.epRkeyUnpack.invokeExact(ep, packed, rkeyP), "ucp_ep_rkey_unpack for PE " + pe);
            rkeys[pe] = rkeyP.get(ADDRESS, 0);
            endpoints[pe] = ep;
            return ep;
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("connecting to PE " + pe + " over UCX failed: " + t, t);
        }
    }

    // ------------------------------------------------------------------ requests

    /** Waits for {@code request} (a status pointer from an {@code _nbx} call) and frees it. */
    private void await(MemorySegment request, String what, int pe) {
        long a = request.address();
        if (a == 0) {
            return;
        }
        if (Ucx.isError(request)) {
            throw failed(what, pe, (int) a);
        }
        try {
            int status;
            for (int round = 0; (status = (int) ucx.requestCheckStatus.invokeExact(request)) == Ucx.INPROGRESS; round++) {
                int progressed = (int) ucx.workerProgress.invokeExact(worker);
                if (progressed == 0) {
                    pause(round);
                }
            }
            ucx.requestFree.invokeExact(request);
            if (status != Ucx.OK) {
                throw failed(what, pe, status);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException(what + " to PE " + pe + " failed: " + t, t);
        }
    }

    /** Spin, then yield, then park briefly: the peer may need this core to answer. */
    private static void pause(int round) {
        if (round < 64) {
            Thread.onSpinWait();
        } else if (round < 20_000) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
        }
    }

    private ShmemException failed(String what, int pe, int status) {
        return new ShmemException(what + " to PE " + pe + " failed in UCX: " + ucx.describe(status));
    }

    /** A request pointer that is neither done nor an error, or null. */
    private MemorySegment inFlight(MemorySegment request, String what, int pe) {
        long a = request.address();
        if (a == 0) {
            return null;
        }
        if (Ucx.isError(request)) {
            throw failed(what, pe, (int) a);
        }
        return request;
    }

    /** {@code src} itself when native, else a copy of it in {@code memory}. */
    private static MemorySegment nativeCopy(MemorySegment src, Arena memory) {
        return src.isNative() ? src : memory.allocate(Math.max(1, src.byteSize()), 8).copyFrom(src);
    }

    /** The bounce buffer, grown to at least {@code bytes}. */
    private MemorySegment bounce(long bytes) {
        if (bounce.byteSize() < bytes) {
            bounce = arena.allocate(Math.max(bytes, bounce.byteSize() * 2), 64);
        }
        return bounce.asSlice(0, bytes);
    }

    private MemorySegment put(MemorySegment ep, int pe, long offset, MemorySegment src) throws Throwable {
        return (MemorySegment) ucx.putNbx.invokeExact(ep, src, src.byteSize(), transport.base(pe) + offset, rkeys[pe], plainParam);
    }

    private MemorySegment get(MemorySegment ep, int pe, long offset, MemorySegment dst) throws Throwable {
        return (MemorySegment) ucx.getNbx.invokeExact(ep, dst, dst.byteSize(), transport.base(pe) + offset, rkeys[pe], plainParam);
    }

    // ------------------------------------------------------------------ the contract

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        lock.lock();
        try {
            MemorySegment ep = endpoint(pe, "put");
            MemorySegment from = src.isNative() ? src : bounce(src.byteSize()).copyFrom(src);
            await(put(ep, pe, offset, from), "put", pe); // local completion: src reusable
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("put to PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        lock.lock();
        try {
            MemorySegment ep = endpoint(pe, "put_nbi");
            MemorySegment from = nativeCopy(src, staging);
            track(pe, inFlight(put(ep, pe, offset, from), "put_nbi", pe), null, "put_nbi");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("put_nbi to PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        lock.lock();
        try {
            MemorySegment ep = endpoint(pe, "get");
            MemorySegment into = dst.isNative() ? dst : bounce(dst.byteSize());
            await(get(ep, pe, offset, into), "get", pe);
            if (into != dst) {
                dst.copyFrom(into);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("get from PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        lock.lock();
        try {
            MemorySegment ep = endpoint(pe, "get_nbi");
            MemorySegment into = dst.isNative() ? dst : staging.allocate(Math.max(1, dst.byteSize()), 8).asSlice(0, dst.byteSize());
            Runnable deliver = into == dst ? null : () -> dst.copyFrom(into);
            track(pe, inFlight(get(ep, pe, offset, into), "get_nbi", pe), deliver, "get_nbi");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("get_nbi from PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
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
        MemorySegment ep = endpoint(pe, what);
        atomicParam.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK,
                Ucx.OP_ATTR_FIELD_DATATYPE | (result == null ? 0 : Ucx.OP_ATTR_FIELD_REPLY_BUFFER));
        atomicParam.set(JAVA_LONG, Ucx.REQ_DATATYPE, Ucx.contig(bytes));
        atomicParam.set(ADDRESS, Ucx.REQ_REPLY_BUFFER, result == null ? MemorySegment.NULL : result);
        return (MemorySegment) ucx.atomicOpNbx.invokeExact(ep, opcode(op), buffer, 1L, transport.base(pe) + offset, rkeys[pe],
                atomicParam);
    }

    @Override
    public long fetchingAtomic(AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        lock.lock();
        try {
            boolean cswap = op == AtomicOp.COMPARE_SWAP;
            store(this.operand, bytes, cswap ? compare : operand);
            store(reply, bytes, cswap ? operand : 0);
            await(atomic("fetching atomic", op, bytes, pe, offset, this.operand, reply), "fetching atomic", pe);
            return load(reply, bytes);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("fetching atomic on PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fetchingAtomicNbi(MemorySegment result, AtomicOp op, int bytes, int pe, long offset, long operand,
            long compare) {
        lock.lock();
        try {
            boolean cswap = op == AtomicOp.COMPARE_SWAP;
            MemorySegment in = staging.allocate(8, 8), out = staging.allocate(8, 8);
            store(in, bytes, cswap ? compare : operand);
            store(out, bytes, cswap ? operand : 0);
            track(pe, inFlight(atomic("fetching atomic nbi", op, bytes, pe, offset, in, out), "fetching atomic nbi", pe),
                    () -> result.asSlice(0, bytes).copyFrom(out.asSlice(0, bytes)), "fetching atomic nbi");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("fetching atomic nbi on PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void atomic(AtomicOp op, int bytes, int pe, long offset, long operand) {
        if (op == AtomicOp.COMPARE_SWAP) {
            throw new IllegalArgumentException("atomic: a compare-and-swap always fetches (use fetchingAtomic)");
        }
        lock.lock();
        try {
            store(this.operand, bytes, operand);
            // Local completion only (the operand word is reused); delivery is quiet's business. UCX
            // has no non-fetching swap (the target aborts on one), so a set fetches and drops the old value.
            MemorySegment dropped = op == AtomicOp.SWAP ? reply : null;
            await(atomic("atomic", op, bytes, pe, offset, this.operand, dropped), "atomic", pe);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("atomic on PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    /** The data, a fence on the worker (later operations on an endpoint complete after earlier ones), then the signal. */
    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, boolean add,
            boolean nbi) {
        lock.lock();
        try {
            if (nbi) {
                putNbi(pe, offset, src);
            } else {
                put(pe, offset, src);
            }
            fence();
            atomic(add ? AtomicOp.ADD : AtomicOp.SWAP, 8, pe, signalOffset, signal);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fence() {
        lock.lock();
        try {
            ucx.check((int) ucx.workerFence.invokeExact(worker), "ucp_worker_fence");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("ucp_worker_fence failed: " + t, t);
        } finally {
            lock.unlock();
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
        lock.lock();
        try {
            if (closed) {
                return;
            }
            await((MemorySegment) ucx.workerFlushNbx.invokeExact(worker, plainParam), "quiet", -1);
            finish(-1);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("quiet failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    /** Remote completion of what went to {@code pe} (an endpoint flush), then its staged results. */
    @Override
    public void quiet(int pe) {
        lock.lock();
        try {
            MemorySegment ep = pe >= 0 && pe < endpoints.length ? endpoints[pe] : null;
            if (ep == null || closed) {
                return; // nothing was ever issued to it
            }
            await((MemorySegment) ucx.epFlushNbx.invokeExact(ep, plainParam), "pe_quiet", pe);
            finish(pe);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("pe_quiet of PE " + pe + " failed: " + t, t);
        } finally {
            lock.unlock();
        }
    }

    /** After a flush: frees the requests of {@code pe}'s operations (all when negative) and delivers their results. */
    private void finish(int pe) {
        List<Pending> done = new ArrayList<>();
        pending.removeIf(p -> (pe < 0 || p.pe() == pe) && done.add(p));
        for (Pending p : done) {
            if (p.request() != null) {
                await(p.request(), p.what(), p.pe());
            }
            if (p.atQuiet() != null) {
                p.atQuiet().run();
            }
        }
        if (pending.isEmpty()) {
            staging.close();
            staging = Arena.ofShared();
        }
    }

    @Override
    public void parking() {
        transport.agent().waiterParking();
    }

    @Override
    public void progress() {
        transport.progressHome(); // what peers do to this PE arrives there
        if (lock.tryLock()) { // a thread inside an operation is progressing it already
            try {
                int ignored = (int) ucx.workerProgress.invokeExact(worker);
            } catch (Throwable t) {
                throw new ShmemException("ucp_worker_progress failed: " + t, t);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Completes everything (quiet), then closes the endpoints: forcibly, since a flush already
     * completed our operations and a peer that finalized first no longer answers a closing
     * handshake. Then the worker and the channel's memory go.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            try {
                quiet();
            } finally {
                closed = true;
                release();
            }
        } finally {
            lock.unlock();
            EndpointFailures.unregister(id);
            transport.forget(this);
        }
    }

    private void release() {
        transport.agent().unwatch(worker, lock);
        try {
            for (int pe = 0; pe < endpoints.length; pe++) {
                if (endpoints[pe] != null) {
                    ucx.rkeyDestroy.invokeExact(rkeys[pe]);
                    MemorySegment req = (MemorySegment) ucx.epCloseNbx.invokeExact(endpoints[pe], closeParam);
                    await(req, "closing the endpoint", pe);
                    endpoints[pe] = null;
                }
            }
            ucx.workerDestroy.invokeExact(worker);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("closing a UCX channel failed: " + t, t);
        } finally {
            staging.close();
            arena.close();
        }
    }
}
