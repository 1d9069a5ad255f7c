package org.shmem4j.core.sync;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import java.util.function.IntToLongFunction;
import org.shmem4j.Cmp;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.jfr.WaitEvent;

/**
 * The wait and test routines of spec 9.11 over this PE's own symmetric words, written once for
 * 32- and 64-bit elements: a 32-bit element is sign-extended, which keeps both its signed and its
 * unsigned order, so one 64-bit comparison serves every carrier. Loads are acquire loads, so data
 * written before the awaited update is visible once the wait returns.
 */
public final class PointToPointSync {
    private static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment local;
    private final WaitPolicy policy;
    private final OrphanedWait orphaned;
    private final Profiler profiler;

    /**
     * Asked by a parked wait: throws (naming {@code routine}) when no PE can change this PE's
     * words any more and the awaited condition, read after finding that out, still fails.
     */
    @FunctionalInterface
    public interface OrphanedWait {
        void check(String routine, BooleanSupplier satisfied);
    }

    /** @param profiler records the waits that block (not those satisfied at once) */
    public PointToPointSync(MemorySegment local, WaitPolicy policy, OrphanedWait orphaned, Profiler profiler) {
        this.local = local;
        this.policy = policy;
        this.orphaned = orphaned;
        this.profiler = profiler;
    }

    private WaitPolicy.Waiter waiter(String routine, BooleanSupplier satisfied) {
        return policy.start(() -> orphaned.check(routine, satisfied));
    }

    /**
     * The element at region offset {@code offset}, of {@code bytes} (4 or 8; 2 for the deprecated
     * short waits), widened to a long.
     */
    public long load(long offset, int bytes) {
        return switch (bytes) {
            case 2 -> (long) (short) SHORT.getAcquire(local, offset);
            case 4 -> (long) (int) INT.getAcquire(local, offset);
            default -> (long) LONG.getAcquire(local, offset);
        };
    }

    /** Waits until the element at {@code offset} satisfies {@code cmp value}; returns the satisfying value. */
    public long waitUntil(String routine, long offset, int bytes, Cmp cmp, long value) {
        long v = load(offset, bytes);
        if (!cmp.test(v, value)) {
            WaitEvent e = profiler.waitBegin();
            WaitPolicy.Waiter w = waiter(routine, () -> cmp.test(load(offset, bytes), value));
            while (!cmp.test(v = load(offset, bytes), value)) {
                w.pause();
            }
            profiler.waitEnd(e, routine);
        }
        return v;
    }

    /** As {@link #waitUntil} but gives up after {@code timeoutNanos}; true if the condition held. */
    public boolean waitUntil(long offset, int bytes, Cmp cmp, long value, long timeoutNanos) {
        if (cmp.test(load(offset, bytes), value)) {
            return true;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        WaitEvent e = profiler.waitBegin();
        WaitPolicy.Waiter w = waiter("shmem_wait_until", () -> cmp.test(load(offset, bytes), value));
        boolean held;
        while (!(held = cmp.test(load(offset, bytes), value)) && System.nanoTime() - deadline < 0) {
            w.pause();
        }
        profiler.waitEnd(e, "shmem_wait_until");
        return held;
    }

    /** A group of elements: {@code n} elements of {@code bytes} from {@code base}, with optional exclusions. */
    public record Group(long base, int bytes, int n, int[] status) {
        boolean included(int i) {
            return status == null || status[i] == 0;
        }

        long offset(int i) {
            return base + (long) i * bytes;
        }

        boolean allExcluded() {
            for (int i = 0; i < n; i++) {
                if (included(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    public boolean testAll(Group g, Cmp cmp, IntToLongFunction value) {
        for (int i = 0; i < g.n(); i++) {
            if (g.included(i) && !cmp.test(load(g.offset(i), g.bytes()), value.applyAsLong(i))) {
                return false;
            }
        }
        return true;
    }

    public long testAny(Group g, Cmp cmp, IntToLongFunction value) {
        for (int i = 0; i < g.n(); i++) {
            if (g.included(i) && cmp.test(load(g.offset(i), g.bytes()), value.applyAsLong(i))) {
                return i;
            }
        }
        return -1;
    }

    public int testSome(Group g, int[] indices, Cmp cmp, IntToLongFunction value) {
        int found = 0;
        for (int i = 0; i < g.n(); i++) {
            if (g.included(i) && cmp.test(load(g.offset(i), g.bytes()), value.applyAsLong(i))) {
                indices[found++] = i;
            }
        }
        return found;
    }

    public void waitAll(String routine, Group g, Cmp cmp, IntToLongFunction value) {
        if (!testAll(g, cmp, value)) {
            WaitEvent e = profiler.waitBegin();
            WaitPolicy.Waiter w = waiter(routine, () -> testAll(g, cmp, value));
            while (!testAll(g, cmp, value)) {
                w.pause();
            }
            profiler.waitEnd(e, routine);
        }
    }

    public long waitAny(String routine, Group g, Cmp cmp, IntToLongFunction value) {
        if (g.allExcluded()) {
            return -1;
        }
        long found = testAny(g, cmp, value);
        if (found < 0) {
            WaitEvent e = profiler.waitBegin();
            WaitPolicy.Waiter w = waiter(routine, () -> testAny(g, cmp, value) >= 0);
            while ((found = testAny(g, cmp, value)) < 0) {
                w.pause();
            }
            profiler.waitEnd(e, routine);
        }
        return found;
    }

    public int waitSome(String routine, Group g, int[] indices, Cmp cmp, IntToLongFunction value) {
        if (g.allExcluded()) {
            return 0;
        }
        int found = testSome(g, indices, cmp, value);
        if (found == 0) {
            WaitEvent e = profiler.waitBegin();
            WaitPolicy.Waiter w = waiter(routine, () -> testSome(g, new int[g.n()], cmp, value) > 0);
            while ((found = testSome(g, indices, cmp, value)) == 0) {
                w.pause();
            }
            profiler.waitEnd(e, routine);
        }
        return found;
    }
}
