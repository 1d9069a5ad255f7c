package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.function.LongFunction;

/**
 * A channel's batches while a {@code SESSION_BATCH} session is on (spec 9.9): which operations go
 * into one, when a batch leaves, and the bounded memory they live in. The engine asks
 * {@code put}/{@code atomic}/{@code putSignal} first and, when they decline, sends the
 * destination's batch ({@link #send(int)}) before doing the operation its own way, so every PE
 * still sees one channel's operations in the order issued. No foreign calls: the
 * {@link Engine} sends and tests completion.
 *
 * <p>A batch leaves when the next record does not fit, when the session's hint of its total
 * operations (spec 9.9.1) were batched, when it is older than {@link Limits#delayNanos} (checked every {@value #AGE_CHECK} operations and by
 * {@link #sendAged}, which the engine calls from its progress), and at every point the engine
 * sends it for (fence-crossing or unbatched operations to its PE, quiet, the session's end).
 * At most {@code max(2, memory / batchBytes)} batches exist, open or in flight: a destination
 * that needs one when none is free waits for the oldest send to complete, or sends the oldest open
 * batch. Memory per channel: that many buffers, allocated as needed and kept until the channel
 * closes, plus one reference per PE ({@code 4 or 8 B x npes}) while it batches.
 *
 * @param <H> the engine's handle of a send in flight
 */
public final class Batches<H> {
    /**
     * @param batchBytes bytes of one batch (records and the engine's header)
     * @param memory bytes all of a channel's batches may take
     * @param delayNanos how long a batch may wait for more operations
     */
    public record Limits(int batchBytes, long memory, long delayNanos) {}

    /** What a session batched: operations, and the messages they went in. */
    public record Counts(long ops, long batches) {
        public static final Counts NONE = new Counts(0, 0);
    }

    /** What sends batches. */
    public interface Engine<H> {
        /** Sends {@code batch} as one message; null when its memory may be reused at once, else the handle to test. */
        H send(Batch batch);

        /** Whether the send of {@code handle} completed (its memory reusable); then the handle is released. */
        boolean completed(H handle);

        /** Waits until the send of {@code handle} completed, then releases the handle. */
        void await(H handle);
    }

    static final int AGE_CHECK = 256;
    /** A put larger than this share of a batch goes unbatched. */
    private static final int PUT_SHARE = 8;

    private final Engine<H> engine;
    private final LongFunction<MemorySegment> memory;
    private final long headerBytes;
    private final Batch[] open;
    private Batch oldest, newest;
    private final ArrayDeque<Batch> free = new ArrayDeque<>();
    /** Batches whose send has not completed, oldest first, with the engine's handle. */
    private final ArrayDeque<Sending<H>> sending = new ArrayDeque<>();

    private record Sending<H>(Batch batch, H handle) {}
    private final Limits limits;
    private final int maxBuffers;
    private final long maxPut, maxReply;
    private boolean active;
    private int buffers;
    private long totalOps, sessionOps, sessionBatches;

    /**
     * @param npes the job's size (destinations are world ranks)
     * @param headerBytes room each batch keeps for the engine's header
     * @param memory allocates a batch's native memory (8-byte aligned)
     */
    public Batches(int npes, Limits limits, long headerBytes, LongFunction<MemorySegment> memory, Engine<H> engine) {
        if (limits.batchBytes() < headerBytes + 64) {
            throw new IllegalArgumentException("a batch of " + limits.batchBytes() + " bytes is too small (at least "
                    + (headerBytes + 64) + ")");
        }
        this.open = new Batch[npes];
        this.limits = limits;
        this.maxBuffers = (int) Math.max(2, Math.min(Integer.MAX_VALUE, limits.memory() / limits.batchBytes()));
        this.maxPut = Math.min(Batch.MAX_LENGTH, (limits.batchBytes() - headerBytes) / PUT_SHARE);
        this.maxReply = limits.batchBytes() - headerBytes;
        this.headerBytes = headerBytes;
        this.memory = memory;
        this.engine = engine;
    }

    /**
     * Starts batching (a session started, or started again with new settings).
     *
     * @param totalOps the session's hint of how many operations it will issue; after that many
     *        batched ones the batches leave at once ({@code Long.MAX_VALUE}: no hint)
     */
    public void start(long totalOps) {
        active = true;
        this.totalOps = Math.max(1, totalOps);
        sessionOps = 0;
        sessionBatches = 0;
    }

    /** Sends every open batch and stops batching (the session ended); what it batched since {@link #start}. */
    public Counts stop() {
        sendAll();
        active = false;
        return new Counts(sessionOps, sessionBatches);
    }

    public boolean active() {
        return active;
    }

    /** Appends a put of {@code src} unless it is too large for a batch. */
    public boolean put(int pe, long offset, MemorySegment src) {
        long length = src.byteSize();
        if (!active || length > maxPut || offset > Batch.MAX_OFFSET) {
            return false;
        }
        batchFor(pe, Batch.putBytes(length)).put(offset, src);
        return appended(1);
    }

    /** Appends a non-fetching atomic (not a compare-and-swap). */
    public boolean atomic(int pe, AtomicOp op, int bytes, long offset, long operand) {
        if (!active || offset > Batch.MAX_OFFSET || op == AtomicOp.COMPARE_SWAP) {
            return false;
        }
        batchFor(pe, Batch.ATOMIC_BYTES).word(Batch.kind(op), bytes, offset, operand);
        return appended(1);
    }

    /**
     * Appends a non-blocking get into {@code dst} unless it is too large: its data comes back in
     * the batch's reply, which the engine delivers into {@code dst} by the next quiet.
     */
    public boolean get(int pe, long offset, MemorySegment dst) {
        long length = dst.byteSize();
        if (!active || length > maxPut || offset > Batch.MAX_OFFSET) {
            return false;
        }
        Batch b = open[pe];
        if (b != null && b.replyBytes() + length + 7 > maxReply) {
            dispatch(b); // the reply would outgrow a batch's size
        }
        batchFor(pe, 8).get(offset, dst);
        return appended(1);
    }

    /** Appends a put with signal: the data, then the signal set ({@link AtomicOp#SWAP}) or added ({@link AtomicOp#ADD}). */
    public boolean putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        AtomicOp.checkSignal("put_signal", update);
        long length = src.byteSize();
        if (!active || length > maxPut || Math.max(offset, signalOffset) > Batch.MAX_OFFSET) {
            return false;
        }
        Batch b = batchFor(pe, Batch.putBytes(length) + Batch.ATOMIC_BYTES);
        if (length > 0) {
            b.put(offset, src);
        }
        b.word(update == AtomicOp.ADD ? Batch.ADD : Batch.SIGNAL, 8, signalOffset, signal);
        return appended(1);
    }

    /** A fence: the open batches' records precede what comes after it to their PEs. */
    public void fence() {
        for (Batch b = oldest; b != null; b = b.newer) {
            b.fenced = true;
        }
    }

    /** Sends {@code pe}'s open batch, if any. */
    public void send(int pe) {
        Batch b = open[pe];
        if (b != null) {
            dispatch(b);
        }
    }

    public void sendAll() {
        while (oldest != null) {
            dispatch(oldest);
        }
    }

    /** Sends the batches older than the delay; true when one was sent. */
    public boolean sendAged(long now) {
        boolean any = false;
        if (active) {
            while (oldest != null && now - oldest.openedAt >= limits.delayNanos()) {
                dispatch(oldest);
                any = true;
            }
        }
        return any;
    }

    /** Whether a batch is open (the engine's progress then looks at ages). */
    public boolean anyOpen() {
        return oldest != null;
    }

    /** Takes back the memory of sends that completed (after a quiet, all of them). */
    public void reclaim() {
        while (!sending.isEmpty() && engine.completed(sending.peekFirst().handle())) {
            recycle(sending.pollFirst().batch());
        }
    }

    private boolean appended(int ops) {
        sessionOps += ops;
        if (sessionOps >= totalOps) {
            sendAll(); // the session said no more are coming
        } else if (sessionOps % AGE_CHECK == 0 && oldest != null) {
            sendAged(System.nanoTime());
        }
        return true;
    }

    /** {@code pe}'s open batch with room for {@code bytes}: the current one, or a new one after sending it. */
    private Batch batchFor(int pe, long bytes) {
        Batch b = open[pe];
        if (b != null && b.room() >= bytes) {
            return b;
        }
        if (b != null) {
            dispatch(b);
        }
        b = buffer();
        b.pe = pe;
        b.openedAt = System.nanoTime();
        open[pe] = b;
        b.older = newest;
        if (newest != null) {
            newest.newer = b;
        } else {
            oldest = b;
        }
        newest = b;
        return b;
    }

    private void dispatch(Batch b) {
        open[b.pe] = null;
        if (b.older != null) {
            b.older.newer = b.newer;
        } else {
            oldest = b.newer;
        }
        if (b.newer != null) {
            b.newer.older = b.older;
        } else {
            newest = b.older;
        }
        b.older = b.newer = null;
        H handle = engine.send(b);
        sessionBatches++;
        if (handle == null) {
            recycle(b);
        } else {
            sending.addLast(new Sending<>(b, handle));
        }
    }

    private void recycle(Batch b) {
        b.reset();
        free.push(b);
    }

    /** A free batch: recycled, new while under the bound, else the oldest send awaited (after sending the oldest open batch when none is in flight). */
    private Batch buffer() {
        reclaim();
        if (free.isEmpty() && buffers < maxBuffers) {
            buffers++;
            return new Batch(memory.apply(limits.batchBytes()), headerBytes);
        }
        if (free.isEmpty()) {
            if (sending.isEmpty()) {
                dispatch(oldest);
            }
            if (free.isEmpty()) {
                Sending<H> oldestSend = sending.pollFirst();
                engine.await(oldestSend.handle());
                recycle(oldestSend.batch());
            }
        }
        return free.pop();
    }
}
