package org.shmem4j.transport.deferred;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.CpuAtomics;
import org.shmem4j.transport.shm.MappedChannel;

/**
 * A channel whose operations are delivered by its own thread, after a random delay and in a random
 * order within a fence epoch: what the contract allows a network to do. Puts and non-fetching AMOs
 * are queued (the source copied at once: local completion), nbi gets and nbi fetching AMOs are
 * queued and their results copied to the caller's buffer at quiet, blocking gets and fetching AMOs
 * first wait for everything queued to their PE. The work itself is a {@link MappedChannel}'s.
 */
final class DeferredChannel implements Channel {
    /**
     * One queued operation: {@code deliver} runs on the delivery thread, {@code complete} at quiet;
     * a raise is not waited for by quiet (the contract lets it complete later), only by settle and close.
     */
    private record Op(int pe, long epoch, Runnable deliver, Runnable complete, boolean raise) {}

    private final MappedChannel target;
    private final MemorySegment[] regions;
    /** AMOs are done by {@link NicAtomics} (not atomic with CPU atomics), else by CPU atomics like a mapped peer's. */
    private final boolean nicAtomics;
    private final Liveness liveness;
    private final Consumer<DeferredChannel> onClose;
    /** What the opener said (the core's choice, which tests check); the courier's delivery needs none of it. */
    final ChannelOptions options;
    private final List<Op> queued = new ArrayList<>();
    /** Queued raises the courier leaves alone for now ({@link Holdback}). */
    private final List<Op> held = new ArrayList<>();
    /**
     * Delivers nothing until the sender drains (quiet, pe_quiet, a blocking access, settle, close)
     * or queues a raise (which must follow what was queued before it).
     */
    private final boolean lazy;
    /** Drains in progress: while one is, a lazy channel delivers. */
    private int draining;
    /** Delivered operations whose results quiet still has to hand over. */
    private final List<Op> delivered = new ArrayList<>();
    private final Thread courier;
    private long epoch;
    private boolean closed;
    private RuntimeException failure;

    DeferredChannel(MemorySegment[] regions, Liveness liveness, boolean nicAtomics, boolean lazy, ChannelOptions options,
            Consumer<DeferredChannel> onClose) {
        this.options = options;
        this.lazy = lazy;
        this.target = new MappedChannel(regions);
        this.regions = regions;
        this.nicAtomics = nicAtomics;
        this.liveness = liveness;
        this.onClose = onClose;
        this.courier = Thread.ofPlatform().daemon().name("deferred-courier").start(this::deliverLoop);
        Holdback.opened(this);
    }

    private void deliverLoop() {
        while (true) {
            Op op;
            synchronized (this) {
                while ((op = pickDeliverable()) == null && !closed) {
                    waitHere();
                }
                if (op == null) {
                    return;
                }
            }
            // Network latency, so that data may well not have arrived before a quiet.
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000));
            try {
                VarHandle.releaseFence(); // what was delivered before is visible first, as on the mapped route
                deliverTo(op.pe(), op.deliver());
            } catch (RuntimeException e) {
                synchronized (this) {
                    failure = e;
                }
            }
            synchronized (this) {
                queued.remove(op);
                delivered.add(op);
                notifyAll();
            }
        }
    }

    /** Runs {@code delivery} on {@code pe}'s region unless that PE has left; says which. */
    private boolean deliverTo(int pe, Runnable delivery) {
        if (liveness == null) {
            delivery.run();
            return true;
        }
        return liveness.deliver(pe, delivery);
    }

    /** A blocking operation's access to {@code pe}'s region, which fails if that PE has left. */
    private void now(int pe, Runnable access) {
        drain(pe, false);
        if (!deliverTo(pe, access)) {
            throw new ShmemException("PE " + pe + " has left the job (its region is unmapped)");
        }
    }

    /**
     * A random operation of the oldest epoch still queued and not held (fences order epochs, nothing
     * orders within one; a held raise has no later operation to its PE queued, which it would
     * precede), or null when none may go now.
     */
    private Op pickDeliverable() {
        List<Op> free = queued.stream().filter(o -> !held.contains(o)).toList();
        if (free.isEmpty() || lazy && draining == 0 && free.stream().noneMatch(Op::raise)) {
            return null;
        }
        long oldest = free.stream().mapToLong(Op::epoch).min().orElseThrow();
        List<Op> candidates = free.stream().filter(o -> o.epoch() == oldest).toList();
        return candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
    }

    private void waitHere() {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShmemException("interrupted while waiting for the deferred network");
        }
    }

    private void enqueue(int pe, Runnable deliver, Runnable complete) {
        enqueue(pe, deliver, complete, false, false);
    }

    /** Queues an operation; a {@code hold} one waits in {@link #held} too (see {@link Holdback}). */
    private synchronized void enqueue(int pe, Runnable deliver, Runnable complete, boolean raise, boolean hold) {
        if (closed) {
            throw new IllegalStateException("deferred channel used after close");
        }
        held.removeIf(o -> o.pe() == pe); // it goes before this later operation to its PE
        Op op = new Op(pe, epoch, deliver, complete, raise);
        queued.add(op);
        if (hold) {
            held.add(op);
        }
        notifyAll();
    }

    /** Lets the held raises go and waits until they were delivered; how many there were. */
    synchronized int releaseHeld() {
        List<Op> released = List.copyOf(held);
        held.clear();
        notifyAll();
        while (released.stream().anyMatch(queued::contains)) {
            waitHere();
        }
        return released.size();
    }

    /**
     * Waits until nothing is queued for {@code pe} (every PE if negative; raises only when
     * {@code raises}), then hands over its results.
     */
    private void drain(int pe, boolean raises) {
        List<Op> done = new ArrayList<>();
        synchronized (this) {
            if (raises && held.removeIf(o -> pe < 0 || o.pe() == pe)) {
                notifyAll();
            }
            draining++;
            notifyAll();
            try {
                while (queued.stream().anyMatch(o -> (pe < 0 || o.pe() == pe) && (raises || !o.raise()))) {
                    waitHere();
                }
            } finally {
                draining--;
            }
            delivered.removeIf(o -> (pe < 0 || o.pe() == pe) && done.add(o));
            if (failure != null) {
                RuntimeException f = failure;
                failure = null;
                throw f;
            }
        }
        done.forEach(o -> o.complete().run());
    }

    private static MemorySegment snapshot(MemorySegment src) {
        return MemorySegment.ofArray(src.toArray(ValueLayout.JAVA_BYTE));
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        MemorySegment copy = snapshot(src);
        enqueue(pe, () -> target.put(pe, offset, copy), () -> {});
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        put(pe, offset, src);
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        now(pe, () -> target.get(dst, pe, offset));
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        MemorySegment staging = MemorySegment.ofArray(new byte[(int) dst.byteSize()]);
        enqueue(pe, () -> target.get(staging, pe, offset), () -> dst.copyFrom(staging));
    }

    /** The AMO applied at {@code pe} (on delivery), returning the old value. */
    private long apply(AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        return nicAtomics ? NicAtomics.apply(regions[pe], op, bytes, offset, operand, compare)
                : target.fetchingAtomic(op, bytes, pe, offset, operand, compare);
    }

    @Override
    public long fetchingAtomic(AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        long[] old = new long[1];
        now(pe, () -> old[0] = apply(op, bytes, pe, offset, operand, compare));
        return old[0];
    }

    @Override
    public void fetchingAtomicNbi(MemorySegment result, AtomicOp op, int bytes, int pe, long offset, long operand,
            long compare) {
        long[] old = new long[1];
        enqueue(pe, () -> old[0] = apply(op, bytes, pe, offset, operand, compare), () -> {
            if (bytes == 4) {
                result.set(ValueLayout.JAVA_INT_UNALIGNED, 0, (int) old[0]);
            } else {
                result.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, old[0]);
            }
        });
    }

    @Override
    public void atomic(AtomicOp op, int bytes, int pe, long offset, long operand) {
        enqueue(pe, () -> apply(op, bytes, pe, offset, operand, 0), () -> {});
    }

    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        AtomicOp.checkSignal("put_signal", update);
        put(pe, offset, src);
        fence(); // the signal goes in a later epoch than its data
        atomic(update, 8, pe, signalOffset, signal);
    }

    @Override
    public void putSignalNbi(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        // its put copies the source: local completion either way
        putSignal(pe, offset, src, signalOffset, signal, AtomicOp.checkSignal("put_signal_nbi", update));
    }

    @Override
    public void putRaise(int pe, long offset, MemorySegment src, long flagOffset, long value) {
        put(pe, offset, src);
        fence(); // after its data and the earlier puts; raises of one epoch may land in any order, as the contract allows
        enqueue(pe, () -> CpuAtomics.raise(regions[pe], flagOffset, value), () -> {}, true, Holdback.holds(pe, flagOffset));
    }

    @Override
    public synchronized void fence() {
        epoch++;
    }

    @Override
    public void quiet() {
        drain(-1, false);
    }

    @Override
    public void quiet(int pe) {
        drain(pe, false);
    }

    @Override
    public void settle(int[] pes) {
        for (int pe : pes) {
            drain(pe, true);
        }
    }

    @Override
    public boolean progress() {
        return false;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        drain(-1, true);
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        Holdback.closed(this);
        onClose.accept(this);
    }
}
