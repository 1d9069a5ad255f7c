package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import org.shmem4j.transport.Batch;
import org.shmem4j.transport.MessageOrder;
import org.shmem4j.transport.Traffic;

/**
 * A channel's messages over UCX ({@link SignalMessages}): sends them and its queries, and takes
 * the answers, doing what {@link MessageOrder} decides (see it for their order with RMA and
 * atomics). Closing confirms every message before the endpoints are forcibly closed (which would
 * drop what is still queued); a PE that has gone meanwhile needs none. Used under the channel's
 * lock; the answers arrive inside the channel's worker progress, which also runs only under it.
 */
final class MessageRoute {
    private final Ucx.Library ucx;
    private final MemorySegment worker;
    private final MessageOrder order;
    private final Requests requests;
    private final Traffic traffic;
    /** The channel's endpoints (made on first use): a query goes only to a PE that was sent messages. */
    private final MemorySegment[] endpoints;
    /** This channel as a sender, as the targets count it: its PE's rank and its number. */
    private final long key;
    private final long listening;
    /** Per PE: the request of its outstanding query. */
    private final MemorySegment[] queries;
    /** Request parameters: a flush's (defaults); an eager send's; one that also tells the target where to answer. */
    private final MemorySegment flushParam, param, replyParam;
    private final MemorySegment header;
    /** One query header per PE: it stays untouched until that PE's query was answered and sent. */
    private final MemorySegment queryHeaders;

    /**
     * Listens for answers on {@code worker}; {@code replied} takes the replies to batches' gets.
     * Its parameters and headers live in {@code arena}.
     */
    MessageRoute(Ucx.Library ucx, MemorySegment worker, Arena arena, MemorySegment[] endpoints, Requests requests,
            MessageOrder order, Traffic traffic, long key, SignalMessages.Replied replied) {
        this.ucx = ucx;
        this.worker = worker;
        this.order = order;
        this.requests = requests;
        this.traffic = traffic;
        this.endpoints = endpoints;
        this.key = key;
        int npes = endpoints.length;
        queries = new MemorySegment[npes];
        queryHeaders = arena.allocate(SignalMessages.QUERY_BYTES * npes, 8);
        header = arena.allocate(SignalMessages.HEADER_BYTES, 8);
        flushParam = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        param = sendParam(arena, Ucx.AM_SEND_FLAG_EAGER);
        replyParam = sendParam(arena, Ucx.AM_SEND_FLAG_REPLY | Ucx.AM_SEND_FLAG_EAGER);
        listening = SignalMessages.listen(ucx, worker, order::answered, replied);
    }

    private static MemorySegment sendParam(Arena arena, int flags) {
        MemorySegment p = arena.allocate(Ucx.REQUEST_PARAM_SIZE, 8);
        p.set(JAVA_INT, Ucx.REQ_OP_ATTR_MASK, Ucx.OP_ATTR_FIELD_FLAGS);
        p.set(JAVA_INT, Ucx.REQ_FLAGS, flags);
        return p;
    }

    /** Answers that arrive after this are dropped (the channel is closing). */
    void stopListening() {
        SignalMessages.stopListening(listening);
    }

    /** RMA or an atomic to {@code pe} is next: confirmation first when a fence says so. */
    void orderBeforeRma(int pe) throws Throwable {
        if (order.confirmBeforeRma(pe)) {
            confirm(only(pe), false);
        }
    }

    /**
     * Sends one message to {@code pe} through {@code ep} ({@code data} native or NULL) and waits
     * for its local completion, nbi too: an eager message is usually copied by UCX at once, and
     * staging each nbi one's header until quiet grew without bound in a loop without quiet.
     */
    void send(MemorySegment ep, int pe, long offset, MemorySegment data, long signalOffset, long signal, long flags,
            String what) throws Throwable {
        MemorySegment request = post(ep, pe, header, offset, signalOffset, signal, flags, data, what);
        if (request != null) {
            requests.await(request, what, pe);
        }
    }

    /**
     * Sends a session's batch as one message, its header written into the batch's own memory
     * (both live until the returned request, if any, completes). A fence issued while it was open
     * orders it before what follows to its PE, like a message sent before that fence.
     */
    MemorySegment sendBatch(MemorySegment ep, Batch batch) throws Throwable {
        int pe = batch.pe();
        MemorySegment request = post(ep, pe, batch.header(), 0, 0, batch.replyBytes(), SignalMessages.FLAG_BATCH,
                batch.records(), "session batch");
        if (batch.fenced()) {
            order.fenceFollowed(pe);
        }
        return request;
    }

    /** Writes {@code h} and sends the message; the request, null when done at once. */
    private MemorySegment post(MemorySegment ep, int pe, MemorySegment h, long offset, long signalOffset, long signal,
            long flags, MemorySegment data, String what) throws Throwable {
        boolean raise = (flags & SignalMessages.FLAG_RAISE) != 0; // a raise, or data its raise follows (putRaise)
        if (order.flushBeforeMessage(pe, raise)) {
            requests.await((MemorySegment) ucx.epFlushNbx.invokeExact(ep, flushParam), what, pe);
            order.rmaFlushed(pe);
        }
        boolean answer = order.asksForAnswer(pe, raise);
        SignalMessages.header(h, offset, signalOffset, signal, answer ? flags | SignalMessages.FLAG_ANSWER : flags, key,
                order.nextNumber(pe));
        boolean getsReply = (flags & SignalMessages.FLAG_BATCH) != 0 && signal > 0; // the target needs our address
        MemorySegment how = answer || getsReply ? replyParam : param; // a local: invokeExact types a conditional as Object
        traffic.count(Traffic.Kind.MESSAGES, data.byteSize());
        MemorySegment request = requests.inFlight((MemorySegment) ucx.amSendNbx.invokeExact(ep, SignalMessages.PUT_SIGNAL, h,
                SignalMessages.HEADER_BYTES, data, data.byteSize(), how), what, pe);
        order.messageSent(pe, raise, answer);
        return request;
    }

    /** After a flush of {@code pe} (every PE when negative): the messages a quiet waits for confirmed. */
    void complete(int pe) throws Throwable {
        confirm(order.toConfirmAtQuiet(pe), false);
        order.quieted(pe);
    }

    /** Before the endpoints close: every message confirmed, except by PEs that have gone. */
    void completeAll() throws Throwable {
        confirm(order.toConfirmAtClose(), true);
    }

    /** Every message to {@code pes} confirmed, raises included (a team's destroy). */
    void completeAll(int[] pes) throws Throwable {
        BitSet these = new BitSet();
        for (int pe : pes) {
            these.set(pe);
        }
        confirm(these, false);
    }

    /** The closed channel's identity for the next one, or null when messages to a gone PE may be unconfirmed. */
    UcxTransport.SenderIdentity retired() {
        long[] handOver = order.handOver();
        return handOver == null ? null : new UcxTransport.SenderIdentity(key, handOver);
    }

    private static BitSet only(int pe) {
        BitSet one = new BitSet();
        one.set(pe);
        return one;
    }

    /**
     * Asks every PE of {@code pes} that needs it to confirm what was sent to it, then waits for
     * all the answers. While closing, a PE whose endpoint failed is taken as gone, and so as
     * needing nothing more.
     */
    private void confirm(BitSet pes, boolean closing) throws Throwable {
        BitSet waiting = (BitSet) pes.clone();
        for (int pe = waiting.nextSetBit(0); pe >= 0; pe = waiting.nextSetBit(pe + 1)) {
            switch (order.confirmation(pe)) {
                case CONFIRMED -> waiting.clear(pe);
                case ASK -> {
                    if (!ask(pe, closing)) {
                        waiting.clear(pe);
                    }
                }
                case AWAIT -> {}
            }
        }
        for (int round = 0; !waiting.isEmpty(); round++) {
            boolean progressed = (int) ucx.workerProgress.invokeExact(worker) > 0;
            for (int pe = waiting.nextSetBit(0); pe >= 0; pe = waiting.nextSetBit(pe + 1)) {
                if (order.unconfirmed(pe) == 0) { // so its query, if any, was answered too
                    finishQuery(pe);
                    waiting.clear(pe);
                    continue;
                }
                if (requests.failure(pe) != Ucx.OK) {
                    if (closing) { // gone: UCX frees its query's request when the endpoint closes
                        if (queries[pe] != null) {
                            ucx.requestFree.invokeExact(queries[pe]);
                            queries[pe] = null;
                        }
                        waiting.clear(pe);
                        continue;
                    }
                    throw requests.lost(pe, order.unconfirmed(pe) + " signal message(s) unconfirmed");
                }
            }
            if (!progressed && !waiting.isEmpty()) {
                requests.idle(round);
            }
        }
    }

    /**
     * Sends {@code pe} a query for what was sent to it; false when, closing, it cannot (the PE
     * has gone, and needs nothing more).
     */
    private boolean ask(int pe, boolean closing) throws Throwable {
        MemorySegment h = queryHeaders.asSlice(SignalMessages.QUERY_BYTES * pe, SignalMessages.QUERY_BYTES);
        SignalMessages.query(h, key, order.sent(pe));
        traffic.count(Traffic.Kind.MESSAGES, 0);
        MemorySegment request = (MemorySegment) ucx.amSendNbx.invokeExact(endpoints[pe], SignalMessages.QUERY, h,
                SignalMessages.QUERY_BYTES, MemorySegment.NULL, 0L, replyParam);
        if (closing && Ucx.isError(request)) {
            return false;
        }
        queries[pe] = requests.inFlight(request, "quiet", pe);
        order.queried(pe);
        return true;
    }

    /** An answer arrived: the query's request is done with (the PE received it), and its header free. */
    private void finishQuery(int pe) {
        MemorySegment request = queries[pe];
        if (request != null) {
            queries[pe] = null;
            requests.await(request, "quiet", pe);
        }
    }
}
