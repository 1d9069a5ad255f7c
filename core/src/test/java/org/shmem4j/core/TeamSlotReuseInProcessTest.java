package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.core.coll.DisseminationBarrier;
import org.shmem4j.transport.deferred.Holdback;

/**
 * A destroyed team's block is zeroed and handed to the next team: no raise of the old team may land
 * in it afterwards. The push broadcast's "entered" raises are awaited by the root only two
 * collectives later, quiet does not complete raises, and the destroy's barrier does not connect
 * every pair of members (4 members: member 1 never signals member 0), so on a network that
 * delivers one late (the deferred network holds the root's "entered" raises back) the next team's
 * root would find its members entered before they did and skip its waits.
 */
@Timeout(120)
class TeamSlotReuseInProcessTest {
    private static final int ROOT = 0;

    /** The engine between nodes: the deferred network, or the one {@code SHMEM_NETWORK} names (CI: ucx, which holds nothing back). */
    private static final String NETWORK = System.getenv().getOrDefault("SHMEM_NETWORK", "deferred");

    private static Map<String, String> nodes(int k) {
        // push broadcast also where the policy would go through host leaders: its "entered" raises are the late ones
        return InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(k), "SHMEM_NETWORK", NETWORK,
                "SHMEM_BCAST_ALGORITHM", "push");
    }

    /** A job that failed before its release leaves nothing held for the next test in this JVM. */
    @AfterEach
    void releaseWhatIsHeld() {
        Holdback.release();
    }

    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"3, 2", "4, 2", "5, 2", "4, 4", "6, 3"})
    void aLateRaiseOfADestroyedTeamNeverReachesTheNextTeamInItsSlot(int npes, int k) {
        InProcessTestSupport.runWith(npes, nodes(k), () -> {
            try (PeRuntime shmem = (PeRuntime) Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                Team world = shmem.teamWorld();
                TeamPool pool = shmem.teams().pool();
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                SymmetricLongArray entered = shmem.calloc(ValueLayout.JAVA_LONG, 1); // the collective this PE entered last
                Team team = world.splitStrided(0, 1, n, null, 0);
                TeamPool.Block block = ((TeamImpl) team).block();
                TeamPool.Layout layout = ((TeamImpl) team).layout();
                long start = pool.start(block);
                for (int round = 0; round < 4; round++) {
                    // collective 1; 2 and 3: the root has seen every member's entry into 2 when 3 returns
                    collective(shmem, team, entered, 1, src, dest, round);
                    collective(shmem, team, entered, 2, src, dest, round);
                    collective(shmem, team, entered, 3, src, dest, round);
                    if (me == ROOT) { // the "entered" of collective 4 goes late
                        Holdback.hold(ROOT, start + layout.ackFlags(), start + layout.ackFlags() + n * layout.flagStride());
                    }
                    world.sync();
                    collective(shmem, team, entered, 4, src, dest, round);
                    team.close();
                    // Every member zeroed the block before anyone sends again: a later message to
                    // the root (the split's barrier) would take the held raise along.
                    world.sync();
                    team = world.splitStrided(0, 1, n, null, 0);
                    assertEquals(block, ((TeamImpl) team).block(), "the next team takes the freed block");
                    if (me == ROOT) {
                        Holdback.release(); // what is still held lands now
                    }
                    world.sync();
                    assertFresh(shmem.localRegion(), start, layout, n, me, round);
                    world.sync(); // no member uses the new team before every member looked
                }
                team.close();
                entered.close();
                dest.close();
                src.close();
            }
        }).orThrow();
    }

    /**
     * Collective {@code seq} of the team: a sum reduction for the first, else a broadcast from the
     * root, whose result every PE checks; the root also checks it waited as the push broadcast
     * must (until every member entered collective {@code seq - 2}).
     */
    private static void collective(Shmem shmem, Team team, SymmetricLongArray entered, int seq, SymmetricLongArray src,
            SymmetricLongArray dest, int round) {
        int me = shmem.myPe(), n = shmem.nPes();
        for (int j = 0; j < 4; j++) {
            src.set(j, 1000L * round + 100L * seq + 10L * me + j);
        }
        entered.set(0, seq);
        if (seq == 1) {
            team.sumReduce(dest, src, 4);
            for (int j = 0; j < 4; j++) {
                assertEquals(n * (1000L * round + 100L + j) + 10L * n * (n - 1) / 2, dest.get(j),
                        "round " + round + " reduction at PE " + me);
            }
            return;
        }
        team.broadcast(dest, src, 4, ROOT);
        for (int j = 0; j < 4; j++) {
            assertEquals(1000L * round + 100L * seq + 10L * ROOT + j, dest.get(j),
                    "round " + round + " broadcast " + seq + " at PE " + me);
        }
        if (me == ROOT) {
            for (int m = 0; m < n; m++) {
                long theirs = shmem.g(entered, 0, m);
                assertTrue(theirs >= seq - 2, "round " + round + ": the root left broadcast " + seq + " while PE " + m
                        + " had entered collective " + theirs + " only");
            }
        }
    }

    /** The block's barrier and flag words on this PE are zero, as a new team's first collectives need them. */
    private static void assertFresh(MemorySegment region, long start, TeamPool.Layout layout, int n, int me, int round) {
        long barrier = start + layout.barrier();
        for (long off = 0; off < DisseminationBarrier.bytesNeeded(n); off += 8) {
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, barrier + off), "round " + round + ": barrier word at +" + off
                    + " of the new team's block at PE " + me);
        }
        for (int m = 0; m < n; m++) {
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, start + layout.senderFlags() + m * layout.flagStride()),
                    "round " + round + ": member " + m + "'s sender flag in the new team's block at PE " + me);
            assertEquals(0L, region.get(ValueLayout.JAVA_LONG, start + layout.ackFlags() + m * layout.flagStride()),
                    "round " + round + ": member " + m + "'s acknowledgement flag (entered) in the new team's block at PE " + me);
        }
    }
}
