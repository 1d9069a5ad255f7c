package org.shmem4j.core.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/**
 * An RMA or AMO on one target PE. Recorded at profiling level 1 when it moves at least
 * {@code SHMEM_JFR_RMA_SIZE} bytes or takes at least {@code SHMEM_JFR_RMA_US}; every one at level 2.
 * No stack trace: these can be millions.
 */
@StackTrace(false)
public abstract class TransferEvent extends PeEvent {
    TransferEvent() {
    }

    @Label("Target PE")
    int target;

    @Label("Bytes")
    @DataAmount
    long bytes;

    /** {@link System#nanoTime()} at the start, for the duration threshold (not recorded). */
    transient long startNanos;
}
