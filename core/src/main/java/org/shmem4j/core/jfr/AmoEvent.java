package org.shmem4j.core.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** An atomic memory operation. */
@Name("shmem4j.Amo")
@Label("AMO")
@Description("An atomic memory operation on one target PE")
public final class AmoEvent extends TransferEvent {
    AmoEvent() {
    }
}
