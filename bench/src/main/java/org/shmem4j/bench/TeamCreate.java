package org.shmem4j.bench;

import org.shmem4j.Shmem;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/**
 * Team creation latency: the experiment of figure 3 of the teams paper (Sandia OpenSHMEM), also
 * measured on SOS for the peer's reference figures (peer/README.md, "Reference figures for what
 * OSHMEM lacks"). One round is {@value #TEAMS} back-to-back {@code splitStrided} calls on the
 * world team (timed, barrier before), then the destruction of all the teams made (timed apart);
 * a repeat is the mean over its rounds, and the median of the repeats is printed.
 * <ul>
 * <li>op=dup: every split is {@code (0, 1, n)}, a duplicate of the world team.</li>
 * <li>op=halving: split {@code i} is {@code (0, 2^i, ceil(n / 2^i))} (at least 1 PE), the
 * teams {0..n-1}, {0, 2, 4, ..}, {0, 4, 8, ..}, ... of the paper; with few PEs the later teams
 * hold PE 0 only. The other PEs take part (a split is collective over the parent) and get an
 * invalid team.</li>
 * </ul>
 * Needs {@code SHMEM_TEAMS_MAX} of at least 64 plus the predefined teams (the default, 256, is
 * plenty). Every team made is verified (validity, {@code myPe}, {@code nPes} and
 * {@code translatePe} to the world team for every member) before it is destroyed.
 *
 * <p>Output: {@code team_create op=dup|halving teams=64 pes=<n> us=<v>} (microseconds per split),
 * and comment lines: {@code # team_create op=... destroy_us=<v>} (per destroy) and
 * {@code # team_create sync_share=<s> team_sync_us=<v> dup_us=<v>}, the cost of a bare
 * {@code sync} of the world team (the one barrier a shmem4j split performs, to exchange the
 * free-slot masks) as a share of a dup split; the rest is local work (mask AND, team set-up).
 */
public final class TeamCreate {
    /** Teams made per round, as the paper (SOS's limit of 64 simultaneous teams). */
    static final int TEAMS = 64;
    /** Splits the JIT warm-up floor asks for (splits are heavier than puts; 200 ms of rounds follow anyway). */
    static final long JIT_SPLITS = 4096;

    private TeamCreate() {
    }

    public static void main(String[] args) {
        System.exit(run(Knobs.fromEnvironment()));
    }

    /** The stride of split {@code i} of a halving round (2^i, bounded so it stays an int). */
    static int halvingStride(int i) {
        return 1 << Math.min(i, 30);
    }

    /** The size of split {@code i} of a halving round over {@code n} PEs: ceil(n / 2^i), at least 1. */
    static int halvingSize(int n, int i) {
        if (i >= 31) {
            return 1;
        }
        long s = 1L << i;
        return (int) Math.max(1, (n + s - 1) / s);
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int nrep = knobs.reps();
            Team world = shmem.teamWorld();
            long rounds = knobs.scaled(1000);   // the paper: the mean over 1000 rounds of 64 splits (here per repeat)
            long warm = knobs.warmup(Math.max(1, rounds / 10));
            if (knobs.jitWarmup()) {
                warm = Math.max(warm, Math.ceilDiv(JIT_SPLITS, TEAMS));
            }
            Team[] teams = new Team[TEAMS];
            double[] v = new double[nrep];
            double[] d = new double[nrep];
            double dupUs = 0;
            for (int op = 0; op < 2; op++) {
                boolean halving = op == 1;
                String name = halving ? "halving" : "dup";
                try (Warmup warmup = new Warmup(shmem, knobs)) {
                    long t0 = System.nanoTime();
                    do {
                        for (long r = 0; r < warm; r++) {
                            round(shmem, world, teams, halving, null);
                        }
                    } while (warmup.again(t0));
                }
                long[] times = new long[2];
                for (int rep = 0; rep < nrep; rep++) {
                    long split = 0;
                    long destroy = 0;
                    for (long r = 0; r < rounds; r++) {
                        round(shmem, world, teams, halving, times);
                        split += times[0];
                        destroy += times[1];
                    }
                    v[rep] = Bench.usPer(split, (double) rounds * TEAMS);
                    d[rep] = Bench.usPer(destroy, (double) rounds * TEAMS);
                }
                double us = Bench.median(v, nrep);
                if (!halving) {
                    dupUs = us;
                }
                if (me == 0) {
                    Bench.line("team_create op=%s teams=%d pes=%d us=%.3f", name, TEAMS, n, us);
                    Bench.line("# team_create op=%s destroy_us=%.3f (per team, all %d destroyed after each round)",
                            name, Bench.median(d, nrep), TEAMS);
                }
            }
            // a bare sync of the parent: the one collective step of a shmem4j split (its mask exchange)
            long iters = knobs.scaled(20000);
            try (Warmup warmup = new Warmup(shmem, knobs)) {
                long t0 = System.nanoTime();
                long w = knobs.warmup(Math.max(1, iters / 10), 8);
                do {
                    syncs(world, w);
                } while (warmup.again(t0));
            }
            for (int rep = 0; rep < nrep; rep++) {
                shmem.barrierAll();
                long t0 = System.nanoTime();
                syncs(world, iters);
                v[rep] = Bench.usPer(System.nanoTime() - t0, iters);
            }
            double syncUs = Bench.median(v, nrep);
            if (me == 0) {
                Bench.line("# team_create sync_share=%.2f team_sync_us=%.3f dup_us=%.3f pes=%d",
                        syncUs / dupUs, syncUs, dupUs, n);
            }
            shmem.barrierAll();
            return 0;
        }
    }

    private static void syncs(Team team, long n) {
        for (long i = 0; i < n; i++) {
            team.sync();
        }
    }

    /**
     * One round: {@value #TEAMS} splits of {@code world} (timed into {@code times[0]} when
     * {@code times} is not null), verification, destruction of all (timed into {@code times[1]}).
     */
    private static void round(Shmem shmem, Team world, Team[] teams, boolean halving, long[] times) {
        int n = world.nPes();
        shmem.barrierAll();
        long t0 = System.nanoTime();
        if (halving) {
            for (int i = 0; i < TEAMS; i++) {
                teams[i] = world.splitStrided(0, halvingStride(i), halvingSize(n, i), TeamConfig.DEFAULT, 0);
            }
        } else {
            for (int i = 0; i < TEAMS; i++) {
                teams[i] = world.splitStrided(0, 1, n, TeamConfig.DEFAULT, 0);
            }
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < TEAMS; i++) {
            verify(shmem, world, teams[i], i, halving);
        }
        shmem.barrierAll();
        long t2 = System.nanoTime();
        for (int i = 0; i < TEAMS; i++) {
            teams[i].close();   // collective over the team's members; a no-op on an invalid team
            teams[i] = null;
        }
        long t3 = System.nanoTime();
        if (times != null) {
            times[0] = t1 - t0;
            times[1] = t3 - t2;
        }
    }

    /** Checks split {@code i} on this PE; ends the job on a mismatch. */
    private static void verify(Shmem shmem, Team world, Team team, int i, boolean halving) {
        int me = world.myPe();
        int n = world.nPes();
        int stride = halving ? halvingStride(i) : 1;
        int size = halving ? halvingSize(n, i) : n;
        boolean member = me % stride == 0 && me / stride < size;
        String bad = null;
        if (!member) {
            if (team.isValid()) {
                bad = "is valid on a PE that is not a member";
            }
        } else if (!team.isValid()) {
            bad = "is invalid: " + team.invalidReason();
        } else if (team.nPes() != size) {
            bad = "has " + team.nPes() + " PEs, expected " + size;
        } else if (team.myPe() != me / stride) {
            bad = "numbers this PE " + team.myPe() + ", expected " + me / stride;
        } else {
            for (int j = 0; j < size && bad == null; j++) {
                int w = team.translatePe(j, world);
                if (w != j * stride) {
                    bad = "translates its PE " + j + " to world PE " + w + ", expected " + j * stride;
                }
            }
            if (bad == null && world.translatePe(me, team) != me / stride) {
                bad = "is not the translation target of this world PE";
            }
        }
        if (bad != null) {
            System.err.println("team_create: PE " + me + ": " + (halving ? "halving" : "dup") + " team " + i
                    + " (0, " + stride + ", " + size + ") " + bad);
            shmem.globalExit(3);
        }
    }
}
