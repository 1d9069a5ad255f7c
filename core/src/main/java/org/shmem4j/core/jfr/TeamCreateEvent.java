package org.shmem4j.core.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A team split, collective over the parent team. */
@Name("shmem4j.TeamCreate")
@Label("Team creation")
@Description("A team split (collective over the parent team)")
public final class TeamCreateEvent extends PeEvent {
    TeamCreateEvent() {
    }

    @Label("Parent size")
    int parentSize;

    @Label("New teams")
    @Description("How many teams the call creates (2 per PE row and column for split_2d)")
    int newTeams;

    @Label("Size")
    @Description("Members of this PE's new team (the x team for split_2d); 0 when it is in none or the split failed")
    int size;
}
