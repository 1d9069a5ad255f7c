package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code SHMEM_TEAM_INVALID} and {@code SHMEM_CTX_INVALID} as values users compare with, the
 * spec's defined behaviour on them, and context creation that may fail without an exception.
 */
@Timeout(120)
class InvalidHandlesInProcessTest {

    /** Spec Example (9.4.3 style): a team variable starts invalid and non-members compare equal to it. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void splitsHandNonMembersAndFailuresTheInvalidTeamItself(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                Team evens = Team.INVALID;
                assertFalse(evens.isValid());
                evens = shmem.teamWorld().splitStrided(0, 2, (npes + 1) / 2, null, 0);
                boolean member = shmem.myPe() % 2 == 0;
                assertEquals(member, evens != Team.INVALID, () -> "PE " + shmem.myPe());
                if (!member) {
                    assertTrue(Team.INVALID.invalidReason().contains("not a member"), Team.INVALID::invalidReason);
                }
                Team bad = shmem.teamWorld().splitStrided(0, 1, npes + 1, null, 0);
                assertSame(Team.INVALID, bad);
                assertTrue(bad.invalidReason().contains("shmem_team_split_strided"), bad::invalidReason);
                Team.Split2d none = Team.INVALID.split2d(1, null, 0, null, 0);
                assertSame(Team.INVALID, none.xAxis());
                assertSame(Team.INVALID, none.yAxis());
                assertSame(Team.INVALID, Team.INVALID.splitStrided(0, 1, 1, null, 0));
                evens.close(); // destroying SHMEM_TEAM_INVALID does nothing
                Team.INVALID.close();
            }
        });
    }

    @Test
    void theInvalidTeamAnswersAsTheSpecSays() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Team t = Team.INVALID;
                assertEquals(-1, t.myPe());
                assertEquals(-1, t.nPes());
                assertEquals(-1, shmem.teamWorld().translatePe(0, t));
                assertEquals(-1, t.translatePe(0, shmem.teamWorld()));
                assertNull(t.ptr(x, 0));
                assertEquals(Optional.empty(), t.tryCreateCtx(0));
                IllegalStateException e = assertThrows(IllegalStateException.class, t::sync);
                assertTrue(e.getMessage().contains("shmem_team_sync") && e.getMessage().contains("SHMEM_TEAM_INVALID"), e::getMessage);
                assertThrows(IllegalStateException.class, () -> t.createCtx(0));
                x.close();
            }
        });
    }

    @Test
    void theInvalidContextDoesNothingWhereTheSpecSaysAndOtherwiseNamesTheRoutine() {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Context ctx = Context.INVALID;
                ctx.fence();
                ctx.quiet();
                ctx.sessionStart(Context.SESSION_BATCH, null, 0);
                ctx.sessionStop();
                assertSame(Team.INVALID, ctx.team());
                ctx.close();
                IllegalStateException put = assertThrows(IllegalStateException.class, () -> ctx.p(x, 0, 1L, 1));
                assertTrue(put.getMessage().contains("shmem_p") && put.getMessage().contains("SHMEM_CTX_INVALID"), put::getMessage);
                assertThrows(IllegalStateException.class, () -> ctx.atomicFetchAdd(x, 0, 1L, 0));
                assertThrows(IllegalStateException.class, () -> ctx.get(new long[1], 0, x, 0, 1, 0));
                x.close();
            }
        });
    }

    /** Spec Example 16's pattern: a thread-local context that starts invalid and is created on first use. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void contextCreationCanBeTriedWithoutAnException(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Context ctx = Context.INVALID;
                if (ctx == Context.INVALID) {
                    ctx = shmem.tryCtxCreate(Context.CTX_PRIVATE).orElse(Context.INVALID);
                }
                assertNotSame(Context.INVALID, ctx);
                ctx.atomicAdd(x, 0, 1L, (me + 1) % n);
                ctx.close();
                shmem.barrierAll();
                assertEquals(1, x.get(0));
                Team dup = shmem.teamWorld().splitStrided(0, 1, n, null, 0);
                try (Context teamCtx = dup.tryCreateCtx(0).orElseThrow()) {
                    assertSame(dup, teamCtx.team());
                }
                dup.close();
                assertEquals(Optional.empty(), dup.tryCreateCtx(0), "a destroyed team creates no context");
                assertThrows(IllegalArgumentException.class, () -> shmem.tryCtxCreate(1L << 40), "bad options still throw");
                x.close();
            }
        });
    }

    /** Annex C: a private context of a destroyed team is retired, also when another thread destroyed it. */
    @Test
    void aPrivateContextDiesWithItsTeamWhoeverDestroysIt() throws Exception {
        InProcessTestSupport.run(2, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Team dup = shmem.teamWorld().splitStrided(0, 1, shmem.nPes(), null, 0);
                CountDownLatch destroyed = new CountDownLatch(1);
                Throwable[] seen = new Throwable[1];
                Context[] created = new Context[1];
                // The owner thread creates the private context and uses it after another thread
                // (this one) destroyed the team.
                CountDownLatch made = new CountDownLatch(1);
                Thread owner = Thread.ofPlatform().start(() -> {
                    created[0] = dup.createCtx(Context.CTX_PRIVATE);
                    made.countDown();
                    try {
                        destroyed.await();
                        created[0].p(x, 0, 1L, 0);
                    } catch (Throwable t) {
                        seen[0] = t;
                    }
                });
                made.await();
                dup.close();
                destroyed.countDown();
                owner.join();
                assertTrue(seen[0] instanceof IllegalStateException && seen[0].getMessage().contains("team was destroyed"),
                        () -> String.valueOf(seen[0]));
                shmem.barrierAll();
                assertEquals(0, x.get(0), "a put through a retired context was delivered");
                x.close();
            }
        });
    }

    /** Contexts do not outlive the library either: after the last finalize they say so. */
    @Test
    void contextsAreDestroyedByTheLastFinalize() {
        InProcessTestSupport.run(2, () -> {
            Shmem shmem = Shmem.init();
            Team dup = shmem.teamWorld().splitStrided(0, 1, shmem.nPes(), null, 0);
            Context shared = shmem.ctxCreate(0);
            Context teamPrivate = dup.createCtx(Context.CTX_PRIVATE);
            shmem.close();
            for (Context c : new Context[] {shared, teamPrivate}) {
                IllegalStateException e = assertThrows(IllegalStateException.class, c::quiet);
                assertTrue(e.getMessage().contains("shmem_quiet") && e.getMessage().contains("finalized"), e::getMessage);
                c.close();
            }
        });
    }
}
