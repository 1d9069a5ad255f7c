package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shmem4j.inprocess.InProcessJob;

/**
 * The hierarchical barrier, broadcast and reductions against sequential references, on pseudo-hosts
 * of even and uneven sizes, on the world team and on a split team whose hosts interleave. Run both
 * forced ({@code SHMEM_*_ALGORITHM=hierarchical}, which also covers one host) and automatic.
 */
@Timeout(300)
class HierarchicalCollectivesInProcessTest {
    private static final int ROUNDS = 30;

    static Map<String, String> forced() {
        return InProcessTestSupport.oneNodeEnv("SHMEM_BARRIER_ALGORITHM", "hierarchical", "SHMEM_BCAST_ALGORITHM", "hierarchical",
                "SHMEM_REDUCE_ALGORITHM", "hierarchical", "SHMEM_SYMMETRIC_SIZE", "16m");
    }

    @ParameterizedTest(name = "{0} PEs on {1} pseudo-hosts, forced={2}")
    @CsvSource({"4, 2, true", "5, 2, true", "6, 2, true", "6, 3, true", "12, 3, true", "12, 2, true", "7, 3, true",
            "4, 1, true", "1, 1, true", "3, 3, true", "12, 3, false", "5, 2, false", "6, 3, false"})
    void matchesReferences(int n, int hosts, boolean force) {
        Map<String, String> env = force ? forced() : InProcessTestSupport.oneNodeEnv("SHMEM_SYMMETRIC_SIZE", "16m");
        InProcessJob.run(n, hosts, env, Duration.ofSeconds(240), () -> {
            try (Shmem shmem = Shmem.init()) {
                Arrays a = new Arrays(shmem);
                exercise(shmem, a, shmem.teamWorld(), shmem.myPe());
                // a team whose members interleave hosts: world PEs 1, 3, 5, ... (team order != host order)
                Team odd = shmem.teamWorld().splitStrided(1, 2, n / 2, null, 0);
                if (odd.isValid()) {
                    exercise(shmem, a, odd, odd.myPe());
                    odd.close();
                }
                // a team whose lowest-numbered host is not host 0: world PEs n-1, n-2, ... is not a
                // strided split with negative stride, so take the upper half
                Team upper = shmem.teamWorld().splitStrided(n / 2, 1, n - n / 2, null, 0);
                if (upper.isValid()) {
                    exercise(shmem, a, upper, upper.myPe());
                    upper.close();
                }
                a.close();
            }
        }).orThrow();
    }

    /**
     * Runs of back-to-back push broadcasts from one root (whose root waits for nobody, and whose
     * members may lag up to two collectives), mixed with push reductions and fcollects that write
     * the same scratch buffers without waiting, while one member at a time falls behind: every
     * result exact. hosts = 0: the hosts and nodes the environment gives (the pseudo-node runs of
     * .ci/run put this job's PEs on nodes, some reached through the network).
     */
    @ParameterizedTest(name = "{0} PEs on {1} pseudo-hosts")
    @CsvSource({"2, 2", "3, 2", "5, 2", "6, 3", "8, 3", "4, 1", "1, 1", "5, 0", "8, 0"})
    void pushBroadcastRunsAheadSafely(int n, int hosts) {
        String[] forced = {"SHMEM_BCAST_ALGORITHM", "push", "SHMEM_REDUCE_ALGORITHM", "push",
                "SHMEM_FCOLLECT_ALGORITHM", "push"};
        InProcessJob.Program program = () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                int me = world.myPe();
                int c = 3;
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, c);
                SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, c);
                SymmetricLongArray col = shmem.calloc(ValueLayout.JAVA_LONG, (long) c * n);
                for (int it = 0; it < 300; it++) {
                    int root = it / 7 % n;
                    for (int b = 0; b <= it % 5; b++) {
                        long salt = it * 10L + b;
                        for (int i = 0; i < c; i++) {
                            src.set(i, me * 1_000_003L + i * 31L + salt);
                        }
                        if (me == it % n && b == 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(20_000); // a member falls behind
                        }
                        world.broadcast(dst, src, c, root);
                        for (int i = 0; i < c; i++) {
                            assertEquals(root * 1_000_003L + i * 31L + salt, dst.get(i),
                                    "broadcast " + b + " of run " + it + " from " + root + " [" + i + "]");
                        }
                    }
                    long salt = it * 10L + 9;
                    for (int i = 0; i < c; i++) {
                        src.set(i, me * 1_000_003L + i * 31L + salt);
                    }
                    if (it % 3 == 0) {
                        world.sumReduce(dst, src, c);
                        for (int i = 0; i < c; i++) {
                            assertEquals(1_000_003L * n * (n - 1) / 2 + n * (i * 31L + salt), dst.get(i),
                                    "sum after run " + it + " [" + i + "]");
                        }
                    } else if (it % 3 == 1) {
                        world.fcollect(col, src, c);
                        for (int j = 0; j < n * c; j++) {
                            assertEquals(j / c * 1_000_003L + j % c * 31L + salt, col.get(j), "fcollect after run " + it);
                        }
                    }
                }
                col.close();
                dst.close();
                src.close();
            }
        };
        InProcessJob.Result result = hosts == 0
                ? InProcessJob.run(n, InProcessTestSupport.env(forced), Duration.ofSeconds(240), program)
                : InProcessJob.run(n, hosts, InProcessTestSupport.oneNodeEnv(forced), Duration.ofSeconds(240), program);
        result.orThrow();
    }

    private static final int BIG = 5000; // longs: more than the 16 KiB combine chunk

    /** The symmetric arrays (allocation is collective over the world, so it happens once, outside the teams). */
    static final class Arrays {
        final SymmetricLongArray src, dst, flag, bits, mine;
        final SymmetricDoubleArray fsrc, fdst;

        Arrays(Shmem shmem) {
            src = shmem.calloc(ValueLayout.JAVA_LONG, BIG);
            dst = shmem.calloc(ValueLayout.JAVA_LONG, BIG);
            flag = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            fsrc = shmem.calloc(ValueLayout.JAVA_DOUBLE, 64);
            fdst = shmem.calloc(ValueLayout.JAVA_DOUBLE, 64);
            bits = shmem.calloc(ValueLayout.JAVA_LONG, 64L * shmem.nPes());
            mine = shmem.calloc(ValueLayout.JAVA_LONG, 64);
        }

        void close() {
            mine.close();
            bits.close();
            fdst.close();
            fsrc.close();
            flag.close();
            dst.close();
            src.close();
        }
    }

    /** Barrier visibility, broadcast from every root, sum/max/xor reductions (in place too), float reductions. */
    static void exercise(Shmem shmem, Arrays a, Team team, int me) {
        int n = team.nPes();
        int big = BIG;
        SymmetricLongArray src = a.src, dst = a.dst, flag = a.flag, bits = a.bits, mine = a.mine;
        SymmetricDoubleArray fsrc = a.fsrc, fdst = a.fdst;
        team.sync();
        for (int round = 0; round < ROUNDS; round++) {
            // barrier: each member's store before it is visible to all after it
            flag.set(0, round * 100L + me);
            team.sync();
            for (int j = 0; j < n; j++) {
                assertEquals(round * 100L + j, shmem.g(flag, 0, team.translatePe(j, shmem.teamWorld())),
                        "round " + round + ": member " + j + "'s store before the barrier");
            }
            team.sync();

            int count = round % 3 == 0 ? big : 1 + round;
            for (int i = 0; i < count; i++) {
                src.set(i, (me + 1) * 1_000_003L + i * 7L + round);
            }
            // broadcast from a rotating root
            int root = round % n;
            team.broadcast(dst, src, count, root);
            for (int i = 0; i < count; i += Math.max(1, count / 50)) {
                assertEquals((root + 1) * 1_000_003L + i * 7L + round, dst.get(i), "broadcast from " + root + " [" + i + "]");
            }
            assertEquals((root + 1) * 1_000_003L + (count - 1) * 7L + round, dst.get(count - 1));
            // sum
            team.sumReduce(dst, src, count);
            long tri = (long) n * (n + 1) / 2;
            for (int i = 0; i < count; i += Math.max(1, count / 50)) {
                assertEquals(tri * 1_000_003L + n * (i * 7L + round), dst.get(i), "sum [" + i + "]");
            }
            // max, xor
            team.maxReduce(dst, src, count);
            assertEquals(n * 1_000_003L + (count - 1) * 7L + round, dst.get(count - 1));
            team.xorReduce(dst, src, 2);
            long x = 0;
            for (int j = 0; j < n; j++) {
                x ^= (j + 1) * 1_000_003L + 7L + round;
            }
            assertEquals(x, dst.get(1));
            // in place
            team.sumReduce(src, src, count);
            assertEquals(tri * 1_000_003L + n * ((count - 1) * 7L + round), src.get(count - 1));
            // zero elements
            team.sumReduce(dst, src, 0);
            team.broadcast(dst, src, 0, n - 1);

            // floats: exact values give the reference; inexact ones must be bit-identical on every member
            for (int i = 0; i < 64; i++) {
                fsrc.set(i, (me + 1) * 0.5 + i);
            }
            team.sumReduce(fdst, fsrc, 64);
            for (int i = 0; i < 64; i++) {
                assertEquals(0.5 * n * (n + 1) / 2 + (double) n * i, fdst.get(i));
            }
            for (int i = 0; i < 64; i++) {
                fsrc.set(i, Math.sqrt(me + 2.0 + i) * 1e-3 + 1.0 / (me + 3 + round));
            }
            team.sumReduce(fdst, fsrc, 64);
            double ref = 0;
            for (int j = 0; j < n; j++) {
                ref += Math.sqrt(j + 2.0 + 5) * 1e-3 + 1.0 / (j + 3 + round);
            }
            assertEquals(ref, fdst.get(5), 1e-12);
            for (int i = 0; i < 64; i++) {
                mine.set(i, Double.doubleToRawLongBits(fdst.get(i)));
            }
            team.fcollect(bits, mine, 64);
            for (int j = 1; j < n; j++) {
                for (int i = 0; i < 64; i++) {
                    assertEquals(bits.get(i), bits.get(64L * j + i), "member " + j + " has other bits at [" + i + "]");
                }
            }
        }
        assertTrue(n >= 1);
        team.sync();
    }
}
