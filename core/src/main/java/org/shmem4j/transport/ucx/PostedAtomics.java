package org.shmem4j.transport.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A channel's non-fetching atomics in flight (signals among them: a round trip each would slow
 * every collective). Each has an operand word of its own until its request completes, since newer
 * UCX releases may read the operand when they send rather than when called; a word is reused only
 * after its previous request was awaited, and a flush completes them all.
 */
final class PostedAtomics {
    private static final int SLOTS = 64;
    private final Ucx.Library ucx;
    private final Requests requests;
    private final MemorySegment operands;
    private final MemorySegment[] slotRequests = new MemorySegment[SLOTS];
    private final int[] pes = new int[SLOTS];
    private int next, inFlight;

    /** @param arena the channel's memory, which holds the operand words */
    PostedAtomics(Ucx.Library ucx, Requests requests, Arena arena) {
        this.ucx = ucx;
        this.requests = requests;
        this.operands = arena.allocate(8L * SLOTS, 8);
    }

    /** The next operand word, its previous request completed. */
    MemorySegment take() {
        settle(next);
        return operands.asSlice(8L * next, 8);
    }

    /** Records the request (null when it completed at once) issued with the word {@link #take} gave. */
    void issued(int pe, MemorySegment request) {
        if (request != null) {
            inFlight++;
        }
        slotRequests[next] = request;
        pes[next] = pe;
        next = (next + 1) % SLOTS;
    }

    boolean any() {
        return inFlight > 0;
    }

    /** After a flush of {@code pe}'s endpoint (every endpoint when negative): frees the requests it completed. */
    void completed(int pe) {
        for (int i = 0; i < SLOTS; i++) {
            if (pe < 0 || pes[i] == pe) {
                settle(i);
            }
        }
    }

    private void settle(int i) {
        MemorySegment request = slotRequests[i];
        if (request != null) {
            slotRequests[i] = null;
            inFlight--;
            requests.await(request, "atomic", pes[i]);
        }
    }

    /** Teardown: hands every request back to UCX, which frees it when it completes or its endpoint closes. */
    void abandon() throws Throwable {
        for (int i = 0; i < SLOTS; i++) {
            if (slotRequests[i] != null) {
                ucx.requestFree.invokeExact(slotRequests[i]);
                slotRequests[i] = null;
                inFlight--;
            }
        }
    }
}
