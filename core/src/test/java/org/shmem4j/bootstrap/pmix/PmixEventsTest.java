package org.shmem4j.bootstrap.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * {@link PmixEvents} without a PMIx server: what each event means for PE 1 of a job of 4 in
 * namespace {@code ns}, and its handler called as PMIx calls it, through its C function pointer
 * with the event laid out in native memory.
 */
class PmixEventsTest {
    private static final String NS = "ns";
    private static final OptionalInt NO_EXIT = OptionalInt.empty();

    private final List<Integer> hostsAsked = new ArrayList<>();
    private final PmixEvents events = new PmixEvents(NS, 1, 4, pe -> {
        hostsAsked.add(pe);
        return "h" + pe;
    });

    @Test
    void aPeerThatFailedIsNamedWithItsHostAndTheEvent() {
        assertEquals(new PmixEvents.Failure(3, "terminated (PMIx event PMIX_ERR_PROC_ABORTED)"),
                events.interpret(Pmix.Event.PROC_ABORTED.status, NS, 3, NO_EXIT));
        assertEquals(new PmixEvents.Failure(0, "exited with status 3 (PMIx event PMIX_ERR_PROC_TERM_WO_SYNC)"),
                events.interpret(Pmix.Event.PROC_TERM_WO_SYNC.status, NS, 0, OptionalInt.of(3)));
        assertEquals(new PmixEvents.Failure(2, "exited with status 137 (PMIx event PMIX_EVENT_PROC_TERMINATED)"),
                events.interpret(Pmix.Event.PROC_TERMINATED.status, NS, 2, OptionalInt.of(137)));
    }

    @Test
    void aNormalEndIsNoFailure() {
        // A peer that finalized and exited with 0, or whose exit code is not said: no failure.
        assertNull(events.interpret(Pmix.Event.PROC_TERMINATED.status, NS, 2, OptionalInt.of(0)));
        assertNull(events.interpret(Pmix.Event.PROC_TERMINATED.status, NS, 2, NO_EXIT));
    }

    @Test
    void eventsAboutThisPeOtherJobsOrNoRankAreNoFailure() {
        int aborted = Pmix.Event.PROC_ABORTED.status;
        assertNull(events.interpret(aborted, NS, 1, NO_EXIT), "this PE itself");
        assertNull(events.interpret(aborted, "other", 2, NO_EXIT), "another namespace");
        assertNull(events.interpret(aborted, NS, 4, NO_EXIT), "no such rank");
        assertNull(events.interpret(aborted, NS, Pmix.RANK_WILDCARD, NO_EXIT), "the wildcard rank");
        assertNull(events.interpret(Pmix.Event.JOB_END.status, "other", Pmix.RANK_WILDCARD, NO_EXIT), "another job's end");
        assertNull(events.interpret(Pmix.ERR_TIMEOUT, NS, 2, NO_EXIT), "not an event registered for");
    }

    @Test
    void theLostServerAndTheJobsEndConcernNoPeer() {
        assertEquals(-1, events.interpret(Pmix.Event.LOST_CONNECTION.status, "", -1, NO_EXIT).rank());
        assertEquals(-1, events.interpret(Pmix.Event.LOST_CONNECTION_TO_SERVER.status, "", -1, NO_EXIT).rank());
        assertEquals(new PmixEvents.Failure(-1, "the resource manager ended the job (PMIx event PMIX_EVENT_JOB_END)"),
                events.interpret(Pmix.Event.JOB_END.status, NS, Pmix.RANK_WILDCARD, NO_EXIT));
    }

    /** Called back by the handler: the status and the notification's data it completed with. */
    private final List<String> completions = new ArrayList<>();

    @SuppressWarnings("unused") // an upcall's target
    private void completed(int status, MemorySegment results, long nresults, MemorySegment cbfunc, MemorySegment thisData,
            MemorySegment notificationData) {
        completions.add(status + " " + notificationData.address());
    }

    @Test
    void theHandlerRecordsTheFirstFailureAndCompletesEachEvent() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle handler = Linker.nativeLinker().downcallHandle(events.handler(arena), PmixEvents.HANDLER);
            MemorySegment completion = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findVirtual(PmixEventsTest.class,
                    "completed", PmixEvents.COMPLETION.toMethodType()).bindTo(this), PmixEvents.COMPLETION, arena);
            MemorySegment server = proc(arena, "server", 0);

            // A normal end first: no failure, yet completed.
            MemorySegment ended = arena.allocate(Pmix.INFO_SIZE * 2);
            procInfo(ended, proc(arena, NS, 2));
            Pmix.intInfo(ended.asSlice(Pmix.INFO_SIZE), Pmix.KEY_EXIT_CODE, 0);
            handler.invokeExact(7L, Pmix.Event.PROC_TERMINATED.status, server, ended, 2L, MemorySegment.NULL, 0L, completion,
                    MemorySegment.ofAddress(42));
            assertNull(events.reason());

            // The affected proc is in the info (the source is the server that reports it).
            MemorySegment aborted = arena.allocate(Pmix.INFO_SIZE * 2);
            Pmix.intInfo(aborted, Pmix.KEY_EXIT_CODE, 9);
            procInfo(aborted.asSlice(Pmix.INFO_SIZE), proc(arena, NS, 3));
            handler.invokeExact(7L, Pmix.Event.PROC_ABORTED.status, server, aborted, 2L, MemorySegment.NULL, 0L, completion,
                    MemorySegment.ofAddress(43));
            // Without info the source is the proc; without a completion callback nothing is called. Not the first failure.
            handler.invokeExact(7L, Pmix.Event.PROC_ABORTED.status, proc(arena, NS, 0), MemorySegment.NULL, 0L, MemorySegment.NULL,
                    0L, MemorySegment.NULL, MemorySegment.NULL);
            // No proc at all (the client's own event).
            handler.invokeExact(7L, Pmix.Event.LOST_CONNECTION.status, MemorySegment.NULL, MemorySegment.NULL, 0L,
                    MemorySegment.NULL, 0L, completion, MemorySegment.ofAddress(44));

            assertEquals("PE 3 (host h3) exited with status 9 (PMIx event PMIX_ERR_PROC_ABORTED)", events.reason());
            assertEquals(events.reason(), events.reason());
            assertEquals(List.of(3), hostsAsked, "the host is asked once, by the reader");
            int done = Pmix.EVENT_ACTION_COMPLETE;
            assertEquals(List.of(done + " 42", done + " 43", done + " 44"), completions);
        }
    }

    private static MemorySegment proc(Arena arena, String nspace, long rank) {
        MemorySegment proc = arena.allocate(Pmix.PROC_SIZE);
        Pmix.proc(proc, nspace, rank);
        return proc;
    }

    private static void procInfo(MemorySegment info, MemorySegment proc) {
        info.fill((byte) 0);
        info.setString(Pmix.INFO_KEY, Pmix.KEY_EVENT_AFFECTED_PROC);
        info.set(JAVA_SHORT, Pmix.INFO_VALUE + Pmix.VALUE_TYPE, (short) Pmix.TYPE_PROC);
        info.set(ADDRESS, Pmix.INFO_VALUE + Pmix.VALUE_DATA, proc);
    }
}
