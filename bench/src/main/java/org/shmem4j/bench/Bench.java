package org.shmem4j.bench;

import java.util.Arrays;
import java.util.Locale;

/** Helpers shared by the benchmark programs (the Java side of peer/common.h). */
final class Bench {
    private Bench() {
    }

    /** Median of {@code v[0..n-1]} (sorts a copy), as C's {@code median_of}. */
    static double median(double[] v, int n) {
        double[] s = Arrays.copyOf(v, n);
        Arrays.sort(s);
        return (n % 2 == 1) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }

    /** Microseconds per operation from a nanosecond interval. */
    static double usPer(long nanos, double ops) {
        return nanos / 1e3 / ops;
    }

    /** Prints one result line (C's printf formats, '.' as decimal point) and flushes. */
    static void line(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}
