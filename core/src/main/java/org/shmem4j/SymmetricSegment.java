package org.shmem4j;

import org.shmem4j.core.heap.Allocation;

/**
 * An untyped symmetric object (what {@code shmem_malloc} returns in C): the target of the
 * {@code *mem} and sized ({@code put32}, {@code iget64}, ...) routines, addressed by byte offset.
 */
public final class SymmetricSegment extends SymmetricObject {
    /** Created by the allocation routines of {@link Shmem} only. */
    SymmetricSegment(Allocation allocation) {
        super(allocation);
    }

}
