package org.shmem4j.core.coll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.shmem4j.core.route.Router;
import org.shmem4j.core.route.Routes;
import org.shmem4j.core.sync.WaitPolicy;

/**
 * An in-process team of {@code n} members (threads) over plain native memory, whose every
 * point-to-point operation is counted: what each member sends (puts, gets, signals, put-signals),
 * what each member receives, and which flag lines of each member are written. No {@code Shmem}
 * job underneath, so hundreds of members cost only their threads and regions.
 *
 * <p>Each member's region: the team barrier's lines, the sender and acknowledgement lines (one per
 * member), a ring of four scratch buffers and the one after it, then a data area the test lays out.
 */
final class CountingTeam implements AutoCloseable {
    static final long LINE = 64;
    static final int SCRATCH_BUFFERS = 4;
    /** The most one collective stages (two buffers). */
    static final long SCRATCH_BYTES = 16 << 10;
    /** The largest put with signal to another host that needs no round trip: UCX's message payload. */
    static final long ONE_WAY_PUT_SIGNAL = 8 << 10;

    final int n;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] regions;
    final long data;
    final int[] hostOf;
    private final boolean networkAcrossHosts;
    final CollectiveSupport[] supports;

    /** Per member: operations it issued (any kind), and addressed to it. */
    final AtomicLongArray sent;
    final AtomicLongArray received;
    /** Per member: data bytes it put to or got from members of other hosts (flags not counted). */
    final AtomicLongArray crossHostBytes;
    /** Per member: distinct flag offsets written on it. */
    private final List<Set<Long>> flagLines;

    /**
     * @param hostOf the host of each member
     * @param networkAcrossHosts members of other hosts report themselves unmapped (the policy's
     *        network route; the data still moves through memory)
     * @param dataBytes bytes of each member's data area
     */
    CountingTeam(int[] hostOf, boolean networkAcrossHosts, long dataBytes) {
        this.n = hostOf.length;
        this.hostOf = hostOf;
        this.networkAcrossHosts = networkAcrossHosts;
        long barrier = round(DisseminationBarrier.bytesNeeded(n));
        long senders = barrier;
        long acks = senders + n * LINE;
        long scratch = acks + n * LINE;
        CollectiveSupport.SlotLayout slot = new CollectiveSupport.SlotLayout(senders, acks, LINE, scratch, SCRATCH_BUFFERS,
                2, SCRATCH_BYTES / 2, -1);
        this.data = scratch + slot.scratchArea();
        long regionBytes = round(data + dataBytes);
        MemorySegment all = arena.allocate(regionBytes * n, 4096);
        regions = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            regions[i] = all.asSlice(i * regionBytes, regionBytes);
        }
        sent = new AtomicLongArray(n);
        received = new AtomicLongArray(n);
        crossHostBytes = new AtomicLongArray(n);
        flagLines = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            flagLines.add(ConcurrentHashMap.newKeySet());
        }
        // spin a little, then yield, then park briefly: hundreds of threads share two cores
        WaitPolicy waits = new WaitPolicy(20, 50, 200_000, () -> {
        });
        supports = new CollectiveSupport[n];
        for (int me = 0; me < n; me++) {
            PeerAccess peers = new Counting(new RoutedPeerAccess(new Router(Routes.world(regions), null, false), me,
                    ONE_WAY_PUT_SIGNAL), me);
            DisseminationBarrier b = new DisseminationBarrier(peers, 0, waits, (member, satisfied) -> {
            });
            supports[me] = new CollectiveSupport(peers, slot, waits, hostOf, b::await, (member, satisfied) -> {
            });
        }
    }

    private static long round(long v) {
        return (v + LINE - 1) / LINE * LINE;
    }

    MemorySegment region(int member) {
        return regions[member];
    }

    /** The most distinct flag lines written on any one member. */
    int maxFlagLines() {
        return flagLines.stream().mapToInt(Set::size).max().orElse(0);
    }

    long maxSent() {
        return max(sent);
    }

    long maxReceived() {
        return max(received);
    }

    long totalSent() {
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += sent.get(i);
        }
        return t;
    }

    private static long max(AtomicLongArray a) {
        long m = 0;
        for (int i = 0; i < a.length(); i++) {
            m = Math.max(m, a.get(i));
        }
        return m;
    }

    /** Clears the counters (between runs; no member is running). */
    void reset() {
        for (int i = 0; i < n; i++) {
            sent.set(i, 0);
            received.set(i, 0);
            crossHostBytes.set(i, 0);
            flagLines.get(i).clear();
        }
    }

    /** A member's program. */
    interface Body {
        void run(int me, CollectiveSupport s) throws Exception;
    }

    /** Runs {@code body} on every member at once and rethrows the first failure. */
    void run(Body body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            threads[i] = Thread.ofPlatform().name("member-" + me).stackSize(256 << 10).unstarted(() -> {
                try {
                    body.run(me, supports[me]);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join(); // bounded by the test's @Timeout
        }
        if (failure.get() != null) {
            throw new AssertionError("a member failed", failure.get());
        }
    }

    @Override
    public void close() {
        arena.close();
    }

    /** Counts every operation of one member, on both ends. */
    private final class Counting implements PeerAccess {
        private final PeerAccess inner;
        private final int me;

        Counting(PeerAccess inner, int me) {
            this.inner = inner;
            this.me = me;
        }

        private void count(int peer) {
            if (peer != me) {
                sent.incrementAndGet(me);
                received.incrementAndGet(peer);
            }
        }

        private void count(int peer, long bytes) {
            count(peer);
            if (hostOf[peer] != hostOf[me]) {
                crossHostBytes.addAndGet(me, bytes);
            }
        }

        @Override
        public int size() {
            return inner.size();
        }

        @Override
        public int rank() {
            return inner.rank();
        }

        @Override
        public MemorySegment local() {
            return inner.local();
        }

        @Override
        public void put(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes) {
            count(peer, bytes);
            inner.put(peer, remoteOffset, src, srcOffset, bytes);
        }

        @Override
        public void get(MemorySegment dst, long dstOffset, int peer, long remoteOffset, long bytes) {
            count(peer, bytes);
            inner.get(dst, dstOffset, peer, remoteOffset, bytes);
        }

        @Override
        public void signal(int peer, long offset, long value) {
            count(peer);
            flagLines.get(peer).add(offset);
            inner.signal(peer, offset, value);
        }

        @Override
        public void putSignal(int peer, long remoteOffset, MemorySegment src, long srcOffset, long bytes, long flag,
                long value) {
            count(peer, bytes);
            flagLines.get(peer).add(flag);
            inner.putSignal(peer, remoteOffset, src, srcOffset, bytes, flag, value);
        }

        @Override
        public boolean mapped(int peer) {
            return !networkAcrossHosts || hostOf[peer] == hostOf[me];
        }

        @Override
        public long oneWayPutSignalBytes() {
            return inner.oneWayPutSignalBytes();
        }
    }
}
