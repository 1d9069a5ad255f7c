package org.shmem4j.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.CpuAtomics;

/**
 * The channel contract's reference implementation, for tests: the contract held by operations that
 * complete as issued ({@link MappedChannelTest}), and the executor of the deferred test network's
 * late deliveries. The library reaches mapped PEs without a channel (its routes load and store
 * directly, {@code core.route.Router}). A {@link Channel} over mapped regions: every operation is a copy or a CPU atomic done by the
 * calling thread on the peer's mapping, so it is complete (delivered and visible) when it returns.
 * Hence nbi is blocking, {@link #fence()} is a release fence (stores become visible in order),
 * {@link #quiet()} a full fence, progress nothing, and one channel serves every thread.
 */
public final class MappedChannel implements Channel {
    private final MemorySegment[] regions;

    /** @param regions every world PE's mapped region, null where not mapped */
    public MappedChannel(MemorySegment[] regions) {
        this.regions = regions;
    }

    private MemorySegment region(int pe) {
        MemorySegment r = pe >= 0 && pe < regions.length ? regions[pe] : null;
        if (r == null) {
            throw new ShmemException("PE " + pe + " is not mapped by this node's shared memory");
        }
        return r;
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        MemorySegment.copy(src, 0, region(pe), offset, src.byteSize());
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        put(pe, offset, src);
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        MemorySegment.copy(region(pe), offset, dst, 0, dst.byteSize());
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        get(dst, pe, offset);
    }

    @Override
    public long fetchingAtomic(AtomicOp op, int bytes, int pe, long offset, long operand, long compare) {
        return CpuAtomics.apply(region(pe), op, bytes, offset, operand, compare);
    }

    @Override
    public void fetchingAtomicNbi(MemorySegment result, AtomicOp op, int bytes, int pe, long offset, long operand,
            long compare) {
        long old = fetchingAtomic(op, bytes, pe, offset, operand, compare);
        if (bytes == 4) {
            result.set(ValueLayout.JAVA_INT_UNALIGNED, 0, (int) old);
        } else {
            result.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, old);
        }
    }

    @Override
    public void atomic(AtomicOp op, int bytes, int pe, long offset, long operand) {
        fetchingAtomic(op, bytes, pe, offset, operand, 0);
    }

    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        AtomicOp.checkSignal("put_signal", update);
        MemorySegment r = region(pe);
        MemorySegment.copy(src, 0, r, offset, src.byteSize());
        CpuAtomics.updateSignal(r, signalOffset, update, signal);
    }

    @Override
    public void putSignalNbi(int pe, long offset, MemorySegment src, long signalOffset, long signal, AtomicOp update) {
        putSignal(pe, offset, src, signalOffset, signal, AtomicOp.checkSignal("put_signal_nbi", update));
    }

    @Override
    public void putRaise(int pe, long offset, MemorySegment src, long flagOffset, long value) {
        MemorySegment r = region(pe);
        MemorySegment.copy(src, 0, r, offset, src.byteSize());
        CpuAtomics.raise(r, flagOffset, value);
    }

    @Override
    public void fence() {
        VarHandle.releaseFence();
    }

    @Override
    public void quiet() {
        VarHandle.fullFence();
    }

    @Override
    public void quiet(int pe) {
        VarHandle.fullFence();
    }

    @Override
    public void settle(int[] pes) {
        VarHandle.fullFence();
    }

    @Override
    public boolean progress() {
        return false;
    }

    @Override
    public void close() {
    }
}
