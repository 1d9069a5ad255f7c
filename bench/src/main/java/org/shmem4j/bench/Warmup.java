package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * A timed warm-up that all PEs leave together: a program repeats its warm-up round while
 * {@link #again(long)} says so. PE 0 decides (has {@link Knobs#warmupMillis()} passed since the
 * round started?) and tells the others, so every PE runs the same number of rounds (ping-pongs and
 * collectives need that). The count floors of {@link Knobs#warmup(long, long)} make the JIT
 * <em>request</em> a C2 compilation; this gives the compiler thread time to finish it, which on 2
 * cores with every PE spinning can take tens of milliseconds. Collective: every PE creates, uses
 * and closes it alike.
 */
final class Warmup implements AutoCloseable {
    private final Shmem shmem;
    private final SymmetricLongArray decision;
    private final long minNanos;

    Warmup(Shmem shmem, Knobs knobs) {
        this.shmem = shmem;
        this.decision = shmem.calloc(ValueLayout.JAVA_LONG, 1);
        this.minNanos = knobs.warmupMillis() * 1_000_000L;
    }

    /** True while less than the warm-up time has passed on PE 0 since {@code startNanos} (its own clock). */
    boolean again(long startNanos) {
        shmem.barrierAll();
        if (shmem.myPe() == 0) {
            long more = System.nanoTime() - startNanos < minNanos ? 1 : 0;
            for (int pe = 0; pe < shmem.nPes(); pe++) {
                shmem.p(decision, 0, more, pe);
            }
        }
        shmem.barrierAll();   // delivers PE 0's decision
        boolean more = decision.segment().get(ValueLayout.JAVA_LONG, 0) == 1;
        shmem.barrierAll();   // nobody is told the next decision before all have read this one
        return more;
    }

    @Override
    public void close() {
        decision.close();
    }
}
