package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.core.heap.Allocation;
import org.shmem4j.core.heap.SymmetricHeap;

/**
 * Every reduction and scan algorithm against sequential reference values: every carrier type and
 * every operation allowed for it, PE counts including non-powers of two, sizes from 0 to well
 * beyond the collective scratch buffer, in place, bit-identical floating-point results on every
 * member, and long runs of back-to-back calls.
 */
@Tag("exhaustive") // every algorithm x every case: run by .ci/run after the README's test command
@Timeout(300)
class CollectiveReduceTest {
    static final String[] REDUCE_ALGORITHMS = {"linear", "push", "push_ring", "tree", "recursive_doubling", "ring",
        "rabenseifner", "hierarchical"};
    static final long LARGE = 70_000; // > 16 KiB for every carrier (65536 longs is 512 KiB)

    enum Carrier {
        BYTE(ValueLayout.JAVA_BYTE), SHORT(ValueLayout.JAVA_SHORT), INT(ValueLayout.JAVA_INT), LONG(ValueLayout.JAVA_LONG),
        FLOAT(ValueLayout.JAVA_FLOAT), DOUBLE(ValueLayout.JAVA_DOUBLE);

        final ValueLayout layout;

        Carrier(ValueLayout layout) {
            this.layout = layout;
        }

        boolean integer() {
            return this != FLOAT && this != DOUBLE;
        }

        int bits() {
            return (int) layout.byteSize() * 8;
        }

        List<Op> ops() {
            return integer() ? List.of(Op.values()) : List.of(Op.MAX, Op.MIN, Op.SUM, Op.PROD);
        }

        /** Sign-extends the low bits() of v (the raw representation of an element). */
        long trunc(long v) {
            return switch (bits()) {
                case 8 -> (byte) v;
                case 16 -> (short) v;
                case 32 -> (int) v;
                default -> v;
            };
        }
    }

    enum Op {
        AND("and"), OR("or"), XOR("xor"), UMAX("umax"), UMIN("umin"), MAX("max"), MIN("min"), SUM("sum"), PROD("prod");

        final String method;

        Op(String name) {
            this.method = name + "Reduce";
        }
    }

    // ------------------------------------------------------------------ raw element access

    static long getRaw(Carrier c, MemorySegment seg, long i) {
        return switch (c.bits()) {
            case 8 -> seg.get(ValueLayout.JAVA_BYTE, i);
            case 16 -> seg.get(ValueLayout.JAVA_SHORT, i * 2);
            case 32 -> seg.get(ValueLayout.JAVA_INT, i * 4);
            default -> seg.get(ValueLayout.JAVA_LONG, i * 8);
        };
    }

    static void setRaw(Carrier c, MemorySegment seg, long i, long v) {
        switch (c.bits()) {
            case 8 -> seg.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case 16 -> seg.set(ValueLayout.JAVA_SHORT, i * 2, (short) v);
            case 32 -> seg.set(ValueLayout.JAVA_INT, i * 4, (int) v);
            default -> seg.set(ValueLayout.JAVA_LONG, i * 8, v);
        }
    }

    static SymmetricArray<?> alloc(Shmem shmem, Carrier c, long n) {
        return switch (c) {
            case BYTE -> shmem.calloc(ValueLayout.JAVA_BYTE, n);
            case SHORT -> shmem.calloc(ValueLayout.JAVA_SHORT, n);
            case INT -> shmem.calloc(ValueLayout.JAVA_INT, n);
            case LONG -> shmem.calloc(ValueLayout.JAVA_LONG, n);
            case FLOAT -> shmem.calloc(ValueLayout.JAVA_FLOAT, n);
            case DOUBLE -> shmem.calloc(ValueLayout.JAVA_DOUBLE, n);
        };
    }

    static void call(Team team, String method, SymmetricArray<?> dest, SymmetricArray<?> source, long n) {
        try {
            Method m = Team.class.getMethod(method, dest.getClass(), source.getClass(), long.class);
            m.invoke(team, dest, source, n);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ reference

    static long apply(Carrier c, Op op, long a, long b) {
        switch (c) {
            case FLOAT -> {
                float x = Float.intBitsToFloat((int) a);
                float y = Float.intBitsToFloat((int) b);
                float r = switch (op) {
                    case MAX -> x >= y ? x : y;
                    case MIN -> x <= y ? x : y;
                    case SUM -> x + y;
                    case PROD -> x * y;
                    default -> throw new IllegalArgumentException();
                };
                return Float.floatToRawIntBits(r);
            }
            case DOUBLE -> {
                double x = Double.longBitsToDouble(a);
                double y = Double.longBitsToDouble(b);
                double r = switch (op) {
                    case MAX -> x >= y ? x : y;
                    case MIN -> x <= y ? x : y;
                    case SUM -> x + y;
                    case PROD -> x * y;
                    default -> throw new IllegalArgumentException();
                };
                return Double.doubleToRawLongBits(r);
            }
            default -> {
                long mask = c.bits() == 64 ? -1L : (1L << c.bits()) - 1;
                long r = switch (op) {
                    case AND -> a & b;
                    case OR -> a | b;
                    case XOR -> a ^ b;
                    case UMAX -> Long.compareUnsigned(a & mask, b & mask) >= 0 ? a : b;
                    case UMIN -> Long.compareUnsigned(a & mask, b & mask) <= 0 ? a : b;
                    case MAX -> a >= b ? a : b;
                    case MIN -> a <= b ? a : b;
                    case SUM -> a + b;
                    case PROD -> a * b;
                };
                return c.trunc(r);
            }
        }
    }

    private static final long[] SPECIAL = {Long.MIN_VALUE, -1, 0x80, 0x7F, 0xFF, Long.MAX_VALUE, 0x8000, 0x7FFF,
        0x8000_0000L, 0x7FFF_FFFFL, 1, 0, -2, 0x5555_5555_5555_5555L, 0xFEDC_BA98_7654_3210L, -128};

    /**
     * Member pe's element i for an exact test: sign bits and wraparound for integers; for floats
     * small integers (sums exact), powers of two (products exact) and quarters (max/min).
     */
    static long value(Carrier c, Op op, int pe, long i) {
        long h = (pe * 0x9E37_79B9L + i * 0x7F4A_7C15L) & 0x7FFF_FFFF;
        if (c.integer()) {
            long v = switch (op) {
                case AND -> ~(1L << ((pe * 5 + i) % c.bits()));
                case OR -> 1L << ((pe * 3 + i) % c.bits());
                default -> (h & 3) == 0 ? h * 0x1_0001L : SPECIAL[(int) ((pe * 7 + i * 3 + (h >> 5)) % SPECIAL.length)];
            };
            return c.trunc(v);
        }
        double d = switch (op) {
            case SUM -> (double) (h % 201) - 100;
            case PROD -> new double[] {1, -1, 2, 0.5, -2, 1, -0.5}[(int) (h % 7)];
            default -> ((h % 401) - 200) * 0.25 + (h % 401 == 200 ? 1 : 0); // no signed zeros
        };
        return c == Carrier.FLOAT ? Float.floatToRawIntBits((float) d) : Double.doubleToRawLongBits(d);
    }

    static long expected(Carrier c, Op op, int members, long i) {
        long acc = value(c, op, 0, i);
        for (int pe = 1; pe < members; pe++) {
            acc = apply(c, op, acc, value(c, op, pe, i));
        }
        return acc;
    }

    // ------------------------------------------------------------------ checks run on every PE

    /** One reduction of n elements (not in place, or in place), checked against the reference. */
    static void checkReduce(Shmem shmem, Carrier c, Op op, long n, boolean inPlace) {
        Team world = shmem.teamWorld();
        int me = shmem.myPe();
        int npes = shmem.nPes();
        SymmetricArray<?> src = alloc(shmem, c, Math.max(n, 1));
        SymmetricArray<?> dst = inPlace ? src : alloc(shmem, c, Math.max(n, 1));
        MemorySegment s = src.elements();
        for (long i = 0; i < n; i++) {
            setRaw(c, s, i, value(c, op, me, i));
        }
        call(world, op.method, dst, src, n);
        MemorySegment d = dst.elements();
        for (long i = 0; i < n; i++) {
            long want = expected(c, op, npes, i);
            long got = getRaw(c, d, i);
            if (want != got) {
                fail(c + " " + op + " n=" + n + (inPlace ? " in place" : "") + " on PE " + me + " of " + npes
                        + ": element " + i + " is " + Long.toHexString(got) + ", expected " + Long.toHexString(want));
            }
        }
        if (!inPlace) {
            for (long i = 0; i < n; i++) { // the source is untouched
                assertEquals(value(c, op, me, i), getRaw(c, s, i));
            }
            dst.close();
        }
        src.close();
    }

    /** Inexact floating-point reductions: every member ends with the same bits. */
    static void checkIdentical(Shmem shmem, Carrier c, Op op, long n, boolean inPlace) {
        Team world = shmem.teamWorld();
        int me = shmem.myPe();
        SymmetricArray<?> src = alloc(shmem, c, n);
        SymmetricArray<?> dst = inPlace ? src : alloc(shmem, c, n);
        SplittableRandom rnd = new SplittableRandom(1234 + me);
        MemorySegment s = src.elements();
        for (long i = 0; i < n; i++) {
            double v = op == Op.PROD ? 1 + rnd.nextDouble(-0.1, 0.1) : rnd.nextDouble(-1e6, 1e6) / 3;
            if (op != Op.PROD && i % 11 == 0) {
                // all members hold zeros of differing signs here: max/min are not commutative on them
                v = ((i / 11 + me) & 1) == 0 ? 0.0 : -0.0;
            }
            setRaw(c, s, i, c == Carrier.FLOAT ? Float.floatToRawIntBits((float) v) : Double.doubleToRawLongBits(v));
        }
        call(world, op.method, dst, src, n);
        long hash = 17;
        MemorySegment d = dst.elements();
        for (long i = 0; i < n; i++) {
            hash = hash * 0x9E37_79B9_7F4A_7C15L + getRaw(c, d, i);
        }
        SymmetricLongArray h = shmem.calloc(ValueLayout.JAVA_LONG, 3);
        h.set(0, hash);
        world.maxReduce(h, h, 1);
        long max = h.get(0);
        h.set(0, hash);
        world.minReduce(h, h, 1);
        assertEquals(max, h.get(0), c + " " + op + " n=" + n + ": members disagree on the result bits");
        assertEquals(hash, max);
        h.close();
        if (!inPlace) {
            dst.close();
        }
        src.close();
    }

    static void checkScan(Shmem shmem, Carrier c, long n, boolean inclusive, boolean inPlace) {
        Team world = shmem.teamWorld();
        int me = shmem.myPe();
        SymmetricArray<?> src = alloc(shmem, c, Math.max(n, 1));
        SymmetricArray<?> dst = inPlace ? src : alloc(shmem, c, Math.max(n, 1));
        MemorySegment s = src.elements();
        MemorySegment d = dst.elements();
        if (!inPlace) {
            for (long i = 0; i < n; i++) {
                setRaw(c, d, i, 0x55); // garbage the scan must overwrite
            }
        }
        for (long i = 0; i < n; i++) {
            setRaw(c, s, i, value(c, Op.SUM, me, i));
        }
        call(world, inclusive ? "sumInscan" : "sumExscan", dst, src, n);
        int upTo = inclusive ? me + 1 : me;
        for (long i = 0; i < n; i++) {
            long want = upTo == 0 ? 0 : expected(c, Op.SUM, upTo, i);
            long got = getRaw(c, d, i);
            if (want != got) {
                fail(c + (inclusive ? " inscan" : " exscan") + " n=" + n + (inPlace ? " in place" : "") + " on PE " + me
                        + ": element " + i + " is " + Long.toHexString(got) + ", expected " + Long.toHexString(want));
            }
        }
        if (!inPlace) {
            dst.close();
        }
        src.close();
    }

    // ------------------------------------------------------------------ tests

    static Stream<Arguments> reduceCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String alg : REDUCE_ALGORITHMS) {
            for (int npes : new int[] {1, 2, 3, 5, 8}) {
                cases.add(Arguments.of(alg, npes));
            }
        }
        cases.add(Arguments.of("ring", 12));
        cases.add(Arguments.of("rabenseifner", 12));
        cases.add(Arguments.of("recursive_doubling", 12));
        cases.add(Arguments.of("tree", 12));
        cases.add(Arguments.of("push", 12));
        cases.add(Arguments.of("push_ring", 12));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("reduceCases")
    void everyCarrierAndOperation(String algorithm, int npes) {
        boolean big = npes > 8;
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env("SHMEM_REDUCE_ALGORITHM", algorithm), () -> {
            try (Shmem shmem = Shmem.init()) {
                for (Carrier c : Carrier.values()) {
                    if (big && c != Carrier.LONG && c != Carrier.DOUBLE && c != Carrier.BYTE) {
                        continue;
                    }
                    for (Op op : c.ops()) {
                        for (long n : big ? new long[] {0, 1, 13} : new long[] {0, 1, 7, 301}) {
                            checkReduce(shmem, c, op, n, false);
                        }
                        checkReduce(shmem, c, op, big ? 13 : 33, true);
                    }
                    // beyond the scratch buffer
                    checkReduce(shmem, c, Op.SUM, LARGE, false);
                    checkReduce(shmem, c, c.integer() ? Op.UMAX : Op.MAX, LARGE, true);
                }
                checkReduce(shmem, Carrier.LONG, Op.SUM, 65536, true);
                for (Carrier c : new Carrier[] {Carrier.FLOAT, Carrier.DOUBLE}) {
                    for (Op op : c.ops()) {
                        checkIdentical(shmem, c, op, 1001, false);
                    }
                    checkIdentical(shmem, c, Op.SUM, LARGE, true);
                }
            }
        }).orThrow();
    }

    static Stream<Arguments> scanCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String alg : new String[] {"linear", "log"}) {
            for (int npes : new int[] {1, 2, 3, 5, 8}) {
                cases.add(Arguments.of(alg, npes));
            }
        }
        cases.add(Arguments.of("log", 12));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("scanCases")
    void scans(String algorithm, int npes) {
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env("SHMEM_SCAN_ALGORITHM", algorithm), () -> {
            try (Shmem shmem = Shmem.init()) {
                for (Carrier c : Carrier.values()) {
                    for (boolean inclusive : new boolean[] {true, false}) {
                        for (long n : new long[] {0, 1, 7, 300}) {
                            checkScan(shmem, c, n, inclusive, false);
                        }
                        checkScan(shmem, c, 31, inclusive, true);
                        checkScan(shmem, c, LARGE, inclusive, c == Carrier.LONG);
                    }
                }
            }
        }).orThrow();
    }

    /** Back-to-back reductions and scans of varying sizes, operations and placement in a tight loop. */
    @ParameterizedTest(name = "{0} on {1} PEs")
    @MethodSource("loopCases")
    void backToBack(String algorithm, int npes) {
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env("SHMEM_REDUCE_ALGORITHM", algorithm,
                "SHMEM_SCAN_ALGORITHM", "log"), () -> {
                    try (Shmem shmem = Shmem.init()) {
                        Team world = shmem.teamWorld();
                        int me = shmem.myPe();
                        int n = shmem.nPes();
                        long cap = 5000;
                        SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, cap);
                        SymmetricLongArray b = shmem.calloc(ValueLayout.JAVA_LONG, cap);
                        long[] sizes = {1, 17, 0, 3000, 2, 5000, 64};
                        for (int it = 0; it < 1200; it++) {
                            long len = sizes[it % sizes.length];
                            boolean inPlace = it % 3 == 0;
                            for (long i = 0; i < len; i++) {
                                a.set(i, it * 31L + me * 7L + i);
                            }
                            SymmetricLongArray dst = inPlace ? a : b;
                            switch (it % 4) {
                                case 0, 1 -> {
                                    world.sumReduce(dst, a, len);
                                    for (long i = 0; i < len; i++) {
                                        long want = n * (it * 31L + i) + 7L * n * (n - 1) / 2;
                                        if (dst.get(i) != want) {
                                            fail("iteration " + it + " sum element " + i + ": " + dst.get(i) + " != " + want);
                                        }
                                    }
                                }
                                case 2 -> {
                                    world.maxReduce(dst, a, len);
                                    for (long i = 0; i < len; i++) {
                                        assertEquals(it * 31L + (n - 1) * 7L + i, dst.get(i), "iteration " + it);
                                    }
                                }
                                default -> {
                                    world.sumInscan(dst, a, len);
                                    for (long i = 0; i < len; i++) {
                                        long want = (me + 1) * (it * 31L + i) + 7L * me * (me + 1) / 2;
                                        assertEquals(want, dst.get(i), "iteration " + it);
                                    }
                                }
                            }
                        }
                        a.close();
                        b.close();
                    }
                }).orThrow();
    }

    static Stream<Arguments> loopCases() {
        return Stream.of(Arguments.of("tree", 5), Arguments.of("recursive_doubling", 3), Arguments.of("ring", 5),
                Arguments.of("rabenseifner", 6), Arguments.of("ring", 2), Arguments.of("recursive_doubling", 8),
                Arguments.of("push_ring", 5), Arguments.of("push_ring", 2));
    }

    /** dest and source overlapping partially: IllegalArgumentException naming the routine. */
    @Test
    void partialOverlapIsRejected() {
        InProcessTestSupport.runWith(3, InProcessTestSupport.env("SHMEM_REDUCE_ALGORITHM", "ring"), () -> {
            try (Shmem shmem = Shmem.init()) {
                Team world = shmem.teamWorld();
                SymmetricLongArray a = shmem.calloc(ValueLayout.JAVA_LONG, 16);
                SymmetricLongArray shifted = view(a, 8, 8 * 8);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> world.sumReduce(shifted, a, 4));
                assertTrue(e.getMessage().contains("shmem_sum_reduce"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> world.xorReduce(a, shifted, 2));
                assertTrue(e.getMessage().contains("shmem_xor_reduce"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> world.sumInscan(shifted, a, 3));
                assertTrue(e.getMessage().contains("shmem_sum_inscan"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> world.sumExscan(a, shifted, 3));
                assertTrue(e.getMessage().contains("shmem_sum_exscan"), e.getMessage());
                // disjoint halves of one object are fine
                for (int i = 0; i < 16; i++) {
                    a.set(i, i);
                }
                world.sumReduce(shifted, a, 1);
                assertEquals(0, shifted.get(0));
                world.sync();
                a.close();
            }
        }).orThrow();
    }

    /** A second handle on part of {@code a} (tests only: the public API has no views). */
    private static SymmetricLongArray view(SymmetricLongArray a, long byteOffset, long bytes) {
        try {
            Constructor<Allocation> k = Allocation.class.getDeclaredConstructor(SymmetricHeap.class, long.class, long.class,
                    long.class);
            k.setAccessible(true);
            Allocation base = a.allocation();
            return new SymmetricLongArray(k.newInstance(base.heap(), base.offset() + byteOffset, bytes, base.hints()));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
