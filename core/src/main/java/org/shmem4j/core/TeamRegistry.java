package org.shmem4j.core;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/**
 * The PE's teams: the team area they take their synchronization resources from, the predefined
 * teams (world, shared, host, leaders) and every team alive, so finalize can invalidate them.
 */
final class TeamRegistry {
    private final TeamPool pool;
    private final Set<TeamImpl> live = ConcurrentHashMap.newKeySet();
    private final TeamImpl world;
    private final TeamImpl shared;
    private final TeamImpl host;
    /** Null on a PE that does not lead its host. */
    private final TeamImpl leaders;
    private final String notLeader;

    TeamRegistry(PeRuntime runtime, TeamPool pool, Topology topology, int me, int npes) {
        this.pool = pool;
        int[] myHost = topology.myHost();
        int[] hostLeaders = topology.hostLeaders();
        boolean leads = Arrays.binarySearch(hostLeaders, me) >= 0;
        // Placed in this order on every PE, so each team's block is the same on all its members:
        // the world's and the leaders' sizes are the same everywhere, a host's only on that host.
        this.world = predefined(runtime, IntStream.range(0, npes).toArray(), me, pool.predefined(npes, true));
        TeamPool.Block leadersBlock = pool.predefined(hostLeaders.length, leads);
        this.shared = predefined(runtime, myHost, me, pool.predefined(myHost.length, true));
        this.host = predefined(runtime, myHost, me, pool.predefined(myHost.length, true));
        this.leaders = leads ? predefined(runtime, hostLeaders, me, leadersBlock) : null;
        this.notLeader = "PE " + me + " is not the leader of its host (PE " + myHost[0] + " is)";
    }

    private TeamImpl predefined(PeRuntime runtime, int[] members, int me, TeamPool.Block block) {
        return register(new TeamImpl(runtime, pool, members, Arrays.binarySearch(members, me), block, TeamConfig.DEFAULT, true));
    }

    TeamPool pool() {
        return pool;
    }

    TeamImpl world() {
        return world;
    }

    Team shared() {
        return shared;
    }

    Team host() {
        return host;
    }

    /** The leaders team, or {@code SHMEM_TEAM_INVALID} (with the reason) on a PE that does not lead its host. */
    Team leaders() {
        return leaders != null ? leaders : InvalidTeam.because(notLeader);
    }

    TeamImpl register(TeamImpl team) {
        live.add(team);
        return team;
    }

    void unregister(TeamImpl team) {
        live.remove(team);
    }

    /** Destroys every team's contexts, completing what they carry: the last finalize begins. */
    void retireContexts() {
        live.forEach(TeamImpl::retireContexts);
    }

    /** Marks every team (and its contexts) unusable without communication: the library is finalized. */
    void invalidateAll() {
        live.forEach(TeamImpl::invalidate);
    }

    /** How many more teams this PE may make ({@code SHMEM_TEAMS_MAX} less the teams alive). */
    int freeSlots() {
        return pool.freeTeams();
    }
}
