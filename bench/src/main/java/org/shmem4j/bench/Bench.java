package org.shmem4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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

    /** Wall-clock now in microseconds since the epoch (comparable across the PEs of one machine). */
    static long nowUs() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }

    /** VmRSS of this process in kB (0 where /proc does not tell: not Linux). */
    static long rssKb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
