package org.shmem4j.core;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/**
 * The PE's teams: the slot pool they take their synchronization resources from, the predefined
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
        this.world = predefined(runtime, IntStream.range(0, npes).toArray(), me, TeamPool.WORLD);
        this.shared = predefined(runtime, myHost, me, TeamPool.SHARED);
        this.host = predefined(runtime, myHost, me, TeamPool.HOST);
        this.leaders = Arrays.binarySearch(hostLeaders, me) >= 0 ? predefined(runtime, hostLeaders, me, TeamPool.LEADERS) : null;
        this.notLeader = "PE " + me + " is not the leader of its host (PE " + myHost[0] + " is)";
    }

    private TeamImpl predefined(PeRuntime runtime, int[] members, int me, int slot) {
        return register(new TeamImpl(runtime, pool, members, Arrays.binarySearch(members, me), slot, TeamConfig.DEFAULT, true));
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

    /** The number of team slots still free on this PE. */
    int freeSlots() {
        return pool.freeCount();
    }
}
