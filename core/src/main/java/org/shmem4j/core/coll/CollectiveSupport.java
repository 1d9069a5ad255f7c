package org.shmem4j.core.coll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.sync.PointToPointSync;
import org.shmem4j.core.sync.WaitPolicy;

/**
 * One team's toolbox for collective algorithms: the {@link PeerAccess}, the team slot's flag lines
 * and scratch buffers, the collective sequence number, waiting, and the hosts of the members.
 *
 * <h2>Flags</h2>
 * Flag words are never reset. Every value written is a {@link #stamp(long, int) stamp} of the
 * collective's sequence number and a step, which grows monotonically over a team's lifetime, so
 * "arrived" is "flag &gt;= stamp": a fast member's signal for a later collective can neither be
 * lost nor mistaken. Sender flags are written only by that sender, acknowledgement flags only by
 * that acknowledger.
 *
 * <h2>Scratch</h2>
 * A ring of B buffers per team (112, of a sixteenth of {@code SHMEM_COLLECTIVE_SCRATCH} each), each
 * collective's sequence number naming one in turn (s modulo B), and K - 1 more after the ring's
 * last, K the most buffers a collective stages ({@link #scratchBytes()}: sixteen). A collective
 * that stages k buffers takes k sequence numbers and the k consecutive buffers of the first (so
 * the ring's last continues into the extra ones): a collective may stage up to K buffers, while
 * small ones, broadcasts above all, take one each and cycle through the whole ring.
 * A buffer is reused only B sequence numbers later. That is safe only because of a rule every
 * algorithm must keep: <b>no member returns from a collective whose last sequence number is l
 * before every member has entered one whose first is at least l - {@link #slack()}</b> (B - K - 1:
 * a barrier, or waits that transitively depend on every member; nearly all algorithms even wait
 * until every member entered this one). A member writing buffer j of a collective (its own, or
 * another's) returned from the one before, whose last number is at least j - K, so everyone
 * entered a collective from j - K - slack = j - B + 1 on, which has left every earlier user of
 * that buffer (j - B at the latest; a physical buffer shared by two collectives means their
 * numbers agree modulo B). The slack is for the push broadcast: its root (and each host's
 * representative) writes the scratch a member reads once that member has entered collective
 * s - slack, which in a run of broadcasts it learned long ago, instead of waiting a round trip for
 * each to enter this one; and a representative need say so over the network only about every
 * slack-th collective ({@link #announceHostEntry}), so in a run of broadcasts the data goes one way,
 * processes that share cores can each run many calls in a row, and only about every
 * 47th small call sends anything back. A leaf of a plain tree that returns right after
 * receiving breaks the rule, and the damage shows collectives later.
 *
 * <p>There are no per-round lines on purpose: a round line written by different partners in
 * different algorithms could be stamped by a member one collective ahead while a slower member
 * still waits on it. Sender and acknowledgement lines are written only by their member, with
 * growing stamps, so a later stamp always means the earlier step happened.
 */
public final class CollectiveSupport {
    /** Low bits of a {@link #stamp} that hold the step; the rest is the sequence number. */
    private static final int STEP_BITS = 20;
    /**
     * Where one team's flags and scratch live in every member's region: a flag word per member for
     * senders and one for acknowledgements, {@code flagStride} bytes apart (a cache line in small
     * teams; a word in large ones, so that flags stay 16 bytes per member), from {@code scratch}
     * the ring of {@code scratchBuffers} buffers of {@code bufferBytes} and the {@code stagedBuffers}
     * - 1 that continue its last ({@link #scratchArea}; a collective stages in up to
     * {@code stagedBuffers}), and at {@code sizes} 8 bytes per member for collect where the scratch
     * cannot hold them (else -1: {@link #begin(long)} refuses a team whose sizes then exceed the
     * scratch).
     */
    public record SlotLayout(long senderFlags, long ackFlags, long flagStride, long scratch, int scratchBuffers,
            int stagedBuffers, long bufferBytes, long sizes) {
        public SlotLayout {
            // the slack, B - K - 1, at least K - 1: an entry announced at a collective's first number covers its last
            if (stagedBuffers < 1 || scratchBuffers < 2 * stagedBuffers) {
                throw new IllegalArgumentException("SlotLayout: a ring of " + scratchBuffers + " scratch buffers for "
                        + stagedBuffers + " per collective");
            }
        }

        /** Bytes the scratch takes from {@code scratch} on: the ring and the buffers after it. */
        public long scratchArea() {
            return (scratchBuffers + stagedBuffers - 1L) * bufferBytes;
        }
    }

    private final PeerAccess peers;
    private final SlotLayout slot;
    private final PointToPointSync sync;
    private final WaitPolicy waitPolicy;
    private final int[] hostOfMember;
    private HostGroups hostGroups; // immutable once built; a racy rebuild is harmless
    private final Runnable barrier;
    private final org.shmem4j.core.sync.PeerLiveness liveness;
    /**
     * Made on first use, so a team whose collectives need none closes none: closing a shared arena
     * is a handshake with every thread of the JVM, and one per team and PE (world, shared, host,
     * leaders) made finalize of 1,024 in-process PEs take most of a minute.
     */
    private Arena temporaries;
    private MemorySegment temp = MemorySegment.NULL;
    private long seq;
    private final boolean networked;
    /** Per member: the last collective whose entry this PE announced to it ({@link #announceHostEntry}); null until the first. */
    private long[] entryAnnounced;

    /**
     * @param hostOfMember a small integer per member naming its host (members with equal numbers
     *        share memory); the node-aware algorithms group by it
     * @param barrier the team's own barrier over its members (stores before it are visible after it)
     * @param liveness asked, while a wait is parked, about the member whose flag line it waits on
     */
    public CollectiveSupport(PeerAccess peers, SlotLayout slot, WaitPolicy waitPolicy, int[] hostOfMember,
            Runnable barrier, org.shmem4j.core.sync.PeerLiveness liveness) {
        this.barrier = barrier;
        this.liveness = liveness;
        this.peers = peers;
        this.slot = slot;
        this.waitPolicy = waitPolicy;
        // Collective waits ask `liveness` about the member they wait for instead (see await).
        // its waits are part of the collective's event
        this.sync = new PointToPointSync(peers.local(), waitPolicy, (routine, satisfied) -> { }, Profiler.NONE);
        this.hostOfMember = hostOfMember;
        this.networked = java.util.stream.IntStream.range(0, peers.size()).anyMatch(m -> !peers.mapped(m));
    }

    public PeerAccess peers() {
        return peers;
    }

    public int size() {
        return peers.size();
    }

    public int rank() {
        return peers.rank();
    }

    public MemorySegment local() {
        return peers.local();
    }

    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /** Host number of member {@code member}. */
    public int hostOf(int member) {
        return hostOfMember[member];
    }

    /** The members grouped by host, with each host's leader (built on first use). */
    public HostGroups hostGroups() {
        HostGroups g = hostGroups;
        if (g == null) {
            hostGroups = g = new HostGroups(hostOfMember);
        }
        return g;
    }

    /** True when some member is reached through the network rather than mapped memory. */
    public boolean reachesSomeoneByNetwork() {
        return networked;
    }

    /** True when the team spans more than one host. */
    public boolean spansHosts() {
        return hostGroups().spansHosts(); // the policy asks on every call: no scan of the members
    }

    /** The team barrier: every member has arrived, and their earlier stores are visible. */
    public void barrier() {
        barrier.run();
    }

    /** Starts a collective that stages nothing in the scratch: its sequence number (1, 2, ...). Collectives on one team are never concurrent. */
    public long begin() {
        return ++seq;
    }

    /**
     * Starts a collective that stages up to {@code scratchBytes} (at most {@link #scratchBytes()})
     * at its {@link #scratch}: k buffers take k sequence numbers, and those k buffers. Returns the
     * first, which names the scratch and stamps the collective's flags.
     */
    public long begin(long scratchBytes) {
        long first = seq + 1;
        if (scratchBytes > slot.bufferBytes()) {
            if (scratchBytes > scratchBytes()) {
                throw new IllegalStateException("collective scratch of " + scratchBytes + " bytes, more than "
                        + scratchBytes());
            }
            seq += (scratchBytes + slot.bufferBytes() - 1) / slot.bufferBytes();
        } else {
            seq++;
        }
        return first;
    }

    /** The last sequence number the current collective took (its first, or one of the buffers after it). */
    public long lastSeq() {
        return seq;
    }

    /** A flag value for step {@code step} (below 2^20) of collective {@code seq}: monotonic in both. */
    public static long stamp(long seq, int step) {
        return (seq << STEP_BITS) | step;
    }

    /** Offset of the flag line on which {@code sender} signals (every member has one per sender). */
    public long senderFlag(int sender) {
        return slot.senderFlags() + sender * slot.flagStride();
    }

    /** Offset of the flag line on which {@code member} acknowledges. */
    public long ackFlag(int member) {
        return slot.ackFlags() + member * slot.flagStride();
    }

    /** Offset of the scratch of the collective whose first sequence number is {@code seq}. */
    public long scratch(long seq) {
        return slot.scratch() + seq % slot.scratchBuffers() * slot.bufferBytes();
    }

    /** How many sequence numbers behind a member may be when another writes its scratch (see the class comment). */
    public int slack() {
        return slot.scratchBuffers() - slot.stagedBuffers() - 1;
    }

    /**
     * Tells {@code member} (the root of a push broadcast) how far this PE's host has come, on this
     * PE's acknowledgement line there: a root ending a collective at l waits until every member
     * entered l - {@link #slack()}, and this PE (its host's representative, {@code onHost} its
     * host's members, who store their entry on this PE's acknowledgement lines every call) may need
     * that root's data before it enters another collective. Nothing goes while the last word is
     * at most half the slack old; then the word says what the host surely entered, found in those
     * lines without waiting (so a word goes about every slack / 2 calls, and the root finds it
     * there long before it needs it); only a word the root needs for this collective waits for
     * the host's members to enter it. {@code first}: the current collective's first sequence number.
     */
    public void announceHostEntry(int member, int[] onHost, long first) {
        if (entryAnnounced == null) {
            entryAnnounced = new long[size()];
            java.util.Arrays.fill(entryAnnounced, Long.MIN_VALUE);
        }
        long said = entryAnnounced[member];
        if (said >= seq - slack() / 2) {
            return;
        }
        long entered = first;
        boolean needed = said < seq - slack();
        for (int m : onHost) {
            if (m != rank()) {
                if (needed) {
                    await(ackFlag(m), stamp(first, 0));
                } else {
                    entered = Math.min(entered, sync.load(ackFlag(m), 8) >>> STEP_BITS);
                }
            }
        }
        if (entered > said) {
            signal(member, ackFlag(rank()), stamp(entered, 0));
            entryAnnounced[member] = entered;
        }
    }

    /**
     * Starts a collect, whose members' sizes (8 bytes each) go through its scratch unless the
     * layout keeps an area for them ({@link #collectSizes}).
     */
    public long beginCollect() {
        return slot.sizes() < 0 ? begin(8L * size()) : begin();
    }

    /**
     * Where collect {@code seq} ({@link #beginCollect}) exchanges its members' sizes: its scratch,
     * or in a team too large for that an area only collect uses. Collect pulls, and returns only
     * once every member that read this PE's sizes acknowledged its data, read after them: so that
     * area is free again when the next collect starts.
     */
    public long collectSizes(long seq) {
        return slot.sizes() < 0 ? scratch(seq) : slot.sizes();
    }

    /** The most one collective may stage in its scratch: {@code stagedBuffers} buffers. */
    public long scratchBytes() {
        return slot.stagedBuffers() * slot.bufferBytes();
    }

    /** Signals {@code peer}'s flag line {@code flag} with {@code value} (after this PE's earlier puts). */
    public void signal(int peer, long flag, long value) {
        peers.signal(peer, flag, value);
    }

    /** Puts {@code bytes} of {@code src} from {@code srcOffset} to {@code peer} at {@code offset}, then signals its flag line {@code flag}. */
    public void putSignal(int peer, long offset, MemorySegment src, long srcOffset, long bytes, long flag, long value) {
        peers.putSignal(peer, offset, src, srcOffset, bytes, flag, value);
    }

    /** Waits until this PE's flag line {@code flag} holds at least {@code value}. */
    public void await(long flag, long value) {
        if (sync.load(flag, 8) >= value) {
            return; // the common case: no waiter, no liveness probe to build
        }
        int member = (int) ((flag < slot.ackFlags() ? flag - slot.senderFlags() : flag - slot.ackFlags()) / slot.flagStride());
        WaitPolicy.Waiter w = waitPolicy.start(() -> liveness.check(member, () -> sync.load(flag, 8) >= value));
        while (sync.load(flag, 8) < value) {
            w.pause();
        }
    }

    /**
     * A private native buffer of at least {@code bytes} for partial results, reused across this
     * team's collectives (which never run concurrently).
     */
    public MemorySegment temp(long bytes) {
        if (temp.byteSize() < bytes) {
            if (temporaries == null) {
                temporaries = Arena.ofShared();
            }
            temp = temporaries.allocate(Math.max(bytes, 2 * temp.byteSize()), 64);
        }
        return temp.asSlice(0, bytes);
    }

    /** Releases the temporary buffers (the team is destroyed). */
    public void close() {
        if (temporaries != null) {
            temporaries.close();
        }
    }
}
