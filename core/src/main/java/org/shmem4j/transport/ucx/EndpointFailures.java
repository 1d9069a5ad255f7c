package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * UCX's error handler for the channels' endpoints, one upcall for the process. UCX runs it from
 * worker progress (a failure is scheduled onto the worker's progress queue), so on a thread of
 * ours; its argument names the channel and the peer, and it only records the status, which the
 * channel reports on the next operation to that peer. It must never throw: an exception escaping
 * an upcall ends the JVM.
 */
final class EndpointFailures {
    private EndpointFailures() {}

    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final Map<Long, AtomicIntegerArray> CHANNELS = new ConcurrentHashMap<>();

    /** {@code void (*)(void *arg, ucp_ep_h ep, ucs_status_t status)}. */
    static final MemorySegment HANDLER;

    static {
        try {
            HANDLER = Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(EndpointFailures.class, "failed",
                            MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, byte.class)),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, Ucx.STATUS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A new channel's number; its peers' failures are written into {@code failures}. */
    static long register(AtomicIntegerArray failures) {
        long id = NEXT.getAndIncrement();
        CHANNELS.put(id, failures);
        return id;
    }

    static void unregister(long id) {
        CHANNELS.remove(id);
    }

    /** The handler's argument for channel {@code id}'s endpoint to {@code pe}. */
    static long key(long id, int pe) {
        return id << 32 | pe;
    }

    private static void failed(MemorySegment arg, MemorySegment ep, byte status) {
        AtomicIntegerArray failures = CHANNELS.get(arg.address() >>> 32);
        int pe = (int) arg.address();
        if (failures != null && pe >= 0 && pe < failures.length()) { // a closed channel's late failure is dropped
            failures.set(pe, status == 0 ? -1 : status);
        }
    }
}
