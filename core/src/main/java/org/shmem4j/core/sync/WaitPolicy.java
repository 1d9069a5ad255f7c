package org.shmem4j.core.sync;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.Channel;

/**
 * How a PE waits for memory another PE will write: spin briefly (the answer usually comes within
 * a cache-line transfer), then yield (another PE on this core may be the one we wait for), then
 * park with growing back-off (8 PEs on 2 cores must not livelock). While parked it checks that the
 * job is still alive, so a waiter never outlives a failed peer, and whether peers talk to this PE
 * over the network again, in which case it polls again.
 *
 * <p>Use: {@code for (Waiter w = policy.start(); !condition(); ) w.pause();}
 */
public final class WaitPolicy {
    private final int spins;
    private final int yields;
    private final long parkMaxNanos;
    private final Runnable checkAlive;
    private final Supplier<Channel> network;

    /**
     * @param spins busy-spin iterations before yielding (fewer when PEs outnumber cores)
     * @param yields yields before parking
     * @param parkMaxNanos upper bound of the park back-off
     * @param checkAlive throws when the job is being torn down (see {@code Bootstrap.checkAlive})
     */
    public WaitPolicy(int spins, int yields, long parkMaxNanos, Runnable checkAlive) {
        this(spins, yields, parkMaxNanos, checkAlive, null);
    }

    /**
     * @param network the channel a waiting thread progresses while it spins or yields (null in a
     *        job on one node): what peers send to this PE, and what it sent them, then moves at the
     *        waiter's pace instead of the progress agent's wake-ups; before parking the waiter hands
     *        progress back to the agent ({@link Channel#parking})
     */
    public WaitPolicy(int spins, int yields, long parkMaxNanos, Runnable checkAlive, Supplier<Channel> network) {
        this.spins = spins;
        this.yields = yields;
        this.parkMaxNanos = parkMaxNanos;
        this.checkAlive = checkAlive;
        this.network = network;
    }

    /** A fresh waiter for one wait. */
    public Waiter start() {
        return new Waiter(null);
    }

    /**
     * A fresh waiter that also runs {@code check} whenever it parks (a slow-path probe that throws
     * when the awaited peer can no longer answer).
     */
    public Waiter start(Runnable check) {
        return new Waiter(check);
    }

    /** The state of one wait; cheap enough to allocate per wait (escape analysis removes it). */
    public final class Waiter {
        private final Runnable check;
        private int round;
        private long parkNanos = 1_000;

        private Waiter(Runnable check) {
            this.check = check;
        }

        /** Called once per unsuccessful check of the awaited condition. */
        public void pause() {
            int r = round++;
            if (r < spins + yields && network != null && network.get().progress()) {
                // Peers are active: keep serving them at the waiter's pace rather than park, but
                // from the yield phase, so PEs sharing a core still get it.
                round = Math.min(round, spins);
            }
            if (r < spins) {
                Thread.onSpinWait();
            } else if (r < spins + yields) {
                Thread.yield();
            } else {
                if (network != null) {
                    network.get().parking();
                }
                LockSupport.parkNanos(parkNanos);
                parkNanos = Math.min(parkNanos * 2, parkMaxNanos);
                if (network != null && network.get().progress()) {
                    // Peers talk to this PE again (a pause of theirs, a compilation, made it park):
                    // back to polling, or each of their round trips waits for a wake-up.
                    round = spins;
                    parkNanos = 1_000;
                }
                checkAlive.run();
                if (check != null) {
                    check.run();
                }
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new ShmemException("interrupted while waiting");
                }
            }
        }
    }
}
