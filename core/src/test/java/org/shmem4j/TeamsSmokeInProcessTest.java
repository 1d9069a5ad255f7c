package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The teams paper's figure 1 and the basic team and context operations. */
@Timeout(120)
class TeamsSmokeInProcessTest {

    @Test
    void split2dOf22PesWithXrange5() {
        InProcessTestSupport.run(22, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                Team.Split2d s = shmem.teamWorld().split2d(5, null, 0, null, 0);
                int row = me / 5, col = me % 5;
                int rowSize = row < 4 ? 5 : 2;
                int colSize = col < 2 ? 5 : 4;
                assertEquals(rowSize, s.xAxis().nPes());
                assertEquals(col, s.xAxis().myPe());
                assertEquals(colSize, s.yAxis().nPes());
                assertEquals(row, s.yAxis().myPe());
                // translation back to the world: row team PE i is world 5*row + i, column PE j is 5*j + col
                for (int i = 0; i < rowSize; i++) {
                    assertEquals(row * 5 + i, s.xAxis().translatePe(i, shmem.teamWorld()));
                }
                for (int j = 0; j < colSize; j++) {
                    assertEquals(j * 5 + col, s.yAxis().translatePe(j, shmem.teamWorld()));
                }
                s.xAxis().sync();
                s.yAxis().sync();
                s.yAxis().close();
                s.xAxis().close();
            }
        });
    }

    @Test
    void teamContextsUseTeamNumbers() {
        InProcessTestSupport.run(4, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Team odd = shmem.teamWorld().splitStrided(1, 2, 2, null, 0); // world PEs 1 and 3
                if (me % 2 == 1) {
                    assertTrue(odd.isValid());
                    try (Context ctx = odd.createCtx(Context.CTX_PRIVATE)) {
                        assertEquals(odd, ctx.team());
                        ctx.p(x, 0, 100 + me, 1 - odd.myPe()); // team PE 0 <-> 1
                        ctx.quiet();
                    }
                    odd.sync();
                    assertEquals(100 + (me == 1 ? 3 : 1), x.get(0));
                    odd.close();
                } else {
                    assertFalse(odd.isValid());
                    assertEquals(-1, odd.myPe());
                    assertEquals(-1, shmem.teamWorld().translatePe(me, odd));
                }
                assertThrows(IllegalStateException.class, () -> shmem.teamWorld().close());
                shmem.barrierAll();
                x.close();
            }
        });
    }

    @Test
    void privateContextFromAnotherThreadThrows() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                Context ctx = shmem.ctxCreate(Context.CTX_PRIVATE);
                Throwable[] seen = new Throwable[1];
                Thread t = new Thread(() -> {
                    try {
                        ctx.p(x, 0, 1L, 0);
                    } catch (Throwable e) {
                        seen[0] = e;
                    }
                });
                t.start();
                t.join();
                assertTrue(seen[0] instanceof WrongThreadException, String.valueOf(seen[0]));
                ctx.close();
                assertThrows(IllegalStateException.class, () -> ctx.p(x, 0, 1L, 0));
                x.close();
            }
        });
    }
}
