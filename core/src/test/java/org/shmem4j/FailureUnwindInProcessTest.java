package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.inprocess.InProcessJob;

/**
 * The idiomatic error path: a PE throws inside {@code try (Shmem shmem = Shmem.init())}, so its
 * {@code close()} (shmem_finalize) runs while its peers wait for it in a barrier, a collective or a
 * point-to-point wait. The finalize must not pair with what the peers wait in, and the job must
 * end (status 1, the thrower's exception reported) instead of hanging.
 */
@Timeout(300)
class FailureUnwindInProcessTest {
    private static final String BOOM = "boom on the last PE";

    /**
     * What the survivors do where the last PE throws instead. {@code prepare} is the collective
     * set-up (allocations, splits) every PE does first, so the heaps stay symmetric; it returns the
     * wait. In a collective every survivor waits; in a point-to-point wait only PE 0 waits (for
     * the thrower) and the others finish normally: a wait that several PEs hold on one another
     * is a deadlock of the program, as in C, and ends with the launcher's --timeout.
     */
    enum Wait {
        BARRIER_ALL(true, s -> s::barrierAll),
        SYNC_ALL(true, s -> s::syncAll),
        REDUCE(true, s -> {
            SymmetricLongArray x = s.calloc(ValueLayout.JAVA_LONG, 64);
            return () -> s.teamWorld().sumReduce(x, x, 64);
        }),
        BROADCAST_FROM_THE_THROWER(true, s -> {
            SymmetricLongArray x = s.calloc(ValueLayout.JAVA_LONG, 64);
            SymmetricLongArray y = s.calloc(ValueLayout.JAVA_LONG, 64);
            return () -> s.teamWorld().broadcast(y, x, 64, s.nPes() - 1);
        }),
        TEAM_SYNC(true, s -> {
            Team copy = s.teamWorld().splitStrided(0, 1, s.nPes(), null, 0);
            return copy::sync;
        }),
        WAIT_UNTIL(false, s -> {
            SymmetricLongArray flag = s.calloc(ValueLayout.JAVA_LONG, 1);
            return () -> s.waitUntil(flag, 0, Cmp.NE, 0);
        }),
        SIGNAL_WAIT_UNTIL(false, s -> {
            SymmetricLongArray sig = s.calloc(ValueLayout.JAVA_LONG, 1);
            return () -> s.signalWaitUntil(sig, 0, Cmp.GE, 1);
        }),
        WAIT_UNTIL_ALL(false, s -> {
            SymmetricIntArray flags = s.calloc(ValueLayout.JAVA_INT, 4);
            return () -> s.waitUntilAll(flags, 0, 4, null, Cmp.EQ, 1);
        });

        final boolean everySurvivorWaits;
        final Function<Shmem, Runnable> prepare;

        Wait(boolean everySurvivorWaits, Function<Shmem, Runnable> prepare) {
            this.everySurvivorWaits = everySurvivorWaits;
            this.prepare = prepare;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(Wait.values()).flatMap(w -> Stream.of(2, 3, 5).map(n -> Arguments.of(w, n)));
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("cases")
    void aPeThrowingInsideTryWithResourcesEndsTheJob(Wait wait, int npes) {
        AtomicInteger stepsCompleted = new AtomicInteger();
        var result = InProcessJob.run(npes, InProcessTestSupport.env(), Duration.ofSeconds(120), () -> {
            try (Shmem shmem = Shmem.init()) {
                Runnable step = wait.prepare.apply(shmem);
                shmem.barrierAll();
                int me = shmem.myPe();
                if (me == shmem.nPes() - 1) {
                    throw new IllegalStateException(BOOM);
                }
                if (wait.everySurvivorWaits || me == 0) {
                    step.run();
                    stepsCompleted.incrementAndGet(); // only if the thrower's finalize paired with it
                }
            }
        });
        assertEquals(0, stepsCompleted.get(), "a survivor's wait ended as if the thrower had taken part");
        assertFalse(result.timedOut(), () -> "the job hung: " + result.failures());
        assertEquals(1, result.status(), () -> result.failures().toString());
        assertTrue(result.failures().stream().anyMatch(f -> BOOM.equals(f.getMessage())),
                () -> "the thrower's exception is not reported: " + result.failures());
    }

    /** The survivor that waited learns which PE it waited for. */
    @Test
    void theWaitingPeNamesThePeThatLeft() {
        var result = InProcessJob.run(2, InProcessTestSupport.env(), Duration.ofSeconds(120), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll();
                if (shmem.myPe() == 1) {
                    throw new IllegalStateException(BOOM);
                }
                shmem.barrierAll();
            }
        });
        assertFalse(result.timedOut(), () -> "the job hung: " + result.failures());
        assertTrue(result.failures().stream().anyMatch(f -> String.valueOf(f.getMessage()).contains("PE 1 entered shmem_finalize")),
                () -> result.failures().toString());
    }

    /** Finalize still waits for everyone: a PE that finalizes early does not release a slow one's data. */
    @Test
    void finalizeWaitsForEveryPe() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                int me = shmem.myPe();
                if (me == 0) {
                    // PE 0 finalizes at once; the others keep using its heap until they finalize.
                    return;
                }
                for (int i = 0; i < 1000; i++) {
                    shmem.atomicAdd(x, 0, 1, 0);
                }
                shmem.quiet();
            }
        });
    }
}
