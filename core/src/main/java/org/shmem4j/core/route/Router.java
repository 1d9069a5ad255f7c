package org.shmem4j.core.route;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.stream.IntStream;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.CpuAtomics;

/**
 * The operations of one user of a group's {@link Routes} (a context, or a team's collectives),
 * each sent down its PE's route: to a mapped PE a copy or a CPU atomic, complete when it returns;
 * to any other an operation of the user's network channel. The only place in the library that
 * chooses between the two; callers may look a route up first ({@link #region}) to serve a mapped PE
 * in a form of their own (a typed release store, say) and call here otherwise.
 *
 * <p>AMOs and signal updates go through the network to mapped PEs too when the network's atomics
 * are not atomic with CPU atomics ({@code atomicsByNetwork}: one atomicity domain, spec 9.7); the
 * router then remembers that such updates may be in flight, for {@link #fence()}.
 *
 * <p>PE numbers are the group's; the channel is given world ranks ({@link Routes#worldRank}).
 * Ranges are the caller's to check. Not thread-safe beyond what the channel allows: the flag of
 * updates in flight is a hint a racing thread may set late, as for the channel it stands for.
 */
public final class Router {
    /** Where the network channel comes from: a context opens its own on first use; collectives share one. */
    public interface Network {
        /** The channel, opened now if need be; throws naming {@code routine} when there is none to open. */
        Channel channel(String routine);

        /** The channel if it is open, else null: a channel never used has nothing to complete. */
        Channel opened();
    }

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Routes routes;
    /** Null when no network engine is open (every PE of the job is on this node). */
    private final Network network;
    private final boolean atomicsByNetwork;
    /**
     * Where AMOs go: the routes' regions (shared, no copy), or none mapped when they all take the
     * network; only then a table of its own, 4 bytes per member (256 KiB per context at 65,536 PEs).
     */
    private final MemorySegment[] atomicRegions;
    /** The mapped PEs' world ranks, once a fence needs them (atomicsByNetwork only): 4 bytes per PE of this node. */
    private int[] mappedWorldRanks;
    /** An AMO or signal update went through the channel to a mapped PE since the last fence or quiet. */
    private boolean mappedUpdatesInFlight;

    public Router(Routes routes, Network network, boolean atomicsByNetwork) {
        this.routes = routes;
        this.network = network;
        this.atomicsByNetwork = atomicsByNetwork;
        this.atomicRegions = atomicsByNetwork ? new MemorySegment[routes.size()] : routes.regions();
    }

    public Routes routes() {
        return routes;
    }

    /** Member {@code pe}'s mapped region (its data route), or null for the network. */
    public MemorySegment region(int pe) {
        return routes.region(pe);
    }

    /** Where AMOs and signal updates on {@code pe} are done: its mapped region (CPU atomics), or null for the network. */
    public MemorySegment atomicRegion(int pe) {
        MemorySegment m = routes.region(pe);
        if (atomicsByNetwork) {
            mappedUpdatesInFlight |= m != null;
            return null;
        }
        return m;
    }

    /**
     * The table {@link #atomicRegion} reads, for a caller's single array load: a null entry means
     * "ask this router" (which may still mark an update in flight), a region means CPU atomics on it.
     */
    public MemorySegment[] atomicRegions() {
        return atomicRegions;
    }

    public int worldRank(int pe) {
        return routes.worldRank(pe);
    }

    private Channel channel(String routine, int pe) {
        if (network == null) {
            throw new ShmemException(routine + ": PE " + worldRank(pe) + " is on another node and no network engine is open");
        }
        return network.channel(routine);
    }

    /** {@code bytes} of {@code src} from {@code srcOffset} to {@code offset} in {@code pe}'s region. */
    public void put(String routine, int pe, long offset, MemorySegment src, long srcOffset, long bytes, boolean nbi) {
        MemorySegment m = routes.region(pe);
        if (m != null) {
            MemorySegment.copy(src, srcOffset, m, offset, bytes);
        } else if (nbi) {
            channel(routine, pe).putNbi(worldRank(pe), offset, src.asSlice(srcOffset, bytes));
        } else {
            channel(routine, pe).put(worldRank(pe), offset, src.asSlice(srcOffset, bytes));
        }
    }

    /** {@code bytes} from {@code offset} in {@code pe}'s region into {@code dst} at {@code dstOffset}. */
    public void get(String routine, MemorySegment dst, long dstOffset, long bytes, int pe, long offset, boolean nbi) {
        MemorySegment m = routes.region(pe);
        if (m != null) {
            MemorySegment.copy(m, offset, dst, dstOffset, bytes);
        } else if (nbi) {
            channel(routine, pe).getNbi(dst.asSlice(dstOffset, bytes), worldRank(pe), offset);
        } else {
            channel(routine, pe).get(dst.asSlice(dstOffset, bytes), worldRank(pe), offset);
        }
    }

    /** A fetching AMO on a 4- or 8-byte word; returns the old value (sign-extended for 4 bytes). */
    public long fetchingAtomic(String routine, AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        MemorySegment m = atomicRegion(pe);
        return m != null ? CpuAtomics.apply(m, op, bytes, offset, operand, compare)
                : channel(routine, pe).fetchingAtomic(op, bytes, worldRank(pe), offset, operand, compare);
    }

    /** A fetching AMO whose old value lands in {@code result} (4 or 8 bytes): at once when mapped, by the next quiet otherwise. */
    public void fetchingAtomicNbi(String routine, MemorySegment result, AtomicOp op, int bytes, int pe, long offset,
            long operand, long compare) {
        MemorySegment m = atomicRegion(pe);
        if (m == null) {
            channel(routine, pe).fetchingAtomicNbi(result, op, bytes, worldRank(pe), offset, operand, compare);
        } else if (bytes == Integer.BYTES) {
            result.set(ValueLayout.JAVA_INT_UNALIGNED, 0, (int) CpuAtomics.apply(m, op, bytes, offset, operand, compare));
        } else {
            result.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, CpuAtomics.apply(m, op, bytes, offset, operand, compare));
        }
    }

    /** A non-fetching AMO: done at once when mapped, delivered by the next quiet otherwise. */
    public void atomic(String routine, AtomicOp op, int bytes, int pe, long offset, long operand) {
        MemorySegment m = atomicRegion(pe);
        if (m != null) {
            CpuAtomics.apply(m, op, bytes, offset, operand, 0);
        } else {
            channel(routine, pe).atomic(op, bytes, worldRank(pe), offset, operand);
        }
    }

    /**
     * {@code src} to {@code offset}, then the 8-byte signal word at {@code signalOffset} set
     * ({@link AtomicOp#SWAP}) or added to ({@link AtomicOp#ADD}); no PE sees the signal before the
     * data. Mapped: the update is a release store or a locked add (itself a full barrier) after the copy.
     */
    public void putSignal(String routine, int pe, long offset, MemorySegment src, long signalOffset, AtomicOp signalOp,
            long signal, boolean nbi) {
        MemorySegment m = atomicRegion(pe);
        if (m != null) {
            MemorySegment.copy(src, 0, m, offset, src.byteSize());
            CpuAtomics.updateSignal(m, signalOffset, signalOp, signal);
        } else {
            if (nbi) {
                channel(routine, pe).putSignalNbi(worldRank(pe), offset, src, signalOffset, signal, signalOp);
            } else {
                channel(routine, pe).putSignal(worldRank(pe), offset, src, signalOffset, signal, signalOp);
            }
        }
    }

    /** The signal update alone ({@code shmem_signal_set} and {@code _add}), as {@link #putSignal} does it. */
    public void signal(String routine, int pe, long signalOffset, AtomicOp signalOp, long signal) {
        MemorySegment m = atomicRegion(pe);
        if (m != null) {
            CpuAtomics.updateSignal(m, signalOffset, signalOp, signal);
        } else {
            channel(routine, pe).atomic(signalOp, 8, worldRank(pe), signalOffset, signal);
        }
    }

    /**
     * {@code bytes} of {@code src} (possibly none), then the flag word at {@code flagOffset} raised
     * to {@code value}: a word only this PE writes and that only grows (the collectives' stamps),
     * so on a mapped PE a release store raises it; over the network the channel's
     * {@link Channel#putRaise}, which completes on its own.
     */
    public void raise(String routine, int pe, long offset, MemorySegment src, long srcOffset, long bytes, long flagOffset,
            long value) {
        MemorySegment m = routes.region(pe);
        if (m != null) {
            MemorySegment.copy(src, srcOffset, m, offset, bytes);
            LONG.setRelease(m, flagOffset, value);
        } else {
            channel(routine, pe).putRaise(worldRank(pe), offset, src.asSlice(srcOffset, bytes), flagOffset, value);
        }
    }

    /**
     * Orders what the channel carries (the caller fenced the mapped stores). AMOs and signal
     * updates it carried to mapped PEs are completed too: the channel's fence orders them only
     * before its own later operations, while later puts to those PEs are stores that bypass it
     * (spec 9.12.1: fence orders blocking AMOs and puts with signal before them).
     */
    public void fence() {
        Channel c = network == null ? null : network.opened();
        if (c == null) {
            return;
        }
        c.fence();
        if (mappedUpdatesInFlight) {
            int[] mapped = mappedWorldRanks;
            if (mapped == null) {
                mappedWorldRanks = mapped = IntStream.range(0, routes.size()).filter(pe -> routes.region(pe) != null)
                        .map(routes::worldRank).toArray();
            }
            for (int pe : mapped) {
                c.quiet(pe);
            }
            mappedUpdatesInFlight = false;
        }
    }

    /** Completes what the channel carries (the caller fenced the mapped stores). */
    public void quiet() {
        Channel c = network == null ? null : network.opened();
        if (c != null) {
            c.quiet();
            mappedUpdatesInFlight = false;
        }
    }

    /** Completes what the channel carries to {@code pes} (checked): remote PEs, and mapped ones whose updates it carries. */
    public void quiet(int[] pes) {
        Channel c = network == null ? null : network.opened();
        if (c != null) {
            for (int pe : pes) {
                if (atomicsByNetwork || routes.region(pe) == null) {
                    c.quiet(worldRank(pe));
                }
            }
        }
    }
}
