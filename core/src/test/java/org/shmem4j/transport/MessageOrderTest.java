package org.shmem4j.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.shmem4j.transport.MessageOrder.Confirmation;

/**
 * MessageOrder without a network: a simulated engine does what it decides, exactly as the UCX
 * channel does, over a network that delivers messages, queries and answers in any order, to
 * targets that apply a sender's messages in their numbers' order and answer as
 * {@code SignalMessages} does. Every decision is held against a model of the rules written from
 * the history of the operations (what was sent when, which fence came after what, what each
 * target applied), and the rules themselves against what the targets applied: every sequence of
 * five operations on two PEs (fourteen kinds), delivered oldest first and newest first, and long
 * random sequences on three PEs. A confirmation nothing on the way can bring fails too.
 */
class MessageOrderTest {
    private static final long MAX = 8192;

    // ------------------------------------------------------------------ decisions, one at a time

    @Test
    void smallPutsGoAsMessagesUnlessAFenceFollowsUnflushedRma() {
        MessageOrder o = new MessageOrder(new long[2], MAX);
        assertTrue(o.putAsMessage(1, MAX));
        assertFalse(o.putAsMessage(1, MAX + 1), "a put larger than a message's payload is RMA");
        o.rmaIssued(1);
        assertTrue(o.putAsMessage(1, 8), "RMA without a fence: a message need not follow it");
        o.fence();
        assertFalse(o.putAsMessage(1, 8), "after a fence that follows unflushed RMA: RMA, which UCX's fence orders");
        assertTrue(o.putAsMessage(0, 8), "another PE's RMA is no reason");
        o.quieted(-1);
        o.fence();
        assertTrue(o.putAsMessage(1, 8), "after quiet nothing is unflushed");
        assertFalse(new MessageOrder(new long[2], 0).putAsMessage(1, 8), "where puts do not go as messages");
        assertFalse(new MessageOrder(new long[2], 0).putAsMessage(1, 0), "not even empty ones");
        assertTrue(new MessageOrder(new long[2], 64).putAsMessage(1, 64), "up to the limit given");
        assertFalse(new MessageOrder(new long[2], 64).putAsMessage(1, 65), "and no further");
    }

    @Test
    void aRaiseFollowsAllRmaBeforeItAnotherMessageOnlyWhatAFenceSeparates() {
        MessageOrder o = new MessageOrder(new long[2], MAX);
        assertFalse(o.flushBeforeMessage(1, true));
        o.rmaIssued(1);
        assertTrue(o.flushBeforeMessage(1, true), "a raise after RMA: the flush first");
        assertFalse(o.flushBeforeMessage(1, false), "a put with signal after RMA without a fence: no order owed");
        o.fence();
        assertTrue(o.flushBeforeMessage(1, false), "after a fence: the flush first");
        assertFalse(o.flushBeforeMessage(0, false));
        o.rmaFlushed(1);
        assertFalse(o.flushBeforeMessage(1, true), "flushed");
        assertFalse(o.flushBeforeMessage(1, false));
    }

    @Test
    void rmaAfterAFenceWaitsForTheMessagesBeforeItOnce() {
        MessageOrder o = new MessageOrder(new long[2], MAX);
        o.messageSent(1, false, false);
        assertFalse(o.confirmBeforeRma(1), "no fence");
        o.fence();
        assertFalse(o.confirmBeforeRma(0), "nothing went to PE 0");
        assertTrue(o.confirmBeforeRma(1));
        assertEquals(Confirmation.ASK, o.confirmation(1));
        o.queried(1);
        assertEquals(Confirmation.AWAIT, o.confirmation(1), "one query at a time");
        o.answered(1, 1);
        assertEquals(Confirmation.CONFIRMED, o.confirmation(1));
        assertFalse(o.confirmBeforeRma(1), "the fence was crossed");

        o.messageSent(1, true, false);
        o.fence();
        assertFalse(o.confirmBeforeRma(1), "raises are not waited for");
        o.messageSent(1, false, false);
        o.answered(1, 3);
        o.fence();
        assertFalse(o.confirmBeforeRma(1), "confirmed before the fence");
    }

    /**
     * Put, quiet, put, quiet: once a quiet covered a single message, the next message asks for an
     * answer and the quiet waits for it instead of asking; a quiet after several asks. An answer
     * is no reason to ask again: a run without quiet has only its first answered. (The UCX
     * channel's test of the same sequence sees these counts on the wire.)
     */
    @Test
    void aQuietAfterASingleMessageWaitsForItsAnswerInsteadOfAsking() {
        Sim s = new Sim(2, true, Policy.OLDEST, null);
        long[] queriesAfterRound = new long[8];
        for (int round = 0; round < 8; round++) {
            for (int m = 0; m < (round == 4 ? 5 : 1); m++) {
                s.message(1, false);
            }
            s.quiet();
            queriesAfterRound[round] = s.order.queriesSent();
        }
        assertArrayEquals(new long[] {1, 1, 1, 1, 2, 3, 3, 3}, queriesAfterRound);
        assertEquals(6, s.order.answersAsked(), "the first message of rounds 1-4, 6, 7");
        for (int m = 0; m < 20; m++) {
            s.message(1, false);
            while (s.order.answersDue()) {
                s.deliverOne();
            }
        }
        assertEquals(7, s.order.answersAsked(), "a run without quiet: only its first message asks");
    }

    @Test
    void aQuietSendsOneQueryPerPeThatCarriesAndNoneForRaises() {
        Sim s = new Sim(3, true, Policy.NEWEST, null);
        s.message(0, false);
        s.message(0, false);
        s.message(1, true);
        s.message(2, false);
        s.quiet();
        assertEquals(2, s.order.queriesSent(), "PEs 0 and 2; PE 1 was sent a raise only");
        assertEquals(1, s.order.unconfirmed(1), "quiet does not wait for raises");
        s.settle(1);
        assertEquals(3, s.order.queriesSent());
        assertEquals(0, s.order.unconfirmed(1), "settle does");
    }

    @Test
    void olderAndMalformedAnswersChangeNothing() {
        MessageOrder o = new MessageOrder(new long[2], MAX);
        o.messageSent(1, false, false);
        o.messageSent(1, false, false);
        o.queried(1);
        o.answered(1, 3);
        o.answered(1, 0);
        o.answered(-1, 1);
        o.answered(2, 1);
        assertEquals(2, o.unconfirmed(1));
        assertTrue(o.awaitingAnswers());
        o.answered(1, 1);
        o.answered(1, 1);
        assertEquals(1, o.unconfirmed(1));
        assertTrue(o.awaitingAnswers(), "the query asked about 2");
        o.answered(1, 2);
        assertFalse(o.awaitingAnswers());
        assertEquals(Confirmation.CONFIRMED, o.confirmation(1));
    }

    @Test
    void aRetiredSenderHandsOverItsNumbersOnceAllIsConfirmed() {
        MessageOrder o = new MessageOrder(new long[] {0, 5}, MAX);
        assertEquals(Confirmation.CONFIRMED, o.confirmation(1), "a retired sender's messages were all confirmed");
        assertEquals(6, o.nextNumber(1));
        o.messageSent(1, true, false);
        assertNull(o.handOver(), "a raise unconfirmed");
        assertEquals(List.of(1), o.toConfirmAtClose().stream().boxed().toList());
        o.answered(1, 6);
        assertArrayEquals(new long[] {0, 6}, o.handOver());
    }

    // ------------------------------------------------------------------ every sequence, and random ones

    /** What a sequence is made of: the channel's operations, and the network's progress. */
    private enum Op {
        PUT0, MESSAGE0, MESSAGE1, RAISE0, RMA0, RMA1, GET0, FENCE, QUIET, PE_QUIET0, PROGRESS, BATCH_ACROSS_FENCE0, SETTLE0,
        CLOSE;

        void run(Sim s) {
            switch (this) {
                case PUT0 -> s.put(0, 8);
                case MESSAGE0 -> s.message(0, false);
                case MESSAGE1 -> s.message(1, false);
                case RAISE0 -> s.message(0, true);
                case RMA0 -> s.rma(0, true);
                case RMA1 -> s.rma(1, true);
                case GET0 -> s.rma(0, false);
                case FENCE -> s.fence();
                case QUIET -> s.quiet();
                case PE_QUIET0 -> s.peQuiet(0);
                case PROGRESS -> s.deliverOne();
                case BATCH_ACROSS_FENCE0 -> s.batchAcrossFence(0);
                case SETTLE0 -> s.settle(0);
                case CLOSE -> s.close();
            }
        }
    }

    @Test
    void everySequenceOfFiveOperationsOnTwoPes() {
        Op[] ops = Op.values();
        int[] at = new int[5];
        long sequences = 0;
        do {
            for (Policy policy : List.of(Policy.OLDEST, Policy.NEWEST)) {
                Sim s = new Sim(2, true, policy, null);
                for (int i : at) {
                    ops[i].run(s);
                    s.checkState();
                }
                s.close();
                sequences++;
            }
        } while (next(at, ops.length));
        assertEquals(2 * (long) Math.pow(ops.length, at.length), sequences);
    }

    /** The next sequence in counting order; false after the last. */
    private static boolean next(int[] at, int base) {
        for (int i = at.length - 1; i >= 0; i--) {
            if (++at[i] < base) {
                return true;
            }
            at[i] = 0;
        }
        return false;
    }

    @Test
    void randomSequencesOnThreePes() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            Sim s = new Sim(3, seed % 4 != 0, Policy.RANDOM, random);
            for (int step = 0; step < 300; step++) {
                int pe = random.nextInt(3);
                switch (random.nextInt(20)) {
                    case 0, 1 -> s.put(pe, random.nextBoolean() ? 8 : MAX + 1);
                    case 2, 3, 4 -> s.message(pe, false);
                    case 5, 6 -> s.message(pe, true);
                    case 7, 8 -> s.rma(pe, random.nextBoolean());
                    case 9, 10 -> s.fence();
                    case 11 -> s.quiet();
                    case 12 -> s.peQuiet(pe);
                    case 13 -> s.batchAcrossFence(pe);
                    case 14 -> s.settle(pe);
                    case 15 -> s.strayAnswers(pe);
                    case 16 -> {
                        if (random.nextInt(10) == 0) {
                            s.close();
                        }
                    }
                    default -> s.deliverOne();
                }
                s.checkState();
            }
            s.close();
        }
    }

    // ------------------------------------------------------------------ the simulated engine, network and targets

    private enum Policy { OLDEST, NEWEST, RANDOM }

    /** On the way: a message to a target, a query to one, or an answer from one. */
    private sealed interface Item permits ToTarget, Query, Answer {}

    private record ToTarget(int pe, long number, boolean asks) implements Item {}

    private record Query(int pe, long count) implements Item {}

    private record Answer(int pe, long applied) implements Item {}

    /** A message as the model remembers it: {@code at} orders it with the fences. */
    private record Sent(long number, boolean raise, boolean asks, long at) {}

    /** A PE as a target: it applies the sender's messages in their numbers' order, and answers as SignalMessages does. */
    private static final class Target {
        long applied, asked;
        final TreeMap<Long, Boolean> early = new TreeMap<>(); // number: whether it asks for an answer
    }

    /**
     * The engine, doing what the UCX channel does with each decision; the network; the targets;
     * and the model: every message sent (the numbering goes on across a hand-over, as the targets'
     * does), the RMA not yet flushed, when the last fence was, what the sender heard.
     */
    private static final class Sim {
        final int npes;
        final boolean putsAsMessages;
        final Policy policy;
        final Random random;
        MessageOrder order;
        final List<Item> network = new ArrayList<>();
        final Target[] targets;
        final List<List<Sent>> sent = new ArrayList<>();
        final List<List<Long>> openRma = new ArrayList<>();
        final boolean[] connected;
        final long[] heard, lastQuery, sinceQuiet;
        final boolean[] single, fenceUncrossed;
        long now, lastFence = -1, queries, answersAsked;
        final StringBuilder trace = new StringBuilder();

        Sim(int npes, boolean putsAsMessages, Policy policy, Random random) {
            this.npes = npes;
            this.putsAsMessages = putsAsMessages;
            this.policy = policy;
            this.random = random;
            this.order = new MessageOrder(new long[npes], putsAsMessages ? MAX : 0);
            targets = new Target[npes];
            for (int pe = 0; pe < npes; pe++) {
                targets[pe] = new Target();
                sent.add(new ArrayList<>());
                openRma.add(new ArrayList<>());
            }
            connected = new boolean[npes];
            heard = new long[npes];
            lastQuery = new long[npes];
            sinceQuiet = new long[npes];
            single = new boolean[npes];
            fenceUncrossed = new boolean[npes];
        }

        private void step(String what) {
            trace.append(what).append("; ");
            now += 2;
        }

        private void check(boolean holds, String rule) {
            if (!holds) {
                throw new AssertionError(rule + " (" + policy + ", after: " + trace + ")");
            }
        }

        private long count(int pe) {
            return sent.get(pe).size();
        }

        /** Whether a message to {@code pe} that {@code which} picks is unconfirmed. */
        private boolean unconfirmed(int pe, java.util.function.Predicate<Sent> which) {
            long confirmed = heard[pe];
            return sent.get(pe).stream().anyMatch(m -> which.test(m) && m.number() > confirmed);
        }

        /** RMA or atomics to {@code pe} not yet flushed that a fence separates from what comes now. */
        private boolean fencedRma(int pe) {
            return openRma.get(pe).stream().anyMatch(t -> t < lastFence);
        }

        /** A put: a message or RMA, as the order decides; the rule is held against the model. */
        void put(int pe, long bytes) {
            step("put " + bytes + " to " + pe);
            boolean asMessage = putsAsMessages && bytes <= MAX && !fencedRma(pe);
            check(order.putAsMessage(pe, bytes) == asMessage, "a put goes as a message iff puts may, it is small"
                    + " and no fence follows unflushed RMA to its PE");
            if (asMessage) {
                send(pe, false, now);
            } else {
                rma(pe, true);
            }
        }

        void message(int pe, boolean raise) {
            step((raise ? "raise to " : "message to ") + pe);
            send(pe, raise, now);
        }

        /** A session's batch to {@code pe} in which a fence was issued: its operations came before the fence. */
        void batchAcrossFence(int pe) {
            fence();
            step("batch across the fence to " + pe);
            send(pe, false, lastFence - 1);
            order.fenceFollowed(pe);
        }

        private void send(int pe, boolean raise, long at) {
            connected[pe] = true;
            boolean flush = raise ? !openRma.get(pe).isEmpty() : fencedRma(pe);
            check(order.flushBeforeMessage(pe, raise) == flush, "a message flushes its PE iff RMA to it is unflushed and"
                    + " it is a raise or a fence separates them");
            if (flush) {
                openRma.get(pe).clear();
                order.rmaFlushed(pe);
            }
            boolean asks = !raise && sinceQuiet[pe] == 0 && single[pe];
            check(order.asksForAnswer(pe, raise) == asks, "a message asks for an answer iff it is the first other"
                    + " than a raise since a quiet that covered a single one");
            long number = count(pe) + 1;
            check(order.nextNumber(pe) == number, "messages are numbered 1, 2, ... per PE, on across a hand-over");
            network.add(new ToTarget(pe, number, asks));
            order.messageSent(pe, raise, asks);
            sent.get(pe).add(new Sent(number, raise, asks, at));
            if (asks) {
                answersAsked++;
            }
            if (!raise) {
                sinceQuiet[pe]++;
            }
        }

        /** RMA or an atomic to {@code pe}; {@code open}: it stays incomplete until a flush (a get does not). */
        void rma(int pe, boolean open) {
            step((open ? "RMA to " : "get from ") + pe);
            connected[pe] = true;
            if (order.confirmBeforeRma(pe)) {
                check(fenceUncrossed[pe] && heard[pe] < count(pe), "confirmation before RMA only after a fence, when"
                        + " messages are unconfirmed");
                confirm(only(pe));
            }
            fenceUncrossed[pe] = false;
            for (Sent m : sent.get(pe)) {
                check(m.raise() || m.at() > lastFence || m.number() <= targets[pe].applied, "a message (not a raise)"
                        + " before a fence is applied before RMA after it");
            }
            if (open) {
                order.rmaIssued(pe);
                openRma.get(pe).add(now);
            }
        }

        void fence() {
            step("fence");
            order.fence();
            lastFence = now;
            java.util.Arrays.fill(fenceUncrossed, true);
        }

        void quiet() {
            step("quiet");
            openRma.forEach(List::clear);
            complete(-1);
            java.util.Arrays.fill(fenceUncrossed, false);
            for (int pe = 0; pe < npes; pe++) {
                checkApplied(pe, false, "quiet");
                if (sinceQuiet[pe] > 0) { // a PE sent nothing keeps its guess
                    guessFromQuiet(pe);
                }
            }
        }

        void peQuiet(int pe) {
            step("pe_quiet " + pe);
            if (!connected[pe]) {
                return; // the engine has no endpoint to it: nothing was issued to it
            }
            openRma.get(pe).clear();
            complete(pe);
            checkApplied(pe, false, "pe_quiet");
            fenceUncrossed[pe] = false;
            guessFromQuiet(pe); // even when nothing went to pe since the last quiet
        }

        private void guessFromQuiet(int pe) {
            single[pe] = sinceQuiet[pe] == 1;
            sinceQuiet[pe] = 0;
        }

        private void complete(int pe) {
            BitSet toConfirm = order.toConfirmAtQuiet(pe);
            for (int p = 0; p < npes; p++) {
                boolean carries = unconfirmed(p, m -> !m.raise());
                if (pe < 0 || p == pe) {
                    check(!carries || toConfirm.get(p), "a quiet confirms every PE with messages other than raises unconfirmed");
                }
                check(!toConfirm.get(p) || heard[p] < count(p), "a quiet confirms only PEs with messages unconfirmed");
            }
            confirm(toConfirm);
            order.quieted(pe);
        }

        /** A team's destroy: a quiet, then every message to {@code pe} confirmed, raises included. */
        void settle(int pe) {
            quiet();
            step("settle " + pe);
            confirm(only(pe));
            checkApplied(pe, true, "settle");
        }

        /** The channel closes: every message confirmed, then the next channel goes on with its numbers. */
        void close() {
            quiet();
            step("close");
            BitSet unconfirmed = new BitSet();
            for (int pe = 0; pe < npes; pe++) {
                unconfirmed.set(pe, heard[pe] < count(pe));
            }
            check(order.toConfirmAtClose().equals(unconfirmed), "closing confirms the PEs with anything unconfirmed");
            confirm(unconfirmed);
            long[] counts = new long[npes];
            for (int pe = 0; pe < npes; pe++) {
                checkApplied(pe, true, "close");
                counts[pe] = count(pe);
            }
            long[] handOver = order.handOver();
            check(handOver != null && java.util.Arrays.equals(handOver, counts), "a closed sender hands over its counts");
            order = new MessageOrder(handOver, putsAsMessages ? MAX : 0);
            java.util.Arrays.fill(connected, false);
            java.util.Arrays.fill(lastQuery, 0);
            java.util.Arrays.fill(sinceQuiet, 0);
            java.util.Arrays.fill(single, false);
            java.util.Arrays.fill(fenceUncrossed, false);
            queries = 0;
            answersAsked = 0;
            checkState();
        }

        /** Answers the channel must ignore: older than what it heard, for more than it sent, from no PE. */
        void strayAnswers(int pe) {
            step("stray answers from " + pe);
            long before = order.unconfirmed(pe);
            order.answered(pe, heard[pe]);
            order.answered(pe, count(pe) + 1);
            order.answered(-1, 1);
            order.answered(npes, 1);
            check(order.unconfirmed(pe) == before, "stray answers change nothing");
        }

        private void checkApplied(int pe, boolean raises, String after) {
            for (Sent m : sent.get(pe)) {
                check(m.number() <= targets[pe].applied || (m.raise() && !raises), "after " + after + " every message"
                        + (raises ? "" : " other than a raise") + " to PE " + pe + " is applied");
            }
        }

        private static BitSet only(int pe) {
            BitSet one = new BitSet();
            one.set(pe);
            return one;
        }

        /** What the engine does to confirm {@code pes}: ask where the order says so, then take answers until all are in. */
        private void confirm(BitSet pes) {
            BitSet waiting = (BitSet) pes.clone();
            for (int pe = waiting.nextSetBit(0); pe >= 0; pe = waiting.nextSetBit(pe + 1)) {
                Confirmation expected = heard[pe] >= count(pe) ? Confirmation.CONFIRMED
                        : lastQuery[pe] > heard[pe] || sent.get(pe).getLast().asks() ? Confirmation.AWAIT : Confirmation.ASK;
                check(order.confirmation(pe) == expected, "confirming PE " + pe + " asks iff nothing is confirmed, no query is"
                        + " outstanding and the last message did not ask for an answer: " + expected);
                switch (expected) {
                    case CONFIRMED -> waiting.clear(pe);
                    case ASK -> {
                        network.add(new Query(pe, order.sent(pe)));
                        order.queried(pe);
                        lastQuery[pe] = count(pe);
                        queries++;
                    }
                    case AWAIT -> {}
                }
            }
            while (!waiting.isEmpty()) {
                check(!network.isEmpty(), "nothing on the way brings the answers PEs " + waiting + " are waited for");
                deliverOne();
                for (int pe = waiting.nextSetBit(0); pe >= 0; pe = waiting.nextSetBit(pe + 1)) {
                    if (order.unconfirmed(pe) == 0) {
                        waiting.clear(pe);
                    }
                }
            }
        }

        /** The network delivers one thing on the way, chosen by the policy. */
        void deliverOne() {
            if (network.isEmpty()) {
                return;
            }
            int i = switch (policy) {
                case OLDEST -> 0;
                case NEWEST -> network.size() - 1;
                case RANDOM -> random.nextInt(network.size());
            };
            switch (network.remove(i)) {
                case ToTarget m -> arrive(m);
                case Query q -> {
                    Target t = targets[q.pe()];
                    if (t.applied >= q.count()) {
                        network.add(new Answer(q.pe(), t.applied));
                    } else { // answered when the last of them arrives
                        t.asked = q.count();
                    }
                }
                case Answer a -> {
                    order.answered(a.pe(), a.applied());
                    if (a.applied() > heard[a.pe()] && a.applied() <= count(a.pe())) {
                        heard[a.pe()] = a.applied();
                    }
                }
            }
        }

        /** A target applies the message, in its sender's order, and answers if one applied asked or its query is satisfied. */
        private void arrive(ToTarget m) {
            Target t = targets[m.pe()];
            t.early.put(m.number(), m.asks());
            boolean answer = false;
            for (Boolean asks; (asks = t.early.remove(t.applied + 1)) != null; ) {
                t.applied++;
                answer |= asks;
            }
            if (t.asked != 0 && t.applied >= t.asked) {
                t.asked = 0;
                answer = true;
            }
            if (answer) {
                network.add(new Answer(m.pe(), t.applied));
            }
        }

        /** What the order says of its state, held against the model after every operation. */
        void checkState() {
            boolean answersDue = false, awaiting = false;
            for (int pe = 0; pe < npes; pe++) {
                check(order.sent(pe) == count(pe), "the order counts the messages sent");
                check(order.unconfirmed(pe) == count(pe) - heard[pe], "confirmed: the most any answer said");
                boolean due = unconfirmed(pe, Sent::asks);
                answersDue |= due;
                awaiting |= due || lastQuery[pe] > heard[pe];
            }
            check(order.answersDue() == answersDue, "answers are due iff a message that asked is unanswered");
            check(order.awaitingAnswers() == awaiting, "answers are awaited iff a query or a message that asked is");
            check(order.queriesSent() == queries && order.answersAsked() == answersAsked, "the order counts queries and asks");
        }
    }
}
