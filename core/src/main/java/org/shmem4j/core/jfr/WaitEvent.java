package org.shmem4j.core.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A point-to-point wait or a lock acquisition that had to wait (one satisfied at once is not recorded). */
@Name("shmem4j.Wait")
@Label("Wait")
@Description("A wait_until, signal_wait_until or set_lock that blocked, until its condition held")
public final class WaitEvent extends PeEvent {
    WaitEvent() {
    }
}
