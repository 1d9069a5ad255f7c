package org.shmem4j.core.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A collective call on a team, barriers and syncs included: from entry to return on this PE. */
@Name("shmem4j.Collective")
@Label("Collective")
@Description("A team collective (barriers and syncs too) from entry to return on this PE")
public final class CollectiveEvent extends PeEvent {
    CollectiveEvent() {
    }

    @Label("Team size")
    int teamSize;

    @Label("Bytes")
    @Description("Bytes each member contributes (the root's for a broadcast, a block for all-to-alls); 0 for barriers")
    @DataAmount
    long bytes;

    @Label("Algorithm")
    @Description("The algorithm the collective policy chose (SHMEM_*_ALGORITHM forces one)")
    String algorithm;
}
