package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Contexts (spec 9.5) and sessions (9.9): every option, team-relative PE numbers for RMA and AMOs,
 * private contexts and threads, destroyed contexts and the contexts of destroyed teams.
 */
@Timeout(180)
class TeamContextsInProcessTest {
    private static final long[] ALL_OPTIONS = {0, Context.CTX_SERIALIZED, Context.CTX_PRIVATE, Context.CTX_NOSTORE,
        Context.CTX_SERIALIZED | Context.CTX_NOSTORE, Context.CTX_PRIVATE | Context.CTX_NOSTORE,
        Context.CTX_SERIALIZED | Context.CTX_PRIVATE, Context.CTX_SERIALIZED | Context.CTX_PRIVATE | Context.CTX_NOSTORE};

    private static long stamp(int option, int kind, int pe) {
        return 1_000_000L * (option + 1) + 1000L * kind + pe;
    }

    @Test
    void contextsWithEveryOptionUseTheirTeamsPeNumbers() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                Team reversed = world.splitStrided(n - 1, -1, n, null, 0); // team PE t is world n-1-t
                Team evens = world.splitStrided(0, 2, 2, null, 0); // world 0, 2
                int kinds = 2, opts = ALL_OPTIONS.length;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, (long) opts * kinds * n);
                SymmetricLongArray counters = shmem.calloc(ValueLayout.JAVA_LONG, (long) opts * kinds);
                assertSame(world, shmem.team());
                for (int o = 0; o < opts; o++) {
                    long options = ALL_OPTIONS[o];
                    // the world team, through ctxCreate: world numbers
                    try (Context ctx = shmem.ctxCreate(options)) {
                        assertSame(world, ctx.team());
                        ctx.p(data, (o * kinds) * n + me, stamp(o, 0, me), (me + 1) % n);
                        ctx.atomicAdd(counters, o * kinds, me + 1, 0);
                        ctx.quiet();
                    }
                    // a reversed team: team PE 0 is world PE n-1
                    try (Context ctx = reversed.createCtx(options)) {
                        assertSame(reversed, ctx.team());
                        ctx.put(data, (o * kinds + 1) * n + me, new long[] {stamp(o, 1, me)}, 0, 1, 0);
                        long before = ctx.atomicFetchAdd(counters, o * kinds + 1, 10, 0);
                        assertTrue(before >= 0 && before < 10L * n && before % 10 == 0, "fetched " + before);
                        ctx.quiet();
                    }
                    shmem.barrierAll();
                    int left = (me - 1 + n) % n;
                    assertEquals(stamp(o, 0, left), data.get((o * kinds) * n + left));
                    if (me == 0) {
                        assertEquals((long) n * (n + 1) / 2, counters.get(o * kinds));
                    }
                    if (me == n - 1) {
                        for (int pe = 0; pe < n; pe++) {
                            assertEquals(stamp(o, 1, pe), data.get((o * kinds + 1) * n + pe));
                        }
                        assertEquals(10L * n, counters.get(o * kinds + 1));
                    } else {
                        assertEquals(0, data.get((o * kinds + 1) * n + me));
                    }
                    // gets and fetching AMOs with team numbers read the right PE
                    try (Context ctx = reversed.createCtx(options)) {
                        long[] got = new long[n];
                        ctx.get(got, 0, data, (o * kinds + 1) * n, n, 0);
                        for (int pe = 0; pe < n; pe++) {
                            assertEquals(stamp(o, 1, pe), got[pe]);
                        }
                        assertEquals(10L * n, ctx.atomicFetch(counters, o * kinds + 1, 0));
                        assertEquals(0, ctx.atomicFetch(counters, o * kinds + 1, n - 1)); // world PE 0's copy
                        // world PE 0's counter through team number n-1
                        assertEquals((long) n * (n + 1) / 2, ctx.atomicFetch(counters, o * kinds, n - 1));
                        assertEquals(stamp(o, 0, (n - 2 + n) % n), ctx.g(data, (o * kinds) * n + (n - 2 + n) % n, 0));
                    }
                    // a team of 2: team PE 2 is out of range though the world has 4 PEs
                    if (evens.isValid()) {
                        try (Context ctx = evens.createCtx(options)) {
                            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                    () -> ctx.p(data, 0, 1L, 2));
                            assertTrue(e.getMessage().contains("2"), e::getMessage);
                            assertThrows(IllegalArgumentException.class, () -> ctx.atomicFetchAdd(counters, 0, 1L, -1));
                            assertThrows(IllegalArgumentException.class, () -> ctx.g(data, 0, 2));
                            assertEquals(stamp(o, 0, 1), ctx.g(data, (o * kinds) * n + 1, 1)); // team PE 1 = world 2
                        }
                    }
                    shmem.barrierAll();
                }
                evens.close();
                reversed.close();
                shmem.barrierAll();
                counters.close();
                data.close();
            }
        });
    }

    @Test
    void unknownOptionBitsAreRefused() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                for (long bad : new long[] {8, 16, 1L << 40, -1, Context.CTX_PRIVATE | 8}) {
                    assertThrows(IllegalArgumentException.class, () -> shmem.ctxCreate(bad), "ctxCreate " + bad);
                    assertThrows(IllegalArgumentException.class, () -> shmem.teamWorld().createCtx(bad), "createCtx " + bad);
                }
                Team lone = shmem.teamWorld().splitStrided(0, 0, 1, null, 0);
                if (!lone.isValid()) {
                    assertThrows(IllegalStateException.class, () -> lone.createCtx(0));
                } else {
                    lone.close();
                }
            }
        });
    }

    @Test
    void privateContextsBelongToTheirThread() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                Team dup = shmem.teamWorld().splitStrided(1, -1, 2, null, 0);
                Context worldPrivate = shmem.ctxCreate(Context.CTX_PRIVATE);
                Context teamPrivate = dup.createCtx(Context.CTX_PRIVATE | Context.CTX_NOSTORE);
                Context shared = dup.createCtx(Context.CTX_SERIALIZED);
                for (Context ctx : new Context[] {worldPrivate, teamPrivate}) {
                    List<Consumer<Context>> uses = List.of(c -> c.p(x, 0, 1L, 0), c -> c.g(x, 0, 0),
                            c -> c.atomicFetchAdd(x, 0, 1L, 0), c -> c.atomicAdd(x, 0, 1L, 0),
                            c -> c.put(x, 0, new long[] {1}, 0, 1, 0), c -> c.team(),
                            c -> c.sessionStart(0, null, 0), Context::close);
                    for (Consumer<Context> use : uses) {
                        Throwable[] seen = new Throwable[1];
                        Thread t = Thread.ofPlatform().start(() -> {
                            try {
                                use.accept(ctx);
                            } catch (Throwable e) {
                                seen[0] = e;
                            }
                        });
                        t.join();
                        assertInstanceOf(WrongThreadException.class, seen[0], String.valueOf(seen[0]));
                    }
                }
                // a shareable context works from any thread
                Thread t = Thread.ofPlatform().start(() -> {
                    shared.atomicAdd(x, 1, 5L, 1 - me); // dup is reversed: team PE 1-me is world PE me
                    shared.quiet();
                });
                t.join();
                // the owner still uses its private contexts
                worldPrivate.atomicAdd(x, 0, 1L, (me + 1) % 2);
                teamPrivate.atomicAdd(x, 0, 1L, 1 - me); // team PE 1-me of the reversed pair is world PE me
                worldPrivate.quiet();
                teamPrivate.quiet();
                shmem.barrierAll();
                assertEquals(2, x.get(0));
                assertEquals(5, x.get(1));
                worldPrivate.close();
                teamPrivate.close();
                shared.close();
                shmem.barrierAll();
                dup.close();
                x.close();
            }
        });
    }

    @Test
    void destroyedContextsThrow() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Team dup = shmem.teamWorld().splitStrided(0, 1, 2, null, 0);
                for (long options : ALL_OPTIONS) {
                    for (Context ctx : new Context[] {shmem.ctxCreate(options), dup.createCtx(options)}) {
                        ctx.p(x, 0, 1L, 0);
                        ctx.close();
                        List<Consumer<Context>> uses = List.of(c -> c.p(x, 0, 1L, 0), c -> c.g(x, 0, 1),
                                c -> c.atomicFetchAdd(x, 0, 1L, 0), c -> c.get(new long[1], 0, x, 0, 1, 1),
                                c -> c.team(), c -> c.sessionStart(0, null, 0), Context::sessionStop, Context::close);
                        for (Consumer<Context> use : uses) {
                            IllegalStateException e = assertThrows(IllegalStateException.class, () -> use.accept(ctx),
                                    "options " + options);
                            assertTrue(e.getMessage().contains("destroyed"), e::getMessage);
                            assertTrue(e.getMessage().startsWith("shmem_"), e::getMessage);
                        }
                    }
                }
                shmem.barrierAll();
                dup.close();
                x.close();
            }
        });
    }

    /**
     * shmem_team_destroy destroys the team's shareable contexts; private contexts are the program's
     * to destroy first (spec 9.4.8: otherwise undefined). shmem4j destroys them too, so a later use
     * fails naming the cause, and closing them afterwards does nothing.
     */
    @Test
    void destroyingATeamDestroysItsContextsPrivateOnesToo() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Team dup = shmem.teamWorld().splitStrided(0, 1, n, null, 0);
                Context worldCtx = shmem.ctxCreate(0);
                List<Context> all = new ArrayList<>();
                for (long options : ALL_OPTIONS) {
                    Context c = dup.createCtx(options);
                    all.add(c);
                    c.atomicAdd(x, 0, 1L, (me + 1) % n); // puts issued before destroy complete by it
                }
                Context closedEarly = dup.createCtx(0);
                closedEarly.close();
                dup.close();
                shmem.barrierAll();
                assertEquals(ALL_OPTIONS.length, x.get(0));
                for (Context c : all) {
                    // Annex C leaves private contexts of a destroyed team undefined: they are
                    // retired with it and say so, instead of still reaching the team's members.
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.p(x, 0, 1L, 0));
                    assertTrue(e.getMessage().contains("shmem_p") && e.getMessage().contains("team was destroyed"), e::getMessage);
                    assertThrows(IllegalStateException.class, c::team);
                    c.close(); // already destroyed with the team: nothing to do
                }
                IllegalStateException early = assertThrows(IllegalStateException.class, () -> closedEarly.p(x, 0, 1L, 0));
                assertTrue(early.getMessage().contains("the context was destroyed"), early::getMessage);
                // contexts of other teams are untouched
                worldCtx.p(x, 0, 7L, me);
                worldCtx.quiet();
                assertEquals(7, x.get(0));
                worldCtx.close();
                shmem.barrierAll();
                x.close();
            }
        });
    }

    @Test
    void sessionsValidateTheirArgumentsAndKeepSemantics() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
                int len = 64;
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, len);
                Team reversed = shmem.teamWorld().splitStrided(n - 1, -1, n, null, 0);
                Context worldCtx = shmem.ctxCreate(Context.CTX_PRIVATE);
                Context teamCtx = reversed.createCtx(Context.CTX_SERIALIZED);
                Context[] contexts = {shmem, worldCtx, teamCtx};
                // argument checks
                for (Context c : contexts) {
                    assertThrows(IllegalArgumentException.class, () -> c.sessionStart(2, null, 0));
                    assertThrows(IllegalArgumentException.class, () -> c.sessionStart(-1, null, 0));
                    assertThrows(IllegalArgumentException.class, () -> c.sessionStart(0, SessionConfig.DEFAULT, 2));
                    assertThrows(IllegalArgumentException.class, () -> c.sessionStart(0, null, Context.SESSION_TOTAL_OPS));
                    c.sessionStop(); // without a session: nothing to do
                }
                Object[][] starts = {{Context.SESSION_BATCH, null, 0L}, {0L, null, 0L},
                    {Context.SESSION_BATCH, new SessionConfig(len), Context.SESSION_TOTAL_OPS},
                    {0L, SessionConfig.DEFAULT, Context.SESSION_TOTAL_OPS}, {Context.SESSION_BATCH, new SessionConfig(1), 0L}};
                int round = 0;
                for (Object[] s : starts) {
                    for (int ci = 0; ci < contexts.length; ci++) {
                        Context c = contexts[ci];
                        round++;
                        c.sessionStart((Long) s[0], (SessionConfig) s[1], (Long) s[2]);
                        // team context: team PE n-1-right is world PE right
                        int target = c == teamCtx ? n - 1 - right : right;
                        for (int i = 0; i < len; i++) {
                            if (i % 3 == 0) {
                                c.p(x, i, round * 1000L + i, target);
                            } else if (i % 3 == 1) {
                                c.putNbi(x, i, new long[] {round * 1000L + i}, 0, 1, target);
                            } else {
                                c.atomicSet(x, i, round * 1000L + i, target);
                            }
                        }
                        c.quiet(); // completes everything although the session is still open
                        shmem.barrierAll();
                        for (int i = 0; i < len; i++) {
                            assertEquals(round * 1000L + i, x.get(i), "round " + round + " from " + left + " element " + i);
                        }
                        // a get inside the session sees the data too
                        long[] back = new long[len];
                        c.get(back, 0, x, 0, len, target);
                        assertEquals(round * 1000L + len - 1, back[len - 1]);
                        c.sessionStop();
                        c.sessionStop(); // a second stop does nothing
                        shmem.barrierAll();
                    }
                }
                worldCtx.close();
                teamCtx.close();
                reversed.close();
                x.close();
            }
        });
    }

    // ------------------------------------------------------------------ threads with private contexts

    private static final int THREADS = 4;
    private static final int ITERATIONS = 600; // a multiple of 2 and 3

    /**
     * T threads per PE, each with its own private context (even threads: a world context; odd
     * threads: a context of the reversed world team), do puts and atomicFetchAdds concurrently;
     * every put lands where addressed and every fetch-add returns a distinct value.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void threadsWithPrivateContextsGetExactResults(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE);
                    ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
                int me = shmem.myPe(), n = shmem.nPes();
                long perPe = (long) THREADS * ITERATIONS;
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray seen = shmem.calloc(ValueLayout.JAVA_LONG, perPe);
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, n * perPe);
                Team reversed = shmem.teamWorld().splitStrided(n - 1, -1, n, null, 0);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        boolean team = thread % 2 == 1;
                        try (Context ctx = team ? reversed.createCtx(Context.CTX_PRIVATE) : shmem.ctxCreate(Context.CTX_PRIVATE)) {
                            for (int i = 0; i < ITERATIONS; i++) {
                                int target = (i + me + thread) % n;
                                int pe = team ? n - 1 - target : target;
                                long v = ctx.atomicFetchAdd(counter, 0, 1L, pe);
                                if (v < 0 || v >= perPe) {
                                    throw new AssertionError("fetched " + v + " from PE " + target);
                                }
                                ctx.atomicAdd(seen, v, 1L, pe);
                                ctx.p(data, ((long) me * THREADS + thread) * ITERATIONS + i, 1 + i + 10_000L * thread, pe);
                            }
                            ctx.quiet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                shmem.barrierAll();
                assertEquals(perPe, counter.get(0), "fetch-adds that reached PE " + me);
                for (long v = 0; v < perPe; v++) {
                    assertEquals(1, seen.get(v), "value " + v + " fetched on PE " + me);
                }
                for (int pe = 0; pe < n; pe++) {
                    for (int t = 0; t < THREADS; t++) {
                        for (int i = 0; i < ITERATIONS; i++) {
                            long expected = (i + pe + t) % n == me ? 1 + i + 10_000L * t : 0;
                            assertEquals(expected, data.get(((long) pe * THREADS + t) * ITERATIONS + i),
                                    "from PE " + pe + " thread " + t + " iteration " + i);
                        }
                    }
                }
                shmem.barrierAll();
                reversed.close();
                data.close();
                seen.close();
                counter.close();
            }
        });
    }
}
