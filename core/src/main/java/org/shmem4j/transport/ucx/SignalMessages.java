package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Batch;
import org.shmem4j.transport.CpuAtomics;
import org.shmem4j.transport.Traffic;

/**
 * Put-with-signal as one UCX active message. Over tcp UCX emulates RMA and atomics with messages
 * anyway, so data, a fence and a signal AMO cost a put, a round trip and a message; one message
 * carrying the data and the signal reaches the target in about half a round trip. The target's
 * home worker runs {@link #onPutSignal} when it is progressed (by a waiting thread or the progress
 * agent): it stores the data, then the signal (a release store or an atomic add, so the signal is
 * never visible before the data and mixes with the CPU atomics of the target's node), and counts
 * the message for its sender. Messages from one sending channel are applied in the order it sent
 * them, whatever order UCX delivers them in (it promises none, and several lanes may carry them):
 * each carries its number, and one that arrives early waits, copied, for those before it. The
 * collectives need that order: a sender's flag stamps grow, and a later stamp must mean that the
 * data of the earlier steps arrived.
 *
 * <p>Completion by count: a message is not answered (an answer per message cost a send on the
 * target and a receive on the sender for each one, a third of a 2-node barrier). A sender that
 * needs to know its messages applied (quiet; an order a fence promised; closing) sends a query with
 * how many it has sent to that PE; the target answers once it has applied that many from the
 * sender, at once or when the last of them arrives (UCX need not deliver them in order). Flushing
 * an endpoint would not do: it says nothing about whether a message's handler ran.
 *
 * <p>The same message without a signal carries a small put when the channel is told so
 * ({@link org.shmem4j.transport.ChannelOptions#messagePutLimit}: where the engine's RMA is itself
 * messages, see {@link UcxTransport#capabilities}): UCX answers each of its emulated puts, a
 * message of ours is confirmed by count, once per quiet.
 *
 * <p>A sender whose quiets follow single messages (put, quiet, put, quiet: a query and its answer
 * would be two sends more for one message) asks for an answer in the message itself (flag bit 3):
 * the target answers once it applied it, and the quiet waits for that answer instead of asking.
 *
 * <p>Message header, 48 bytes: data offset, signal offset, signal value, flags (bit 0: add; bit 1:
 * raise to at least the value, for words that only grow; bit 2: data only, no signal; bit 3:
 * answer once applied; bit 4: the data is a session's {@link Batch}, replayed in order, its gets'
 * reply size in the signal value's place), sender (the sending channel's key), the message's number from that sender
 * to this PE (1, 2, ...). Query header, 16 bytes: sender, count. Answer header, 16 bytes: the
 * answering PE's rank (an int, then 4 unused bytes) and how many of the sender's messages it has
 * applied (true when written; a later answer only says more). Small payloads only
 * ({@link #MAX_PAYLOAD}): sent eagerly, so the handler always gets the whole message; larger ones go
 * as a put, a fence and an atomic. Upcalls must never throw (an exception escaping one ends the
 * JVM): a malformed message is reported once on stderr, dropped, and still counted.
 */
final class SignalMessages {
    private SignalMessages() {}

    static final int PUT_SIGNAL = 1, ACK = 2, QUERY = 3, GET_REPLY = 4;
    static final long HEADER_BYTES = 48, QUERY_BYTES = 16;
    static final long FLAG_ADD = 1, FLAG_RAISE = 2, FLAG_DATA_ONLY = 4, FLAG_ANSWER = 8, FLAG_BATCH = 16;
    static final long ANSWER_BYTES = 16;
    /** A get reply's header, laid out as an answer's: the replying PE's rank (an int, then 4 unused bytes) and the batch's number. */
    static final long REPLY_HEADER_BYTES = ANSWER_BYTES;
    /** Largest payload sent as a message; a put of more is bandwidth, not latency. */
    static final long MAX_PAYLOAD = 8192;
    /**
     * Most data a raise sends in messages ahead of itself ({@code UcxChannel#putRaise}): there the
     * round trip of a flush is what a large put with signal costs, beyond it the bandwidth. Over tcp
     * between 2 pseudo-nodes (3 interleaved passes against a put and a flush, or a pull): 16 KiB won
     * (fcollect of 1,024 longs at 4 PEs 1.44x, alltoall of 16 KiB blocks at 2 PEs 1.82x), 32 KiB
     * mostly (alltoall of 32 KiB blocks 1.91x at 8 PEs, 1.43x at 4, 0.81x at 2; fcollect of 1,024
     * longs at 8 PEs 0.84x), 512 KiB in 64 messages lost (an fcollect 840 us against 405 for a get).
     */
    static final long MAX_STREAMED = 4 * MAX_PAYLOAD;

    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final Map<Long, Target> TARGETS = new ConcurrentHashMap<>();
    private static final Map<Long, Listener> SENDERS = new ConcurrentHashMap<>();

    /** Takes an answer: the answering PE, and how many of the channel's messages it has applied. */
    @FunctionalInterface
    interface Answered {
        void accept(int pe, long applied);
    }

    /** Takes a batch's get reply: the replying PE, the batch's number, and the gets' data (valid during the call only). */
    @FunctionalInterface
    interface Replied {
        void accept(int pe, long number, MemorySegment data);
    }

    private record Listener(Answered answered, Replied replied) {}
    private static final AtomicBoolean COMPLAINED = new AtomicBoolean();

    /** {@code ucs_status_t (*)(void *arg, const void *header, size_t header_length, void *data, size_t length, const ucp_am_recv_param_t *param)}; the status is returned widened to an int, which UCX reads as its low byte. */
    private static final FunctionDescriptor HANDLER = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS,
            JAVA_LONG, ADDRESS);
    private static final MemorySegment ON_PUT_SIGNAL = upcall("onPutSignal");
    private static final MemorySegment ON_ACK = upcall("onAck");
    private static final MemorySegment ON_QUERY = upcall("onQuery");
    private static final MemorySegment ON_REPLY = upcall("onReply");

    private static MemorySegment upcall(String name) {
        try {
            return Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(SignalMessages.class, name,
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, long.class,
                            MemorySegment.class, long.class, MemorySegment.class)),
                    HANDLER, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * What a PE's home worker needs to apply messages: its region, how to answer (its rank, and
     * memory for the answers' headers), and per sending channel what it applied. Used only inside
     * the home worker's progress, which one thread at a time runs (see {@link UcxTransport#progressHome}).
     */
    record Target(Ucx.Library ucx, MemorySegment region, int rank, Arena arena, MemorySegment answerParam,
            Map<Long, Sender> senders, java.util.ArrayDeque<InFlight> replies, Traffic traffic) {
        Sender sender(long key) {
            return senders.computeIfAbsent(key, k -> new Sender(arena));
        }
    }

    /** A get reply UCX still sends from {@code memory}, which must live until {@code request} completes. */
    private record InFlight(MemorySegment request, MemorySegment memory) {}

    /**
     * One sending channel as this PE sees it: how many of its messages were applied (they are
     * applied in its order), those that arrived early, its query not yet answered (asked 0: none),
     * and the header of its answers (written before each one: UCX reads it until the send completes,
     * and a newer count in an answer still in flight only says more).
     */
    private static final class Sender {
        long applied, asked;
        MemorySegment replyEp;
        final Map<Long, Early> early = new HashMap<>();
        private final Arena arena;
        private MemorySegment answer;

        Sender(Arena arena) {
            this.arena = arena;
        }

        MemorySegment answer(int rank) {
            if (answer == null) {
                answer = arena.allocate(ANSWER_BYTES, 8);
            }
            answer.set(JAVA_INT, 0, rank);
            answer.set(JAVA_LONG, 8, applied);
            return answer;
        }
    }

    /** A message that arrived before one sent earlier: its header and data, copied (UCX's buffers last only the upcall), and where to answer it. */
    private record Early(MemorySegment header, MemorySegment data, MemorySegment replyEp) {}

    /**
     * Makes {@code home} (this PE's home worker) apply put-with-signal messages to {@code region}
     * and acknowledge them naming {@code rank}. Returns the key to {@link #stopServing} with.
     */
    static long serve(Ucx.Library ucx, MemorySegment home, MemorySegment region, int rank, Arena arena, Traffic traffic) {
        long id = NEXT.getAndIncrement();
        MemorySegment param = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        param.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK, Ucx.OP_ATTR_FIELD_FLAGS);
        param.set(JAVA_INT, Ucx.REQ_FLAGS, Ucx.AM_SEND_FLAG_EAGER);
        TARGETS.put(id, new Target(ucx, region, rank, arena, param, new HashMap<>(), new java.util.ArrayDeque<>(), traffic));
        setHandler(ucx, home, PUT_SIGNAL, ON_PUT_SIGNAL, id);
        setHandler(ucx, home, QUERY, ON_QUERY, id);
        return id;
    }

    /** How many sending channels the PE serving as {@code id} has a record of (0 once it stopped). */
    static int sendersKnown(long id) {
        Target t = TARGETS.get(id);
        return t == null ? 0 : t.senders().size();
    }

    /** Messages that arrive after this are dropped (the region is about to go). */
    static void stopServing(long id) {
        TARGETS.remove(id);
    }

    /** Makes a channel's {@code worker} take answers to its queries and messages, and its batches' get replies. */
    static long listen(Ucx.Library ucx, MemorySegment worker, Answered acked, Replied replied) {
        long id = NEXT.getAndIncrement();
        SENDERS.put(id, new Listener(acked, replied));
        setHandler(ucx, worker, ACK, ON_ACK, id);
        setHandler(ucx, worker, GET_REPLY, ON_REPLY, id);
        return id;
    }

    static void stopListening(long id) {
        SENDERS.remove(id);
    }

    private static void setHandler(Ucx.Library ucx, MemorySegment worker, int amId, MemorySegment cb, long arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(Ucx.AM_HANDLER_PARAM_SIZE, 8);
            p.set(JAVA_LONG, Ucx.AM_HANDLER_FIELD_MASK, Ucx.AM_HANDLER_FIELD_ID | Ucx.AM_HANDLER_FIELD_FLAGS
                    | Ucx.AM_HANDLER_FIELD_CB | Ucx.AM_HANDLER_FIELD_ARG);
            p.set(JAVA_INT, Ucx.AM_HANDLER_ID, amId);
            p.set(JAVA_INT, Ucx.AM_HANDLER_FLAGS, Ucx.AM_FLAG_WHOLE_MSG);
            p.set(ADDRESS, Ucx.AM_HANDLER_CB, cb);
            p.set(ADDRESS, Ucx.AM_HANDLER_ARG, MemorySegment.ofAddress(arg));
            ucx.check((int) ucx.setAmHandler.invokeExact(worker, p), "ucp_worker_set_am_recv_handler");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("ucp_worker_set_am_recv_handler failed: " + t, t);
        }
    }

    /** Writes a message header into {@code header} (at least {@link #HEADER_BYTES}). */
    static void header(MemorySegment header, long offset, long signalOffset, long signal, long flags, long sender,
            long number) {
        header.set(JAVA_LONG_UNALIGNED, 0, offset);
        header.set(JAVA_LONG_UNALIGNED, 8, signalOffset);
        header.set(JAVA_LONG_UNALIGNED, 16, signal);
        header.set(JAVA_LONG_UNALIGNED, 24, flags);
        header.set(JAVA_LONG_UNALIGNED, 32, sender);
        header.set(JAVA_LONG_UNALIGNED, 40, number);
    }

    /** Writes a query's header into {@code header} (at least {@link #QUERY_BYTES}). */
    static void query(MemorySegment header, long sender, long count) {
        header.set(JAVA_LONG_UNALIGNED, 0, sender);
        header.set(JAVA_LONG_UNALIGNED, 8, count);
    }

    private static int onPutSignal(MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data,
            long length, MemorySegment param) {
        Target t = TARGETS.get(arg.address());
        if (t == null) {
            return Ucx.OK; // the transport is closing
        }
        try {
            long attr = param.reinterpret(Ucx.AM_RECV_PARAM_SIZE).get(JAVA_LONG, Ucx.AM_RECV_ATTR);
            if (headerLength != HEADER_BYTES || (attr & Ucx.AM_RECV_ATTR_FLAG_RNDV) != 0) {
                complain("a put-with-signal message of " + headerLength + " header bytes (attributes 0x"
                        + Long.toHexString(attr) + ")");
                return Ucx.OK; // cannot be counted without its sender (only another version of shmem4j sends such)
            }
            MemorySegment recv = param.reinterpret(Ucx.AM_RECV_PARAM_SIZE);
            MemorySegment replyEp = (attr & Ucx.AM_RECV_ATTR_FIELD_REPLY_EP) != 0 ? recv.get(ADDRESS, Ucx.AM_RECV_REPLY_EP)
                    : MemorySegment.NULL;
            deliver(t, header.reinterpret(HEADER_BYTES), length == 0 ? MemorySegment.NULL : data.reinterpret(length), replyEp);
        } catch (Throwable e) {
            complain("counting a put-with-signal message failed: " + e);
        }
        return Ucx.OK;
    }

    /**
     * Applies message {@code h} (with {@code data}) in its sender's order: now if it is the next
     * one, then those that arrived early and now follow; else later, from a copy. Answers the
     * sender's query once the messages it asked about are all applied, and a message that asks for
     * an answer once it is applied ({@code replyEp}: where to, NULL when it does not ask).
     */
    static void deliver(Target t, MemorySegment h, MemorySegment data, MemorySegment replyEp) throws Throwable {
        Sender from = t.sender(h.get(JAVA_LONG_UNALIGNED, 32));
        long number = h.get(JAVA_LONG_UNALIGNED, 40);
        if (number != from.applied + 1) {
            if (number > from.applied + 1) {
                Arena copies = Arena.ofAuto();
                from.early.put(number, new Early(copies.allocate(HEADER_BYTES, 8).copyFrom(h),
                        data.byteSize() == 0 ? MemorySegment.NULL : copies.allocate(data.byteSize(), 8).copyFrom(data), replyEp));
            } // else a number already applied: UCX delivers each message once, so only a corrupt one
            return;
        }
        boolean answer = applyCounted(t, from, h, data, replyEp);
        MemorySegment answerTo = replyEp;
        for (Early next; (next = from.early.remove(from.applied + 1)) != null; ) {
            if (applyCounted(t, from, next.header(), next.data(), next.replyEp())) {
                answer = true;
                answerTo = next.replyEp();
            }
        }
        if (from.asked != 0 && from.applied >= from.asked) {
            from.asked = 0;
            answer = true;
            answerTo = from.replyEp;
        }
        if (answer && answerTo.address() != 0) { // one answer says all that was applied
            answer(t, from, answerTo);
        }
    }

    /**
     * Applies one message and counts it, also when applying failed: quiet must not wait forever.
     * True when it asks for an answer.
     */
    private static boolean applyCounted(Target t, Sender from, MemorySegment h, MemorySegment data, MemorySegment replyEp) {
        try {
            apply(t, h, data, replyEp);
        } catch (Throwable e) {
            complain("applying a put-with-signal message failed: " + e);
        }
        from.applied++;
        return (h.get(JAVA_LONG_UNALIGNED, 24) & FLAG_ANSWER) != 0;
    }

    /** A sender asks to hear once this PE has applied a number of its messages. */
    private static int onQuery(MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data,
            long length, MemorySegment param) {
        Target t = TARGETS.get(arg.address());
        if (t == null) {
            return Ucx.OK; // the transport is closing: the sender is too (it closes after everyone finalized)
        }
        try {
            MemorySegment recv = param.reinterpret(Ucx.AM_RECV_PARAM_SIZE);
            if (headerLength != QUERY_BYTES || (recv.get(JAVA_LONG, Ucx.AM_RECV_ATTR) & Ucx.AM_RECV_ATTR_FIELD_REPLY_EP) == 0) {
                complain("a query of " + headerLength + " header bytes, or without a reply endpoint");
                return Ucx.OK;
            }
            MemorySegment h = header.reinterpret(QUERY_BYTES);
            Sender from = t.sender(h.get(JAVA_LONG_UNALIGNED, 0));
            long count = h.get(JAVA_LONG_UNALIGNED, 8);
            MemorySegment replyEp = recv.get(ADDRESS, Ucx.AM_RECV_REPLY_EP);
            if (from.applied >= count) {
                answer(t, from, replyEp);
            } else { // some of its messages are still on their way: answered when the last arrives
                from.asked = count;
                from.replyEp = replyEp;
            }
        } catch (Throwable e) {
            complain("answering a query failed: " + e);
        }
        return Ucx.OK;
    }

    /**
     * Sends a batch's get reply ({@code reply}: its header's room, then the data) to {@code replyEp};
     * the memory is kept until UCX is done with it, and earlier replies' memory is let go once theirs are.
     */
    private static void reply(Target t, MemorySegment replyEp, long number, MemorySegment reply) throws Throwable {
        while (!t.replies().isEmpty()
                && (int) t.ucx().requestCheckStatus.invokeExact(t.replies().peekFirst().request()) != Ucx.INPROGRESS) {
            t.ucx().requestFree.invokeExact(t.replies().pollFirst().request());
        }
        if (replyEp.address() == 0) {
            complain("a batch with gets came without a reply endpoint");
            return;
        }
        reply.set(JAVA_INT, 0, t.rank());
        reply.set(JAVA_LONG, 8, number);
        MemorySegment data = reply.asSlice(REPLY_HEADER_BYTES);
        t.traffic().count(Traffic.Kind.MESSAGES, data.byteSize());
        MemorySegment request = (MemorySegment) t.ucx().amSendNbx.invokeExact(replyEp, GET_REPLY,
                reply.asSlice(0, REPLY_HEADER_BYTES), REPLY_HEADER_BYTES, data, data.byteSize(), t.answerParam());
        if (request.address() != 0 && !Ucx.isError(request)) {
            t.replies().addLast(new InFlight(request, reply));
        } // a failed reply: the sender's endpoint to us fails, and its wait says so
    }

    private static void answer(Target t, Sender from, MemorySegment replyEp) throws Throwable {
        t.traffic().count(Traffic.Kind.MESSAGES, 0);
        MemorySegment request = (MemorySegment) t.ucx().amSendNbx.invokeExact(replyEp, ACK, from.answer(t.rank()),
                ANSWER_BYTES, MemorySegment.NULL, 0L, t.answerParam());
        if (request.address() != 0 && !Ucx.isError(request)) {
            t.ucx().requestFree.invokeExact(request); // UCX frees it once sent; its header is constant
        } // a failed answer: the sender's endpoint to us fails, and its wait says so
    }

    private static void apply(Target t, MemorySegment h, MemorySegment data, MemorySegment replyEp) throws Throwable {
        MemorySegment region = t.region();
        long offset = h.get(JAVA_LONG_UNALIGNED, 0), signalOffset = h.get(JAVA_LONG_UNALIGNED, 8);
        long signal = h.get(JAVA_LONG_UNALIGNED, 16);
        // The stores of the messages applied before this one (in their sender's order) become
        // visible first, on any CPU: the sender's fence between them is not a happens-before for
        // a thread of this PE that waits on this message's data (a flag p) with an acquire load.
        VarHandle.releaseFence();
        long flags = h.get(JAVA_LONG_UNALIGNED, 24);
        if ((flags & FLAG_BATCH) != 0) {
            if (signal == 0) {
                Batch.apply(region, data, null);
                return;
            }
            // its gets' data goes back in one reply, sent even when applying failed (the sender's quiet waits for it)
            MemorySegment reply = Arena.ofAuto().allocate(REPLY_HEADER_BYTES + signal, 8);
            try {
                Batch.apply(region, data, reply.asSlice(REPLY_HEADER_BYTES));
            } finally {
                reply(t, replyEp, h.get(JAVA_LONG_UNALIGNED, 40), reply);
            }
            return;
        }
        if (data.byteSize() > 0) {
            MemorySegment.copy(data, 0, region, offset, data.byteSize());
        }
        if ((flags & FLAG_DATA_ONLY) != 0) {
            return;
        } else if ((flags & FLAG_ADD) != 0) {
            CpuAtomics.apply(region, AtomicOp.ADD, 8, signalOffset, signal, 0); // a full fence: the data is visible first
        } else if ((flags & FLAG_RAISE) != 0) {
            CpuAtomics.raise(region, signalOffset, signal);
        } else {
            CpuAtomics.setSignal(region, signalOffset, signal);
        }
    }

    private static int onAck(MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data, long length,
            MemorySegment param) {
        return fromTarget(arg, header, headerLength, data, length, false);
    }

    /** A batch's get reply arrived at the sending channel's worker. */
    private static int onReply(MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data, long length,
            MemorySegment param) {
        return fromTarget(arg, header, headerLength, data, length, true);
    }

    /** An answer or a get reply: their headers are alike (the target's rank, then a count or a batch's number). */
    private static int fromTarget(MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data, long length,
            boolean reply) {
        try {
            Listener to = SENDERS.get(arg.address());
            if (to != null && headerLength == ANSWER_BYTES) {
                MemorySegment h = header.reinterpret(ANSWER_BYTES);
                int pe = h.get(JAVA_INT_UNALIGNED, 0);
                long count = h.get(JAVA_LONG_UNALIGNED, 8);
                if (reply) {
                    to.replied().accept(pe, count, length == 0 ? MemorySegment.NULL : data.reinterpret(length));
                } else {
                    to.answered().accept(pe, count);
                }
            }
        } catch (Throwable e) {
            complain((reply ? "taking a get reply" : "counting an acknowledgement") + " failed: " + e);
        }
        return Ucx.OK;
    }

    private static void complain(String what) {
        if (COMPLAINED.compareAndSet(false, true)) {
            System.err.println("shmem4j: UCX signal messages: " + what + " (dropped; further problems are not reported)");
        }
    }
}
