package org.shmem4j.bootstrap.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * What PMIx tells a PE about its job's failures: the handler of the {@link Pmix.Event}s, called
 * on a thread of PMIx's, records the first one that means the job cannot go on (a peer of this
 * namespace that failed, or ended with a non-zero exit code; the job's end; the lost server), and
 * {@link #reason()} names it for the waits that poll it. The handler only reads the event and
 * writes one volatile field: nothing in it may block PMIx's thread or throw (an exception leaving
 * an upcall ends the JVM).
 */
final class PmixEvents {
    /**
     * {@code pmix_notification_fn_t}: registration id, status, source proc, info array and its
     * length, results and their length, the completion callback and its data.
     */
    static final FunctionDescriptor HANDLER =
            FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);
    /** {@code pmix_event_notification_cbfunc_fn_t}: status, results and their length, an op callback and two data pointers. */
    static final FunctionDescriptor COMPLETION = FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle CALL_COMPLETION = Linker.nativeLinker().downcallHandle(COMPLETION);

    /** A failure an event reported: the peer's rank, or -1 when it concerns no single peer, and what happened. */
    record Failure(int rank, String what) {}

    private final String namespace;
    private final int me;
    private final int size;
    /** PMIx's host name of a rank, or null: called once, by the first waiter that reads the reason, never by the handler. */
    private final IntFunction<String> hostOf;
    private volatile Failure failure;
    private volatile String reason; // failure described, host included

    PmixEvents(String namespace, int me, int size, IntFunction<String> hostOf) {
        this.namespace = namespace;
        this.me = me;
        this.size = size;
        this.hostOf = hostOf;
    }

    /** The handler as a C function pointer, valid while {@code arena} is. */
    MemorySegment handler(Arena arena) {
        try {
            MethodHandle target = MethodHandles.lookup().findVirtual(PmixEvents.class, "onEvent", HANDLER.toMethodType()).bindTo(this);
            return Linker.nativeLinker().upcallStub(target, HANDLER, arena);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first failure an event reported, or null. */
    Failure failure() {
        return failure;
    }

    /** {@link #failure()} as a reason for a wait to fail with, naming the peer and its host; null while there is none. */
    String reason() {
        String r = reason;
        Failure f = failure;
        if (r == null && f != null) {
            String host = f.rank() < 0 ? null : hostOf.apply(f.rank());
            r = f.rank() < 0 ? f.what() : "PE " + f.rank() + (host == null ? "" : " (host " + host + ")") + " " + f.what();
            reason = r;
        }
        return r;
    }

    @SuppressWarnings("unused") // the upcall's target
    private void onEvent(long id, int status, MemorySegment source, MemorySegment info, long ninfo, MemorySegment results,
            long nresults, MemorySegment cbfunc, MemorySegment cbdata) {
        try {
            if (failure == null) {
                MemorySegment infos = info.equals(MemorySegment.NULL) ? info : info.reinterpret(ninfo * Pmix.INFO_SIZE);
                MemorySegment proc = value(infos, Pmix.KEY_EVENT_AFFECTED_PROC, Pmix.TYPE_PROC)
                        .map(v -> v.get(ADDRESS, Pmix.VALUE_DATA)).orElse(source).reinterpret(Pmix.PROC_SIZE);
                OptionalInt exit = value(infos, Pmix.KEY_EXIT_CODE, Pmix.TYPE_INT)
                        .map(v -> OptionalInt.of(v.get(JAVA_INT, Pmix.VALUE_DATA))).orElse(OptionalInt.empty());
                failure = proc.address() == 0 ? interpret(status, "", -1, exit) // no proc: a server's own event
                        : interpret(status, proc.getString(Pmix.PROC_NSPACE), Integer.toUnsignedLong(proc.get(JAVA_INT, Pmix.PROC_RANK)),
                                exit);
            }
        } catch (Throwable t) {
            // a malformed event: nothing may leave the upcall, so it is dropped
        }
        try {
            if (!cbfunc.equals(MemorySegment.NULL)) {
                CALL_COMPLETION.invokeExact(cbfunc, Pmix.EVENT_ACTION_COMPLETE, MemorySegment.NULL, 0L, MemorySegment.NULL,
                        MemorySegment.NULL, cbdata);
            }
        } catch (Throwable t) {
            // as above
        }
    }

    /**
     * What event {@code status} about rank {@code rank} of namespace {@code nspace} means for this
     * PE: a failure, or null when the job can go on (an event about this PE itself, about another
     * namespace, a peer that ended with exit code 0 or none known, an event not registered for).
     */
    Failure interpret(int status, String nspace, long rank, OptionalInt exitCode) {
        Pmix.Event event = Pmix.Event.of(status).orElse(null);
        if (event == null) {
            return null;
        }
        String named = "(PMIx event " + event.macro + ")";
        boolean peer = namespace.equals(nspace) && rank >= 0 && rank < size && rank != me;
        int exit = exitCode.orElse(0);
        return switch (event.concern) {
            case SERVER_LOST -> new Failure(-1, "PE " + me + " lost its PMIx server " + named
                    + ": the launcher's process serving it (mpirun, orted or Slurm's step daemon) is gone");
            case JOB_ENDED -> namespace.equals(nspace) ? new Failure(-1, "the resource manager ended the job " + named) : null;
            case PEER_ENDED -> peer && exit != 0 ? new Failure((int) rank, "exited with status " + exit + " " + named) : null;
            case PEER_FAILED -> peer ? new Failure((int) rank, (exit != 0 ? "exited with status " + exit : "terminated") + " " + named)
                    : null;
        };
    }

    /** The {@code pmix_value_t} of the info in {@code infos} under {@code key}, if it has one of {@code type}. */
    private static Optional<MemorySegment> value(MemorySegment infos, String key, int type) {
        for (long at = 0; at < infos.byteSize(); at += Pmix.INFO_SIZE) {
            MemorySegment value = infos.asSlice(at + Pmix.INFO_VALUE, Pmix.VALUE_SIZE);
            if (infos.getString(at + Pmix.INFO_KEY).equals(key) && Short.toUnsignedInt(value.get(JAVA_SHORT, Pmix.VALUE_TYPE)) == type) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
