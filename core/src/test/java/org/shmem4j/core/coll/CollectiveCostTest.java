package org.shmem4j.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.core.param.AlgorithmNames;
import org.shmem4j.core.param.Parameters;

/**
 * The cost of every collective algorithm at N members, counted: each member's point-to-point
 * operations (puts, gets, signals, put-signals, to or from another member) and the distinct flag
 * lines written on it, against the formulas of {@code docs/collectives.md}. A logarithmic algorithm
 * that turned linear, or a linear one that turned quadratic, fails here with the counts.
 *
 * <p>Teams are threads over plain memory ({@link CountingTeam}); members are on hosts of four, so
 * the hierarchical algorithms have both parts. The team barrier (dissemination) the algorithms
 * call is counted too. Small teams run in the README's test command, 512 members in the long
 * matrices.
 */
@Timeout(600)
class CollectiveCostTest {
    private static final int HOST = 4;
    private static final int CALLS = 3;
    private static final int COUNT = 8; // longs per contribution
    private static final CollectivePolicy AUTO = new CollectivePolicy(Parameters.from(Map.of()));

    @Test
    void smallTeams() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int n : new int[] {2, 3, 5, 8, 64}) {
            checkAll(n, failures);
        }
        assertEquals(List.of(), failures, "over the model");
    }

    @Test
    @Tag("exhaustive")
    void largeTeam() throws Exception {
        List<String> failures = new ArrayList<>();
        checkAll(256, failures);
        assertEquals(List.of(), failures, "over the model");
    }

    /** Every choice of the automatic policy at large N, on one host, on hosts of four, and one member per node. */
    @Test
    void automaticChoicesAreLogarithmicAtScale() throws Exception {
        checkAutomatic(64);
    }

    @Test
    @Tag("exhaustive")
    void automaticChoicesAreLogarithmicAtLargeScale() throws Exception {
        checkAutomatic(256);
    }

    // ------------------------------------------------------------------ the formulas

    static int log2(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** The model: the most operations one member issues, and receives, per call; the most distinct flag lines on a member. */
    record Cost(long sent, long received, long lines) {
    }

    /** Members of the largest host, and hosts, of a team of n on hosts of four. */
    private static int m(int n) {
        return Math.min(n, HOST);
    }

    private static int hosts(int n) {
        return (n + HOST - 1) / HOST;
    }

    /**
     * Per collective and algorithm, the bound per call at n members, as in docs/collectives.md:
     * L = ceil(log2 n) (the team barrier's rounds, one signal each), M = members on the largest
     * host, h = ceil(log2 H) for H hosts. Linear terms belong to the algorithms that are linear by
     * design; the policy chooses those only for small teams (CollectivePolicy.DIRECT_TEAM,
     * PUSH_TEAM, RING_TEAM) or, for alltoall, because every member has a block for every other.
     */
    static Cost model(String collective, String algorithm, int n) {
        long l = log2(n);
        long m = m(n) - 1; // other members on a host
        long h = log2(hosts(n));
        return switch (collective + " " + algorithm) {
            case "barrier linear" -> new Cost(n - 1, n - 1, n - 1);
            case "barrier dissemination", "barrier tree" -> new Cost(l, l, l);
            case "barrier hierarchical" -> new Cost(m + h, m + h, m + h);
            case "broadcast linear" -> new Cost(2 * l + 1, 2 * l + n - 1, l); // the root serves n - 1 gets
            // a put-signal per other host and a signal per member of the root's host; those members' entries and reads
            case "broadcast push" -> new Cost(hosts(n) - 1 + m + 1, hosts(n) - 1 + 2 * m + 1, hosts(n) - 1 + m + 1);
            case "broadcast binomial" -> new Cost(l + 2, 3 * l, 2 * l);
            case "broadcast scatter_allgather" -> new Cost(2 * l + 2L * n, 2 * l + 3L * n, l + 1);
            case "broadcast hierarchical", "reduce hierarchical" ->
                    new Cost(3 * m + 3 * (h + 1), 3 * m + 3 * (h + 1), m + h + 1);
            case "collect linear" -> new Cost(2 * l + 2L * n, 2 * l + 2L * n, l);
            case "collect push" -> new Cost(2 * l + 2L * n, 2 * l + 2L * n, l + n); // fcollect: n - 1 put-signals
            case "collect ring" -> new Cost(4L * n, 4L * n, 2);
            case "collect recursive_doubling" -> new Cost(7 * l + 8, 7 * l + 8, 2 * l + 2); // n - p extras: 4 more per step
            case "collect bruck" -> new Cost(5 * l, 5 * l, 2 * l);
            case "alltoall linear" -> new Cost(2 * l + n, 2 * l + n, l);
            case "alltoall pairwise" -> new Cost(3L * n, 3L * n, 2L * n);
            case "alltoall push" -> new Cost(n - 1, n - 1, n - 1); // a put-signal per peer, strided blocks packed
            case "reduce linear", "scan linear" -> new Cost(2 * l + n, 2 * l + n, l);
            // the leader: recursive doubling among the leaders (and a fold), its members' sources and reads of the result
            case "reduce push" -> new Cost(h + 1 + m, h + 1 + 2 * m, h + 1 + m);
            case "reduce tree" -> new Cost(2 * l + 2, 3 * l, 2 * l + 1);
            case "reduce recursive_doubling" -> new Cost(3 * l + 4, 3 * l + 4, 2 * l + 2);
            case "reduce rabenseifner" -> new Cost(5 * l + 4, 5 * l + 4, 2 * l + 2);
            case "reduce ring" -> new Cost(6L * n, 6L * n, 2);
            case "reduce push_ring" -> new Cost(2L * n - 1, 2L * n - 1, 2); // "entered" to the left, 2(n - 1) put-signals to the right
            case "scan log" -> new Cost(4 * l + 3, 4 * l + 3, 3 * l + 2);
            default -> throw new AssertionError("no model for " + collective + " " + algorithm);
        };
    }

    /**
     * rabenseifner's halving runs its partners on one host first (HostGroups.halvingOrder), so the
     * rounds that move half and a quarter of the vector stay in shared memory: at 8 members the
     * bytes a member moves across hosts are twice the vector's share of the rounds that cross (2B
     * times 1/8 per cross round last, 1/4 second to last, 1/2 first), whatever the placement.
     */
    @Test
    void rabenseifnerCrossesHostsWithItsSmallRounds() throws Exception {
        int n = 8;
        long count = 1024, b = count * 8;
        Map<String, int[]> placements = Map.of("hosts of 4 in blocks", new int[] {0, 0, 0, 0, 1, 1, 1, 1},
                "hosts of 4 alternating", new int[] {0, 1, 0, 1, 0, 1, 0, 1},
                "hosts of 2 in blocks", new int[] {0, 0, 1, 1, 2, 2, 3, 3},
                "one member per host", new int[] {0, 1, 2, 3, 4, 5, 6, 7});
        Map<String, Long> expected = Map.of("hosts of 4 in blocks", 2 * b / 8, "hosts of 4 alternating", 2 * b / 8,
                "hosts of 2 in blocks", 2 * (b / 4 + b / 8), "one member per host", 2 * (b / 2 + b / 4 + b / 8));
        for (var p : placements.entrySet()) {
            try (CountingTeam team = new CountingTeam(p.getValue(), true, 2 * b)) {
                long src = team.data, dst = src + b;
                team.run((me, s) -> {
                    for (int i = 0; i < count; i++) {
                        s.local().set(ValueLayout.JAVA_LONG, src + 8L * i, value(me, i, 0));
                    }
                    ReduceAlgorithms.RABENSEIFNER.run(s, SUM, dst, src, count);
                    for (int i = 0; i < count; i++) {
                        long sum = 0;
                        for (int j = 0; j < n; j++) {
                            sum += value(j, i, 0);
                        }
                        assertEquals(sum, s.local().get(ValueLayout.JAVA_LONG, dst + 8L * i), p.getKey() + ": element " + i);
                    }
                });
                for (int m = 0; m < n; m++) {
                    assertEquals(expected.get(p.getKey()), team.crossHostBytes.get(m), p.getKey() + ": bytes member " + m
                            + " moved across hosts");
                }
            }
        }
    }

    // ------------------------------------------------------------------ the runs

    private void checkAll(int n, List<String> failures) throws Exception {
        int[] hostOf = new int[n];
        for (int i = 0; i < n; i++) {
            hostOf[i] = i / HOST;
        }
        try (CountingTeam team = new CountingTeam(hostOf, false, dataBytes(n))) {
            for (var e : AlgorithmNames.byCollective().entrySet()) {
                for (String algorithm : e.getValue()) {
                    for (String collective : variants(e.getKey())) {
                        measure(team, collective, algorithm, failures);
                    }
                }
            }
        }
    }

    private static List<String> variants(String collective) {
        return switch (collective) {
            case "barrier" -> List.of("barrier");
            case "collect" -> List.of("fcollect", "collect");
            case "alltoall" -> List.of("alltoall", "alltoalls");
            case "scan" -> List.of("inscan", "exscan");
            default -> List.of(collective);
        };
    }

    private static String family(String variant) {
        return switch (variant) {
            case "fcollect" -> "collect";
            case "alltoalls" -> "alltoall";
            case "inscan", "exscan" -> "scan";
            default -> variant;
        };
    }

    private static long dataBytes(int n) {
        return 4L * n * COUNT * 8 + 4 * 4096;
    }

    /** The most operations and flag lines of any member in any call, the most operations of all members in a call, the name run. */
    record Counts(long sent, long received, long lines, long total, String algorithm) {
    }

    /** Runs CALLS calls of one algorithm (null: the policy's choice), one job each so that counts are per call. */
    private static Counts calls(CountingTeam team, String variant, String algorithm) throws Exception {
        long sent = 0, received = 0, lines = 0, total = 0;
        String[] chosen = new String[1];
        for (int c = 0; c < CALLS; c++) {
            int call = c;
            team.reset();
            team.run((me, s) -> {
                String name = call(team, s, me, variant, algorithm, call);
                if (me == 0) {
                    chosen[0] = name;
                }
            });
            sent = Math.max(sent, team.maxSent());
            received = Math.max(received, team.maxReceived());
            lines = Math.max(lines, team.maxFlagLines());
            total = Math.max(total, team.totalSent());
        }
        return new Counts(sent, received, lines, total, chosen[0]);
    }

    /** Checks the results of CALLS calls of one algorithm, and its counts against the model. */
    private static void measure(CountingTeam team, String variant, String algorithm, List<String> failures)
            throws Exception {
        int n = team.n;
        Counts c = calls(team, variant, algorithm);
        Cost bound = model(family(variant), algorithm, n);
        String line = variant + " " + algorithm + " at " + n + ": sent " + c.sent() + " (model " + bound.sent()
                + "), received " + c.received() + " (" + bound.received() + "), flag lines " + c.lines() + " ("
                + bound.lines() + "), all members " + c.total();
        if (Boolean.getBoolean("shmem4j.cost.print")) {
            System.out.println(line);
        }
        if (c.sent() > bound.sent() || c.received() > bound.received() || c.lines() > bound.lines()) {
            failures.add(line);
        }
    }

    private static final ReduceKernel SUM = new ReduceKernel() {
        @Override
        public ValueLayout layout() {
            return ValueLayout.JAVA_LONG;
        }

        @Override
        public String name() {
            return "long_sum";
        }

        @Override
        public void combine(MemorySegment acc, long accOffset, MemorySegment in, long inOffset, long count) {
            for (long i = 0; i < count; i++) {
                long at = accOffset + 8 * i;
                acc.set(ValueLayout.JAVA_LONG, at, acc.get(ValueLayout.JAVA_LONG, at)
                        + in.get(ValueLayout.JAVA_LONG, inOffset + 8 * i));
            }
        }
    };

    private static long value(int member, int i, int call) {
        return member * 1_000_003L + i * 7919L + call * 31L + 1;
    }

    /**
     * One call of collective {@code variant} by algorithm {@code algorithm} (null: the automatic
     * policy's choice, whose name it returns), with its result checked on this member.
     */
    private static String call(CountingTeam team, CollectiveSupport s, int me, String variant, String algorithm, int call) {
        int n = team.n;
        MemorySegment mem = s.local();
        long src = team.data;
        long dst = src + 2L * n * COUNT * 8;
        CollectivePolicy auto = algorithm == null ? AUTO : null;
        long bytes = COUNT * 8;
        switch (variant) {
            case "barrier" -> {
                Algorithms.Barrier a = auto != null ? auto.barrier(s) : CollectiveCatalog.BARRIER.get(algorithm);
                a.run(s);
                return a.name();
            }
            case "broadcast" -> {
                int root = (call * 7) % n;
                for (int i = 0; i < COUNT; i++) {
                    mem.set(ValueLayout.JAVA_LONG, src + 8 * i, value(me, i, call));
                }
                Algorithms.Broadcast a = auto != null ? auto.broadcast(s, bytes) : CollectiveCatalog.BROADCAST.get(algorithm);
                a.run(s, dst, src, bytes, root);
                for (int i = 0; i < COUNT; i++) {
                    assertEquals(value(root, i, call), mem.get(ValueLayout.JAVA_LONG, dst + 8 * i), "broadcast");
                }
                return a.name();
            }
            case "fcollect", "collect" -> {
                boolean fixed = variant.equals("fcollect");
                IntFunction<Integer> count = j -> fixed ? COUNT : (j + call) % 3;
                for (int i = 0; i < count.apply(me); i++) {
                    mem.set(ValueLayout.JAVA_LONG, src + 8 * i, value(me, i, call));
                }
                Algorithms.Collect a = auto != null ? (fixed ? auto.fcollect(s, bytes) : auto.collect(s, bytes))
                        : CollectiveCatalog.COLLECT.get(algorithm);
                if (fixed) {
                    a.fixed(s, dst, src, bytes);
                } else {
                    a.variable(s, total -> dst, src, 8L * count.apply(me));
                }
                long at = dst;
                for (int j = 0; j < n; j++) {
                    for (int i = 0; i < count.apply(j); i++, at += 8) {
                        assertEquals(value(j, i, call), mem.get(ValueLayout.JAVA_LONG, at), variant + " block " + j);
                    }
                }
                return a.name();
            }
            case "alltoall", "alltoalls" -> {
                long stride = variant.equals("alltoall") ? 8 : 16;
                for (int j = 0; j < n; j++) {
                    mem.set(ValueLayout.JAVA_LONG, src + j * stride, value(me, j, call));
                }
                Algorithms.Alltoall a = auto != null ? auto.alltoall(s, 8) : CollectiveCatalog.ALLTOALL.get(algorithm);
                a.run(s, dst, src, 8, stride, stride, 8);
                for (int j = 0; j < n; j++) {
                    assertEquals(value(j, me, call), mem.get(ValueLayout.JAVA_LONG, dst + j * stride), variant + " from " + j);
                }
                return a.name();
            }
            case "reduce", "inscan", "exscan" -> {
                for (int i = 0; i < COUNT; i++) {
                    mem.set(ValueLayout.JAVA_LONG, src + 8 * i, value(me, i, call));
                }
                int upTo = switch (variant) {
                    case "reduce" -> n;
                    case "inscan" -> me + 1;
                    default -> me;
                };
                String name;
                if (variant.equals("reduce")) {
                    Algorithms.Reduce a = auto != null ? auto.reduce(s, bytes) : CollectiveCatalog.REDUCE.get(algorithm);
                    a.run(s, SUM, dst, src, COUNT);
                    name = a.name();
                } else {
                    Algorithms.Scan a = auto != null ? auto.scan(s, bytes) : CollectiveCatalog.SCAN.get(algorithm);
                    a.run(s, SUM, dst, src, COUNT, variant.equals("inscan"));
                    name = a.name();
                }
                for (int i = 0; i < COUNT; i++) {
                    long expected = 0;
                    for (int j = 0; j < upTo; j++) {
                        expected += value(j, i, call);
                    }
                    assertEquals(expected, mem.get(ValueLayout.JAVA_LONG, dst + 8 * i), variant + " element " + i);
                }
                return name;
            }
            default -> throw new AssertionError(variant);
        }
    }

    // ------------------------------------------------------------------ the automatic policy

    /**
     * For small payloads at n members, whatever the policy picks costs at most a logarithmic number
     * of operations per member (plus the host's members for hierarchical): on one host, on hosts of
     * four over the network, and one member per node.
     */
    private void checkAutomatic(int n) throws Exception {
        List<String> failures = new ArrayList<>();
        int[][] layouts = {new int[n], new int[n], new int[n]};
        for (int i = 0; i < n; i++) {
            layouts[1][i] = i / HOST;
            layouts[2][i] = i;
        }
        String[] names = {"one host", "hosts of " + HOST + " (network)", "one member per node"};
        for (int k = 0; k < layouts.length; k++) {
            try (CountingTeam team = new CountingTeam(layouts[k], k > 0, dataBytes(n))) {
                for (String variant : List.of("barrier", "broadcast", "fcollect", "collect", "reduce", "inscan",
                        "exscan")) {
                    Counts c = calls(team, variant, null);
                    int per = k == 1 ? HOST : 1;
                    long bound = 8L * log2(n) + 3L * per + 8;
                    String line = names[k] + ": " + variant + " chose " + c.algorithm() + " at " + n + ": sent "
                            + c.sent() + ", received " + c.received() + " per call (bound " + bound + "), flag lines "
                            + c.lines();
                    if (Boolean.getBoolean("shmem4j.cost.print")) {
                        System.out.println(line);
                    }
                    if (c.sent() > bound || c.received() > bound) {
                        failures.add(line);
                    }
                }
            }
        }
        assertEquals(List.of(), failures, "automatic choices over a logarithmic bound");
        assertTrue(n >= 64);
    }
}
