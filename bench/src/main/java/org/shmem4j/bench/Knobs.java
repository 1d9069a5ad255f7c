package org.shmem4j.bench;

import java.util.Map;

/**
 * The benchmark knobs, the same as the C peer's (peer/common.h), read from a map so that tests can
 * pass their own values (a process cannot change its environment):
 * <ul>
 * <li>{@code PEER_REPS} (default 7, clamped to 1..64): timed repeats; the median is printed.</li>
 * <li>{@code PEER_SCALE} (percent, default 100): iteration counts are {@code n * PEER_SCALE / 100},
 *     at least 1, exactly as C's {@code scaled()}.</li>
 * <li>{@code BENCH_WARMUP_SCALE}, or the system property {@code bench.warmup.scale} (which wins),
 *     default 1: the untimed warm-up runs this many times the C peer's warm-up count.</li>
 * <li>{@code BENCH_JIT_WARMUP}, or the system property {@code bench.jit.warmup}, default 1 (on):
 *     the warm-up also runs at least {@link #JIT_OPS} operations (fewer for big transfers, at most
 *     {@link #JIT_BYTES} bytes moved), whatever PEER_SCALE is. The C warm-up is a tenth of a
 *     repeat, too few calls for the JIT to reach C2 in the hot loop at small PEER_SCALE, and the
 *     first timed repeats would then measure the interpreter. Set 0 (with scale 1) for exactly the
 *     C warm-up.</li>
 * <li>{@code BENCH_WARMUP_MS}, or the system property {@code bench.warmup.ms}, default 200: the
 *     first warm-up round of each program part is repeated (all PEs alike, see {@link Warmup})
 *     until this many milliseconds have passed and then until the rounds stop getting faster, so
 *     that the JIT's compilations of the hot loops have settled before timing starts. 0: one
 *     round, as the C peer.</li>
 * </ul>
 */
public record Knobs(int reps, long scalePercent, double warmupScale, boolean jitWarmup, long warmupMillis) {
    /** Operations the JIT warm-up floor asks for (hot loops reach C2 well before this). */
    public static final long JIT_OPS = 50_000;
    /**
     * Bound of the bytes the JIT warm-up floor moves per measurement: a 64 KiB operation still gets
     * 8,192 calls, past HotSpot's 5,000 invocations that compile a method with C2 (256 MiB gave
     * 4,096, and stop 38's fcollect of 1,024 longs at 8 PEs was timed while C2 compiled its entry).
     */
    public static final long JIT_BYTES = 512L << 20;
    /** Same bound as C's MAX_REPS. */
    public static final int MAX_REPS = 64;

    public Knobs {
        if (reps < 1 || reps > MAX_REPS) {
            throw new IllegalArgumentException("reps must be in [1, " + MAX_REPS + "]: " + reps);
        }
        if (!(warmupScale >= 1.0)) {
            throw new IllegalArgumentException("warm-up scale must be at least 1: " + warmupScale);
        }
    }

    /** Knobs from the process environment (and the {@code bench.warmup.scale} system property). */
    public static Knobs fromEnvironment() {
        return of(System.getenv());
    }

    /** Knobs from {@code env}, with C's defaults and parsing (a bad number counts as 0, like strtol). */
    public static Knobs of(Map<String, String> env) {
        long r = number(env.get("PEER_REPS"), 7);
        int reps = (int) Math.max(1, Math.min(MAX_REPS, r));
        long scale = number(env.get("PEER_SCALE"), 100);
        String w = setting(env, "bench.warmup.scale", "BENCH_WARMUP_SCALE");
        double warm = w == null ? 1.0 : Math.max(1.0, Double.parseDouble(w));
        String j = setting(env, "bench.jit.warmup", "BENCH_JIT_WARMUP");
        boolean jit = j == null || !(j.equals("0") || j.equalsIgnoreCase("false") || j.equalsIgnoreCase("no"));
        String ms = setting(env, "bench.warmup.ms", "BENCH_WARMUP_MS");
        long millis = ms == null ? 200 : Math.max(0, number(ms, 200));
        return new Knobs(reps, scale, warm, jit, millis);
    }

    /** C's {@code scaled(n)}: {@code n * PEER_SCALE / 100}, at least 1. */
    public long scaled(long n) {
        long v = n * scalePercent / 100;
        return v < 1 ? 1 : v;
    }

    /** A warm-up count: the C peer's {@code cWarmup} times the warm-up scale (at least {@code cWarmup}). */
    public long warmup(long cWarmup) {
        return Math.max(cWarmup, (long) Math.ceil(cWarmup * warmupScale));
    }

    /**
     * A warm-up count of operations that move {@code bytesPerOp} each: {@link #warmup(long)}, and
     * with the JIT floor on at least {@code min(JIT_OPS, JIT_BYTES / bytesPerOp)} (at least 1).
     */
    public long warmup(long cWarmup, long bytesPerOp) {
        long w = warmup(cWarmup);
        if (!jitWarmup) {
            return w;
        }
        long floor = Math.max(1, Math.min(JIT_OPS, JIT_BYTES / Math.max(1, bytesPerOp)));
        return Math.max(w, floor);
    }

    private static String setting(Map<String, String> env, String property, String variable) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = env.get(variable);
        }
        return v == null || v.isBlank() ? null : v.trim();
    }

    static long number(String s, long def) {
        if (s == null || s.isBlank()) {
            return def;
        }
        // strtol semantics: leading digits (optionally signed), anything else ends the number
        String t = s.trim();
        int i = 0;
        if (i < t.length() && (t.charAt(i) == '-' || t.charAt(i) == '+')) {
            i++;
        }
        int start = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == start) {
            return 0;
        }
        return Long.parseLong(t.substring(0, i));
    }
}
