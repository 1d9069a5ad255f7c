package org.shmem4j.core.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A collective symmetric-heap operation: allocation, reallocation or free. */
@Name("shmem4j.Heap")
@Label("Symmetric heap")
@jdk.jfr.Description("A symmetric allocation, reallocation or free (collective)")
public final class HeapEvent extends PeEvent {
    HeapEvent() {
    }

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Offset")
    @jdk.jfr.Description("The block's offset in the PE's region (the same on every PE)")
    long offset;
}
