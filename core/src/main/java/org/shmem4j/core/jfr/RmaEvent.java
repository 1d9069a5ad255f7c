package org.shmem4j.core.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A put, get or put-with-signal, blocking or nbi (nbi: until it was issued). */
@Name("shmem4j.Rma")
@Label("RMA")
@Description("A put, get, put-with-signal or signal update on one target PE (an nbi one until issued)")
public final class RmaEvent extends TransferEvent {
    RmaEvent() {
    }
}
