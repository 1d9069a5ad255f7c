package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * A warm-up that runs until the code is at its steady speed, and that all PEs leave together: a
 * program repeats its warm-up round (the same calls every round) while {@link #again(long)} says
 * so. PE 0 decides and tells the others, so every PE runs the same number of rounds (ping-pongs and
 * collectives need that). Another round runs while less than {@link Knobs#warmupMillis()} has
 * passed, and then (that time not 0) until a round is no more than {@value #SETTLED_PERCENT}%
 * faster than the one before it, for at most {@link #CAP_MILLIS}.
 *
 * <p>Why the speed and not a count or a time: the count floors of {@link Knobs#warmup(long, long)}
 * make the JIT <em>request</em> its C2 compilations, but on 2 cores 8 JVMs whose PEs spin take
 * tens of seconds to finish them and to settle their deoptimisations (this stop measured a 1,024-long
 * fcollect at 8 PEs: a first round of 8,192 calls at 2.2 ms each, a second at 1.09, then timed rows
 * of 1,711, 915 and 865 us in one job). Their compilation time never drops to zero (the JIT of
 * some PE always compiles something), so the rate is the honest sign of a steady state. Collective:
 * every PE creates, uses and closes it alike.
 */
final class Warmup implements AutoCloseable {
    /** A round at most this much faster than the one before it ends the warm-up. */
    static final int SETTLED_PERCENT = 10;
    /** Longest warm-up that waits for the speed to settle. */
    static final long CAP_MILLIS = 60_000;

    private final Shmem shmem;
    private final SymmetricLongArray decision;
    private final long minNanos;
    /** PE 0: when the current round started (0: at the warm-up's start), and the last round's length. */
    private long roundStart;
    private long lastRound;
    private boolean capped;

    Warmup(Shmem shmem, Knobs knobs) {
        this.shmem = shmem;
        this.decision = shmem.calloc(ValueLayout.JAVA_LONG, 1);
        this.minNanos = knobs.warmupMillis() * 1_000_000L;
    }

    /**
     * True while less than the warm-up time has passed on PE 0 since {@code startNanos} (its own
     * clock), or (that time not 0) while the rounds still get faster.
     */
    boolean again(long startNanos) {
        shmem.barrierAll();
        if (shmem.myPe() == 0) {
            long now = System.nanoTime();
            long round = now - (roundStart == 0 ? startNanos : roundStart);
            boolean faster = lastRound == 0 || round * 100 < lastRound * (100 - SETTLED_PERCENT);
            lastRound = round;
            boolean settling = minNanos > 0 && faster;
            if (settling && now - startNanos >= CAP_MILLIS * 1_000_000L) {
                settling = false;
                capped = true;
            }
            long more = now - startNanos < minNanos || settling ? 1 : 0;
            for (int pe = 0; pe < shmem.nPes(); pe++) {
                shmem.p(decision, 0, more, pe);
            }
        }
        shmem.barrierAll();   // delivers PE 0's decision
        boolean more = decision.segment().get(ValueLayout.JAVA_LONG, 0) == 1;
        shmem.barrierAll();   // nobody is told the next decision before all have read this one
        roundStart = System.nanoTime();
        return more;
    }

    @Override
    public void close() {
        if (capped) {
            Bench.line("# warm-up: the rounds still got faster after %d s; timing starts anyway", CAP_MILLIS / 1000);
        }
        decision.close();
    }
}
