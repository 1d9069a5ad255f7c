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
 * bin/oshrun -n N -cp ... org.shmem4j.bench.apps.Apps KERNEL [--plain] [ARGS]
 *   stencil   ITERATIONS N            2-D star stencil, radius 2, on an N x N grid
 *   transpose ITERATIONS ORDER        B += A^T, blocked, column blocks per PE
 *   p2p       ITERATIONS M N          synch_p2p: pipelined wavefront on an M x N grid
 *   isx       ITERATIONS KEYS_PER_PE  bucket sort of random ints, 2^20 key values per PE
 * </pre>
 * {@code --plain} (one PE only) runs the same kernel on Java arrays instead of symmetric ones: the
 * arithmetic without the library. PE 0 prints one result line, {@code KERNEL impl=java|java-plain
 * pes=N ... UNIT=value} (the C twins print {@code impl=c}), and the exit status is non-zero when
 * the verification fails.
 */
public final class Apps {
    private final Shmem shmem;
    final int me;
    final int npes;
    /** False for the {@code --plain} reference run. */
    final boolean symmetric;
    private final SymmetricDoubleArray reduceSource;
    private final SymmetricDoubleArray reduceDest;

    private Apps(Shmem shmem, boolean symmetric) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.symmetric = symmetric;
        this.reduceSource = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1);
        this.reduceDest = shmem.calloc(ValueLayout.JAVA_DOUBLE, 1);
    }

    public static void main(String[] args) {
        boolean plain = Arrays.asList(args).contains("--plain");
        String[] rest = Arrays.stream(args).filter(a -> !a.equals("--plain")).toArray(String[]::new);
        if (rest.length == 0) {
            usage("no kernel named");
        }
        int status;
        try (Shmem shmem = Shmem.init()) {
            if (plain && shmem.nPes() != 1) {
                usage("--plain runs on one PE only (it has no communication)");
            }
            Apps app = new Apps(shmem, !plain);
            long[] p = new long[rest.length - 1];
            for (int i = 1; i < rest.length; i++) {
                p[i - 1] = Long.parseLong(rest[i]);
            }
            boolean ok = switch (rest[0]) {
                case "stencil" -> Stencil.run(app, shmem, (int) arg(p, 0, 50), (int) arg(p, 1, 4000));
                case "transpose" -> Transpose.run(app, shmem, (int) arg(p, 0, 20), (int) arg(p, 1, 2048));
                case "p2p" -> SynchP2p.run(app, shmem, (int) arg(p, 0, 50), (int) arg(p, 1, 4000), (int) arg(p, 2, 4000));
                case "isx" -> Isx.run(app, shmem, (int) arg(p, 0, 10), (int) arg(p, 1, 1 << 22));
                default -> {
                    usage("unknown kernel '" + rest[0] + "'");
                    yield false;
                }
            };
            status = ok ? 0 : 1;
        }
        System.exit(status);
    }

    private static long arg(long[] p, int i, long dflt) {
        return i < p.length ? p[i] : dflt;
    }

    private static void usage(String why) {
        System.err.println("Apps: " + why + "; usage: Apps stencil|transpose|p2p|isx [--plain] [ARGS] (see the class comment)");
        System.exit(2);
    }

    /** The implementation's name in result lines. */
    String impl() {
        return symmetric ? "java" : "java-plain";
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

    /** Seconds since an arbitrary origin, as the PRK's wtime(). */
    static double wtime() {
        return System.nanoTime() * 1e-9;
    }
}
