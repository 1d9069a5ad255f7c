package org.shmem4j.bench;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.Team;

/**
 * What a job of N PEs costs, for the scale table ({@code bench/scale.sh}): how long init took
 * (from the first PE entering it to the last leaving it), the shared memory of the job's regions
 * per PE (the proportional set size of the processes' mappings of files in {@code SHMEM_SHM_DIR},
 * summed once per process, over N: regions are sparse files, so this is what the library and the
 * program touched, not what they reserved, each page counted once however many PEs map it),
 * resident memory per PE (the processes' RSS, likewise), the latency of {@code barrier_all}
 * and of an 8-byte sum reduction over the world, and the time of a 2D split of the world into a
 * near-square grid (and destroying its teams).
 *
 * <p>Output (PE 0): {@code scale pes=<n> init_ms=<v> shm_kb_pe=<v> rss_kb_pe=<v> barrier_us=<v>
 * reduce8_us=<v> split2d_us=<v>}.
 */
public final class Scale {
    /** The first line of a mapping in /proc/self/smaps: its address range. */
    private static final java.util.regex.Pattern MAPPING = java.util.regex.Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");
    private static final int WORDS = 5; // per PE: init start, init end, RSS, process id, shm PSS

    private Scale() {
    }

    /** Runs the benchmark on this PE; returns the exit status. */
    public static int run(Knobs knobs) {
        long startUs = Bench.nowUs();
        try (Shmem shmem = Shmem.init()) {
            long endUs = Bench.nowUs();
            int me = shmem.myPe(), n = shmem.nPes();
            Team world = shmem.teamWorld();
            try (SymmetricLongArray at = shmem.calloc(ValueLayout.JAVA_LONG, (long) WORDS * n);
                    SymmetricLongArray one = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                    SymmetricLongArray sum = shmem.calloc(ValueLayout.JAVA_LONG, 1)) {
                shmem.barrierAll(); // every PE's init is done: what the regions hold now is init's
                long[] mine = {startUs, endUs, Bench.rssKb(), ProcessHandle.current().pid(), shmPssKb()};
                shmem.put(at, (long) WORDS * me, mine, 0, WORDS, 0);
                shmem.barrierAll();
                long iters = Math.max(3, knobs.scaled(Math.max(20, 20_000 / n)));
                double[] barrier = new double[knobs.reps()], reduce = new double[knobs.reps()], split = new double[knobs.reps()];
                one.set(0, me);
                for (int r = 0; r < knobs.reps(); r++) {
                    shmem.barrierAll();
                    long t0 = System.nanoTime();
                    for (long i = 0; i < iters; i++) {
                        shmem.barrierAll();
                    }
                    long t1 = System.nanoTime();
                    for (long i = 0; i < iters; i++) {
                        world.sumReduce(sum, one, 1);
                    }
                    long t2 = System.nanoTime();
                    if (sum.get(0) != (long) n * (n - 1) / 2) {
                        throw new IllegalStateException("scale: the sum of the PE numbers is " + sum.get(0) + " at PE " + me);
                    }
                    Team.Split2d grid = world.split2d((int) Math.ceil(Math.sqrt(n)), null, 0, null, 0);
                    if (!grid.xAxis().isValid() || !grid.yAxis().isValid()) {
                        throw new IllegalStateException("scale: the 2D split failed: " + grid.xAxis().invalidReason());
                    }
                    grid.yAxis().close();
                    grid.xAxis().close();
                    long t3 = System.nanoTime();
                    barrier[r] = Bench.usPer(t1 - t0, iters);
                    reduce[r] = Bench.usPer(t2 - t1, iters);
                    split[r] = Bench.usPer(t3 - t2, 1);
                }
                if (me == 0) {
                    long first = Long.MAX_VALUE, last = 0, rss = 0, shm = 0;
                    java.util.Set<Long> processes = new java.util.HashSet<>();
                    for (int pe = 0; pe < n; pe++) {
                        first = Math.min(first, at.get((long) WORDS * pe));
                        last = Math.max(last, at.get((long) WORDS * pe + 1));
                        if (processes.add(at.get((long) WORDS * pe + 3))) {
                            rss += at.get((long) WORDS * pe + 2);
                            shm += at.get((long) WORDS * pe + 4);
                        }
                    }
                    int reps = knobs.reps();
                    Bench.line("scale pes=%d init_ms=%.1f shm_kb_pe=%d rss_kb_pe=%d barrier_us=%.2f reduce8_us=%.2f split2d_us=%.0f",
                            n, (last - first) / 1e3, shm / n, rss / n, Bench.median(barrier, reps),
                            Bench.median(reduce, reps), Bench.median(split, reps));
                }
                shmem.barrierAll();
            }
        }
        return 0;
    }

    /** This process's proportional set size of its mappings of files in the regions' directory, in kB. */
    private static long shmPssKb() {
        String dir = System.getenv().getOrDefault("SHMEM_SHM_DIR", "/dev/shm") + "/";
        long kb = 0;
        boolean inRegion = false;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/smaps"))) {
                if (MAPPING.matcher(l).lookingAt()) {
                    inRegion = l.contains(dir);
                } else if (inRegion && l.startsWith("Pss:")) {
                    kb += Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0; // not Linux: no figure
        }
        return kb;
    }
}
