package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.inprocess.InProcessJob;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * Sessions that batch (issue 26, spec 9.9): inside {@code sessionStart(SESSION_BATCH, ..)} small
 * puts, {@code p}, non-fetching AMOs and signals to PEs of other nodes may be held and sent
 * together, but "starting and stopping sessions should not affect the completion or ordering
 * semantics of any OpenSHMEM routines" (9.9). So every test here asserts only what the spec (9.12
 * with its Table 14, 9.8 put-with-signal, 9.5.2 ctx_destroy, 9.1.4 finalize) guarantees without a
 * session, over PEs of 2 or 3 pseudo-nodes through UCX, where some peers are mapped and some
 * remote: nothing lost or duplicated, fence and put-with-signal order, quiet, pe_quiet, session
 * stop, destroy, barrier and finalize complete, and a batch nobody flushes still reaches a peer
 * that polls for it. {@code SHMEM_BATCH_BYTES=256} (a batch per few operations) and the default
 * alternate; {@code SHMEM_BATCH_DELAY_US} large makes a flush that only a time-out would do fail.
 */
@Timeout(300)
class SessionBatchInProcessTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    /** A delay no test waits for: whatever must arrive, arrives because something flushed it. */
    private static final String LONG_DELAY_US = "30000000";

    enum Ctx { CREATED, DEFAULT }

    /** How a PE brackets its operations with sessions; stopping is always followed by a second, no-op stop. */
    enum Shape {
        PLAIN, TOTAL_OPS_1, TOTAL_OPS_HUGE,
        /** started twice: options and config combine (9.9.2). */
        TWICE,
        /** stopped and started again every few operations. */
        RESTART;

        void start(Context ctx) {
            switch (this) {
                case PLAIN, RESTART -> ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                case TOTAL_OPS_1 -> ctx.sessionStart(Context.SESSION_BATCH, new SessionConfig(1), Context.SESSION_TOTAL_OPS);
                case TOTAL_OPS_HUGE -> ctx.sessionStart(Context.SESSION_BATCH, new SessionConfig(1L << 40), Context.SESSION_TOTAL_OPS);
                case TWICE -> {
                    ctx.sessionStart(0, SessionConfig.DEFAULT, 0);
                    ctx.sessionStart(Context.SESSION_BATCH, new SessionConfig(10), Context.SESSION_TOTAL_OPS);
                }
            }
        }

        void tick(Context ctx, int op) {
            if (this == RESTART && op % 97 == 96) {
                ctx.sessionStop();
                start(ctx);
            }
        }

        void stop(Context ctx) {
            ctx.sessionStop();
            ctx.sessionStop(); // a no-op (9.9.3)
        }
    }

    /**
     * UCX between {@code nodes} pseudo-nodes, batches of {@code batchBytes} (blank: the default);
     * with {@code flushOnly} a batch delay no test waits for, so whatever must arrive arrives
     * because something flushed it, and only the sessions batch (an inherited
     * {@code SHMEM_BATCH_ALL=1} would hold these tests' unbatched flags for that delay too).
     */
    static Map<String, String> env(int nodes, String batchBytes, boolean flushOnly) {
        UcxAvailable.requireUcx("batched sessions over UCX");
        Map<String, String> env = InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(nodes), "SHMEM_NETWORK", "ucx");
        if (batchBytes != null && !batchBytes.isBlank()) {
            env.put("SHMEM_BATCH_BYTES", batchBytes);
        }
        if (flushOnly) {
            env.put("SHMEM_BATCH_DELAY_US", LONG_DELAY_US);
            env.remove("SHMEM_BATCH_ALL");
        }
        return env;
    }

    static void run(String what, int npes, Map<String, String> env, InProcessJob.Program program) {
        long start = System.nanoTime();
        InProcessJob.run(npes, env, BOUND, program).orThrow();
        System.out.printf("session batch %s: %d PEs, %s: %.1f s%n", what, npes, env.getOrDefault("SHMEM_BATCH_BYTES", "default batch"),
                (System.nanoTime() - start) / 1e9);
    }

    static Context open(Shmem shmem, Ctx kind) {
        return kind == Ctx.CREATED ? shmem.ctxCreate(0) : shmem;
    }

    static void release(Context ctx, Shmem shmem) {
        if (ctx != shmem) {
            ctx.close();
        }
    }

    /** The PEs other than {@code me}, in an order of the seed's. */
    static List<Integer> others(int me, int npes, Random random) {
        List<Integer> others = new ArrayList<>(IntStream.range(0, npes).filter(pe -> pe != me).boxed().toList());
        Collections.shuffle(others, random);
        return others;
    }

    /** Asserts the placement the test means: some peer remote (reached through UCX); with more PEs than nodes, some mapped. */
    static void checkPlacement(Shmem shmem, SymmetricObject object, int nodes) {
        int me = shmem.myPe(), n = shmem.nPes();
        long remote = IntStream.range(0, n).filter(pe -> shmem.ptr(object, pe) == null).count();
        assertTrue(remote > 0, "PE " + me + " maps every peer: nothing goes through the network");
        if (n > nodes) {
            assertTrue(IntStream.range(0, n).anyMatch(pe -> shmem.ptr(object, pe) != null && pe != me) || remote == n - 1,
                    "PE " + me + ": no peer mapped");
        }
    }

    static int[] toArray(List<Integer> pes) {
        return pes.stream().mapToInt(Integer::intValue).toArray();
    }

    // ------------------------------------------------------------------ random puts and AMOs, then completion

    /** What completes the session's operations before the barrier after which every PE checks its memory. */
    enum Completion {
        QUIET, STOP_THEN_QUIET, PE_QUIET,
        /** ctx_destroy with the session open and nothing completed: its implicit quiet (9.5.2). */
        DESTROY,
        /** only barrier_all, the session still open: it completes the default context's operations (9.11). */
        BARRIER
    }

    static final int SLOTS = 40, BYTES = 12, WORDS = 6, AMOS = 96, ROUNDS = 4;

    /** One operation of a PE's random stream: writes each of its put slots on every PE exactly once, AMOs anywhere. */
    record Op(char kind, int pe, int index, int length, long value) {
    }

    static long value(long seed, int src, int pe, int index) {
        long v = seed * 0x9E3779B97F4A7C15L + src * 0xC2B2AE3D27D4EB4FL + pe * 0x165667B19E3779F9L + index * 0x27D4EB2F165667C5L;
        v ^= v >>> 29;
        return v == 0 ? 1 : v;
    }

    /** PE {@code src}'s operations of {@code round}: the same for every caller, so each target can replay every source's. */
    static List<Op> stream(long seed, int round, int src, int npes) {
        Random random = new Random(seed * 31 + round * 1009L + src);
        List<Op> ops = new ArrayList<>();
        for (int pe = 0; pe < npes; pe++) {
            for (int k = 0; k < SLOTS; ) {
                int length = Math.min(SLOTS - k, 1 + random.nextInt(4));
                ops.add(new Op(length == 1 ? 'p' : k % 3 == 0 ? 'n' : 'P', pe, src * SLOTS + k, length, 0));
                k += length;
            }
            for (int b = 0; b < BYTES; b++) {
                ops.add(new Op('b', pe, src * BYTES + b, 1, 0));
            }
        }
        for (int i = 0; i < AMOS * npes; i++) {
            char kind = "aaaaxxxiFN".charAt(random.nextInt(10));
            ops.add(new Op(kind, random.nextInt(npes), random.nextInt(WORDS), 1, random.nextLong()));
        }
        Collections.shuffle(ops, random);
        return ops;
    }

    static void issue(Context ctx, Op op, long seed, int me, SymmetricLongArray cells, SymmetricByteArray bytes, SymmetricLongArray sums,
            SymmetricLongArray xors, long[] fetched) {
        switch (op.kind()) {
            case 'p' -> ctx.p(cells, op.index(), value(seed, me, op.pe(), op.index()), op.pe());
            case 'P', 'n' -> {
                long[] block = new long[op.length()];
                for (int j = 0; j < block.length; j++) {
                    block[j] = value(seed, me, op.pe(), op.index() + j);
                }
                if (op.kind() == 'P') {
                    ctx.put(cells, op.index(), block, 0, block.length, op.pe());
                } else {
                    ctx.putNbi(cells, op.index(), block, 0, block.length, op.pe());
                }
            }
            case 'b' -> ctx.p(bytes, op.index(), (byte) (value(seed, me, op.pe(), op.index()) | 1), op.pe());
            case 'a' -> ctx.atomicAdd(sums, op.index(), op.value(), op.pe());
            case 'x' -> ctx.atomicXor(xors, op.index(), op.value(), op.pe());
            case 'i' -> ctx.atomicInc(sums, op.index(), op.pe());
            case 'F' -> ctx.atomicFetchAdd(sums, op.index(), op.value(), op.pe()); // blocking, fetching: flushes
            case 'N' -> ctx.atomicFetchAddNbi(fetched, 0, sums, op.index(), op.value(), op.pe());
            default -> throw new AssertionError(op);
        }
    }

    /**
     * Every PE issues a random mix of {@code p}, small puts (blocking and nbi), byte {@code p}s (neighbouring bytes
     * from different PEs), adds, xors, incs, fetching adds (blocking and nbi) to every PE, mapped,
     * remote and itself, in a session; then completes as {@code completion} says, and after a
     * barrier each PE compares its memory with what all PEs' streams wrote: every put slot holds its
     * one write, every AMO word the sum or xor of all updates to it (several PEs update each word at
     * once, the mapped ones with CPU atomics): nothing lost, duplicated or torn.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, {2} context, {3}, batch {4}, {5}, delay {6}")
    @CsvSource({
        "2, 2, CREATED, QUIET, 256, PLAIN, ",
        "2, 2, DEFAULT, BARRIER, , PLAIN, ",
        "3, 2, CREATED, STOP_THEN_QUIET, 256, TOTAL_OPS_1, ",
        "3, 2, DEFAULT, QUIET, , TOTAL_OPS_HUGE, ",
        "5, 2, CREATED, PE_QUIET, 256, RESTART, ",
        "5, 3, CREATED, DESTROY, 256, TWICE, ",
        "5, 3, DEFAULT, BARRIER, 256, RESTART, ",
        "5, 2, DEFAULT, PE_QUIET, , TWICE, ",
        "3, 3, CREATED, DESTROY, , PLAIN, ",
        "3, 2, DEFAULT, BARRIER, 256, PLAIN, long",
        "3, 2, CREATED, STOP_THEN_QUIET, , RESTART, long",
        "5, 3, CREATED, QUIET, , TOTAL_OPS_1, long",
        "5, 2, CREATED, PE_QUIET, 256, PLAIN, long",
        "3, 2, CREATED, DESTROY, , TWICE, long"})
    void randomPutsAndAmosArriveExactlyOnce(int npes, int nodes, Ctx kind, Completion completion, String batchBytes, Shape shape,
            String delay) {
        randomOps(npes, nodes, kind, completion, batchBytes, shape, delay, 1);
    }

    /**
     * As {@link #randomPutsAndAmosArriveExactlyOnce}, each PE's operations issued by 3 threads at
     * once on one shareable context in a session (the default one, or a created one without
     * options): appending to a batch races other threads' appends and sends.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, {2} context, {3}, batch {4}")
    @CsvSource({"2, 2, DEFAULT, BARRIER, 256", "3, 2, CREATED, QUIET, 256", "5, 3, CREATED, PE_QUIET, ", "5, 2, DEFAULT, STOP_THEN_QUIET, 256"})
    void threadsSharingABatchingContextLoseNothing(int npes, int nodes, Ctx kind, Completion completion, String batchBytes) {
        randomOps(npes, nodes, kind, completion, batchBytes, Shape.PLAIN, null, 3);
    }

    private static void randomOps(int npes, int nodes, Ctx kind, Completion completion, String batchBytes, Shape shape, String delay,
            int threads) {
        if (completion == Completion.BARRIER && kind != Ctx.DEFAULT || completion == Completion.DESTROY && kind != Ctx.CREATED) {
            throw new IllegalArgumentException(completion + " with a " + kind + " context");
        }
        Map<String, String> env = env(nodes, batchBytes, delay != null);
        run("random puts and AMOs" + (threads > 1 ? ", " + threads + " threads" : ""), npes, env, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                long seed = 7L * npes + nodes;
                SymmetricLongArray cells = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * SLOTS);
                SymmetricByteArray bytes = shmem.calloc(ValueLayout.JAVA_BYTE, (long) n * BYTES);
                SymmetricLongArray sums = shmem.calloc(ValueLayout.JAVA_LONG, WORDS);
                SymmetricLongArray xors = shmem.calloc(ValueLayout.JAVA_LONG, WORDS);
                checkPlacement(shmem, cells, nodes);
                for (int round = 0; round < ROUNDS; round++) {
                    Context ctx = open(shmem, kind);
                    shape.start(ctx);
                    List<Op> ops = stream(seed, round, me, n);
                    long valueSeed = seed + round;
                    if (threads == 1) {
                        long[] fetched = new long[1];
                        for (int i = 0; i < ops.size(); i++) {
                            issue(ctx, ops.get(i), valueSeed, me, cells, bytes, sums, xors, fetched);
                            shape.tick(ctx, i);
                        }
                    } else {
                        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                            List<Future<?>> issuers = new ArrayList<>();
                            for (int t = 0; t < threads; t++) {
                                int first = t;
                                issuers.add(pool.submit(() -> {
                                    long[] fetched = new long[1];
                                    for (int i = first; i < ops.size(); i += threads) {
                                        issue(ctx, ops.get(i), valueSeed, me, cells, bytes, sums, xors, fetched);
                                    }
                                }));
                            }
                            for (Future<?> issuer : issuers) {
                                issuer.get(); // a failure fails the PE
                            }
                        }
                    }
                    switch (completion) {
                        case QUIET -> {
                            ctx.quiet();
                            shape.stop(ctx);
                        }
                        case STOP_THEN_QUIET -> {
                            shape.stop(ctx);
                            ctx.quiet();
                        }
                        case PE_QUIET -> {
                            List<Integer> all = others(me, n, new Random(round));
                            all.add(me);
                            ctx.peQuiet(toArray(all));
                            shape.stop(ctx);
                        }
                        case DESTROY -> ctx.close();
                        case BARRIER -> {
                        }
                    }
                    shmem.barrierAll();
                    checkRound(seed + round, round, seed, me, n, cells, bytes, sums, xors);
                    if (completion == Completion.BARRIER) {
                        shape.stop(ctx);
                    }
                    if (completion != Completion.DESTROY) {
                        release(ctx, shmem);
                    }
                    shmem.barrierAll(); // every PE checked before any clears
                    cells.fill(0);
                    bytes.fill((byte) 0);
                    sums.fill(0);
                    xors.fill(0);
                    shmem.barrierAll();
                }
            }
        });
    }

    private static void checkRound(long valueSeed, int round, long seed, int me, int n, SymmetricLongArray cells, SymmetricByteArray bytes,
            SymmetricLongArray sums, SymmetricLongArray xors) {
        long[] sum = new long[WORDS], xor = new long[WORDS];
        for (int src = 0; src < n; src++) {
            for (Op op : stream(seed, round, src, n)) {
                if (op.pe() != me) {
                    continue;
                }
                switch (op.kind()) {
                    case 'a', 'F', 'N' -> sum[op.index()] += op.value();
                    case 'i' -> sum[op.index()]++;
                    case 'x' -> xor[op.index()] ^= op.value();
                    default -> {
                    }
                }
            }
            for (int k = 0; k < SLOTS; k++) {
                int index = src * SLOTS + k;
                assertEquals(value(valueSeed, src, me, index), cells.get(index), "round " + round + ": PE " + src + "'s put to slot " + k);
            }
            for (int b = 0; b < BYTES; b++) {
                int index = src * BYTES + b;
                assertEquals((byte) (value(valueSeed, src, me, index) | 1), bytes.get(index), "round " + round + ": PE " + src + "'s byte p " + b);
            }
        }
        for (int w = 0; w < WORDS; w++) {
            assertEquals(sum[w], sums.get(w), "round " + round + ": the sum of every PE's adds to word " + w);
            assertEquals(xor[w], xors.get(w), "round " + round + ": the xor of every PE's xors into word " + w);
        }
    }

    // ------------------------------------------------------------------ data, then an ordering or completing routine, then a flag

    /**
     * How a PE tells each peer that its data of a round is there: what it calls after the data
     * (fence, quiet, pe_quiet, session stop) and how the flag travels. Each is a guarantee of the
     * spec: a fence orders the data before a later flag of the same context to that PE (9.12.1,
     * Table 14); put-with-signal delivers its data no later than its signal (9.8); quiet and
     * pe_quiet complete the data, so a flag on ANOTHER context, which nothing orders, still finds it.
     */
    enum Handoff {
        FENCE_P, FENCE_AMO_FLAG,
        /** the flag is the last word of a 64 KiB put (not batchable). */
        FENCE_LARGE_FLAG,
        /** the data includes a 64 KiB put (not batchable); a small p flag. */
        LARGE_DATA_FENCE_P,
        FENCE_PUT_SIGNAL_SET, FENCE_PUT_SIGNAL_ADD, FENCE_PUT_SIGNAL_NBI_ADD, FENCE_SIGNAL_ADD, FENCE_SIGNAL_SET,
        /** put-with-signal alone, no fence: only its own payload is promised, and checked. */
        PUT_SIGNAL_ONLY,
        QUIET_OTHER_CTX,
        /** pe_quiet of all peers at once, then the flags on another context. */
        PE_QUIET_LIST_OTHER_CTX,
        /** per peer: pe_quiet of that peer only (the others' batches may still be pending), then its flag on another context. */
        PE_QUIET_EACH_OTHER_CTX,
        /** session stop and quiet, flags on another context, the session started again. */
        STOP_QUIET_OTHER_CTX,
        /** session stop without quiet, fence, then a flag of the same context outside any session. */
        STOP_FENCE_P;

        boolean otherContext() {
            return name().endsWith("OTHER_CTX");
        }

        boolean signal() {
            return name().contains("SIGNAL");
        }

        boolean payload() {
            return name().contains("PUT_SIGNAL");
        }

        boolean dataOrdered() {
            return this != PUT_SIGNAL_ONLY;
        }
    }

    static final int DATA = 24, PAYLOAD = 5, BIG = 8192, HANDOFF_ROUNDS = 12;

    static long datum(int src, int round, int k) {
        return (long) src << 40 | (long) round << 20 | k + 1;
    }

    static Stream<Arguments> handoffs() {
        // placements: {npes, nodes}, with PEs of one node mapped and peers of the others remote
        int[][] placements = {{2, 2}, {3, 2}, {5, 2}, {5, 3}, {3, 3}};
        List<Arguments> cases = new ArrayList<>();
        Handoff[] all = Handoff.values();
        for (int i = 0; i < all.length; i++) {
            int[] placement = placements[i % placements.length];
            cases.add(Arguments.of(all[i], placement[0], placement[1], i % 2 == 0 ? Ctx.CREATED : Ctx.DEFAULT, i % 3 == 2 ? "" : "256", false));
        }
        // the fence cases again on the other kind of context and batch size
        cases.add(Arguments.of(Handoff.FENCE_P, 5, 2, Ctx.DEFAULT, "", false));
        cases.add(Arguments.of(Handoff.FENCE_LARGE_FLAG, 3, 2, Ctx.CREATED, "", false));
        cases.add(Arguments.of(Handoff.LARGE_DATA_FENCE_P, 5, 3, Ctx.DEFAULT, "256", false));
        cases.add(Arguments.of(Handoff.FENCE_PUT_SIGNAL_SET, 5, 3, Ctx.DEFAULT, "", false));
        // the handoffs whose flag is never batched, with a batch delay no test waits for: the
        // fence, quiet, pe_quiet or session stop itself must have sent the data
        List<Handoff> unbatchedFlag = List.of(Handoff.FENCE_LARGE_FLAG, Handoff.QUIET_OTHER_CTX, Handoff.PE_QUIET_LIST_OTHER_CTX,
                Handoff.PE_QUIET_EACH_OTHER_CTX, Handoff.STOP_QUIET_OTHER_CTX, Handoff.STOP_FENCE_P);
        for (int i = 0; i < unbatchedFlag.size(); i++) {
            int[] placement = placements[(i + 2) % placements.length];
            cases.add(Arguments.of(unbatchedFlag.get(i), placement[0], placement[1], i % 2 == 0 ? Ctx.DEFAULT : Ctx.CREATED, i % 3 == 0 ? "" : "256", true));
        }
        return cases.stream();
    }

    /**
     * Rounds in which every PE writes data to every other PE in a session (p, small puts, an add),
     * hands off as {@code handoff} says to all of them, then waits for every peer's flag and checks
     * that peer's data of the round; a barrier ends the round. Nothing but the handoff completes
     * the data: the flags themselves may be batched and reach their waiters only by the library's
     * own flush.
     */
    @ParameterizedTest(name = "{0}: {1} PEs on {2} nodes, {3} context, batch {4}, flushed only {5}")
    @MethodSource
    void handoffs(Handoff handoff, int npes, int nodes, Ctx kind, String batchBytes, boolean flushOnly) {
        run("handoff " + handoff + (flushOnly ? " (flushed only)" : ""), npes, env(nodes, batchBytes, flushOnly), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * DATA);
                SymmetricLongArray adds = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray flags = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray payload = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * PAYLOAD);
                SymmetricLongArray big = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * BIG);
                checkPlacement(shmem, data, nodes);
                Context ctx = open(shmem, kind);
                // the flags' context for the OTHER_CTX handoffs, batching too
                Context other = !handoff.otherContext() ? null : kind == Ctx.CREATED ? shmem : shmem.ctxCreate(0);
                Random random = new Random(me * 131 + npes);
                ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                if (other != null && !flushOnly) {
                    other.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                }
                long[] bigBlock = new long[BIG];
                for (int round = 1; round <= HANDOFF_ROUNDS; round++) {
                    List<Integer> peers = others(me, n, random);
                    Arrays.fill(bigBlock, round);
                    for (int t : peers) {
                        for (int k = 0; k < DATA; ) {
                            int length = Math.min(DATA - k, 1 + random.nextInt(3));
                            long[] block = new long[length];
                            for (int j = 0; j < length; j++) {
                                block[j] = datum(me, round, k + j);
                            }
                            if (length == 1) {
                                ctx.p(data, (long) me * DATA + k, block[0], t);
                            } else {
                                ctx.put(data, (long) me * DATA + k, block, 0, length, t);
                            }
                            k += length;
                        }
                        ctx.atomicAdd(adds, me, 1, t);
                        if (handoff == Handoff.LARGE_DATA_FENCE_P) {
                            ctx.put(big, (long) me * BIG, bigBlock, 0, BIG, t);
                        }
                    }
                    handOff(handoff, shmem, ctx, other, peers, round, flags, payload, big, bigBlock);
                    for (int src : others(me, n, random)) {
                        awaitFlag(handoff, shmem, src, round, flags, payload, big);
                        if (handoff.payload()) {
                            for (int j = 0; j < PAYLOAD; j++) {
                                assertEquals(datum(src, round, 100 + j), payload.get((long) src * PAYLOAD + j),
                                        "round " + round + ": the payload of PE " + src + "'s put-with-signal, word " + j);
                            }
                        }
                        if (!handoff.dataOrdered()) {
                            continue;
                        }
                        for (int k = 0; k < DATA; k++) {
                            assertEquals(datum(src, round, k), data.get((long) src * DATA + k),
                                    "round " + round + ": word " + k + " of PE " + src + "'s data, written before its " + handoff);
                        }
                        assertEquals(round, adds.get(src), "round " + round + ": PE " + src + "'s adds, issued before its " + handoff);
                        if (handoff == Handoff.LARGE_DATA_FENCE_P) {
                            for (int k = 0; k < BIG; k += 511) {
                                assertEquals(round, big.get((long) src * BIG + k), "round " + round + ": PE " + src + "'s 64 KiB put, word " + k);
                            }
                            assertEquals(round, big.get((long) src * BIG + BIG - 1), "round " + round + ": PE " + src + "'s 64 KiB put, last word");
                        }
                    }
                    shmem.barrierAll(); // the next round's writes begin after every check of this one
                }
                ctx.sessionStop();
                ctx.quiet();
                if (other != null) {
                    other.sessionStop();
                    other.quiet();
                    release(other, shmem);
                }
                shmem.barrierAll();
                for (int src = 0; src < n; src++) {
                    if (src != me) {
                        assertEquals(HANDOFF_ROUNDS, adds.get(src), "PE " + src + "'s adds after the last quiet and barrier");
                    }
                }
                release(ctx, shmem);
            }
        });
    }

    private static void handOff(Handoff handoff, Shmem shmem, Context ctx, Context other, List<Integer> peers, int round,
            SymmetricLongArray flags, SymmetricLongArray payload, SymmetricLongArray big, long[] bigBlock) {
        int me = shmem.myPe();
        long[] words = new long[PAYLOAD];
        for (int j = 0; j < PAYLOAD; j++) {
            words[j] = datum(me, round, 100 + j);
        }
        long at = (long) me * PAYLOAD;
        switch (handoff) {
            case QUIET_OTHER_CTX -> ctx.quiet();
            case PE_QUIET_LIST_OTHER_CTX -> ctx.peQuiet(toArray(peers));
            case STOP_QUIET_OTHER_CTX -> {
                ctx.sessionStop();
                ctx.quiet();
            }
            case STOP_FENCE_P -> {
                ctx.sessionStop();
                ctx.fence();
            }
            case PE_QUIET_EACH_OTHER_CTX, PUT_SIGNAL_ONLY -> {
            }
            default -> ctx.fence();
        }
        for (int t : peers) {
            switch (handoff) {
                case FENCE_P, LARGE_DATA_FENCE_P, STOP_FENCE_P -> ctx.p(flags, me, round, t);
                case FENCE_AMO_FLAG -> ctx.atomicAdd(flags, me, 1, t);
                case FENCE_LARGE_FLAG -> ctx.put(big, (long) me * BIG, bigBlock, 0, BIG, t);
                case FENCE_PUT_SIGNAL_SET -> ctx.putSignal(payload, at, words, 0, PAYLOAD, flags, me, round, SignalOp.SET, t);
                case FENCE_PUT_SIGNAL_ADD, PUT_SIGNAL_ONLY -> ctx.putSignal(payload, at, words, 0, PAYLOAD, flags, me, 1, SignalOp.ADD, t);
                case FENCE_PUT_SIGNAL_NBI_ADD -> ctx.putSignalNbi(payload, at, words.clone(), 0, PAYLOAD, flags, me, 1, SignalOp.ADD, t);
                case FENCE_SIGNAL_ADD -> ctx.signalAdd(flags, me, 1, t);
                case FENCE_SIGNAL_SET -> ctx.signalSet(flags, me, round, t);
                case QUIET_OTHER_CTX, PE_QUIET_LIST_OTHER_CTX, STOP_QUIET_OTHER_CTX -> other.p(flags, me, round, t);
                case PE_QUIET_EACH_OTHER_CTX -> {
                    ctx.peQuiet(t);
                    other.p(flags, me, round, t);
                }
            }
        }
        if (handoff == Handoff.STOP_QUIET_OTHER_CTX || handoff == Handoff.STOP_FENCE_P) {
            ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
        }
    }

    private static void awaitFlag(Handoff handoff, Shmem shmem, int src, int round, SymmetricLongArray flags, SymmetricLongArray payload,
            SymmetricLongArray big) {
        if (handoff == Handoff.FENCE_LARGE_FLAG) {
            shmem.waitUntil(big, (long) src * BIG + BIG - 1, Cmp.EQ, round);
        } else if (handoff.signal()) {
            assertEquals(round, shmem.signalWaitUntil(flags, src, Cmp.EQ, round));
        } else {
            shmem.waitUntil(flags, src, Cmp.EQ, round);
        }
    }

    // ------------------------------------------------------------------ a batch nobody flushes

    /** How the token travels, and how its receiver polls. */
    enum Token { P, ADD, SIGNAL_SET, PUT_SIGNAL, P_POLLED_WITH_TEST }

    /**
     * A token passed round a ring of PEs (2 PEs: ping-pong) through a context in a session, with no
     * fence, quiet or session stop after the write: the sender then waits for the token to come
     * back. Spec 4.1 (progress) and 9.9 (a session changes no completion semantics): the write must
     * still reach the receiver, who polls for it. A batch kept until its initiator flushes it would
     * hang here until the job's bound.
     */
    @ParameterizedTest(name = "{0}: {1} PEs on {2} nodes, {3} context, batch {4}")
    @CsvSource({"P, 2, 2, CREATED, 256", "P, 3, 2, DEFAULT, ", "ADD, 3, 3, CREATED, ", "ADD, 5, 2, DEFAULT, 256",
        "SIGNAL_SET, 5, 3, CREATED, 256", "PUT_SIGNAL, 3, 2, DEFAULT, 256", "PUT_SIGNAL, 2, 2, CREATED, ", "P_POLLED_WITH_TEST, 5, 2, CREATED, ",
        "P_POLLED_WITH_TEST, 2, 2, DEFAULT, 256"})
    void aWriteNobodyFlushesReachesAPeerThatPollsForIt(Token token, int npes, int nodes, Ctx kind, String batchBytes) {
        int rounds = 40;
        run("token " + token, npes, env(nodes, batchBytes, false), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), next = (me + 1) % n;
                SymmetricLongArray word = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                checkPlacement(shmem, word, nodes);
                Context ctx = open(shmem, kind);
                ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                for (long round = 1; round <= rounds; round++) {
                    if (me != 0) {
                        receive(token, shmem, word, round);
                    }
                    switch (token) {
                        case P, P_POLLED_WITH_TEST -> ctx.p(word, 0, round, next);
                        case ADD -> ctx.atomicAdd(word, 0, 1, next);
                        case SIGNAL_SET -> ctx.signalSet(word, 0, round, next);
                        case PUT_SIGNAL -> ctx.putSignal(word, 1, new long[] {round * 7}, 0, 1, word, 0, round, SignalOp.SET, next);
                    }
                    if (me == 0) {
                        receive(token, shmem, word, round);
                    }
                }
                ctx.sessionStop();
                ctx.quiet();
                release(ctx, shmem);
                shmem.barrierAll();
            }
        });
    }

    private static void receive(Token token, Shmem shmem, SymmetricLongArray word, long round) {
        switch (token) {
            case P, ADD -> shmem.waitUntil(word, 0, Cmp.EQ, round);
            case SIGNAL_SET -> shmem.signalWaitUntil(word, 0, Cmp.EQ, round);
            case PUT_SIGNAL -> {
                shmem.signalWaitUntil(word, 0, Cmp.EQ, round);
                assertEquals(round * 7, word.get(1), "the payload of the token's put-with-signal");
            }
            case P_POLLED_WITH_TEST -> {
                while (!shmem.test(word, 0, Cmp.EQ, round)) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    // ------------------------------------------------------------------ reading back what a session wrote

    /**
     * Each PE, in a session, adds to a word of its own on every PE (itself, mapped and remote),
     * fences, and reads it with a blocking fetching AMO: the fence delivers the adds before it
     * (Table 14: blocking and non-fetching AMOs are ordered by fence), so it returns their sum; a
     * compare-and-swap after another fence sees that too. It also writes words with {@code p} and a
     * small put, quiets, and reads them back with {@code g} and {@code get}: quiet completes them
     * (a get after only a fence is not promised to see them, and not checked).
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, {2} context, batch {3}")
    @CsvSource({"2, 2, CREATED, 256", "3, 2, DEFAULT, 256", "5, 2, CREATED, ", "5, 3, DEFAULT, "})
    void fetchesAfterAFenceAndGetsAfterAQuietSeeTheSessionsWrites(int npes, int nodes, Ctx kind, String batchBytes) {
        run("fetch and get after batched writes", npes, env(nodes, batchBytes, false), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray acc = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricLongArray cells = shmem.calloc(ValueLayout.JAVA_LONG, (long) n * 8);
                SymmetricByteArray bytes = shmem.calloc(ValueLayout.JAVA_BYTE, (long) n * 8);
                checkPlacement(shmem, acc, nodes);
                Context ctx = open(shmem, kind);
                ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                Random random = new Random(me);
                long[] sum = new long[n];
                for (int round = 1; round <= 10; round++) {
                    for (int t : others(me, n, random).reversed()) {
                        for (int i = 0; i < 5; i++) {
                            long v = random.nextInt(1000);
                            ctx.atomicAdd(acc, me, v, t);
                            sum[t] += v;
                        }
                    }
                    List<Integer> all = others(me, n, random);
                    all.add(me);
                    ctx.fence();
                    for (int t : all) {
                        assertEquals(sum[t], round % 2 == 0 ? ctx.atomicFetch(acc, me, t) : ctx.atomicFetchAdd(acc, me, 0, t),
                                "round " + round + ": the fetch from PE " + t + " after this PE's adds and a fence");
                        ctx.atomicAdd(acc, me, 3, t);
                        sum[t] += 3;
                    }
                    ctx.fence();
                    for (int t : all) {
                        long swapped = sum[t] + round;
                        assertEquals(sum[t], ctx.atomicCompareSwap(acc, me, sum[t], swapped, t), "round " + round + ": compare-swap at PE " + t);
                        sum[t] = swapped;
                    }
                    for (int t : all) {
                        long base = (long) me * 8;
                        ctx.p(cells, base, round * 1000L + t, t);
                        ctx.put(cells, base + 1, new long[] {round, t, -round}, 0, 3, t);
                        ctx.p(bytes, base + round % 8, (byte) round, t);
                    }
                    ctx.quiet();
                    for (int t : all) {
                        long base = (long) me * 8;
                        assertEquals(round * 1000L + t, ctx.g(cells, base, t), "round " + round + ": g from PE " + t + " after quiet");
                        long[] back = new long[3];
                        ctx.get(back, 0, cells, base + 1, 3, t);
                        assertEquals(List.of((long) round, (long) t, (long) -round), Arrays.stream(back).boxed().toList(),
                                "round " + round + ": get from PE " + t + " after quiet");
                        assertEquals((byte) round, ctx.g(bytes, base + round % 8, t), "round " + round + ": byte g from PE " + t + " after quiet");
                    }
                }
                ctx.sessionStop();
                release(ctx, shmem);
                shmem.barrierAll();
            }
        });
    }

    /**
     * Non-blocking gets in a session (gathered per PE, one reply per batch) deliver, by quiet,
     * pe_quiet of their PEs or a stop then quiet, what the tables held: into Java arrays, symmetric
     * arrays and odd-sized byte ranges, from mapped and remote PEs, with puts to other words and
     * blocking gets mixed in (9.6.4: get_nbi completes at quiet).
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, {2} context, batch {3}, {4}")
    @CsvSource({"2, 2, CREATED, 256, QUIET", "3, 2, DEFAULT, 256, PE_QUIET", "5, 2, CREATED, , STOP_THEN_QUIET",
            "5, 3, DEFAULT, , QUIET", "3, 3, CREATED, , PE_QUIET"})
    void gatheredGetsDeliverWhatTheTablesHeld(int npes, int nodes, Ctx kind, String batchBytes, String completion) {
        run("gathered gets", npes, env(nodes, batchBytes, false), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), size = 1024, gets = 3000;
                SymmetricLongArray table = shmem.calloc(ValueLayout.JAVA_LONG, size);
                SymmetricLongArray landing = shmem.calloc(ValueLayout.JAVA_LONG, gets);
                SymmetricLongArray scribble = shmem.calloc(ValueLayout.JAVA_LONG, n);
                SymmetricByteArray raw = shmem.calloc(ValueLayout.JAVA_BYTE, size);
                checkPlacement(shmem, table, nodes);
                for (int i = 0; i < size; i++) {
                    table.set(i, (long) me << 32 | i);
                    raw.set(i, (byte) (me * 7 + i));
                }
                shmem.barrierAll();
                Context ctx = open(shmem, kind);
                Random random = new Random(me * 31L + 5);
                for (int round = 0; round < 3; round++) {
                    ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                    long[] into = new long[gets];
                    int[] pe = new int[gets], index = new int[gets];
                    byte[][] odd = new byte[gets / 100][];
                    for (int k = 0; k < gets; k++) {
                        pe[k] = random.nextInt(n);
                        index[k] = random.nextInt(size - 8);
                        if (k % 3 == 0) {
                            ctx.getNbi(landing, k, table, index[k], 1, pe[k]);
                        } else {
                            ctx.getNbi(into, k, table, index[k], 1, pe[k]);
                        }
                        if (k % 100 == 0) {
                            odd[k / 100] = new byte[1 + k % 7];
                            ctx.getNbi(odd[k / 100], 0, raw, index[k], odd[k / 100].length, pe[k]);
                            ctx.p(scribble, me, k, pe[k]); // a batched put to a word nobody reads here
                        }
                        if (k % 250 == 0) {
                            assertEquals((long) pe[k] << 32 | index[k], ctx.g(table, index[k], pe[k]), "a blocking g among batched gets");
                        }
                    }
                    switch (completion) {
                        case "QUIET" -> ctx.quiet();
                        case "PE_QUIET" -> ctx.peQuiet(IntStream.range(0, n).toArray());
                        default -> {
                            ctx.sessionStop();
                            ctx.quiet();
                        }
                    }
                    for (int k = 0; k < gets; k++) {
                        long got = k % 3 == 0 ? landing.get(k) : into[k];
                        assertEquals((long) pe[k] << 32 | index[k], got, "round " + round + ": get " + k + " from PE " + pe[k]);
                        if (k % 100 == 0) {
                            for (int b = 0; b < odd[k / 100].length; b++) {
                                assertEquals((byte) (pe[k] * 7 + index[k] + b), odd[k / 100][b], "round " + round + ": byte get " + k);
                            }
                        }
                    }
                    ctx.sessionStop();
                }
                release(ctx, shmem);
                shmem.barrierAll();
            }
        });
    }

    // ------------------------------------------------------------------ batched and mapped updates of the same words

    /**
     * Every PE adds to and xors into the same few words of every PE at once: the PEs of the
     * word's node with CPU atomics, the others batched; even PEs through a created context, odd
     * ones through the default one, both in sessions, with blocking fetching adds (which send a
     * batch) mixed in. AMOs are atomic with respect to each other whatever their route (9.10): the
     * final sums and xors are exact.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, batch {2}")
    @CsvSource({"3, 2, 256", "5, 2, ", "5, 3, 256"})
    void batchedAndMappedAmosOnTheSameWordsAreAtomic(int npes, int nodes, String batchBytes) {
        int updates = 600, words = 3;
        run("contended AMOs", npes, env(nodes, batchBytes, false), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray hot = shmem.calloc(ValueLayout.JAVA_LONG, words * 2L);
                checkPlacement(shmem, hot, nodes);
                Context ctx = open(shmem, me % 2 == 0 ? Ctx.CREATED : Ctx.DEFAULT);
                shmem.barrierAll();
                ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                for (int i = 0; i < updates; i++) {
                    int t = i % n, w = i / n % words;
                    long v = 1L << (me * 8 + i % 8); // each PE's bits apart: a lost or doubled add shows whose
                    if (i % 10 == 9) {
                        ctx.atomicFetchAdd(hot, w, v, t);
                    } else {
                        ctx.atomicAdd(hot, w, v, t);
                    }
                    ctx.atomicXor(hot, words + w, v * 3, t);
                }
                ctx.sessionStop();
                ctx.quiet();
                shmem.barrierAll();
                long[] sum = new long[words], xor = new long[words];
                for (int src = 0; src < n; src++) {
                    for (int i = 0; i < updates; i++) {
                        if (i % n == me) {
                            long v = 1L << (src * 8 + i % 8);
                            sum[i / n % words] += v;
                            xor[i / n % words] ^= v * 3;
                        }
                    }
                }
                for (int w = 0; w < words; w++) {
                    assertEquals(Long.toHexString(sum[w]), Long.toHexString(hot.get(w)), "the sum of every PE's adds to word " + w);
                    assertEquals(Long.toHexString(xor[w]), Long.toHexString(hot.get(words + w)), "the xor of every PE's xors into word " + w);
                }
                release(ctx, shmem);
            }
        });
    }

    // ------------------------------------------------------------------ finalize, and a PE that dies

    /**
     * A created context left with a session open and writes pending (no stop, quiet or destroy)
     * when its PE finalizes: the last finalize completes all pending communication (9.1.4) before
     * any resource is released, so the target, which polls (bounded) before it finalizes itself,
     * sees the writes. The batch delay is longer than that bound: only finalize can have sent them.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes, batch {2}")
    @CsvSource({"2, 2, 256", "3, 2, ", "5, 3, 256"})
    void finalizeCompletesTheBatchOfACreatedContext(int npes, int nodes, String batchBytes) {
        run("finalize with a pending batch", npes, env(nodes, batchBytes, true), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes(), target = n - 1;
                SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                checkPlacement(shmem, x, nodes);
                shmem.barrierAll();
                if (me == 0) {
                    assertTrue(shmem.ptr(x, target) == null, "the target is remote");
                    Context ctx = shmem.ctxCreate(0);
                    ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                    ctx.put(x, 1, new long[] {11, 12}, 0, 2, target);
                    ctx.atomicAdd(x, 3, 5, target);
                    ctx.p(x, 0, 42L, target);
                    // left open: finalize (the try's close) destroys it
                } else if (me == target) {
                    assertTrue(shmem.waitUntil(x, 0, Cmp.EQ, 42L, Duration.ofSeconds(20)),
                            "PE 0's writes did not arrive while it finalized (or finalize completed them only after its barrier)");
                    assertEquals(List.of(42L, 11L, 12L, 5L), Arrays.stream(x.toArray()).boxed().toList());
                }
            }
        });
    }

    /**
     * A PE on another node than its targets fails with writes batched for them: the job ends, with
     * the failure naming that PE, within the bound; the waiting peers do not hang.
     */
    @ParameterizedTest(name = "{0} PEs on {1} nodes")
    @CsvSource({"2, 2", "3, 2"})
    void aPeDyingWithABatchPendingEndsTheJobNamingIt(int npes, int nodes) {
        int dying = npes - 1;
        long start = System.nanoTime();
        InProcessJob.Result r = InProcessJob.run(npes, env(nodes, "", true), Duration.ofSeconds(60), () -> {
            Shmem shmem = Shmem.init();
            SymmetricLongArray x = shmem.calloc(ValueLayout.JAVA_LONG, 2);
            shmem.barrierAll();
            if (shmem.myPe() == dying) {
                Context ctx = shmem.ctxCreate(0);
                ctx.sessionStart(Context.SESSION_BATCH, SessionConfig.DEFAULT, 0);
                for (int pe = 0; pe < dying; pe++) {
                    ctx.p(x, 0, 1L, pe);
                    ctx.atomicAdd(x, 1, 1L, pe);
                }
                throw new IllegalStateException("PE " + dying + " dies with a batch pending"); // without finalizing
            }
            shmem.waitUntil(x, 0, Cmp.EQ, 2L); // never: only the job's end ends it
            shmem.close();
        });
        System.out.printf("session batch: a PE dying with a batch pending ended the job in %.1f s%n", (System.nanoTime() - start) / 1e9);
        assertFalse(r.timedOut(), "the job did not end: " + r.failures());
        assertNotEquals(0, r.status());
        assertTrue(r.failuresByPe().get(dying) != null && r.failuresByPe().get(dying).getMessage().contains("dies with a batch pending"),
                r.failures().toString());
        for (int pe = 0; pe < dying; pe++) {
            Throwable waiter = r.failuresByPe().get(pe);
            assertTrue(waiter != null && waiter.toString().contains("PE " + dying), "PE " + pe + "'s failure names PE " + dying + ": " + waiter);
        }
    }
}
