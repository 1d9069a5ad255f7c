package org.shmem4j.core;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import org.shmem4j.core.coll.PeerAccess;
import org.shmem4j.core.sync.PeerLiveness;
import org.shmem4j.core.sync.WaitPolicy;

/**
 * The AND of one mask per member over a group of PEs, by dissemination: in round k member i sends
 * what it has to member {@code i + 2^k} (mod n) and ANDs in what member {@code i - 2^k} sent. After
 * ceil(log2 n) rounds every member holds the AND of all (AND is idempotent, so the overlap of the
 * last round does no harm): log2 n messages of one mask per member, whatever the group's size,
 * where reading every member's mask was n. How teams agree on their blocks ({@link TeamPool}).
 *
 * <p>Round k has its own {@link TeamPool#CELL_BYTES}-byte cell at every member: the mask, then at
 * word {@link TeamPool#MAX_MASK_WORDS} the word that says it arrived. A sender never writes a cell
 * twice in one agreement; the caller gives each agreement cells no earlier one still reads.
 *
 * @param access the routes; member {@code i} is reached as {@code route.applyAsInt(i)}
 * @param route a member's index in {@code access}
 * @param cell the region offset of round k's cell (the same at every member)
 * @param arrived the value the arrival word holds once the cell's mask is there (greater than
 *        any value an earlier agreement left in it)
 * @param reset whether a member zeroes each cell once read (cells that must be left as found)
 */
record MaskAgreement(PeerAccess access, IntUnaryOperator route, IntToLongFunction cell, long arrived, boolean reset) {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long ARRIVED_AT = 8L * TeamPool.MAX_MASK_WORDS;

    /** ANDs {@code mask} (at most {@link TeamPool#MAX_MASK_WORDS} words) with every member's: member {@code rank} of {@code n}. */
    void and(long[] mask, int rank, int n, WaitPolicy waitPolicy, PeerLiveness liveness) {
        long bytes = 8L * mask.length;
        MemorySegment local = access.local();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(bytes, 8);
            for (int k = 0, d = 1; d < n; k++, d <<= 1) {
                long at = cell.applyAsLong(k);
                MemorySegment.copy(mask, 0, out, ValueLayout.JAVA_LONG, 0, mask.length);
                access.putSignal(route.applyAsInt((rank + d) % n), at, out, 0, bytes, at + ARRIVED_AT, arrived);
                long flag = at + ARRIVED_AT;
                if ((long) LONG.getAcquire(local, flag) < arrived) {
                    int from = route.applyAsInt((rank - d + n) % n);
                    WaitPolicy.Waiter w = waitPolicy.start(() -> liveness.check(from,
                            () -> (long) LONG.getAcquire(local, flag) >= arrived));
                    while ((long) LONG.getAcquire(local, flag) < arrived) {
                        w.pause();
                    }
                }
                for (int w = 0; w < mask.length; w++) {
                    mask[w] &= local.get(ValueLayout.JAVA_LONG, at + 8L * w);
                }
                if (reset) {
                    local.asSlice(at, bytes).fill((byte) 0);
                    LONG.setRelease(local, flag, 0L);
                }
            }
        }
    }
}
