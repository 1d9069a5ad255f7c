package org.shmem4j.core.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One reduction operation on one element type: {@code acc[i] = acc[i] op in[i]} for
 * {@code count} elements. The kernels are generated per type and operation (ReduceKernels), so
 * the loop the JIT sees is monomorphic and vectorizable.
 */
public interface ReduceKernel {
    /** The element layout. */
    ValueLayout layout();

    /** Short name for messages and benchmarks, e.g. {@code long_sum}. */
    String name();

    /** {@code acc[accOffset + i] = acc[..] op in[inOffset + i]} for {@code i < count} elements. */
    void combine(MemorySegment acc, long accOffset, MemorySegment in, long inOffset, long count);
}
