package org.shmem4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import org.shmem4j.Shmem;

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

    /** True (and PE 0 says so on stderr) when the job has fewer than 2 PEs, which {@code prog} needs. */
    static boolean fewerThanTwoPes(Shmem shmem, String prog) {
        if (shmem.nPes() >= 2) {
            return false;
        }
        if (shmem.myPe() == 0) {
            System.err.println(prog + ": needs at least 2 PEs");
        }
        return true;
    }

    /**
     * A table-size knob ({@code HISTO_TABLE}, {@code IG_TABLE}): {@link #envLong}, which must be in
     * [1, 2^31); else PE 0 says so on stderr and the result is -1.
     */
    static long envTableSize(Shmem shmem, String prog, String name, long def) {
        long t = envLong(name, def);
        if (t >= 1 && t <= Integer.MAX_VALUE) {
            return t;
        }
        if (shmem.myPe() == 0) {
            System.err.println(prog + ": " + name + " must be in [1, 2^31): " + t);
        }
        return -1;
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

    /**
     * A size knob from the environment ({@code HISTO_UPDATES}, {@code IG_TABLE}, ...), parsed as C's
     * {@code strtol} (peer/common.h's {@code env_long}); unset or empty: {@code def}.
     */
    static long envLong(String name, long def) {
        return Knobs.number(System.getenv(name), def);
    }

    /** splitmix64's increment: state {@code s} steps by it, {@link #mix(long)} of the state is the next draw. */
    static final long GAMMA = 0x9E3779B97F4A7C15L;

    /** splitmix64's output function (the same in the C peer's histo.c and ig.c). */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The first state of PE {@code me}'s splitmix64 stream in repeat {@code r} (histo, ig; C: {@code seed_of}). */
    static long splitmixSeed(int me, int r) {
        return mix(((long) (me + 1) << 32) + r);
    }

    /** {@code [0, n)} from the high 32 bits of a draw (multiply-shift, no division; C: {@code high_below}). */
    static long highBelow(long z, long n) {
        return ((z >>> 32) * n) >>> 32;
    }

    /** {@code [0, n)} from the low 32 bits of a draw (n below 2^32; C: {@code low_below}). */
    static long lowBelow(long z, long n) {
        return ((z & 0xFFFFFFFFL) * n) >>> 32;
    }
}
