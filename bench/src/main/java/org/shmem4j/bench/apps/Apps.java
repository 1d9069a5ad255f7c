package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricDoubleArray;

/**
 * Application kernels beside their C twins (bench/c/apps): the Parallel Research Kernels' stencil,
 * transpose and synch_p2p, and ISx's bucket sort, each self-verifying. Run on every PE:
 * <pre>
 * bin/oshrun -n N -cp ... org.shmem4j.bench.apps.Apps KERNEL [--plain | --vector] [ARGS]
 *   stencil   ITERATIONS N            2-D star stencil, radius 2, on an N x N grid
 *   transpose ITERATIONS ORDER        B += A^T, blocked, column blocks per PE
 *   p2p       ITERATIONS M N          synch_p2p: pipelined wavefront on an M x N grid
 *   isx       ITERATIONS KEYS_PER_PE  bucket sort of random ints, 2^20 key values per PE
 * </pre>
 * {@code --plain} (one PE only) runs the same kernel on Java arrays instead of symmetric ones: the
 * arithmetic without the library. PE 0 prints two result lines, {@code KERNEL impl=java|java-plain
 * pes=N ... UNIT=value} over all timed iterations (the PRK's convention) and {@code KERNEL_steady
 * ...} over their second half (see {@link Clock}); the C twins print the same with {@code impl=c}.
 * The exit status is non-zero when the verification fails. {@code --vector} (stencil only) runs its sweep with the Vector API on the
 * symmetric arrays' local elements ({@code impl=java-vector}; the JVM needs
 * {@code --add-modules jdk.incubator.vector}).
 */
public final class Apps {
    private final Shmem shmem;
    final int me;
    final int npes;
    /** False for the {@code --plain} reference run. */
    final boolean symmetric;
    /** True for {@code --vector}: the stencil's sweep with the Vector API. */
    final boolean vector;
    private final SymmetricDoubleArray reduceSource;
    private final SymmetricDoubleArray reduceDest;

    private Apps(Shmem shmem, boolean symmetric, boolean vector) {
        this.shmem = shmem;
        this.vector = vector;
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.symmetric = symmetric;
        this.reduceSource = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1);
        this.reduceDest = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs one kernel on this PE (collective: every PE calls it with the same arguments); returns
     * the exit status: 0 when verified, 1 when the verification failed, 2 for a usage error.
     */
    public static int run(String[] args) {
        boolean plain = Arrays.asList(args).contains("--plain");
        boolean vector = Arrays.asList(args).contains("--vector");
        String[] rest = Arrays.stream(args).filter(a -> !a.equals("--plain") && !a.equals("--vector")).toArray(String[]::new);
        if (rest.length == 0) {
            return usage("no kernel named");
        }
        if (vector && (plain || !rest[0].equals("stencil"))) {
            return usage("--vector is for the stencil on symmetric arrays only");
        }
        long[] p = new long[rest.length - 1];
        for (int i = 1; i < rest.length; i++) {
            try {
                p[i - 1] = Long.parseLong(rest[i]);
            } catch (NumberFormatException e) {
                return usage("argument '" + rest[i] + "' is not a number");
            }
        }
        try (Shmem shmem = Shmem.init()) {
            if (plain && shmem.nPes() != 1) {
                return usage("--plain runs on one PE only (it has no communication)");
            }
            Apps app = new Apps(shmem, !plain, vector);
            Boolean ok = switch (rest[0]) {
                case "stencil" -> Stencil.run(app, shmem, (int) arg(p, 0, 50), (int) arg(p, 1, 4000));
                case "transpose" -> Transpose.run(app, shmem, (int) arg(p, 0, 20), (int) arg(p, 1, 2048));
                case "p2p" -> SynchP2p.run(app, shmem, (int) arg(p, 0, 50), (int) arg(p, 1, 4000), (int) arg(p, 2, 4000));
                case "isx" -> Isx.run(app, shmem, (int) arg(p, 0, 10), (int) arg(p, 1, 1 << 22));
                default -> null;
            };
            return ok == null ? usage("unknown kernel '" + rest[0] + "'") : ok ? 0 : 1;
        }
    }

    private static long arg(long[] p, int i, long dflt) {
        return i < p.length ? p[i] : dflt;
    }

    private static int usage(String why) {
        System.err.println("Apps: " + why + "; usage: Apps stencil|transpose|p2p|isx [--plain | --vector] [ARGS] (see the class comment)");
        return 2;
    }

    /** The implementation's name in result lines. */
    String impl() {
        return !symmetric ? "java-plain" : vector ? "java-vector" : "java";
    }

    /** Sum of {@code v} over all PEs (every PE gets it); collective. */
    double sum(double v) {
        reduceSource.set(0, v);
        shmem.teamWorld().sumReduce(reduceDest, reduceSource, 1);
        return reduceDest.get(0);
    }

    /** Maximum of {@code v} over all PEs (every PE gets it); collective. */
    double max(double v) {
        reduceSource.set(0, v);
        shmem.teamWorld().maxReduce(reduceDest, reduceSource, 1);
        return reduceDest.get(0);
    }

    /** Prints a result or comment line on PE 0 ('.' as the decimal point). */
    void line(String format, Object... args) {
        if (me == 0) {
            System.out.println(String.format(Locale.ROOT, format, args));
            System.out.flush();
        }
    }

    /**
     * Prints the kernel's result lines on PE 0: {@code KERNEL impl=... pes=N FIELDS iterations=I
     * UNIT=rate} over all timed iterations and {@code KERNEL_steady ... last=L UNIT=rate} over the
     * last L of them; {@code work} is the amount of UNIT's numerator one iteration does.
     */
    void report(Clock clock, String kernel, String fields, String unit, double work) {
        line("%s impl=%s pes=%d %s iterations=%d %s=%.1f", kernel, impl(), npes, fields, clock.iterations, unit,
                work * clock.iterations / clock.all);
        line("%s_steady impl=%s pes=%d %s iterations=%d last=%d %s=%.1f", kernel, impl(), npes, fields, clock.iterations,
                clock.lastHalf(), unit, work * clock.lastHalf() / clock.steady);
    }

    /**
     * The timing of a kernel's iterations 1 to n (iteration 0 warms up, as in the PRK): over all of
     * them, as the PRK report, and over their second half, which leaves out the JVM's remaining
     * warm-up (a kernel method that runs once per iteration is compiled only after a few of them),
     * so that a short run's rate and the steady rate are both visible. The C twins time alike.
     */
    final class Clock {
        private final int iterations;
        private double start, half;
        /** Seconds, the maximum over the PEs, once {@link #stop} returned. */
        private double all, steady;

        Clock(int iterations) {
            this.iterations = iterations;
        }

        /** Called at the top of every iteration 0..n. */
        void iteration(int iter) {
            if (iter == 1) {
                shmem.barrierAll();
                start = wtime();
            }
            if (iter == 1 + iterations / 2) {
                half = wtime();
            }
        }

        /** Ends the timing (collective); returns the time of all timed iterations. */
        double stop() {
            double end = wtime();
            all = max(end - start);
            steady = max(end - half);
            return all;
        }

        int lastHalf() {
            return iterations - iterations / 2;
        }
    }

    /** Seconds since an arbitrary origin, as the PRK's wtime(). */
    static double wtime() {
        return System.nanoTime() * 1e-9;
    }
}
