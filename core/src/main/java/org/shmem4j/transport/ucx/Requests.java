package org.shmem4j.transport.ucx;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.shmem4j.ShmemException;

/**
 * A channel's UCX requests: waiting for them by polling ({@code ucp_request_check_status} while
 * progressing its worker), and what a failure means. A wait that lasts progresses the PE's home
 * worker too (a peer waiting on this PE may need it) and now and then asks whether the job still
 * lives: a peer that is gone may never answer.
 */
final class Requests {
    /** Idle progress rounds between two looks at the job's liveness while a request waits. */
    private static final int LIVENESS_ROUNDS = 256;
    private final Ucx.Library ucx;
    private final MemorySegment worker;
    private final UcxTransport transport;
    /** The status each peer's endpoint failed with (0: none), as {@link EndpointFailures} notes it. */
    private final AtomicIntegerArray failures;

    Requests(Ucx.Library ucx, MemorySegment worker, UcxTransport transport, AtomicIntegerArray failures) {
        this.ucx = ucx;
        this.worker = worker;
        this.transport = transport;
        this.failures = failures;
    }

    /** Waits for {@code request} (a status pointer from an {@code _nbx} call) and frees it. */
    void await(MemorySegment request, String what, int pe) {
        await(request, what, pe, true);
    }

    /** {@code untilTheJobEnds}: false when the wait does not ask whether the job lives (closing). */
    void await(MemorySegment request, String what, int pe, boolean untilTheJobEnds) {
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
                    transport.progressHome();
                    if (untilTheJobEnds && round % LIVENESS_ROUNDS == LIVENESS_ROUNDS - 1) {
                        checkAlive(request);
                    }
                    pause(round);
                }
            }
            ucx.requestFree.invokeExact(request);
            if (status != Ucx.OK) {
                throw failed(what, pe, status);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException(what + " to PE " + pe + " failed: " + t, t);
        }
    }

    /** When the job is ending, gives the request back to UCX (freed when it completes or its endpoint closes) and throws. */
    private void checkAlive(MemorySegment request) throws Throwable {
        try {
            transport.checkAlive();
        } catch (RuntimeException | Error jobEnding) {
            ucx.requestFree.invokeExact(request);
            throw jobEnding;
        }
    }

    /** A round of a wait in which this channel's worker had nothing: the home worker's turn, now and then a look at the job, a pause. */
    void idle(int round) {
        transport.progressHome();
        if (round % LIVENESS_ROUNDS == LIVENESS_ROUNDS - 1) {
            transport.checkAlive();
        }
        pause(round);
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

    /** A request pointer that is neither done nor an error, or null. */
    MemorySegment inFlight(MemorySegment request, String what, int pe) {
        long a = request.address();
        if (a == 0) {
            return null;
        }
        if (Ucx.isError(request)) {
            throw failed(what, pe, (int) a);
        }
        return request;
    }

    /**
     * The exception for a request or call that failed with {@code status}. When the status says a
     * peer is gone, the job is told which one (for a worker-wide flush, {@code pe} < 0: the first
     * peer whose endpoint failed).
     */
    ShmemException failed(String what, int pe, int status) {
        String message = what + (pe < 0 ? "" : " to PE " + pe) + " failed in UCX: " + ucx.describe(status);
        int lost = pe >= 0 ? pe : firstFailedPeer();
        return Ucx.lostPeer(status) && lost >= 0 ? transport.peerLost(lost, message) : new ShmemException(message);
    }

    private int firstFailedPeer() {
        for (int pe = 0; pe < failures.length(); pe++) {
            if (failures.get(pe) != Ucx.OK) {
                return pe;
            }
        }
        return -1;
    }

    /** The status {@code pe}'s endpoint failed with (0: none). */
    int failure(int pe) {
        return failures.get(pe);
    }

    /** A quiet's wait for {@code pe} cannot end: its endpoint failed with {@code outstanding} (what was awaited); the job is told. */
    ShmemException lost(int pe, String outstanding) {
        return transport.peerLost(pe, "quiet: PE " + pe + " is unreachable, its UCX endpoint failed with " + outstanding + ": "
                + ucx.describe(failures.get(pe)));
    }
}
