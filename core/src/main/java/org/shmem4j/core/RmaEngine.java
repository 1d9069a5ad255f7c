package org.shmem4j.core;

import static org.shmem4j.core.RmaChecks.checkArray;
import static org.shmem4j.core.RmaChecks.checkBytes;
import static org.shmem4j.core.RmaChecks.checkFetch;
import static org.shmem4j.core.RmaChecks.checkSignal;
import static org.shmem4j.core.RmaChecks.segment;
import static org.shmem4j.core.RmaChecks.sizedBytes;
import static org.shmem4j.core.RmaChecks.slice;
import static org.shmem4j.core.RmaChecks.span;
import static org.shmem4j.core.RmaChecks.wholeElements;
import static org.shmem4j.core.RmaChecks.wholeSegment;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.shmem4j.Context;
import org.shmem4j.SessionConfig;
import org.shmem4j.ShmemException;
import org.shmem4j.SignalOp;
import org.shmem4j.SymmetricArray;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricObject;
import org.shmem4j.core.jfr.AmoEvent;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.jfr.RmaEvent;
import org.shmem4j.core.route.Router;
import org.shmem4j.core.route.Routes;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Batches;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.CpuAtomics;
import org.shmem4j.transport.Transport;

/**
 * The point-to-point engine of one context. Its operations go down the routes of its group
 * ({@link Router}): a mapped peer (same node) is served by load/store on its region, with no
 * involvement of the target; any other by the context's network {@link Channel}, opened on the
 * first operation that needs it (so a context that only talks to its node never opens one). The
 * typed single-element and array forms look the route up themselves ({@code peers[pe]}, one array
 * load) to serve a mapped peer with a typed access, and leave every other case to the router.
 *
 * <p>Ordering on the mapped path: a blocking put's stores are issued before it returns;
 * {@link #fence()} is a release fence (later stores to any PE become visible after earlier ones) and
 * {@link #quiet()} a full fence. Single-element puts are release stores and gets acquire loads, so
 * that flag loops written with {@code p}/{@code g} behave even without explicit fences. On the
 * network path the channel keeps the same rules (its contract), and fence and quiet reach it too.
 *
 * <p>Everything here is untyped: single elements and atomics travel as raw bits (float and double
 * as their IEEE bits, see {@link #bits(float)}) with their width in bytes. The typed methods
 * ({@code p}, {@code g}, the AMOs per carrier) are generated into the subclass {@link RmaContext}
 * from its template, each one call here. They extend this class rather than hold an engine: a
 * field to a separate engine would put one more dependent load before the route lookup of every
 * {@code p}, {@code g} and AMO, and calls to this class's final methods bind statically anyway.
 */
public abstract sealed class RmaEngine implements Context permits RmaContext {
    // One VarHandle per width: float and double use the int and long ones on their raw bits, which
    // is the same load, store, swap or compare-and-exchange of the same bytes.
    private static final VarHandle VH_BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle VH_SHORT = ValueLayout.JAVA_SHORT.varHandle();
    private static final VarHandle VH_INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle VH_LONG = ValueLayout.JAVA_LONG.varHandle();

    /** The routes' regions: the checks and typed fast paths' one array load; emptied when retired. */
    private MemorySegment[] peers;
    /** The router's {@link Router#atomicRegions()}, for the same single load (the AMOs' fast path). */
    private MemorySegment[] atomicPeers;
    private Router router;
    private final ChannelMode channelMode;
    /** Carries the operations to PEs that are not mapped; null in a job on one node. */
    private Transport network;
    private volatile Channel channel;
    private final Thread owner;
    private SessionState sessions = new SessionState(null, false);
    /** The PE's JFR events; RMA and AMO events cost one null check each when profiling is off. */
    private Profiler profiler = Profiler.NONE;
    /** Why every use fails once the context is retired (destroyed, its team destroyed, or CTX_INVALID). */
    private String retiredBecause;

    /**
     * @param routes the routes to this context's PEs: the world's, or its team's members in team order
     * @param channelMode how the network channel will be used (spec 9.5's context options)
     * @param owner the only thread allowed to use a private context, or null for a shareable one
     */
    RmaEngine(Routes routes, ChannelMode channelMode, Thread owner) {
        this.router = new Router(routes, null, false);
        this.peers = routes.regions();
        this.atomicPeers = router.atomicRegions();
        this.channelMode = channelMode;
        this.owner = owner;
    }

    /**
     * The transport for PEs that are not mapped, set once before the context is used; with
     * {@code everyAmo} it also carries every AMO and signal update to mapped PEs (one atomicity
     * domain with network atomics that CPU atomics would not be atomic with).
     */
    protected final void useNetwork(Transport network, boolean everyAmo) {
        this.network = network;
        this.router = new Router(router.routes(), network == null ? null : new Router.Network() {
            @Override
            public Channel channel(String routine) {
                return RmaEngine.this.channel(routine);
            }

            @Override
            public Channel opened() {
                return channel;
            }
        }, everyAmo);
        this.atomicPeers = router.atomicRegions();
    }

    /**
     * How this context batches in {@code SESSION_BATCH} sessions (null limits: never), set once
     * before it is used; {@code always}: as if every moment were in such a session.
     */
    protected final void batchWith(Batches.Limits limits, boolean always) {
        this.sessions = new SessionState(limits, always);
    }

    /** The PE's profiler, set once before the context is used. */
    protected final void profileWith(Profiler profiler) {
        this.profiler = profiler;
    }

    /** The network channel, opened on first use. */
    protected final Channel channel(String routine) {
        Channel c = channel;
        return c != null ? c : openChannel(routine);
    }

    private synchronized Channel openChannel(String routine) {
        if (retiredBecause != null) { // a channel opened now would never be closed
            throw new IllegalStateException(routine + ": " + retiredBecause);
        }
        if (channel == null) {
            if (network == null) {
                throw new ShmemException(routine + ": a PE is on another node and no network transport is open");
            }
            Channel c = network.openChannel(NetworkPolicy.options(network.capabilities(), channelMode));
            sessions.opened(c);
            channel = c;
        }
        return channel;
    }

    private int world(int pe) {
        return router.worldRank(pe);
    }

    /**
     * Where AMOs and signal updates on {@code pe} are done: its mapped region (CPU atomics), or
     * null for the network; after the checks of {@link #peer}.
     */
    private MemorySegment amoPeer(int pe, String routine) {
        return route(atomicPeers, pe, routine);
    }

    /**
     * The mapped region of {@code pe}, or null when it is reached through the network, after
     * checking the PE number (and the thread, for a private context).
     */
    protected final MemorySegment peer(int pe, String routine) {
        return route(peers, pe, routine);
    }

    /** {@code table[pe]} after the checks of {@link #peer}: one array load, as the hot path needs. */
    private MemorySegment route(MemorySegment[] p, int pe, String routine) {
        if (owner != null && owner != Thread.currentThread()) {
            checkUsable(routine);
        }
        if (pe < 0 || pe >= p.length) {
            checkUsable(routine);
            throw new IllegalArgumentException(routine + ": PE " + pe + " is out of range [0, " + p.length + ")");
        }
        return p[pe];
    }

    /** Throws if this context may not be used here (destroyed, or private to another thread). */
    protected final void checkUsable(String routine) {
        if (owner != null && owner != Thread.currentThread()) {
            throw new WrongThreadException(routine + ": a private context (SHMEM_CTX_PRIVATE) of thread " + owner.getName()
                    + " used by thread " + Thread.currentThread().getName());
        }
        if (retiredBecause != null) {
            throw new IllegalStateException(routine + ": " + retiredBecause);
        }
    }

    /** True if {@code pe} is mapped (load/store reachable). */
    protected final boolean mapped(int pe) {
        MemorySegment[] p = peers;
        return pe >= 0 && pe < p.length && p[pe] != null;
    }

    /**
     * Completes the context's operations and makes every later use fail, saying {@code because}:
     * the empty routing table makes every PE number miss, and the miss explains (no static
     * sentinel: {@code Context.INVALID} is retired while this class may still be initializing).
     */
    protected final void retire(String because) {
        VarHandle.fullFence(); // completes the context's operations
        Channel c;
        synchronized (this) { // with openChannel: a thread racing the destruction opens no channel after this
            retiredBecause = because;
            c = channel;
        }
        peers = atomicPeers = new MemorySegment[0];
        if (c != null) {
            c.close(); // completes what it carries (a use racing this fails on the channel), then releases its transport state
        }
    }

    /** True once {@link #retire(String)} ran. */
    protected final boolean retired() {
        return retiredBecause != null;
    }

    /** This PE's own region. */
    protected abstract MemorySegment localRegion();

    // ------------------------------------------------------------------ sessions (9.9), fence, quiet

    @Override
    public final void sessionStart(long options, SessionConfig config, long configMask) {
        if (this == INVALID) {
            return; // spec 9.9.1: no action on SHMEM_CTX_INVALID
        }
        checkUsable("shmem_ctx_session_start");
        sessions.start(options, config, configMask, channel, profiler);
    }

    @Override
    public final void sessionStop() {
        if (this == INVALID) {
            return;
        }
        checkUsable("shmem_ctx_session_stop");
        sessions.stop(channel, profiler);
    }

    @Override
    public void fence() {
        checkUsable("shmem_fence");
        VarHandle.releaseFence();
        router.fence();
    }

    @Override
    public void quiet() {
        checkUsable("shmem_quiet");
        VarHandle.fullFence();
        router.quiet();
    }

    /**
     * Completes what this context issued to the listed PEs: mapped ones with a full fence, remote
     * ones (and mapped ones whose AMOs go through the network) with the channel's per-PE quiet
     * (not a whole quiet). An empty or null list is ignored,
     * as spec 9.12.3 says of an empty one.
     */
    @Override
    public void peQuiet(int... pes) {
        checkUsable("shmem_pe_quiet");
        if (pes == null) {
            return;
        }
        for (int pe : pes) {
            peer(pe, "shmem_pe_quiet"); // checks the PE number
        }
        VarHandle.fullFence();
        router.quiet(pes);
    }

    // ------------------------------------------------------------------ raw bits of the typed layer
    // A value of 1, 2, 4 or 8 bytes travels as the low bits of a long; float and double as their
    // raw IEEE bits (so a NaN's payload survives), the integral types sign-extended (char: zero).

    static long bits(int v) {
        return v;
    }

    static long bits(long v) {
        return v;
    }

    static long bits(float v) {
        return Float.floatToRawIntBits(v);
    }

    static long bits(double v) {
        return Double.doubleToRawLongBits(v);
    }

    static byte byteOf(long bits) {
        return (byte) bits;
    }

    static short shortOf(long bits) {
        return (short) bits;
    }

    static char charOf(long bits) {
        return (char) bits;
    }

    static int intOf(long bits) {
        return (int) bits;
    }

    static long longOf(long bits) {
        return bits;
    }

    static float floatOf(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static double doubleOf(long bits) {
        return Double.longBitsToDouble(bits);
    }

    /** Stores {@code bits} into element {@code index} of a fetch array (int, long, float or double). */
    private static void setElement(Object array, int index, long bits) {
        if (array instanceof int[] a) {
            a[index] = intOf(bits);
        } else if (array instanceof long[] a) {
            a[index] = bits;
        } else if (array instanceof float[] a) {
            a[index] = floatOf(bits);
        } else {
            ((double[]) array)[index] = doubleOf(bits);
        }
    }

    // Width-generic accesses to a mapped region. Every typed caller passes a constant width and
    // operation, so once the JIT inlines these into it one access remains: they are if chains on
    // purpose, since the JIT folds comparisons with constants, where an enum switch would still
    // look its case up in a table at run time.

    private static void setRelease(MemorySegment m, long off, int bytes, long bits) {
        if (bytes == Long.BYTES) {
            VH_LONG.setRelease(m, off, bits);
        } else if (bytes == Integer.BYTES) {
            VH_INT.setRelease(m, off, (int) bits);
        } else if (bytes == Short.BYTES) {
            VH_SHORT.setRelease(m, off, (short) bits);
        } else {
            VH_BYTE.setRelease(m, off, (byte) bits);
        }
    }

    private static long getAcquire(MemorySegment m, long off, int bytes) {
        if (bytes == Long.BYTES) {
            return (long) VH_LONG.getAcquire(m, off);
        } else if (bytes == Integer.BYTES) {
            return (int) VH_INT.getAcquire(m, off);
        } else if (bytes == Short.BYTES) {
            return (short) VH_SHORT.getAcquire(m, off);
        }
        return (byte) VH_BYTE.getAcquire(m, off);
    }

    // ------------------------------------------------------------------ single elements (the typed p and g)

    /** {@code shmem_p}: a release store of the low {@code bytes} of {@code bits} (remote: a one-element put). */
    final void putBits(String routine, SymmetricArray<?> dest, long index, int bytes, long bits, int pe) {
        long off = Symmetrics.offset(routine, "destination", dest, index, 1);
        MemorySegment target = peer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        if (target != null) {
            setRelease(target, off, bytes, bits);
        } else {
            MemorySegment one = MemorySegment.ofArray(new long[1]).asSlice(0, bytes);
            setRelease(one, 0, bytes, bits);
            router.put(routine, pe, off, one, 0, bytes, false);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
    }

    /** {@code shmem_g}: an acquire load of {@code bytes} (remote: a one-element get), as bits. */
    final long getBits(String routine, SymmetricArray<?> src, long index, int bytes, int pe) {
        long off = Symmetrics.offset(routine, "source", src, index, 1);
        MemorySegment source = peer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        long value;
        if (source != null) {
            value = getAcquire(source, off, bytes);
        } else {
            MemorySegment got = MemorySegment.ofArray(new long[1]).asSlice(0, bytes);
            router.get(routine, got, 0, bytes, pe, off, false);
            value = getAcquire(got, 0, bytes);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
        return value;
    }

    // ------------------------------------------------------------------ atomics (the typed AMOs)
    // Mapped: a CPU atomic on the peer's word. Remote: the channel's AMO on the word's bits (fetch is
    // OR 0, set is a SWAP whose old value is dropped, increment is ADD 1). Fetching nbi forms on the
    // network path deliver into the fetch array by the next quiet. Words are 4 or 8 bytes.

    /** {@code shmem_atomic_fetch}: the word's bits (mapped: a volatile load). */
    final long fetchBits(String routine, SymmetricArray<?> source, long index, int bytes, int pe) {
        long off = Symmetrics.offset(routine, "source", source, index, 1);
        MemorySegment m = amoPeer(pe, routine);
        AmoEvent e = profiler.amoBegin();
        long old;
        if (m == null) {
            old = router.fetchingAtomic(routine, AtomicOp.OR, bytes, pe, off, 0, 0);
        } else {
            old = bytes == Integer.BYTES ? (int) VH_INT.getVolatile(m, off) : (long) VH_LONG.getVolatile(m, off);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
        return old;
    }

    /** {@code shmem_atomic_fetch_nbi}: {@link #fetchBits} into {@code fetch[fetchIndex]}. */
    final void fetchBitsNbi(String routine, Object fetch, int fetchIndex, SymmetricArray<?> source, long index, int bytes,
            int pe) {
        if (!fetchLater(routine, fetch, fetchIndex, AtomicOp.OR, source, "source", index, bytes, 0, 0, pe)) {
            setElement(fetch, fetchIndex, fetchBits(routine, source, index, bytes, pe));
        }
    }

    /** {@code shmem_atomic_set}: a volatile store of the word (remote: a SWAP whose old value is dropped). */
    final void setBits(String routine, SymmetricArray<?> dest, long index, int bytes, long bits, int pe) {
        long off = Symmetrics.offset(routine, "destination", dest, index, 1);
        MemorySegment m = amoPeer(pe, routine);
        AmoEvent e = profiler.amoBegin();
        if (m == null) {
            router.atomic(routine, AtomicOp.SWAP, bytes, pe, off, bits);
        } else if (bytes == Integer.BYTES) {
            VH_INT.setVolatile(m, off, (int) bits);
        } else {
            VH_LONG.setVolatile(m, off, bits);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
    }

    /** A fetching ADD, AND, OR, XOR, SWAP or COMPARE_SWAP ({@code compare}: its expected bits); returns the old bits. */
    final long fetching(String routine, AtomicOp op, SymmetricArray<?> dest, long index, int bytes, long operand, long compare,
            int pe) {
        long off = Symmetrics.offset(routine, "destination", dest, index, 1);
        MemorySegment m = amoPeer(pe, routine);
        AmoEvent e = profiler.amoBegin();
        long old;
        if (m == null) {
            old = router.fetchingAtomic(routine, op, bytes, pe, off, operand, compare);
        } else {
            old = CpuAtomics.apply(m, op, bytes, off, operand, compare);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
        return old;
    }

    /** The nbi form of {@link #fetching}: the old bits land in {@code fetch[fetchIndex]}. */
    final void fetchingNbi(String routine, Object fetch, int fetchIndex, AtomicOp op, SymmetricArray<?> dest, long index,
            int bytes, long operand, long compare, int pe) {
        if (!fetchLater(routine, fetch, fetchIndex, op, dest, "destination", index, bytes, operand, compare, pe)) {
            setElement(fetch, fetchIndex, fetching(routine, op, dest, index, bytes, operand, compare, pe));
        }
    }

    /**
     * The network half of a fetching nbi AMO, after checking the fetch array: when {@code pe}'s
     * AMOs go through the channel, issues it (the old value lands in {@code fetch} by the next
     * quiet) and returns true; on a mapped peer returns false, and the caller's blocking AMO
     * completes it at once.
     */
    private boolean fetchLater(String routine, Object fetch, int fetchIndex, AtomicOp op, SymmetricArray<?> word, String what,
            long index, int bytes, long operand, long compare, int pe) {
        checkFetch(routine, fetch, fetchIndex);
        if (amoPeer(pe, routine) != null) {
            return false;
        }
        long off = Symmetrics.offset(routine, what, word, index, 1);
        AmoEvent e = profiler.amoBegin();
        router.fetchingAtomicNbi(routine, slice(fetch, fetchIndex, 1, bytes), op, bytes, pe, off, operand, compare);
        profiler.transferEnd(e, routine, world(pe), bytes);
        return true;
    }

    /** A non-fetching ADD, AND, OR or XOR: done at once on a mapped peer, delivered by quiet on the network. */
    final void update(String routine, AtomicOp op, SymmetricArray<?> dest, long index, int bytes, long operand, int pe) {
        MemorySegment m = amoPeer(pe, routine);
        long off = Symmetrics.offset(routine, "destination", dest, index, 1);
        AmoEvent e = profiler.amoBegin();
        if (m == null) {
            router.atomic(routine, op, bytes, pe, off, operand);
        } else {
            CpuAtomics.apply(m, op, bytes, off, operand, 0);
        }
        profiler.transferEnd(e, routine, world(pe), bytes);
    }

    // ------------------------------------------------------------------ typed contiguous

    @Override
    public final <A> void put(SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count, int pe) {
        putArray("shmem_put", dest, destIndex, src, srcIndex, count, pe, false);
    }

    /** A typed put from a Java array, checked and named as {@code routine}. */
    private <A> void putArray(String routine, SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count,
            int pe, boolean nbi) {
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, count);
        MemorySegment target = peer(pe, routine);
        if (checkArray(routine, "source", src, dest, srcIndex, count)) {
            RmaEvent e = profiler.rmaBegin();
            if (target != null) {
                MemorySegment.copy(src, srcIndex, target, dest.elementLayout(), off, count);
            } else {
                router.put(routine, pe, off, slice(src, srcIndex, count, dest.elementBytes()), 0, (long) count * dest.elementBytes(), nbi);
            }
            profiler.transferEnd(e, routine, world(pe), count * dest.elementBytes());
        }
    }

    @Override
    public final <A> void put(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            int pe) {
        putSymmetric("shmem_put", dest, destIndex, src, srcIndex, count, pe, false);
    }

    /** A typed put from this PE's copy of a symmetric array, checked and named as {@code routine}. */
    private void putSymmetric(String routine, SymmetricArray<?> dest, long destIndex, SymmetricArray<?> src, long srcIndex,
            long count, int pe, boolean nbi) {
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, count);
        MemorySegment local = localElements(routine, "source", src, srcIndex, count);
        dest.requireSameElements(routine, src);
        store(routine, pe, off, local, nbi);
    }

    /** This PE's copy of elements {@code [index, index + count)} of {@code array}, checked and named as {@code routine}. */
    private MemorySegment localElements(String routine, String what, SymmetricArray<?> array, long index, long count) {
        return localRegion().asSlice(Symmetrics.offset(routine, what, array, index, count), count * array.elementBytes());
    }

    /** All of {@code src} to {@code offset} in {@code pe}'s region: a copy into its mapping, or a network put. */
    private void store(String routine, int pe, long offset, MemorySegment src, boolean nbi) {
        MemorySegment target = peer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        if (target != null) {
            MemorySegment.copy(src, 0, target, offset, src.byteSize());
        } else {
            router.put(routine, pe, offset, src, 0, src.byteSize(), nbi);
        }
        profiler.transferEnd(e, routine, world(pe), src.byteSize());
    }

    /** {@code dst.byteSize()} bytes from {@code offset} in {@code pe}'s region into {@code dst}. */
    private void load(String routine, MemorySegment dst, int pe, long offset, boolean nbi) {
        MemorySegment source = peer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        if (source != null) {
            MemorySegment.copy(source, offset, dst, 0, dst.byteSize());
        } else {
            router.get(routine, dst, 0, dst.byteSize(), pe, offset, nbi);
        }
        profiler.transferEnd(e, routine, world(pe), dst.byteSize());
    }

    @Override
    public final void put(SymmetricArray<?> dest, long destIndex, MemorySegment src, int pe) {
        putSegment("shmem_put", dest, destIndex, src, pe, false);
    }

    private void putSegment(String routine, SymmetricArray<?> dest, long destIndex, MemorySegment src, int pe, boolean nbi) {
        src = wholeSegment(routine, "source", src);
        long count = wholeElements(routine, src, Symmetrics.nonNull(routine, "destination", dest).elementBytes());
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, count);
        store(routine, pe, off, src, nbi);
    }

    @Override
    public final <A> void get(A dest, int destIndex, SymmetricArray<A> src, long srcIndex, int count, int pe) {
        getArray("shmem_get", dest, destIndex, src, srcIndex, count, pe, false);
    }

    private <A> void getArray(String routine, A dest, int destIndex, SymmetricArray<A> src, long srcIndex, int count, int pe,
            boolean nbi) {
        long off = Symmetrics.offset(routine, "source", src, srcIndex, count);
        MemorySegment source = peer(pe, routine);
        if (checkArray(routine, "destination", dest, src, destIndex, count)) {
            RmaEvent e = profiler.rmaBegin();
            if (source != null) {
                MemorySegment.copy(source, src.elementLayout(), off, dest, destIndex, count);
            } else {
                router.get(routine, slice(dest, destIndex, count, src.elementBytes()), 0, (long) count * src.elementBytes(), pe, off, nbi);
            }
            profiler.transferEnd(e, routine, world(pe), count * src.elementBytes());
        }
    }

    @Override
    public final <A> void get(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            int pe) {
        getSymmetric("shmem_get", dest, destIndex, src, srcIndex, count, pe, false);
    }

    /** A typed get into this PE's copy of a symmetric array, checked and named as {@code routine}. */
    private void getSymmetric(String routine, SymmetricArray<?> dest, long destIndex, SymmetricArray<?> src, long srcIndex,
            long count, int pe, boolean nbi) {
        long off = Symmetrics.offset(routine, "source", src, srcIndex, count);
        MemorySegment local = localElements(routine, "destination", dest, destIndex, count);
        dest.requireSameElements(routine, src);
        load(routine, local, pe, off, nbi);
    }

    @Override
    public final void get(MemorySegment dest, SymmetricArray<?> src, long srcIndex, int pe) {
        getSegment("shmem_get", dest, src, srcIndex, pe, false);
    }

    private void getSegment(String routine, MemorySegment dest, SymmetricArray<?> src, long srcIndex, int pe, boolean nbi) {
        dest = wholeSegment(routine, "destination", dest);
        long count = wholeElements(routine, dest, Symmetrics.nonNull(routine, "source", src).elementBytes());
        long off = Symmetrics.offset(routine, "source", src, srcIndex, count);
        load(routine, dest, pe, off, nbi);
    }

    // ------------------------------------------------------------------ typed strided

    @Override
    public final <A> void iput(SymmetricArray<A> dest, long destIndex, long dst, A src, int srcIndex, long sst,
            long nelems, int pe) {
        blockPut("shmem_iput", dest, destIndex, dst, src, srcIndex, sst, 1, nelems, pe);
    }

    @Override
    public final <A> void iget(A dest, int destIndex, long dst, SymmetricArray<A> src, long srcIndex, long sst,
            long nelems, int pe) {
        blockGet("shmem_iget", dest, destIndex, dst, src, srcIndex, sst, 1, nelems, pe);
    }

    @Override
    public final <A> void ibput(SymmetricArray<A> dest, long destIndex, long dst, A src, int srcIndex, long sst,
            long bsize, long nblocks, int pe) {
        blockPut("shmem_ibput", dest, destIndex, dst, src, srcIndex, sst, bsize, nblocks, pe);
    }

    @Override
    public final <A> void ibget(A dest, int destIndex, long dst, SymmetricArray<A> src, long srcIndex, long sst,
            long bsize, long nblocks, int pe) {
        blockGet("shmem_ibget", dest, destIndex, dst, src, srcIndex, sst, bsize, nblocks, pe);
    }

    private <A> void blockPut(String routine, SymmetricArray<A> dest, long destIndex, long dst, A src, int srcIndex,
            long sst, long bsize, long nblocks, int pe) {
        long destSpan = span(routine, "dst", dst, bsize, nblocks);
        long srcSpan = span(routine, "sst", sst, bsize, nblocks);
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, destSpan);
        MemorySegment target = peer(pe, routine);
        if (!checkArray(routine, "source", src, dest, srcIndex, srcSpan)) {
            return;
        }
        ValueLayout layout = dest.elementLayout();
        long esz = layout.byteSize();
        RmaEvent e = profiler.rmaBegin();
        for (long b = 0; b < nblocks; b++) {
            if (target != null) {
                MemorySegment.copy(src, (int) (srcIndex + b * sst), target, layout, off + b * dst * esz, (int) bsize);
            } else {
                router.put(routine, pe, off + b * dst * esz, slice(src, srcIndex + b * sst, bsize, esz), 0, bsize * esz, false);
            }
        }
        profiler.transferEnd(e, routine, world(pe), nblocks * bsize * esz);
    }

    private <A> void blockGet(String routine, A dest, int destIndex, long dst, SymmetricArray<A> src, long srcIndex,
            long sst, long bsize, long nblocks, int pe) {
        long destSpan = span(routine, "dst", dst, bsize, nblocks);
        long srcSpan = span(routine, "sst", sst, bsize, nblocks);
        long off = Symmetrics.offset(routine, "source", src, srcIndex, srcSpan);
        MemorySegment source = peer(pe, routine);
        if (!checkArray(routine, "destination", dest, src, destIndex, destSpan)) {
            return;
        }
        ValueLayout layout = src.elementLayout();
        long esz = layout.byteSize();
        RmaEvent e = profiler.rmaBegin();
        for (long b = 0; b < nblocks; b++) {
            if (source != null) {
                MemorySegment.copy(source, layout, off + b * sst * esz, dest, (int) (destIndex + b * dst), (int) bsize);
            } else {
                router.get(routine, slice(dest, destIndex + b * dst, bsize, esz), 0, bsize * esz, pe, off + b * sst * esz, false);
            }
        }
        profiler.transferEnd(e, routine, world(pe), nblocks * bsize * esz);
    }

    // ------------------------------------------------------------------ untyped

    @Override
    public final void putmem(SymmetricObject dest, long destOffset, MemorySegment src, int pe) {
        putmemSegment("shmem_putmem", dest, destOffset, src, pe, false);
    }

    private void putmemSegment(String routine, SymmetricObject dest, long destOffset, MemorySegment src, int pe, boolean nbi) {
        src = wholeSegment(routine, "source", src);
        long off = Symmetrics.range(routine, "destination", dest, destOffset, src.byteSize());
        store(routine, pe, off, src, nbi);
    }

    @Override
    public final void putmem(SymmetricObject dest, long destOffset, byte[] src, int srcOffset, int length, int pe) {
        long off = Symmetrics.range("shmem_putmem", "destination", dest, destOffset, length);
        MemorySegment target = peer(pe, "shmem_putmem");
        if (checkBytes("shmem_putmem", "source", src, srcOffset, length)) {
            RmaEvent e = profiler.rmaBegin();
            if (target != null) {
                MemorySegment.copy(src, srcOffset, target, ValueLayout.JAVA_BYTE, off, length);
            } else {
                router.put("shmem_putmem", pe, off, MemorySegment.ofArray(src), srcOffset, length, false);
            }
            profiler.transferEnd(e, "shmem_putmem", world(pe), length);
        }
    }

    @Override
    public final void putmem(SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset, long nbytes,
            int pe) {
        putmemSymmetric("shmem_putmem", dest, destOffset, src, srcOffset, nbytes, pe, false);
    }

    /** Bytes of this PE's copy of a symmetric object to {@code pe}, checked and named as {@code routine}. */
    private void putmemSymmetric(String routine, SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset,
            long nbytes, int pe, boolean nbi) {
        long off = Symmetrics.range(routine, "destination", dest, destOffset, nbytes);
        long srcOff = Symmetrics.range(routine, "source", src, srcOffset, nbytes);
        store(routine, pe, off, localRegion().asSlice(srcOff, nbytes), nbi);
    }

    @Override
    public final void getmem(SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset, long nbytes,
            int pe) {
        getmemSymmetric("shmem_getmem", dest, destOffset, src, srcOffset, nbytes, pe, false);
    }

    /** Bytes from {@code pe} into this PE's copy of a symmetric object, checked and named as {@code routine}. */
    private void getmemSymmetric(String routine, SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset,
            long nbytes, int pe, boolean nbi) {
        long off = Symmetrics.range(routine, "source", src, srcOffset, nbytes);
        long destOff = Symmetrics.range(routine, "destination", dest, destOffset, nbytes);
        load(routine, localRegion().asSlice(destOff, nbytes), pe, off, nbi);
    }

    @Override
    public final void getmem(MemorySegment dest, SymmetricObject src, long srcOffset, int pe) {
        getmemSegment("shmem_getmem", dest, src, srcOffset, pe, false);
    }

    private void getmemSegment(String routine, MemorySegment dest, SymmetricObject src, long srcOffset, int pe, boolean nbi) {
        dest = wholeSegment(routine, "destination", dest);
        long off = Symmetrics.range(routine, "source", src, srcOffset, dest.byteSize());
        load(routine, dest, pe, off, nbi);
    }

    @Override
    public final void getmem(byte[] dest, int destOffset, int length, SymmetricObject src, long srcOffset, int pe) {
        long off = Symmetrics.range("shmem_getmem", "source", src, srcOffset, length);
        MemorySegment source = peer(pe, "shmem_getmem");
        if (checkBytes("shmem_getmem", "destination", dest, destOffset, length)) {
            RmaEvent e = profiler.rmaBegin();
            if (source != null) {
                MemorySegment.copy(source, ValueLayout.JAVA_BYTE, off, dest, destOffset, length);
            } else {
                router.get("shmem_getmem", MemorySegment.ofArray(dest), destOffset, length, pe, off, false);
            }
            profiler.transferEnd(e, "shmem_getmem", world(pe), length);
        }
    }

    /** The engine of the sized and strided untyped puts; see {@code Context.ibputSized}. */
    public final void ibputSized(String routine, SymmetricObject dest, long destOffset, long destStrideBytes,
            MemorySegment src, long srcStrideBytes, long blockBytes, long nblocks, int pe) {
        long off = Symmetrics.range(routine, "destination", dest, destOffset, span(routine, "dst", destStrideBytes, blockBytes, nblocks));
        src = segment(routine, "source", src, span(routine, "sst", srcStrideBytes, blockBytes, nblocks));
        for (long b = 0; b < nblocks; b++) {
            store(routine, pe, off + b * destStrideBytes, src.asSlice(b * srcStrideBytes, blockBytes), false);
        }
    }

    /** The get mirror of {@link #ibputSized}. */
    public final void ibgetSized(String routine, MemorySegment dest, long destStrideBytes, SymmetricObject src,
            long srcOffset, long srcStrideBytes, long blockBytes, long nblocks, int pe) {
        long off = Symmetrics.range(routine, "source", src, srcOffset, span(routine, "sst", srcStrideBytes, blockBytes, nblocks));
        dest = segment(routine, "destination", dest, span(routine, "dst", destStrideBytes, blockBytes, nblocks));
        for (long b = 0; b < nblocks; b++) {
            load(routine, dest.asSlice(b * destStrideBytes, blockBytes), pe, off + b * srcStrideBytes, false);
        }
    }

    // ------------------------------------------------------------------ non-blocking RMA
    // On load/store paths a transfer completes as it is issued, so the nbi forms are the blocking
    // copies there; on the network path they are the channel's non-blocking operations.

    @Override
    public <A> void putNbi(SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count, int pe) {
        putArray("shmem_put_nbi", dest, destIndex, src, srcIndex, count, pe, true);
    }

    @Override
    public void putNbi(SymmetricArray<?> dest, long destIndex, MemorySegment src, int pe) {
        putSegment("shmem_put_nbi", dest, destIndex, src, pe, true);
    }

    @Override
    public <A> void getNbi(A dest, int destIndex, SymmetricArray<A> src, long srcIndex, int count, int pe) {
        getArray("shmem_get_nbi", dest, destIndex, src, srcIndex, count, pe, true);
    }

    @Override
    public void getNbi(MemorySegment dest, SymmetricArray<?> src, long srcIndex, int pe) {
        getSegment("shmem_get_nbi", dest, src, srcIndex, pe, true);
    }

    @Override
    public void putmemNbi(SymmetricObject dest, long destOffset, MemorySegment src, int pe) {
        putmemSegment("shmem_putmem_nbi", dest, destOffset, src, pe, true);
    }

    @Override
    public void getmemNbi(MemorySegment dest, SymmetricObject src, long srcOffset, int pe) {
        getmemSegment("shmem_getmem_nbi", dest, src, srcOffset, pe, true);
    }

    @Override
    public void putmemNbi(SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset, long nbytes, int pe) {
        putmemSymmetric("shmem_putmem_nbi", dest, destOffset, src, srcOffset, nbytes, pe, true);
    }

    @Override
    public void getmemNbi(SymmetricObject dest, long destOffset, SymmetricObject src, long srcOffset, long nbytes, int pe) {
        getmemSymmetric("shmem_getmem_nbi", dest, destOffset, src, srcOffset, nbytes, pe, true);
    }

    @Override
    public <A> void putNbi(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            int pe) {
        putSymmetric("shmem_put_nbi", dest, destIndex, src, srcIndex, count, pe, true);
    }

    @Override
    public <A> void getNbi(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            int pe) {
        getSymmetric("shmem_get_nbi", dest, destIndex, src, srcIndex, count, pe, true);
    }

    /** {@code put<S>Nbi} (the template's sized family) as {@code routine}: {@code nelems} elements of {@code elementBytes}. */
    final void putSizedNbi(String routine, SymmetricObject dest, long destOffset, MemorySegment src, long nelems, int elementBytes,
            int pe) {
        ibputSized(routine, dest, destOffset, 1, src, 1, sizedBytes(routine, nelems, elementBytes), 1, pe);
    }

    /** The get mirror of {@link #putSizedNbi}. */
    final void getSizedNbi(String routine, MemorySegment dest, SymmetricObject src, long srcOffset, long nelems, int elementBytes,
            int pe) {
        ibgetSized(routine, dest, 1, src, srcOffset, 1, sizedBytes(routine, nelems, elementBytes), 1, pe);
    }

    // ------------------------------------------------------------------ signals

    @Override
    public <A> void putSignal(SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count, SymmetricLongArray sig,
            long sigIndex, long signal, SignalOp sigOp, int pe) {
        putArraySignal("shmem_put_signal", dest, destIndex, src, srcIndex, count, sig, sigIndex, signal, sigOp, pe, false);
    }

    @Override
    public <A> void putSignalNbi(SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count,
            SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe) {
        putArraySignal("shmem_put_signal_nbi", dest, destIndex, src, srcIndex, count, sig, sigIndex, signal, sigOp, pe, true);
    }

    private <A> void putArraySignal(String routine, SymmetricArray<A> dest, long destIndex, A src, int srcIndex, int count,
            SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe, boolean nbi) {
        long sigOff = checkSignal(routine, sig, sigIndex, sigOp);
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, count);
        MemorySegment data = checkArray(routine, "source", src, dest, srcIndex, count)
                ? slice(src, srcIndex, count, dest.elementBytes()) : MemorySegment.NULL;
        storeThenSignal(routine, pe, off, data, sigOff, signal, sigOp, nbi);
    }

    @Override
    public <A> void putSignal(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe) {
        putSymmetricSignal("shmem_put_signal", dest, destIndex, src, srcIndex, count, sig, sigIndex, signal, sigOp, pe, false);
    }

    @Override
    public <A> void putSignalNbi(SymmetricArray<A> dest, long destIndex, SymmetricArray<A> src, long srcIndex, long count,
            SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe) {
        putSymmetricSignal("shmem_put_signal_nbi", dest, destIndex, src, srcIndex, count, sig, sigIndex, signal, sigOp, pe, true);
    }

    private void putSymmetricSignal(String routine, SymmetricArray<?> dest, long destIndex, SymmetricArray<?> src,
            long srcIndex, long count, SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe, boolean nbi) {
        long sigOff = checkSignal(routine, sig, sigIndex, sigOp);
        long off = Symmetrics.offset(routine, "destination", dest, destIndex, count);
        MemorySegment local = localElements(routine, "source", src, srcIndex, count);
        dest.requireSameElements(routine, src);
        storeThenSignal(routine, pe, off, local, sigOff, signal, sigOp, nbi);
    }

    @Override
    public void putmemSignal(SymmetricObject dest, long destOffset, MemorySegment src, SymmetricLongArray sig, long sigIndex,
            long signal, SignalOp sigOp, int pe) {
        putSegmentSignal("shmem_putmem_signal", dest, destOffset, src, wholeSegment("shmem_putmem_signal", "source", src).byteSize(), sig, sigIndex, signal,
                sigOp, pe, false);
    }

    @Override
    public void putmemSignalNbi(SymmetricObject dest, long destOffset, MemorySegment src, SymmetricLongArray sig,
            long sigIndex, long signal, SignalOp sigOp, int pe) {
        putSegmentSignal("shmem_putmem_signal_nbi", dest, destOffset, src, wholeSegment("shmem_putmem_signal_nbi", "source", src).byteSize(), sig, sigIndex,
                signal, sigOp, pe, true);
    }

    /** {@code put<S>Signal[Nbi]} (the template's sized family) as {@code routine}: {@code nelems} elements of {@code elementBytes}. */
    final void putSizedSignal(String routine, SymmetricObject dest, long destOffset, MemorySegment src, long nelems,
            int elementBytes, SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe, boolean nbi) {
        putSegmentSignal(routine, dest, destOffset, src, sizedBytes(routine, nelems, elementBytes), sig, sigIndex, signal, sigOp, pe, nbi);
    }

    /** The first {@code bytes} of {@code src} to {@code dest} on {@code pe}, then the signal; named as {@code routine}. */
    private void putSegmentSignal(String routine, SymmetricObject dest, long destOffset, MemorySegment src, long bytes,
            SymmetricLongArray sig, long sigIndex, long signal, SignalOp sigOp, int pe, boolean nbi) {
        long sigOff = checkSignal(routine, sig, sigIndex, sigOp);
        long off = Symmetrics.range(routine, "destination", dest, destOffset, bytes);
        storeThenSignal(routine, pe, off, segment(routine, "source", src, bytes).asSlice(0, bytes), sigOff, signal, sigOp, nbi);
    }

    /**
     * {@code data} to {@code offset} on {@code pe}, then the signal update, which no PE can see
     * before the data: {@link Router#putSignal} keeps that promise on either route.
     */
    private void storeThenSignal(String routine, int pe, long offset, MemorySegment data, long sigOff, long signal, SignalOp sigOp,
            boolean nbi) {
        MemorySegment m = amoPeer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        if (m != null) { // the fast path's one checked load, as for the AMOs
            MemorySegment.copy(data, 0, m, offset, data.byteSize());
            CpuAtomics.updateSignal(m, sigOff, signalUpdate(sigOp), signal);
        } else {
            router.putSignal(routine, pe, offset, data, sigOff, signalUpdate(sigOp), signal, nbi);
        }
        profiler.transferEnd(e, routine, world(pe), data.byteSize() + 8);
    }

    @Override
    public final void signalAdd(SymmetricLongArray sig, long index, long value, int pe) {
        signal("shmem_signal_add", sig, index, value, SignalOp.ADD, pe);
    }

    @Override
    public final void signalSet(SymmetricLongArray sig, long index, long value, int pe) {
        signal("shmem_signal_set", sig, index, value, SignalOp.SET, pe);
    }

    private void signal(String routine, SymmetricLongArray sig, long index, long value, SignalOp op, int pe) {
        long off = Symmetrics.offset(routine, "signal array", sig, index, 1);
        MemorySegment m = amoPeer(pe, routine);
        RmaEvent e = profiler.rmaBegin();
        if (m != null) {
            CpuAtomics.updateSignal(m, off, signalUpdate(op), value);
        } else {
            router.signal(routine, pe, off, signalUpdate(op), value);
        }
        profiler.transferEnd(e, routine, world(pe), 8);
    }

    /** The atomic a signal operation is (set: a swap whose old value nobody reads). */
    private static AtomicOp signalUpdate(SignalOp op) {
        if (op == SignalOp.ADD) {
            return AtomicOp.ADD;
        } else if (op == SignalOp.SET) {
            return AtomicOp.SWAP;
        }
        throw new IllegalArgumentException("signal update: signal operation is null");
    }
}
