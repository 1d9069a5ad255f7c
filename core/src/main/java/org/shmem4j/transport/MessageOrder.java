package org.shmem4j.transport;

import java.util.BitSet;

/**
 * The order and completion protocol of a channel's messages (puts with signal, raises, session
 * batches, and the small puts its {@link ChannelOptions} send as messages) with its RMA and
 * atomics. A message is applied when the target runs its handler, which an endpoint flush does not
 * wait for, and it is not answered: the channel numbers what it sends to each PE (the target
 * applies them in that order) and, when it must know, asks the PE to confirm that count (one round
 * trip per PE, all PEs at once). Completion and ordering are:
 * <ul>
 * <li>quiet and pe_quiet: the flush, then confirmation from every PE (that PE) that was sent
 *     messages other than raises since the last confirmation. Raises are the library's own flags
 *     (barriers, collectives, finalize), which their receivers wait for; quiet does not wait for
 *     them, or every barrier would pay a round trip for the previous one's flags;</li>
 * <li>a fence, then a message to PE p: if RMA or atomics to p may be incomplete, p is flushed
 *     first (the engine's fence need not order them with messages);</li>
 * <li>a raise to p: the RMA and atomics to p before it are flushed first, fence or not
 *     ({@link Channel#putRaise});</li>
 * <li>a fence, then RMA or an atomic to PE p: if messages other than raises to p are
 *     unconfirmed, confirmation first; a small put goes as RMA rather than a message when a
 *     fence separates it from unflushed RMA (the engine's fence orders it after them, free);</li>
 * <li>messages to one PE, raises and others alike: nothing, the target applies them in the order
 *     sent;</li>
 * <li>closing: confirmation of every message, raises included; settle (a team's destroy):
 *     of every message to the PEs named.</li>
 * </ul>
 * So a fence costs nothing until something crosses it.
 *
 * <p>A sender whose quiets follow single messages asks for an answer in the message itself
 * ({@link #asksForAnswer}), and the quiet then waits for that answer instead of asking.
 *
 * <p>No foreign calls: the engine asks before each step ({@code putAsMessage},
 * {@code confirmBeforeRma}, {@code flushBeforeMessage}, {@code asksForAnswer}, {@code confirmation}),
 * does it, and reports what it did ({@code rmaIssued}, {@code rmaFlushed}, {@code messageSent},
 * {@code queried}, {@code answered}, {@code quieted}). Not thread-safe: used under the channel's lock.
 */
public final class MessageOrder {
    /** What confirming a PE's messages takes now. */
    public enum Confirmation {
        /** Every message sent to it is confirmed. */
        CONFIRMED,
        /** A query for the count sent ({@link #sent}), then its answer. */
        ASK,
        /** Only waiting: a query already asked, or the last message asked for an answer. */
        AWAIT
    }

    private final long messagePutLimit;
    /**
     * Per PE: messages sent, and how many of them the PE confirmed applied. With {@code asked},
     * {@code answerDue} and {@code sinceQuiet}: five longs per PE per channel, 2.5 MiB at 65,536
     * PEs (the bit sets add at most 5 bits per PE); decision 0034 counts the channel's whole
     * per-peer state.
     */
    private final long[] sent, confirmed;
    /** Per PE: the count its outstanding query asked about (0: none); how many PEs have one. */
    private final long[] asked;
    private int outstanding;
    /** Per PE: the message whose answer is awaited (0: none; see {@link #asksForAnswer}), and how many are. */
    private final long[] answerDue;
    private int answersDue;
    /** Per PE: messages other than raises since the last quiet that covered it; the PEs with some; those whose last such quiet covered one. */
    private final long[] sinceQuiet;
    private final BitSet spoken = new BitSet(), singles = new BitSet();
    private long queriesSent, answersAsked;
    /** PEs with messages other than raises sent since all their messages were last confirmed. */
    private final BitSet carrying = new BitSet();
    /** PEs with RMA or atomics not yet flushed. */
    private final BitSet rmaOpen = new BitSet();
    /** PEs whose carrying messages, or unflushed RMA, a fence separates from what comes next. */
    private final BitSet fencedMessages = new BitSet(), fencedRma = new BitSet();

    /**
     * @param sent per PE, how many messages this sender already sent, all confirmed: zeros for a
     *        new sender, a retired one's {@link #handOver} to go on with its numbers
     * @param messagePutLimit the largest put that goes as a message (0: none does), as the channel
     *        was told ({@link ChannelOptions#messagePutLimit})
     */
    public MessageOrder(long[] sent, long messagePutLimit) {
        int npes = sent.length;
        this.messagePutLimit = messagePutLimit;
        this.sent = sent.clone();
        this.confirmed = sent.clone();
        this.asked = new long[npes];
        this.answerDue = new long[npes];
        this.sinceQuiet = new long[npes];
    }

    // ------------------------------------------------------------------ decisions

    /**
     * Whether a put of {@code bytes} to {@code pe} goes as a message: when the limit allows, but not
     * when a fence separates it from RMA or atomics to {@code pe} not yet flushed (the message would have to flush them
     * first; as RMA it is ordered after them by the engine's fence, free).
     */
    public boolean putAsMessage(int pe, long bytes) {
        return bytes <= messagePutLimit && messagePutLimit > 0 && !fencedRma.get(pe);
    }

    /**
     * Before RMA or an atomic to {@code pe}: whether its messages must be confirmed first (a fence
     * separates it from messages other than raises that may be unconfirmed). The fence is then
     * taken as crossed.
     */
    public boolean confirmBeforeRma(int pe) {
        if (!fencedMessages.get(pe)) {
            return false;
        }
        fencedMessages.clear(pe);
        return confirmed[pe] < sent[pe];
    }

    /**
     * Before a message to {@code pe}: whether {@code pe} must be flushed first. A raise follows all
     * RMA and atomics to {@code pe} before it; another message, those a fence separates it from.
     */
    public boolean flushBeforeMessage(int pe, boolean raise) {
        return raise ? rmaOpen.get(pe) : fencedRma.get(pe);
    }

    /**
     * Whether the next message to {@code pe} asks for an answer: the first other than a raise since
     * the last quiet that covered {@code pe}, when that quiet covered a single one. A quiet after
     * it then waits for the answer (one send) instead of asking (two); a guess wrong costs one
     * answer. Only quiets count: an answer is no reason to ask for the next one, or a run of
     * messages with no quiet (a loop of collectives) would have every one answered.
     */
    public boolean asksForAnswer(int pe, boolean raise) {
        return !raise && sinceQuiet[pe] == 0 && singles.get(pe);
    }

    /** The number the next message to {@code pe} carries (1, 2, ... from this sender to that PE). */
    public long nextNumber(int pe) {
        return sent[pe] + 1;
    }

    /** The PEs a quiet (every PE when {@code pe} is negative) or a pe_quiet of {@code pe} confirms after its flush. */
    public BitSet toConfirmAtQuiet(int pe) {
        if (pe < 0) {
            return (BitSet) carrying.clone();
        }
        BitSet one = new BitSet();
        one.set(pe, carrying.get(pe));
        return one;
    }

    /** The PEs with any message unconfirmed, raises included: what closing confirms. */
    public BitSet toConfirmAtClose() {
        BitSet unconfirmed = new BitSet();
        for (int pe = 0; pe < sent.length; pe++) {
            unconfirmed.set(pe, confirmed[pe] < sent[pe]);
        }
        return unconfirmed;
    }

    /** What confirming {@code pe}'s messages takes now. */
    public Confirmation confirmation(int pe) {
        if (confirmed[pe] >= sent[pe]) {
            return Confirmation.CONFIRMED;
        }
        // the last message's own answer says enough
        return asked[pe] == 0 && answerDue[pe] != sent[pe] ? Confirmation.ASK : Confirmation.AWAIT;
    }

    // ------------------------------------------------------------------ what the engine did

    public void rmaIssued(int pe) {
        rmaOpen.set(pe);
    }

    /** {@code pe}'s RMA and atomics were flushed (before a message). */
    public void rmaFlushed(int pe) {
        fencedRma.clear(pe);
        rmaOpen.clear(pe);
    }

    public void fence() {
        fencedMessages.or(carrying);
        fencedRma.or(rmaOpen);
    }

    /** A message went to {@code pe}, numbered {@link #nextNumber}; {@code answer}: it asked for one. */
    public void messageSent(int pe, boolean raise, boolean answer) {
        sent[pe]++;
        if (answer) {
            answerDue[pe] = sent[pe];
            answersDue++;
            answersAsked++;
        }
        if (!raise) {
            carrying.set(pe);
            sinceQuiet[pe]++;
            spoken.set(pe);
        }
    }

    /**
     * A fence follows the message just sent to {@code pe}: a session's batch that was open when
     * the fence was issued, confirmed before the next RMA to {@code pe} like a message sent before it.
     */
    public void fenceFollowed(int pe) {
        fencedMessages.set(pe);
    }

    /** {@code pe} was sent a query for the count {@link #sent} now. */
    public void queried(int pe) {
        asked[pe] = sent[pe];
        outstanding++;
        queriesSent++;
    }

    /** {@code pe} says it applied {@code applied} of this sender's messages (to a query, or to a message that asked). */
    public void answered(int pe, long applied) {
        if (pe < 0 || pe >= sent.length || applied <= confirmed[pe] || applied > sent[pe]) {
            return; // an older answer, or a malformed one
        }
        confirmed[pe] = applied;
        if (asked[pe] != 0 && applied >= asked[pe]) {
            asked[pe] = 0;
            outstanding--;
        }
        if (answerDue[pe] != 0 && applied >= answerDue[pe]) {
            answerDue[pe] = 0;
            answersDue--;
        }
        if (confirmed[pe] == sent[pe]) {
            carrying.clear(pe);
        }
    }

    /**
     * A quiet (every PE when {@code pe} is negative) or pe_quiet flushed and confirmed what it had
     * to: nothing is open or fenced any more, and the quiet is what the next messages guess from.
     */
    public void quieted(int pe) {
        if (pe < 0) {
            rmaOpen.clear();
            fencedRma.clear();
            fencedMessages.clear();
        } else {
            rmaOpen.clear(pe);
            fencedRma.clear(pe);
            fencedMessages.clear(pe);
        }
        for (int p = pe < 0 ? spoken.nextSetBit(0) : pe; p >= 0; p = pe < 0 ? spoken.nextSetBit(p + 1) : -1) {
            singles.set(p, sinceQuiet[p] == 1);
            sinceQuiet[p] = 0;
            spoken.clear(p);
        }
    }

    // ------------------------------------------------------------------ state

    /** How many messages went to {@code pe}. */
    public long sent(int pe) {
        return sent[pe];
    }

    /** How many messages to {@code pe} are not yet confirmed. */
    public long unconfirmed(int pe) {
        return sent[pe] - confirmed[pe];
    }

    /** True while a query or a message waits for its answer. */
    public boolean awaitingAnswers() {
        return outstanding > 0 || answersDue > 0;
    }

    /** True while a message that asked for an answer waits for it. */
    public boolean answersDue() {
        return answersDue > 0;
    }

    /** Queries sent, and messages that asked for an answer, since this sender started (tests: which way a quiet went). */
    public long queriesSent() {
        return queriesSent;
    }

    public long answersAsked() {
        return answersAsked;
    }

    /**
     * The counts a next sender may go on with when this one retires: its messages all confirmed,
     * so a target applies the next one numbered on. Null when one may be unconfirmed (a PE gone).
     */
    public long[] handOver() {
        return java.util.Arrays.equals(sent, confirmed) ? sent.clone() : null;
    }
}
