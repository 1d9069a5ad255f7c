package org.shmem4j.core.jfr;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * One PE's JFR events and its profiling level ({@code shmem_pcontrol}: 0 off, 1 the default
 * detail, 2 every RMA and AMO too).
 *
 * <p>Free when off. Each instrumented operation asks for its event first ({@code *Begin}), which
 * returns null, allocating nothing, unless a JFR recording runs in this JVM and the level is above
 * 0: one read of a static volatile flag (a plain load on x86) and of the level. The flag follows
 * the recordings through a {@link FlightRecorderListener}, which does not start JFR. The matching
 * {@code *End} does nothing with null. When a recording runs, JFR's own settings still apply
 * (an event type disabled in the recording's configuration is not committed).
 */
public final class Profiler {
    /** {@code shmem_pcontrol} levels. */
    public static final int OFF = 0;
    public static final int DEFAULT = 1;
    public static final int EVERY_OPERATION = 2;

    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();
    /** True while some JFR recording runs in this JVM. */
    private static volatile boolean recording;

    static {
        try {
            watchRecordings();
        } catch (LinkageError noJfr) {
            // a runtime image without the jdk.jfr module: nothing can record, the flag stays false
        }
    }

    private static void watchRecordings() {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording r) {
                if (r.getState() == RecordingState.RUNNING) {
                    RUNNING.add(r.getId());
                } else {
                    RUNNING.remove(r.getId());
                }
                recording = !RUNNING.isEmpty();
            }
        });
        // recordings started before this class loaded (-XX:StartFlightRecording) were not announced
        if (FlightRecorder.isInitialized()) {
            for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                if (r.getState() == RecordingState.RUNNING) {
                    RUNNING.add(r.getId());
                }
            }
            recording = !RUNNING.isEmpty();
        }
    }

    /** Records nothing, whatever the level: for contexts before the runtime sets theirs. */
    public static final Profiler NONE = new Profiler(-1, Long.MAX_VALUE, Long.MAX_VALUE);

    static {
        NONE.level(OFF);
    }

    private final int pe;
    private final long transferBytes;
    private final long transferNanos;
    private volatile int level = DEFAULT;
    /** What this PE's sessions batched, over all its contexts: for {@code SHMEM_INFO} at finalize. */
    private final java.util.concurrent.atomic.AtomicLong opsBatched = new java.util.concurrent.atomic.AtomicLong(),
            batches = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param pe the PE's world rank, recorded in every event
     * @param transferBytes at level 1, RMA/AMO of at least this many bytes are recorded
     * @param transferNanos at level 1, RMA/AMO that take at least this long are recorded
     */
    public Profiler(int pe, long transferBytes, long transferNanos) {
        this.pe = pe;
        this.transferBytes = transferBytes;
        this.transferNanos = transferNanos;
    }

    /** {@code shmem_pcontrol(level)}: at most 0 off, 1 the default detail, 2 or more every operation. */
    public void level(int level) {
        this.level = Math.max(OFF, level);
    }

    private boolean on() {
        return recording && level > OFF;
    }

    private <E extends PeEvent> E begin(E e) {
        e.pe = pe;
        e.begin();
        return e;
    }

    private static void commit(PeEvent e, String routine) {
        e.routine = routine;
        e.commit();
    }

    public CollectiveEvent collectiveBegin() {
        return on() ? begin(new CollectiveEvent()) : null;
    }

    public void collectiveEnd(CollectiveEvent e, String routine, int teamSize, long bytes, String algorithm) {
        if (e != null) {
            e.teamSize = teamSize;
            e.bytes = bytes;
            e.algorithm = algorithm;
            commit(e, routine);
        }
    }

    /** Called when a wait found its condition false and starts waiting. */
    public WaitEvent waitBegin() {
        return on() ? begin(new WaitEvent()) : null;
    }

    public void waitEnd(WaitEvent e, String routine) {
        if (e != null) {
            commit(e, routine);
        }
    }

    public TeamCreateEvent teamBegin() {
        return on() ? begin(new TeamCreateEvent()) : null;
    }

    public void teamEnd(TeamCreateEvent e, String routine, int parentSize, int newTeams, int size) {
        if (e != null) {
            e.parentSize = parentSize;
            e.newTeams = newTeams;
            e.size = size;
            commit(e, routine);
        }
    }

    /** Called at a session's start: the event spans the session. */
    public SessionEvent sessionBegin() {
        return on() ? begin(new SessionEvent()) : null;
    }

    /** A session ended: what it batched is counted, and recorded in {@code e}. */
    public void sessionEnd(SessionEvent e, long options, long opsBatched, long batches) {
        this.opsBatched.addAndGet(opsBatched);
        this.batches.addAndGet(batches);
        if (e != null) {
            e.options = options;
            e.opsBatched = opsBatched;
            e.batches = batches;
            commit(e, "shmem_ctx_session_stop");
        }
    }

    /** Operations this PE's sessions batched, and the messages they went in. */
    public long[] batched() {
        return new long[] {opsBatched.get(), batches.get()};
    }

    public HeapEvent heapBegin() {
        return on() ? begin(new HeapEvent()) : null;
    }

    public void heapEnd(HeapEvent e, String routine, long bytes, long offset) {
        if (e != null) {
            e.bytes = bytes;
            e.offset = offset;
            commit(e, routine);
        }
    }

    public RmaEvent rmaBegin() {
        return on() ? transfer(new RmaEvent()) : null;
    }

    public AmoEvent amoBegin() {
        return on() ? transfer(new AmoEvent()) : null;
    }

    private <E extends TransferEvent> E transfer(E e) {
        e.startNanos = System.nanoTime();
        return begin(e);
    }

    /** Ends an RMA or AMO event: committed at level 2, or at level 1 when large or slow enough. */
    public void transferEnd(TransferEvent e, String routine, int target, long bytes) {
        if (e != null) {
            e.end();
            if (level >= EVERY_OPERATION || bytes >= transferBytes || System.nanoTime() - e.startNanos >= transferNanos) {
                e.target = target;
                e.bytes = bytes;
                commit(e, routine);
            }
        }
    }
}
