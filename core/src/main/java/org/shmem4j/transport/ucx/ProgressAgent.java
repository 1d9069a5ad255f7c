package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.shmem4j.ShmemException;

/**
 * Passive progress: one platform thread per PE progresses the home worker, so the operations
 * peers direct at this PE complete while its application threads compute or sleep (OpenSHMEM
 * requires it; UCX over tcp emulates RMA with messages the target must handle). It blocks when
 * idle: after progress finds nothing, it arms the worker's wakeup and waits in {@code poll} on its
 * event fd (a machine may run 8 PEs on 2 cores), with a timeout as a backstop.
 */
final class ProgressAgent {
    private static final short POLLIN = 1;
    private static final int POLL_TIMEOUT_MS = 100;

    private final Ucx.Library ucx;
    private final MemorySegment worker;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile Throwable failure;

    ProgressAgent(Ucx.Library ucx, MemorySegment worker) {
        this.ucx = ucx;
        this.worker = worker;
        // A platform thread: a downcall pins a virtual thread to its carrier anyway.
        this.thread = Thread.ofPlatform().daemon().name("shmem4j-ucx-progress").unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fdP = a.allocate(JAVA_INT);
            ucx.check((int) ucx.workerGetEfd.invokeExact(worker, fdP), "ucp_worker_get_efd");
            MemorySegment pollfd = a.allocate(8, 4); // struct pollfd { int fd; short events; short revents; }
            pollfd.set(JAVA_INT, 0, fdP.get(JAVA_INT, 0));
            pollfd.set(JAVA_SHORT, 4, POLLIN);
            while (!stopping) {
                if ((int) ucx.workerProgress.invokeExact(worker) != 0) {
                    continue;
                }
                int armed = (int) ucx.workerArm.invokeExact(worker);
                if (armed == Ucx.ERR_BUSY) {
                    continue; // more events arrived meanwhile: progress again
                }
                ucx.check(armed, "ucp_worker_arm");
                pollfd.set(JAVA_SHORT, 6, (short) 0);
                int ignored = (int) ucx.poll.invokeExact(pollfd, 1L, POLL_TIMEOUT_MS);
            }
        } catch (Throwable t) {
            failure = t; // reported by stop(); an upcall-free thread must never die silently
        }
    }

    /** Wakes the agent, waits for it to end, and reports a failure it met. */
    void stop() {
        stopping = true;
        if (thread.isAlive()) {
            try {
                int ignored = (int) ucx.workerSignal.invokeExact(worker);
            } catch (Throwable t) {
                // the poll timeout ends the wait anyway
            }
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Throwable f = failure;
        if (f != null) {
            throw new ShmemException("the UCX progress agent failed: " + f, f);
        }
    }
}
