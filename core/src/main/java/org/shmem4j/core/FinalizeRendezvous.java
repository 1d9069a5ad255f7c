package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import org.shmem4j.ShmemException;
import org.shmem4j.core.coll.PeerAccess;
import org.shmem4j.core.sync.WaitPolicy;

/**
 * The last finalize's rendezvous, and what waits learn from it. Every PE has one word per PE in
 * its reserved region; PE i announces its finalize by setting word i on every PE (after completing
 * its operations), then waits until its own words are all set. The words are used by nothing else,
 * so a finalizing PE never pairs with a peer's barrier or collective (the peer sees the
 * announcement and fails instead of waiting forever), and the rendezvous is push-only: after
 * announcing, a PE reads only its own memory, so one that leaves early is never read by one still
 * waiting, over shared memory or a network.
 */
final class FinalizeRendezvous {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment local;
    private final long words;
    private final int me;
    private final int npes;

    /** @param words region offset of {@code npes} zeroed words, the same on every PE */
    FinalizeRendezvous(MemorySegment local, long words, int me, int npes) {
        this.local = local;
        this.words = words;
        this.me = me;
        this.npes = npes;
    }

    /** What a PE's word says: finalizing (it waits for everyone), or left without finalizing (gone). */
    private static final long FINALIZING = 1, LEFT = 2;

    /** True once world PE {@code pe} has entered its last finalize or left (it told this PE so). */
    boolean announced(int pe) {
        return (long) WORD.getAcquire(local, words + pe * 8L) != 0;
    }

    /** Tells every PE (this one first) that this PE has entered its last finalize. */
    void announce(PeerAccess world) {
        tellEveryone(world, FINALIZING);
    }

    /**
     * Like {@link #announce} for a PE that is leaving without finalizing. A peer that has left
     * already is skipped (its memory may be gone, and over a network an operation to a peer that
     * has gone need not fail promptly); one that cannot be reached is skipped too, since it cannot
     * be waiting, and the others must still get theirs.
     */
    void announceLeaving(PeerAccess world) {
        tellEveryone(world, LEFT);
    }

    private void tellEveryone(PeerAccess world, long state) {
        world.signal(me, words + me * 8L, state);
        for (int pe = 0; pe < npes; pe++) {
            if (pe == me || state == LEFT && (long) WORD.getAcquire(local, words + pe * 8L) == LEFT) {
                continue;
            }
            try {
                world.signal(pe, words + me * 8L, state);
            } catch (RuntimeException unreachable) {
                if (state != LEFT) {
                    throw unreachable; // a finalizing PE's peers are all waiting for it: a failure is the job's
                }
            }
        }
    }

    /** Waits until every PE has announced. */
    void await(WaitPolicy policy) {
        WaitPolicy.Waiter w = policy.start();
        for (int pe = 0; pe < npes; pe++) {
            while (!announced(pe)) {
                w.pause();
            }
        }
    }

    /**
     * Throws if PE {@code pe} has entered its last finalize while this PE has not and the awaited
     * condition still does not hold: a wait on that PE outside finalize can never end (the
     * collective calls are out of order, or the PE failed and its try-with-resources is
     * finalizing). A PE announces after its last signal, so reading the condition after the
     * announcement cannot miss a signal sent before it.
     */
    void checkPeerNotGone(int pe, BooleanSupplier satisfied) {
        if (!announced(me) && announced(pe) && !satisfied.getAsBoolean()) {
            throw new ShmemException("PE " + pe + " entered shmem_finalize while this PE waits for it in a"
                    + " collective or barrier: the PEs' collective calls are out of order, or PE " + pe + " failed");
        }
    }

    /**
     * For point-to-point waits on this PE's own words: throws when every other PE has entered its
     * last finalize and the condition still does not hold, because no PE can change this PE's
     * symmetric memory any more (what a peer put before finalizing has arrived: finalize completes
     * its operations before announcing). Only this PE's own other threads could still end such a
     * wait; a program relying on that after all its peers finalized gets this error.
     */
    void checkWaitCanEnd(String routine, BooleanSupplier satisfied) {
        if (npes == 1 || announced(me)) {
            return;
        }
        for (int pe = 0; pe < npes; pe++) {
            if (pe != me && !announced(pe)) {
                return;
            }
        }
        if (!satisfied.getAsBoolean()) {
            throw new ShmemException(routine + ": PE " + me + " waits for a condition no PE can satisfy any more:"
                    + " every other PE has entered shmem_finalize (did one of them fail?)");
        }
    }
}
