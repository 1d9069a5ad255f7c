package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.transport.ucx.UcxAvailable;

/** Teardown over UCX between pseudo-nodes. */
@Timeout(300)
class UcxTeardownInProcessTest {
    private static final int ROUNDS = 40, THREADS = 3;

    private static Map<String, String> ucx(int nodes) {
        UcxAvailable.requireUcx("teardown over UCX");
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(nodes), "SHMEM_NETWORK", "ucx");
    }

    /**
     * A shareable context destroyed (by its own destroy, or its team's) while other threads of its
     * PE still use it: every use fails with an exception naming its routine, none reaches the
     * destroyed worker. Before, a fence racing the destruction called {@code ucp_worker_fence} on
     * the freed worker and crashed the JVM.
     */
    @ParameterizedTest(name = "destroyed by {0}")
    @ValueSource(strings = {"ctx_destroy", "team_destroy"})
    void usesRacingTheDestructionOfTheirContextFailCleanly(String destroyedBy) {
        InProcessTestSupport.runWith(2, ucx(2), () -> {
            try (Shmem shmem = Shmem.init()) {
                int peer = 1 - shmem.myPe(); // on the other node
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 8);
                List<Consumer<Context>> uses = List.of(c -> c.p(x, 0, 1L, peer), Context::fence, c -> c.atomicAdd(x, 1, 1L, peer),
                        Context::quiet, c -> c.putNbi(x, 2, new long[] {1, 2}, 0, 2, peer), c -> c.peQuiet(peer),
                        c -> c.g(x, 3, peer), Context::fence, c -> c.atomicFetchInc(x, 4, peer),
                        c -> c.putSignal(x, 5, new long[] {1}, 0, 1, x, 6, 1L, SignalOp.ADD, peer));
                ExecutorService threads = Executors.newFixedThreadPool(THREADS);
                try {
                    for (int round = 0; round < ROUNDS; round++) {
                        Team team = destroyedBy.equals("team_destroy") ? shmem.teamWorld().splitStrided(0, 1, 2, null, 0) : null;
                        Context ctx = team != null ? team.createCtx(0) : shmem.ctxCreate(0);
                        ctx.quiet(); // nothing issued: no channel yet; the users open it
                        var using = new CountDownLatch(THREADS);
                        var destroyed = new AtomicBoolean();
                        List<Future<?>> users = new ArrayList<>();
                        for (int u = 0; u < THREADS; u++) {
                            int first = round + u;
                            users.add(threads.submit(() -> {
                                for (int i = first; ; i++) {
                                    boolean over = destroyed.get(); // set after the destruction returned
                                    try {
                                        uses.get(i % uses.size()).accept(ctx);
                                    } catch (IllegalStateException e) {
                                        String m = String.valueOf(e.getMessage());
                                        assertTrue(m.contains("destroyed") || m.contains("closed"), m);
                                        return null;
                                    }
                                    if (i == first) {
                                        using.countDown();
                                    }
                                    if (over) {
                                        fail("a use that began after the destruction returned succeeded");
                                    }
                                }
                            }));
                        }
                        assertTrue(using.await(60, TimeUnit.SECONDS), "the users did not start");
                        if (team != null) {
                            team.close();
                        } else {
                            ctx.close();
                        }
                        destroyed.set(true);
                        for (Future<?> user : users) {
                            user.get(60, TimeUnit.SECONDS); // an assertion or another failure fails the job here
                        }
                    }
                } finally {
                    threads.shutdownNow();
                }
                shmem.barrierAll();
            }
        }).orThrow();
    }
}
