package org.shmem4j.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;

/** Helpers shared by the benchmark programs (the Java side of peer/common.h). */
final class Bench {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Busy spins (with {@link Thread#onSpinWait()}) before a waiting PE starts yielding its core. */
    private static final int SPINS_BEFORE_YIELD = 4096;

    private Bench() {
    }

    /**
     * Waits until the long at offset 0 of {@code flag} (this PE's own copy of a symmetric flag)
     * equals {@code value}: the stand-in for {@code shmem_long_wait_until(flag, SHMEM_CMP_EQ, value)},
     * which shmem4j does not have yet. Acquire loads pair with the release store of {@code p}, so
     * data put before the flag (with a fence between) is visible once this returns. After a few
     * thousand spins it yields, since 2 PEs on 2 cores leave no spare core.
     */
    static void waitUntilEquals(MemorySegment flag, long value) {
        int spins = 0;
        while ((long) LONG.getAcquire(flag, 0L) != value) {
            if (spins < SPINS_BEFORE_YIELD) {
                spins++;
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
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
