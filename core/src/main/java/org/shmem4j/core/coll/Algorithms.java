package org.shmem4j.core.coll;

import java.util.function.LongUnaryOperator;

/**
 * The shapes of the collective algorithms. Each algorithm is written against
 * {@link CollectiveSupport} only (region offsets, byte counts, team numbers), so it runs over any
 * transport. Every algorithm must work for every team size, including 1 and non-powers of two,
 * must leave a member's own source unread by others once that member returns, and must write
 * only its own dest (peers may still be reading their previous results).
 */
public final class Algorithms {
    private Algorithms() {
    }

    /** A named algorithm. */
    public interface Named {
        String name();
    }

    public interface Barrier extends Named {
        void run(CollectiveSupport s);
    }

    public interface Broadcast extends Named {
        void run(CollectiveSupport s, long dest, long source, long bytes, int root);
    }

    public interface Collect extends Named {
        /** fcollect: every member contributes {@code bytes}. */
        void fixed(CollectiveSupport s, long dest, long source, long bytes);

        /**
         * collect: member contributions differ. {@code dest} maps the total in bytes, known once
         * the sizes are exchanged, to the region offset of dest, checking that the total fits.
         */
        void variable(CollectiveSupport s, LongUnaryOperator dest, long source, long bytes);
    }

    public interface Alltoall extends Named {
        /**
         * Block for member {@code j}: {@code blockBytes / elementBytes} elements read at stride
         * {@code sourceStride} from {@code source + j * (blockBytes / elementBytes) * sourceStride}, written at stride
         * {@code destStride} from {@code dest + me * (blockBytes / elementBytes) * destStride} on {@code j}.
         */
        void run(CollectiveSupport s, long dest, long source, long blockBytes, long destStride, long sourceStride,
                long elementBytes);
    }

    public interface Reduce extends Named {
        void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count);
    }

    public interface Scan extends Named {
        void run(CollectiveSupport s, ReduceKernel kernel, long dest, long source, long count, boolean inclusive);
    }
}
