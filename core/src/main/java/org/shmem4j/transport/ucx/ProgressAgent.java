package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.shmem4j.ShmemException;

/**
 * Passive progress: one platform thread per PE progresses its workers, so that operations complete
 * while the application threads compute or sleep. OpenSHMEM requires it for the target (UCX over
 * tcp emulates RMA with messages the target must handle, at the home worker), and the initiator
 * needs it too: data UCX accepted (local completion) may still wait in a worker's send queue for a
 * progress call. The agent blocks when idle: after a pass finds nothing, it arms every worker's
 * wakeup and waits in {@code poll} on their event fds (a machine may run 8 PEs on 2 cores), with
 * a timeout as a backstop. While a session batches it also sends the batches that waited too
 * long, so it naps at most a millisecond then.
 */
final class ProgressAgent {
    private static final short POLLIN = 1;
    private static final int POLL_TIMEOUT_MS = 100, BUSY_POLL_TIMEOUT_MS = 1;
    /** How long after a waiting thread's last progress call the agent leaves the workers to it. */
    private static final long WAITER_ACTIVE_NANOS = 1_000_000;

    /**
     * A worker, the lock that serializes its use, its owner's count of uses (null: none), and its
     * event fd; what the agent last saw of the count, and when it saw it change.
     */
    private static final class Watched {
        final MemorySegment worker;
        final Lock lock;
        final LongSupplier uses;
        final int fd;
        private long seenUses = Long.MIN_VALUE, changedAt;

        Watched(MemorySegment worker, Lock lock, LongSupplier uses, int fd) {
            this.worker = worker;
            this.lock = lock;
            this.uses = uses;
            this.fd = fd;
        }

        /** Whether its owner used it since the agent's last look, or within the last millisecond it knows of (agent thread only). */
        boolean inUse(long now) {
            if (uses == null) {
                return false;
            }
            long u = uses.getAsLong();
            if (u != seenUses) {
                seenUses = u;
                changedAt = now;
                return true;
            }
            return now - changedAt < WAITER_ACTIVE_NANOS;
        }
    }

    private final Ucx.Library ucx;
    private final MemorySegment home;
    private final List<Watched> watched = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopping;
    /** When a waiting thread last progressed the home worker; the agent naps until this is old. */
    private volatile long lastWaiterProgress = System.nanoTime() - WAITER_ACTIVE_NANOS;
    private volatile Throwable failure;
    /** Passes in which the agent advanced something: written by the agent only. */
    private volatile long served;
    /** Sends aged session batches (true when one left), and whether any channel batches. */
    private final java.util.function.BooleanSupplier sendAgedBatches, batching;

    /**
     * @param home the thread-safe worker peers' operations arrive at; always watched
     * @param homeLock taken (tried) around every use of {@code home}, by the agent and by waiting
     *        threads: the worker is thread-safe, but two threads progressing it at once only spin on
     *        its internal lock, taking the core from the one doing the work
     * @param sendAgedBatches sends the session batches that waited too long; true when one left
     * @param batching whether some channel batches (the agent then naps at most a millisecond)
     */
    ProgressAgent(Ucx.Library ucx, MemorySegment home, Lock homeLock, java.util.function.BooleanSupplier sendAgedBatches,
            java.util.function.BooleanSupplier batching) {
        this.ucx = ucx;
        this.sendAgedBatches = sendAgedBatches;
        this.batching = batching;
        this.home = home;
        // A platform thread: a downcall pins a virtual thread to its carrier anyway.
        this.thread = Thread.ofPlatform().daemon().name("shmem4j-ucx-progress").unstarted(this::run);
        watch(home, homeLock, null); // the waiters' naps govern it (see run)
    }

    void start() {
        thread.start();
    }

    /**
     * Progresses {@code worker} too, trying {@code lock} around every use (a busy worker is
     * skipped), and leaving it to its owner while {@code uses} (a count its owner raises with each
     * operation; a clock would cost each of them tens of nanoseconds) moves: a thread issuing
     * operations progresses the worker with each of them, and an agent taking its lock between them
     * only makes it wait. A null {@code uses}: never left to an owner.
     */
    void watch(MemorySegment worker, Lock lock, LongSupplier uses) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fdP = a.allocate(JAVA_INT);
            ucx.check((int) ucx.workerGetEfd.invokeExact(worker, fdP), "ucp_worker_get_efd");
            watched.add(new Watched(worker, lock, uses, fdP.get(JAVA_INT, 0)));
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("ucp_worker_get_efd failed: " + t, t);
        }
        wake();
    }

    /** Stops progressing {@code worker}; returns once the agent no longer touches it. */
    void unwatch(MemorySegment worker, Lock lock) {
        lock.lock(); // the agent uses a locked worker only while holding its lock
        try {
            watched.removeIf(w -> w.worker.equals(worker));
        } finally {
            lock.unlock();
        }
    }

    private void wake() {
        try {
            int ignored = (int) ucx.workerSignal.invokeExact(home);
        } catch (Throwable t) {
            // the poll timeout ends the wait anyway
        }
    }

    /**
     * A thread waiting in the library progresses the home worker itself (see
     * {@link UcxTransport#progressHome}); it says so here, and while it does the agent stays out of
     * its way: woken by every arriving message, it would only take the core from that thread. A
     * waiter that parks, or leaves the library for more than a millisecond, hands back.
     */
    void waiterProgressed() {
        lastWaiterProgress = System.nanoTime();
    }

    /** How many of its passes advanced something: a waiter that parked learns that peers kept talking. */
    long served() {
        return served;
    }

    /** The waiting thread parks: the agent takes over now rather than at the end of its nap. */
    void waiterParking() {
        if (System.nanoTime() - lastWaiterProgress < WAITER_ACTIVE_NANOS) {
            lastWaiterProgress = System.nanoTime() - WAITER_ACTIVE_NANOS;
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pollfds = a.allocate(8L * 64, 4);
            while (!stopping) {
                boolean batchesLeft = sendAged();
                long t = System.nanoTime();
                long sinceWaiter = t - lastWaiterProgress;
                if (sinceWaiter < WAITER_ACTIVE_NANOS) {
                    // The waiter progresses the home worker and its own channel; the other
                    // channels' workers may still hold data they accepted, which only a progress
                    // call sends: the agent keeps those moving (spec 4.1), a pass per nap, which
                    // is enough for liveness and leaves the core to the waiter.
                    progressAll(watched.stream().filter(w -> w.uses != null && !w.inUse(t)).toList());
                    LockSupport.parkNanos(WAITER_ACTIVE_NANOS - sinceWaiter);
                    continue;
                }
                List<Watched> now = watched.stream().filter(w -> !w.inUse(t)).toList();
                if (progressAll(now) || batchesLeft) {
                    served++;
                    continue;
                }
                if (pollfds.byteSize() < 8L * now.size()) {
                    pollfds = a.allocate(8L * now.size() * 2, 4);
                }
                int armed = armAll(now, pollfds);
                if (armed < 0) {
                    continue; // events arrived meanwhile: progress again
                }
                // A worker whose lock was busy could not be armed, one in use was left to its
                // owner: look again soon.
                int timeout = armed < watched.size() || batching.getAsBoolean() ? BUSY_POLL_TIMEOUT_MS : POLL_TIMEOUT_MS;
                int ignored = (int) ucx.poll.invokeExact(pollfds, (long) armed, timeout);
            }
        } catch (Throwable t) {
            failure = t; // reported by stop(); the thread must never die silently
        }
    }

    /**
     * Sends the aged session batches. A send that fails (a peer gone) was reported to the job by
     * the channel, and the channel's next operation or quiet meets the failure: the agent goes on.
     */
    private boolean sendAged() {
        try {
            return sendAgedBatches.getAsBoolean();
        } catch (RuntimeException failed) {
            return false;
        }
    }

    /** One progress call on every worker whose lock is free; true if any made progress. */
    private boolean progressAll(List<Watched> workers) throws Throwable {
        boolean any = false;
        for (Watched w : workers) {
            if (w.lock.tryLock()) {
                try {
                    if (watched.contains(w)) {
                        any |= (int) ucx.workerProgress.invokeExact(w.worker) != 0;
                    }
                } finally {
                    w.lock.unlock();
                }
            }
        }
        return any;
    }

    /**
     * Arms every worker it can and lists the armed ones' event fds in {@code pollfds}: the number
     * armed, or -1 when one has events pending.
     */
    private int armAll(List<Watched> workers, MemorySegment pollfds) throws Throwable {
        int armed = 0;
        for (Watched w : workers) {
            int status;
            if (w.lock.tryLock()) {
                try {
                    if (!watched.contains(w)) {
                        continue;
                    }
                    status = (int) ucx.workerArm.invokeExact(w.worker);
                } finally {
                    w.lock.unlock();
                }
            } else {
                continue;
            }
            if (status == Ucx.ERR_BUSY) {
                return -1;
            }
            ucx.check(status, "ucp_worker_arm");
            pollfds.set(JAVA_INT, 8L * armed, w.fd); // struct pollfd { int fd; short events, revents; }
            pollfds.set(JAVA_SHORT, 8L * armed + 4, POLLIN);
            pollfds.set(JAVA_SHORT, 8L * armed + 6, (short) 0);
            armed++;
        }
        return armed;
    }

    /**
     * Wakes the agent, waits for it to end, and reports a failure it met. The wait outlasts an
     * interrupt (a timed-out in-process job interrupts its PEs): the workers are destroyed next.
     */
    void stop() {
        stopping = true;
        if (thread.isAlive()) {
            wake();
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        Throwable f = failure;
        if (f != null) {
            throw new ShmemException("the UCX progress agent failed: " + f, f);
        }
    }
}
