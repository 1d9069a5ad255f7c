package org.shmem4j.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelContract;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.JobHealth;
import org.shmem4j.transport.NetworkSetup;

/** The contract over UCX: a few "PEs" in this JVM, each with its own UCP context, all remote to each other (tcp). */
class UcxChannelTest extends ChannelContract {
    /** Opens {@code npes} UCX transports collectively, as PEs would at start-up (one thread each). */
    static UcxTransport[] openAll(MemorySegment[] regions) {
        JobHealth[] health = new JobHealth[regions.length];
        Arrays.fill(health, JobHealth.NONE);
        return openAll(regions, health);
    }

    /** As {@link #openAll(MemorySegment[])}, each transport reporting to its own {@code health[pe]}. */
    static UcxTransport[] openAll(MemorySegment[] regions, JobHealth[] health) {
        int npes = regions.length;
        byte[][] round = new byte[npes][];
        CyclicBarrier barrier = new CyclicBarrier(npes);
        ExecutorService threads = Executors.newFixedThreadPool(npes);
        try {
            List<Future<UcxTransport>> opened = new ArrayList<>();
            for (int pe = 0; pe < npes; pe++) {
                int rank = pe;
                boolean[] remote = new boolean[npes];
                Arrays.fill(remote, true);
                remote[rank] = false;
                Function<byte[], byte[][]> allGather = mine -> {
                    try {
                        round[rank] = mine;
                        barrier.await(60, TimeUnit.SECONDS);
                        byte[][] all = round.clone();
                        barrier.await(60, TimeUnit.SECONDS); // nobody overwrites before all have read
                        return all;
                    } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                        throw new IllegalStateException("test all-gather failed", e);
                    }
                };
                opened.add(threads.submit(() -> UcxTransport.open(new NetworkSetup(rank, remote, regions[rank], allGather, health[rank], false))));
            }
            UcxTransport[] transports = new UcxTransport[npes];
            for (int pe = 0; pe < npes; pe++) {
                transports[pe] = opened.get(pe).get(120, TimeUnit.SECONDS);
            }
            return transports;
        } catch (Exception e) {
            throw new IllegalStateException("opening the UCX transports failed", e);
        } finally {
            threads.shutdownNow();
        }
    }

    /** A test's body over two PEs: their regions and UCX transports, and an arena for its buffers. */
    @FunctionalInterface
    private interface TwoPes {
        void run(Arena arena, MemorySegment[] regions, UcxTransport[] t) throws Exception;
    }

    /** Runs {@code body} over two PEs, closing their transports and memory after it. */
    private static void withTwoPes(TwoPes body) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] regions = {arena.allocate(REGION, 4096), arena.allocate(REGION, 4096)};
            UcxTransport[] t = openAll(regions);
            try {
                body.run(arena, regions, t);
            } finally {
                t[0].close();
                t[1].close();
            }
        }
    }

    /** What a node without RDMA is given (decision 0039): small puts, atomics and signal additions in messages. */
    private static ChannelOptions messages(ChannelMode mode) {
        return new ChannelOptions(mode, SignalMessages.MAX_PAYLOAD, true);
    }

    @Override
    protected Fixture open(int npes) {
        UcxAvailable.requireUcx("the UCX channel contract");
        Arena arena = Arena.ofShared();
        MemorySegment[] regions = new MemorySegment[npes];
        for (int pe = 0; pe < npes; pe++) {
            regions[pe] = arena.allocate(REGION, 4096);
        }
        UcxTransport[] transports = openAll(regions);
        Channel[] channels = new Channel[npes];
        for (int pe = 0; pe < npes; pe++) {
            channels[pe] = transports[pe].openChannel(messages(pe == 0 ? ChannelMode.SHARED : ChannelMode.PRIVATE));
        }
        return new Fixture() {
            @Override
            public int npes() {
                return npes;
            }

            @Override
            public Channel channel(int pe) {
                return channels[pe];
            }

            @Override
            public MemorySegment region(int pe) {
                return regions[pe];
            }

            @Override
            public void close() {
                for (UcxTransport t : transports) {
                    t.close();
                }
                arena.close();
            }
        };
    }

    @Test
    @Timeout(120)
    void aPeerThatIsGoneIsReportedToTheJobAndNamedByTheFailure() {
        UcxAvailable.requireUcx("the UCX channel's report of a lost peer");
        // PE 1's transport closes (its process died, or its host went away) before PE 0 ever
        // talked to it: PE 0's first operation to it fails, names it, and tells the job first
        var reported = new ConcurrentLinkedQueue<String>();
        JobHealth recording = new JobHealth() {
            @Override
            public void checkAlive() {}

            @Override
            public void peerLost(int pe, String reason) {
                reported.add(pe + ": " + reason);
            }
        };
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] regions = {arena.allocate(REGION, 4096), arena.allocate(REGION, 4096)};
            UcxTransport[] t = openAll(regions, new JobHealth[] {recording, JobHealth.NONE});
            t[1].close();
            try (Channel channel = t[0].openChannel(messages(ChannelMode.PRIVATE))) {
                var e = assertThrows(ShmemException.class,
                        () -> channel.fetchingAtomic(AtomicOp.ADD, 8, 1, 0, 1, 0));
                assertTrue(e.getMessage().contains("PE 1"), e.getMessage());
                assertFalse(reported.isEmpty(), "no report for: " + e.getMessage());
                assertTrue(reported.stream().allMatch(r -> r.startsWith("1: ")), reported::toString);
                System.out.println("[ucx] lost peer reported: " + reported.peek());
            } finally {
                t[0].close();
            }
        }
    }

    /**
     * Completion by count: each channel's puts with signal are confirmed apart (the target counts
     * per sending channel, not per PE), and a channel that closes right after raises has had them
     * applied and does not hang on its own confirmation. Honest limit: over an idle loopback the
     * target's agent applies the raises before a close without confirmation would drop them, so
     * that half cannot fail here for the want of it; it checks the close's queries and answers.
     */
    /**
     * A thread that polls without pause (a waiter that peers keep busy progresses the home worker
     * and its own channel only) must not starve another channel's worker: the data and signal a
     * channel accepted (nbi: nothing waits for them) still go out, moved by the progress agent.
     */
    @Test
    @Timeout(120)
    void anotherChannelProgressesWhileAWaiterPollsWithoutPause() {
        UcxAvailable.requireUcx("the UCX progress of every channel");
        long big = 32L << 20, signalAt = big;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] regions = {arena.allocate(big + 4096, 4096), arena.allocate(big + 4096, 4096)};
            UcxTransport[] t = openAll(regions);
            try {
                Channel waiter = t[0].openChannel(messages(ChannelMode.SHARED)), created = t[0].openChannel(messages(ChannelMode.SHARED));
                regions[0].asSlice(0, big).fill((byte) 7);
                created.putSignalNbi(1, 0, regions[0].asSlice(0, big), signalAt, 1, AtomicOp.SWAP);
                long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hang fails, it is no speed limit
                while (regions[1].get(ValueLayout.JAVA_LONG, signalAt) == 0) {
                    waiter.progress();
                    assertTrue(System.nanoTime() - bound < 0, "the signal did not arrive in 60 s while a waiter polled");
                }
                assertEquals(7, regions[1].get(ValueLayout.JAVA_BYTE, big - 1), "the data's last byte before its signal");
                created.quiet();
            } finally {
                t[0].close();
                t[1].close();
            }
        }
    }

    @Test
    @Timeout(120)
    void messagesAreConfirmedPerChannelAndBeforeTheChannelCloses() throws Exception {
        UcxAvailable.requireUcx("the UCX channel's completion by count");
        withTwoPes((arena, regions, t) -> {
            Channel a = t[0].openChannel(messages(ChannelMode.PRIVATE)), b = t[0].openChannel(messages(ChannelMode.PRIVATE));
            MemorySegment data = arena.allocate(64);
            long words = 4096;
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < 200; i++) {
                    a.putSignal(1, 0, data, words, 1, AtomicOp.ADD);
                    if (i % 2 == 0) {
                        if (i % 4 == 0) {
                            b.putSignalNbi(1, 64, data, words + 8, 1, AtomicOp.ADD);
                        } else {
                            b.putSignal(1, 64, data, words + 8, 1, AtomicOp.ADD);
                        }
                    }
                }
                b.quiet();
                assertEquals(100L * round, regions[1].get(ValueLayout.JAVA_LONG, words + 8), "channel b, round " + round);
                a.quiet();
                assertEquals(200L * round, regions[1].get(ValueLayout.JAVA_LONG, words), "channel a, round " + round);
            }
            a.close();
            for (long v = 1; v <= 50; v++) {
                b.putRaise(1, 128, data, words + 16, v);
            }
            b.close();
            assertEquals(50, regions[1].get(ValueLayout.JAVA_LONG, words + 16), "raises before the close");
        });
    }

    /**
     * Put, quiet, put, quiet: once a quiet covered a single message, the next message asks for an
     * answer and the quiet waits for it instead of sending a query (two sends fewer per round);
     * a quiet after several messages asks as before, and the guess follows what the last quiet saw.
     * The data is there after every quiet either way. An answer is no reason to ask again: a run of
     * messages with no quiet (a loop of collectives) has only its first answered.
     */
    @Test
    @Timeout(120)
    void aQuietAfterASingleMessageWaitsForItsAnswerInsteadOfAsking() throws Exception {
        UcxAvailable.requireUcx("answers to single messages");
        withTwoPes((arena, regions, t) -> {
            UcxChannel c = (UcxChannel) t[0].openChannel(messages(ChannelMode.PRIVATE));
            MemorySegment word = arena.allocate(8, 8);
            long at = 4096;
            long value = 0;
            long[] queriesAfterRound = new long[8];
            for (int round = 0; round < 8; round++) {
                int messages = round == 4 ? 5 : 1; // round 4: several messages before the quiet
                for (int m = 0; m < messages; m++) {
                    word.set(ValueLayout.JAVA_LONG, 0, ++value);
                    c.putSignal(1, at, word, at + 8, value, AtomicOp.SWAP);
                }
                c.quiet();
                assertEquals(value, regions[1].get(ValueLayout.JAVA_LONG, at), "data after the quiet of round " + round);
                assertEquals(value, regions[1].get(ValueLayout.JAVA_LONG, at + 8), "signal after the quiet of round " + round);
                queriesAfterRound[round] = c.queriesAndAnswersAsked()[0];
            }
            // round 0 asks (nothing to guess from); 1-3 wait for answers; 4 guessed one message
            // but sent five: asks; 5 follows a quiet of five: asks; 6 and 7 wait for answers again
            assertEquals(java.util.List.of(1L, 1L, 1L, 1L, 2L, 3L, 3L, 3L),
                    java.util.Arrays.stream(queriesAfterRound).boxed().toList(), "queries sent after each round");
            long asked = c.queriesAndAnswersAsked()[1];
            assertEquals(6, asked, "messages that asked for an answer: the first of rounds 1-4, 6, 7");
            for (int m = 0; m < 20; m++) { // no quiet: each answer arrives before the next message
                word.set(ValueLayout.JAVA_LONG, 0, ++value);
                c.putSignal(1, at, word, at + 8, value, AtomicOp.SWAP);
                while (c.answersAwaited()) {
                    c.progress();
                }
            }
            assertEquals(asked + 1, c.queriesAndAnswersAsked()[1], "a run without quiet: only its first message asks");
            c.quiet();
            assertEquals(value, regions[1].get(ValueLayout.JAVA_LONG, at + 8), "signal after the run's quiet");
            c.close();
        });
    }

    /**
     * A program that opens and closes contexts all along: the target keeps a record per sending
     * channel, and a closed channel's identity goes to the next one opened, numbering its messages
     * on from where the closed one stopped; so the records stay as many as the channels open at
     * once (two here), and every message is still applied (a numbering restarted at 1 would have
     * the target drop them as already applied).
     */
    @Test
    @Timeout(120)
    void closedChannelsHandTheirIdentityOnAndTargetsKeepNoRecordPerChannelEverOpened() throws Exception {
        UcxAvailable.requireUcx("the reuse of closed channels' identities");
        withTwoPes((arena, regions, t) -> {
            MemorySegment data = arena.allocate(64);
            long words = 4096;
            Channel kept = t[0].openChannel(messages(ChannelMode.PRIVATE));
            for (int i = 1; i <= 40; i++) {
                Channel c = t[0].openChannel(messages(ChannelMode.PRIVATE));
                for (int j = 0; j < i % 5 + 1; j++) {
                    c.putSignal(1, 0, data, words, 1, AtomicOp.ADD);
                }
                kept.putSignal(1, 64, data, words + 8, 1, AtomicOp.ADD);
                c.quiet();
                c.close();
            }
            kept.quiet();
            assertEquals(40 * 3, regions[1].get(ValueLayout.JAVA_LONG, words), "messages of the 40 channels");
            assertEquals(40, regions[1].get(ValueLayout.JAVA_LONG, words + 8), "messages of the channel kept open");
            assertEquals(2, t[1].sendersKnown(), "records at the target: one per channel open at once");
            kept.close();
        });
    }

    /** Every operation of a closed channel: an exception naming it, no call into UCX (its worker is destroyed). */
    private static final List<Map.Entry<String, Consumer<Channel>>> OPERATIONS = List.of(
            Map.entry("put", c -> c.put(1, 0, MemorySegment.ofArray(new long[1]))),
            Map.entry("put_nbi", c -> c.putNbi(1, 0, MemorySegment.ofArray(new long[1]))),
            Map.entry("get", c -> c.get(MemorySegment.ofArray(new long[1]), 1, 0)),
            Map.entry("get_nbi", c -> c.getNbi(MemorySegment.ofArray(new long[1]), 1, 0)),
            Map.entry("fetching atomic", c -> c.fetchingAtomic(AtomicOp.ADD, 8, 1, 8, 1, 0)),
            Map.entry("fetching atomic nbi", c -> c.fetchingAtomicNbi(MemorySegment.ofArray(new long[1]), AtomicOp.ADD, 8, 1, 8, 1, 0)),
            Map.entry("atomic", c -> c.atomic(AtomicOp.ADD, 8, 1, 8, 1)),
            Map.entry("put_signal", c -> c.putSignal(1, 0, MemorySegment.ofArray(new long[1]), 16, 1, AtomicOp.ADD)),
            Map.entry("signal", c -> c.putRaise(1, 0, MemorySegment.ofArray(new long[1]), 24, 1)),
            Map.entry("fence", Channel::fence),
            Map.entry("quiet", Channel::quiet),
            Map.entry("pe_quiet", c -> c.quiet(1)));

    /**
     * A context destroyed (its channel closed) while, or before, another thread uses it: each
     * operation fails naming itself. Before, a fence reached the destroyed worker (the JVM crashed
     * in {@code ucp_worker_fence}, or went on with freed memory) where the others failed.
     */
    @Test
    @Timeout(120)
    void everyOperationOfAClosedChannelFailsNamingItself() throws Exception {
        UcxAvailable.requireUcx("operations of a closed UCX channel");
        withTwoPes((arena, regions, t) -> {
            Channel c = t[0].openChannel(messages(ChannelMode.SHARED));
            c.put(1, 0, MemorySegment.ofArray(new long[] {1})); // connected, so there is an endpoint to misuse
            c.close();
            for (var op : OPERATIONS) {
                var e = assertThrows(IllegalStateException.class, () -> op.getValue().accept(c), op.getKey());
                assertEquals(op.getKey() + ": the UCX channel is closed", e.getMessage());
            }
            c.progress(); // a waiter's poll: the home worker only
            c.parking();
            c.close(); // idempotent
        });
    }

    /**
     * Threads of a shared context hammer it with every operation while another thread closes it,
     * many times: each thread stops at an {@link IllegalStateException} naming its operation, and
     * nothing reaches the destroyed worker (before, fence did: the JVM crashed).
     */
    @Test
    @Timeout(300)
    void aChannelClosedWhileThreadsUseItFailsThemCleanly() throws Exception {
        UcxAvailable.requireUcx("a UCX channel closed while in use");
        int threads = 3, rounds = 150;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] regions = {arena.allocate(REGION, 4096), arena.allocate(REGION, 4096)};
            UcxTransport[] t = openAll(regions);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < rounds; round++) {
                    Channel c = t[0].openChannel(messages(ChannelMode.SHARED));
                    var started = new CountDownLatch(threads);
                    List<Future<String>> users = new ArrayList<>();
                    for (int u = 0; u < threads; u++) {
                        int first = (round + u) % OPERATIONS.size();
                        users.add(pool.submit(() -> {
                            started.countDown();
                            for (int i = first; ; i++) {
                                var op = OPERATIONS.get(i % OPERATIONS.size());
                                try {
                                    op.getValue().accept(c);
                                } catch (IllegalStateException closed) {
                                    assertEquals(op.getKey() + ": the UCX channel is closed", closed.getMessage());
                                    return op.getKey();
                                }
                            }
                        }));
                    }
                    assertTrue(started.await(60, TimeUnit.SECONDS), "the users did not start");
                    c.close();
                    for (Future<String> user : users) {
                        user.get(60, TimeUnit.SECONDS); // an assertion or another failure fails the test here
                    }
                }
            } finally {
                pool.shutdownNow();
                t[0].close();
                t[1].close();
            }
        }
    }

    /**
     * The engine reports whether its RMA needs the target's CPU (no RDMA device on this node: UCX
     * has only tcp), and routes puts as it is told: up to the message put limit a put travels as a
     * message, unless a fence separates it from RMA not yet flushed; a larger put, or any put with
     * a limit of 0, is UCX RMA. Either way quiet delivers the data. A raise with more data than a
     * message holds sends it in messages ahead of the raise where puts travel as messages.
     */
    @Test
    @Timeout(120)
    void putsTravelAsMessagesUpToTheLimitTheChannelIsGiven() throws Exception {
        UcxAvailable.requireUcx("the UCX channel's put routes");
        boolean rdma = rdmaDevice();
        withTwoPes((arena, regions, t) -> {
            assertEquals(rdma, t[0].capabilities().rmaWithoutTargetCpu(), "RDMA devices under /sys/class/infiniband: " + rdma);
            assertEquals(SignalMessages.MAX_PAYLOAD, t[0].capabilities().maxMessagePayload());
            assertEquals(rdma ? SignalMessages.MAX_PAYLOAD : SignalMessages.MAX_STREAMED, t[0].capabilities().oneWayRaisePayload());
            for (long limit : new long[] {SignalMessages.MAX_PAYLOAD, 0}) {
                UcxChannel c = (UcxChannel) t[0].openChannel(new ChannelOptions(ChannelMode.PRIVATE, limit, true));
                long asMessage = limit > 0 ? 1 : 0, base = c.messagesSent(1); // a retired channel's count goes on
                MemorySegment small = arena.allocate(SignalMessages.MAX_PAYLOAD).fill((byte) 1);
                MemorySegment large = arena.allocate(SignalMessages.MAX_PAYLOAD + 1).fill((byte) 2);
                c.put(1, 0, small.asSlice(0, 8));
                assertEquals(asMessage, c.messagesSent(1) - base, "a blocking put of 8 bytes, limit " + limit);
                c.putNbi(1, 64, small);
                assertEquals(2 * asMessage, c.messagesSent(1) - base, "an nbi put of 8 KiB, limit " + limit);
                c.put(1, 16384, large);
                assertEquals(2 * asMessage, c.messagesSent(1) - base, "a put of 8 KiB + 1 is RMA");
                c.fence();
                c.put(1, 32768, small.asSlice(0, 16));
                assertEquals(2 * asMessage, c.messagesSent(1) - base, "a put after a fence that follows unflushed RMA is RMA");
                c.quiet();
                c.fence();
                c.put(1, 32784, small.asSlice(0, 16));
                assertEquals(3 * asMessage, c.messagesSent(1) - base, "after quiet nothing is unflushed: a message again, limit " + limit);
                c.quiet();
                assertEquals(1, regions[1].get(ValueLayout.JAVA_BYTE, 7));
                assertEquals(1, regions[1].get(ValueLayout.JAVA_BYTE, 64 + SignalMessages.MAX_PAYLOAD - 1));
                assertEquals(2, regions[1].get(ValueLayout.JAVA_BYTE, 16384 + SignalMessages.MAX_PAYLOAD));
                assertEquals(1, regions[1].get(ValueLayout.JAVA_BYTE, 32768 + 15));
                assertEquals(1, regions[1].get(ValueLayout.JAVA_BYTE, 32784 + 15));
                MemorySegment parts = arena.allocate(3 * SignalMessages.MAX_PAYLOAD / 2).fill((byte) 3);
                long sent = c.messagesSent(1);
                c.putRaise(1, 65536, parts, 131072, 5);
                assertEquals(asMessage == 1 ? 2 : 1, c.messagesSent(1) - sent,
                        "a raise with one and a half messages' data goes in pieces ahead of it where puts travel as messages, limit " + limit);
                MemorySegment bulk = arena.allocate(SignalMessages.MAX_STREAMED + 8).fill((byte) 4);
                c.putRaise(1, 196608, bulk, 131080, 6);
                assertEquals((asMessage == 1 ? 2 : 1) + 1, c.messagesSent(1) - sent, "more than MAX_STREAMED: a put, then the raise");
                c.settle(new int[] {1});
                assertEquals(6L, regions[1].get(ValueLayout.JAVA_LONG, 131080));
                assertEquals(4, regions[1].get(ValueLayout.JAVA_BYTE, 196608 + bulk.byteSize() - 1));
                assertEquals(5L, regions[1].get(ValueLayout.JAVA_LONG, 131072));
                assertEquals(3, regions[1].get(ValueLayout.JAVA_BYTE, 65536));
                assertEquals(3, regions[1].get(ValueLayout.JAVA_BYTE, 65536 + parts.byteSize() - 1));
                regions[1].fill((byte) 0);
                c.close();
            }
            var tooLarge = assertThrows(IllegalArgumentException.class,
                    () -> t[0].openChannel(new ChannelOptions(ChannelMode.PRIVATE, SignalMessages.MAX_PAYLOAD + 1, true)));
            assertTrue(tooLarge.getMessage().startsWith("openChannel:") && tooLarge.getMessage().contains("8193"),
                    tooLarge.getMessage());
        });
    }

    private static boolean rdmaDevice() throws java.io.IOException {
        try (var devices = java.nio.file.Files.list(java.nio.file.Path.of("/sys/class/infiniband"))) {
            return devices.findAny().isPresent();
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    /**
     * Told that atomics may not travel as messages (the engine's atomics are not atomic with the
     * target's CPU atomics, which a message's handler uses), a session batches no atomic and a put
     * with a signal addition goes as a put, a fence and a UCX atomic; a signal set still travels as
     * one message.
     */
    @Test
    @Timeout(120)
    void atomicsStayOutOfMessagesWhenTheChannelIsToldSo() throws Exception {
        UcxAvailable.requireUcx("the UCX channel's atomic routes");
        withTwoPes((arena, regions, t) -> {
            UcxChannel c = (UcxChannel) t[0].openChannel(new ChannelOptions(ChannelMode.PRIVATE, 0, false));
            MemorySegment word = MemorySegment.ofArray(new long[] {5});
            c.putSignal(1, 0, word, 8, 1, AtomicOp.ADD);
            c.putSignalNbi(1, 0, word, 8, 1, AtomicOp.ADD);
            assertEquals(0, c.messagesSent(1), "puts with a signal addition");
            c.putSignal(1, 16, word, 24, 9, AtomicOp.SWAP);
            assertEquals(1, c.messagesSent(1), "a put with a signal set");
            c.startBatching(new org.shmem4j.transport.Batches.Limits(8192, 1 << 20, Long.MAX_VALUE), Long.MAX_VALUE);
            for (int i = 0; i < 100; i++) {
                c.atomic(AtomicOp.ADD, 8, 1, 32, 1);
            }
            assertEquals(0, c.stopBatching().ops(), "atomics batched");
            c.quiet();
            assertEquals(1, c.messagesSent(1));
            assertEquals(2, regions[1].get(ValueLayout.JAVA_LONG, 8));
            assertEquals(9, regions[1].get(ValueLayout.JAVA_LONG, 24));
            assertEquals(100, regions[1].get(ValueLayout.JAVA_LONG, 32));
            c.close();
        });
    }

    /**
     * A loop of non-blocking puts and puts with signal sent as messages, with no quiet, stages
     * nothing (each used to stage its header, and a heap source its data, until the next quiet:
     * memory without bound); in a batching session the same loop sends a message per batch, not
     * per operation, and quiet delivers everything.
     */
    @Test
    @Timeout(120)
    void nbiMessagesStageNothingAndASessionBatchesThem() throws Exception {
        UcxAvailable.requireUcx("the UCX channel's messages and batches");
        withTwoPes((arena, regions, t) -> {
            UcxChannel c = (UcxChannel) t[0].openChannel(messages(ChannelMode.PRIVATE));
            int n = 5_000;
            MemorySegment word = arena.allocate(8, 8);
            for (int i = 0; i < n; i++) {
                c.putNbi(1, 8L * (i % 512), word); // native: staged by no route, RMA or message
                c.putSignalNbi(1, 4096 + 8L * (i % 512), MemorySegment.ofArray(new long[] {i}), 8192, 1, AtomicOp.ADD);
            }
            assertEquals(0, c.stagedBytes(), "bytes staged by " + n + " nbi messages before quiet");
            c.quiet();
            assertEquals(n, regions[1].get(ValueLayout.JAVA_LONG, 8192));
            long before = c.messagesSent(1);
            c.startBatching(new org.shmem4j.transport.Batches.Limits(8192, 1 << 20, Long.MAX_VALUE), Long.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                c.atomic(AtomicOp.ADD, 8, 1, 16384, 1);
                c.put(1, 16392 + 8L * (i % 512), MemorySegment.ofArray(new long[] {i}));
            }
            var batched = c.stopBatching();
            c.quiet();
            assertEquals(2L * n, batched.ops());
            long messages = c.messagesSent(1) - before;
            assertEquals(batched.batches(), messages, "one message per batch");
            assertTrue(messages <= 2L * n * 16 / (8192 - 48) + 2, messages + " messages for " + 2 * n + " operations");
            assertEquals(n, regions[1].get(ValueLayout.JAVA_LONG, 16384));
            assertEquals(n - 1, regions[1].get(ValueLayout.JAVA_LONG, 16392 + 8L * ((n - 1) % 512)));
            // nbi gets gathered: one reply per batch, delivered by quiet into the Java heap too
            for (int i = 0; i < 1024; i++) {
                regions[1].set(ValueLayout.JAVA_LONG, 32768 + 8L * i, 7L * i);
            }
            long[] into = new long[n];
            before = c.messagesSent(1);
            c.startBatching(new org.shmem4j.transport.Batches.Limits(8192, 1 << 20, Long.MAX_VALUE), Long.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                c.getNbi(MemorySegment.ofArray(into).asSlice(8L * i, 8), 1, 32768 + 8L * ((i * 31) % 1024));
            }
            batched = c.stopBatching();
            c.quiet();
            assertEquals(n, batched.ops());
            assertTrue(c.messagesSent(1) - before <= n * 8 / (8192 - 48) + 2, (c.messagesSent(1) - before) + " messages");
            for (int i = 0; i < n; i++) {
                assertEquals(7L * ((i * 31) % 1024), into[i], "get " + i);
            }
            c.close();
        });
    }

    /**
     * The target applies a sending channel's messages in the order sent, whatever order they
     * arrive in: one that arrives early waits for those before it (UCX promises no order, and the
     * collectives read a later flag stamp as "the earlier steps' data arrived").
     */
    @Test
    void aMessageThatArrivesEarlyWaitsForTheOnesSentBeforeIt() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(REGION, 4096);
            var target = new SignalMessages.Target(null, region, 0, arena, null, new java.util.HashMap<>(), new java.util.ArrayDeque<>(),
                    new org.shmem4j.transport.Traffic());
            long sender = 7L << 32 | 3, other = 8L << 32 | 3, flag = 4096;
            // message k puts the long k at 8k and raises the flag to k
            MemorySegment[][] m = new MemorySegment[4][];
            for (int k = 1; k <= 3; k++) {
                MemorySegment h = arena.allocate(SignalMessages.HEADER_BYTES, 8);
                SignalMessages.header(h, 8L * k, flag, k, SignalMessages.FLAG_RAISE, sender, k);
                MemorySegment data = arena.allocate(8, 8);
                data.set(ValueLayout.JAVA_LONG, 0, k);
                m[k] = new MemorySegment[] {h, data};
            }
            SignalMessages.deliver(target, m[3][0], m[3][1], MemorySegment.NULL);
            assertEquals(0, region.get(ValueLayout.JAVA_LONG, flag), "message 3 arrived first: it waits");
            assertEquals(0, region.get(ValueLayout.JAVA_LONG, 24), "and so does its data");
            m[3][1].set(ValueLayout.JAVA_LONG, 0, -1); // UCX reuses its buffer after the upcall: a copy was kept
            // another channel's messages are numbered apart
            MemorySegment h = arena.allocate(SignalMessages.HEADER_BYTES, 8);
            SignalMessages.header(h, 64, flag + 8, 5, 0, other, 1);
            SignalMessages.deliver(target, h, MemorySegment.NULL, MemorySegment.NULL);
            assertEquals(5, region.get(ValueLayout.JAVA_LONG, flag + 8));
            SignalMessages.deliver(target, m[1][0], m[1][1], MemorySegment.NULL);
            assertEquals(1, region.get(ValueLayout.JAVA_LONG, flag), "message 1 is next: applied");
            assertEquals(0, region.get(ValueLayout.JAVA_LONG, 24), "message 3 still waits for 2");
            SignalMessages.deliver(target, m[2][0], m[2][1], MemorySegment.NULL);
            assertEquals(3, region.get(ValueLayout.JAVA_LONG, flag), "2, then the waiting 3");
            for (int k = 1; k <= 3; k++) {
                assertEquals(k, region.get(ValueLayout.JAVA_LONG, 8L * k), "data of message " + k);
            }
            SignalMessages.deliver(target, m[2][0], m[2][1], MemorySegment.NULL); // a number already applied changes nothing
            assertEquals(3, region.get(ValueLayout.JAVA_LONG, flag));
        }
    }
}
