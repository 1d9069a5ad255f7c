package org.shmem4j.transport;

import java.lang.foreign.MemorySegment;

/**
 * One communication context's path to the peers a {@link Transport} reaches: the operations of
 * spec 9.6-9.8 and 9.12 in transport terms. PE numbers are world ranks; {@code offset}s are offsets
 * in the peer's symmetric region (the same object is at the same offset on every PE); local buffers
 * are segments, native or on the Java heap.
 *
 * <h2>Completion (the contract every implementation keeps)</h2>
 * <ul>
 * <li>{@link #put} returns when {@code src} may be reused (local completion); the data is delivered
 *     by the next {@link #quiet()} and ordered before later deliveries to the same PE by
 *     {@link #fence()}.</li>
 * <li>{@link #putNbi} may return before {@code src} is read: a native {@code src} must stay
 *     unchanged until the next {@code quiet}; a heap {@code src} is copied before returning (the GC
 *     moves arrays, so they can never be the buffer of an asynchronous operation).</li>
 * <li>{@link #get} and the fetching atomics return with the value. {@link #getNbi} and
 *     {@link #fetchingAtomicNbi} deliver into their destination by the next {@code quiet}, also when
 *     it is on the Java heap (staged through native memory and copied at quiet).</li>
 * <li>{@link #atomic} (non-fetching) is delivered by the next {@code quiet}.</li>
 * <li>{@link #putSignal}, {@link #putSignalNbi}: no PE sees the signal before the data (whatever the
 *     signal's value).</li>
 * <li>{@link #putRaise} is delivered without any further call on either side: its receiver waits
 *     for the word to grow, so quiet need not complete it (a network channel would otherwise pay a
 *     round trip per quiet for raises nobody waits on); closing the channel does, and
 *     {@link #settle}.</li>
 * <li>{@link #quiet()} completes everything this channel issued, to every PE; {@link #quiet(int)}
 *     only what it issued to one PE (pe_quiet may complete more, never less).</li>
 * </ul>
 * A channel is used by one thread at a time unless it was opened {@link ChannelMode#SHARED}.
 * Failures (a peer gone, a transport error) throw {@code ShmemException} naming the PE.
 */
public interface Channel extends AutoCloseable {
    void put(int pe, long offset, MemorySegment src);

    void putNbi(int pe, long offset, MemorySegment src);

    void get(MemorySegment dst, int pe, long offset);

    void getNbi(MemorySegment dst, int pe, long offset);

    /** Returns the word's previous value, sign-extended for 4-byte words. */
    long fetchingAtomic(AtomicOp op, int bytes, int pe, long offset, long operand, long compare);

    /** The previous value is stored into {@code result} (4 or 8 bytes at its offset 0) by the next quiet. */
    void fetchingAtomicNbi(MemorySegment result, AtomicOp op, int bytes, int pe, long offset, long operand, long compare);

    void atomic(AtomicOp op, int bytes, int pe, long offset, long operand);

    /**
     * Puts {@code src}, then updates the 8-byte signal word at {@code signalOffset} on the same PE
     * with {@code update}: {@link AtomicOp#SWAP} sets it to {@code signal} (its old value is not
     * fetched), {@link AtomicOp#ADD} atomically adds {@code signal}; any other operation is an
     * {@code IllegalArgumentException} ({@link AtomicOp#checkSignal}). Completes as {@link #put}.
     */
    void putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update);

    /** {@link #putSignal}, completing as {@link #putNbi}. */
    void putSignalNbi(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update);

    /**
     * Puts {@code src} (possibly empty), then raises the 8-byte notification word at
     * {@code flagOffset} on {@code pe} to {@code value} unless it holds at least that already: a
     * word that only grows, so raises may land in any order and the largest wins. Ordered as if
     * fenced: the raise is never visible before its data, nor before this channel's earlier puts,
     * atomics, puts with signal and raises (with their data) to {@code pe}, so a receiver that sees
     * a value may read everything sent to it before. Self-completing: {@code src} is reusable at
     * return, and the raise is delivered without further calls on either side; quiet need not
     * complete it, {@link #settle} and closing the channel do.
     */
    void putRaise(int pe, long offset, MemorySegment src, long flagOffset, long value);

    void fence();

    void quiet();

    void quiet(int pe);

    /**
     * Completes everything this channel issued to the PEs {@code pes}, its raises too (it may
     * complete more): when it returns nothing the channel sent them is still on its way. For their
     * memory about to be reused that late raises could still reach (a destroyed team's slot); rare,
     * so it may cost a round trip per PE.
     */
    void settle(int[] pes);

    /**
     * Starts batching (a {@code SESSION_BATCH} session, spec 9.9): small puts, non-fetching
     * atomics and puts with signal to a PE may wait in that PE's batch and travel as one message
     * (see {@link Batches}). Completion and ordering stay as above: quiet sends the batches first,
     * a fence orders them before what follows, and any operation to a PE that is not batched sends
     * that PE's batch first. A hint: a channel whose operations are cheap ignores it. Called again,
     * it restarts the count of {@code totalOps}.
     *
     * @param totalOps the session's expected number of operations ({@code Long.MAX_VALUE}: unknown)
     */
    default void startBatching(Batches.Limits limits, long totalOps) {
    }

    /**
     * Sends what is batched (delivered, like any put, by the next quiet) and stops batching.
     *
     * @return what was batched since {@link #startBatching}
     */
    default Batches.Counts stopBatching() {
        return Batches.Counts.NONE;
    }

    /**
     * Advances outstanding operations, and what peers do to this PE, without waiting (called from
     * every wait loop while it spins or yields).
     *
     * @return true when something advanced: peers are talking to this PE, so a waiter keeps
     *         polling instead of parking (a parked waiter adds a wake-up to each of their round trips)
     */
    boolean progress();

    /**
     * The waiting thread stops calling {@link #progress} for a while (it parks): a transport with a
     * progress thread of its own lets that thread take over at once.
     */
    default void parking() {
    }

    /** Completes what is outstanding and releases the channel. */
    @Override
    void close();
}
