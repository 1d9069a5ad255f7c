package org.shmem4j.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/** What every shmem4j event carries: the PE that recorded it (in-process PEs share one recording). */
@Category("shmem4j")
public abstract class PeEvent extends Event {
    PeEvent() {
    }

    @Label("PE")
    @Description("World rank of the PE that recorded the event")
    int pe;

    @Label("Routine")
    @Description("The OpenSHMEM routine, by its C name")
    String routine;
}
