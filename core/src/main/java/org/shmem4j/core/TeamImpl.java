package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.shmem4j.Context;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;
import org.shmem4j.core.coll.CollectiveSupport;
import org.shmem4j.core.coll.DisseminationBarrier;
import org.shmem4j.core.coll.PeerAccess;
import org.shmem4j.core.coll.RoutedPeerAccess;
import org.shmem4j.core.coll.TeamCollectives;
import org.shmem4j.core.jfr.TeamCreateEvent;
import org.shmem4j.core.route.Router;
import org.shmem4j.core.route.Routes;

/**
 * A valid team: its members (world PE numbers in team order), this PE's place among them, the
 * members' routes in team order (shared by the team's contexts and collectives, so team-relative
 * PE numbers cost nothing), and its block of the team area ({@link TeamPool}), laid out for its size.
 *
 * <h2>Splitting</h2>
 * A split is collective over this (parent) team. The parent's members AND their offers (free
 * units, room for more teams) by dissemination in the parent's agreement cells ({@link
 * MaskAgreement}); a member that joins no new team offers all ones. Every PE then computes the
 * same placement from the same AND: for each group of new teams in order (the one team of a
 * strided split; the rows, then the columns of a 2D split: disjoint teams, which share a first
 * unit), the lowest run of units long enough for the group's largest team. So the parent agrees on
 * success or failure without another round, failures leave nothing to roll back, and the new
 * teams are usable at once (their blocks are zero and epochs start at zero on every member). The
 * AND of a 2D split covers every parent member, so its rows need units free on all of them, not
 * only on their own row: the price of one log2 n agreement instead of one per row.
 */
public final class TeamImpl extends TeamBase implements Team {
    private final PeRuntime runtime;
    private final TeamPool pool;
    private final int[] members;
    private final int me;
    private final TeamPool.Block block;
    private final TeamPool.Layout layout;
    private final TeamConfig config;
    private final boolean predefined;
    private final Routes routes;
    private final PeerAccess access;
    private final DisseminationBarrier barrier;
    private final TeamCollectives collectives;
    private final List<CreatedContext> contexts = new ArrayList<>();
    private long splits;
    private volatile boolean destroyed;

    TeamImpl(PeRuntime runtime, TeamPool pool, int[] members, int me, TeamPool.Block block, TeamConfig config,
            boolean predefined) {
        this.runtime = runtime;
        this.pool = pool;
        this.members = members;
        this.me = me;
        this.block = block;
        this.layout = pool.layout(members.length);
        this.config = config;
        this.predefined = predefined;
        this.routes = runtime.worldRoutes().members(members);
        this.access = new RoutedPeerAccess(new Router(routes, runtime.collectiveNetwork(), false), me,
                runtime.oneWayRaisePayload());
        long start = pool.start(block);
        this.barrier = new DisseminationBarrier(access, start + layout.barrier(), runtime.waitPolicy(),
                (member, satisfied) -> runtime.checkNotFinalizing(members[member], satisfied));
        int[] hosts = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            hosts[i] = runtime.hostIndex(members[i]);
        }
        CollectiveSupport.SlotLayout words = new CollectiveSupport.SlotLayout(start + layout.senderFlags(),
                start + layout.ackFlags(), layout.flagStride(), start + layout.scratch(), TeamPool.SCRATCH_BUFFERS,
                layout.stagedBuffers(), layout.bufferBytes(), layout.sizes() < 0 ? -1 : start + layout.sizes());
        this.collectives = new TeamCollectives(new CollectiveSupport(access, words,
                runtime.waitPolicy(), hosts, barrier::await,
                (member, satisfied) -> runtime.checkNotFinalizing(members[member], satisfied)),
                runtime.collectivePolicy(), runtime.profiler());
    }

    /** This team's collectives (checks that the team is usable). */
    @Override
    TeamCollectives collectives(String routine) {
        check(routine);
        return collectives;
    }

    int[] members() {
        return members;
    }

    /** The units of the team area this team holds (the same on every member). */
    TeamPool.Block block() {
        return block;
    }

    /** Where this team's words lie in its block. */
    TeamPool.Layout layout() {
        return layout;
    }

    /** The members' routes in team order: this team's contexts' and collectives'. */
    Routes routes() {
        return routes;
    }

    /** The members' routes (mapped regions or the network channel), in team order. */
    PeerAccess access() {
        return access;
    }

    /** This team's number of world PE {@code worldPe}, or -1. */
    int indexOfWorld(int worldPe) {
        // Members are few and a translation is rare; a scan keeps a team's footprint O(size).
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldPe) {
                return i;
            }
        }
        return -1;
    }

    private void check(String routine) {
        if (destroyed) {
            throw new IllegalStateException(routine + ": the team was destroyed");
        }
        runtime.checkInitialized(routine);
    }

    @Override
    public boolean isValid() {
        return !destroyed;
    }

    @Override
    public String invalidReason() {
        return destroyed ? "the team was destroyed" : null;
    }

    // The queries answer for a destroyed team as for SHMEM_TEAM_INVALID (-1, null); every other
    // use of a destroyed team throws.

    @Override
    public int myPe() {
        return destroyed ? -1 : me;
    }

    @Override
    public int nPes() {
        return destroyed ? -1 : members.length;
    }

    @Override
    public TeamConfig getConfig() {
        check("shmem_team_get_config");
        return config;
    }

    @Override
    public int translatePe(int pe, Team destTeam) {
        if (destroyed || pe < 0 || pe >= members.length || !(destTeam instanceof TeamImpl dest) || dest.destroyed) {
            return -1;
        }
        return dest.indexOfWorld(members[pe]);
    }

    @Override
    public MemorySegment ptr(SymmetricObject object, int pe) {
        if (destroyed) {
            return null;
        }
        check("shmem_team_ptr");
        Symmetrics.live("shmem_team_ptr", "object", object);
        if (pe < 0 || pe >= members.length) {
            throw new IllegalArgumentException("shmem_team_ptr: PE " + pe + " is out of range [0, " + members.length + ")");
        }
        MemorySegment m = routes.region(pe);
        // Mapped members on another declared (pseudo-)host are not load/store reachable for the program.
        return m == null || !runtime.sameHost(members[pe]) ? null : m.asSlice(object.offset(), object.byteSize());
    }

    /** The team barrier after completing this PE's outstanding stores. */
    void quietAndSync(String routine) {
        check(routine);
        runtime.quiet();
        collectives.sync(routine);
    }

    // ------------------------------------------------------------------ contexts

    @Override
    public Context createCtx(long options) {
        check("shmem_team_create_ctx");
        long known = Context.CTX_SERIALIZED | Context.CTX_PRIVATE | Context.CTX_NOSTORE;
        if ((options & ~known) != 0) {
            throw new IllegalArgumentException("shmem_team_create_ctx: unknown option bits 0x" + Long.toHexString(options & ~known));
        }
        CreatedContext ctx = new CreatedContext(runtime, this, options);
        synchronized (contexts) {
            contexts.add(ctx);
        }
        return ctx;
    }

    @Override
    public java.util.Optional<Context> tryCreateCtx(long options) {
        // Nothing is scarce on load/store paths: only a destroyed team makes creation fail.
        return destroyed ? java.util.Optional.empty() : java.util.Optional.of(createCtx(options));
    }

    void forget(CreatedContext ctx) {
        synchronized (contexts) {
            contexts.remove(ctx);
        }
    }

    // ------------------------------------------------------------------ splits

    @Override
    public Team splitStrided(int start, int stride, int size, TeamConfig config, long configMask) {
        check("shmem_team_split_strided");
        String bad = checkTriplet(start, stride, size);
        int[] chosen = bad == null ? new int[size] : new int[0];
        for (int i = 0; i < chosen.length; i++) {
            chosen[i] = start + i * stride;
        }
        boolean joins = Arrays.stream(chosen).anyMatch(c -> c == me);
        Team[] result = split("shmem_team_split_strided", List.of(chosen), List.of(configOf(config, configMask)),
                new int[] {0}, joins ? 1 : 0, bad);
        return result[0];
    }

    private String checkTriplet(int start, int stride, int size) {
        int n = members.length;
        if (size <= 0) {
            return "size " + size + " is not positive";
        }
        if (stride == 0 && size != 1) {
            return "stride 0 needs size 1, not " + size;
        }
        long last = start + (long) stride * (size - 1);
        if (start < 0 || start >= n || last < 0 || last >= n) {
            return "the PEs " + start + " + i * " + stride + ", i < " + size + ", are not all in [0, " + n + ")";
        }
        return null;
    }

    @Override
    public Split2d split2d(int xrange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask) {
        check("shmem_team_split_2d");
        int n = members.length;
        if (xrange <= 0) {
            Team[] none = split("shmem_team_split_2d", List.of(), List.of(), new int[0], 0,
                    "xrange " + xrange + " is not positive");
            return new Split2d(none[0], none[0]);
        }
        int xr = Math.min(xrange, n);
        int yr = (n + xr - 1) / xr;
        List<int[]> teams = new ArrayList<>();
        List<TeamConfig> configs = new ArrayList<>();
        for (int y = 0; y < yr; y++) {
            int from = y * xr;
            int[] row = new int[Math.min(n, from + xr) - from];
            Arrays.setAll(row, i -> from + i);
            teams.add(row);
            configs.add(configOf(xConfig, xMask));
        }
        for (int x = 0; x < xr; x++) {
            int column = x;
            int[] col = new int[(n - x + xr - 1) / xr];
            Arrays.setAll(col, i -> column + i * xr);
            teams.add(col);
            configs.add(configOf(yConfig, yMask));
        }
        int[] groups = new int[teams.size()];
        Arrays.fill(groups, yr, groups.length, 1); // the rows share a first unit, and so do the columns
        Team[] result = split("shmem_team_split_2d", teams, configs, groups, 2, null);
        return new Split2d(result[me / xr], result[yr + me % xr]);
    }

    private static TeamConfig configOf(TeamConfig config, long mask) {
        if ((mask & ~NUM_CONTEXTS) != 0) {
            throw new IllegalArgumentException("team split: unknown config mask bits 0x" + Long.toHexString(mask & ~NUM_CONTEXTS));
        }
        if (mask == 0) {
            return TeamConfig.DEFAULT;
        }
        if (config == null) {
            throw new IllegalArgumentException("team split: config is null but config_mask is " + mask);
        }
        return config;
    }

    /**
     * The collective core of every split: agrees on a block for each new team (members given as
     * this team's PE numbers; teams of one group are disjoint and share a first unit; this PE
     * joins {@code joins} of them) and returns, per new team, the team (on its members) or an
     * invalid team (elsewhere, or on every PE when {@code failure} is set or some team finds no block).
     */
    private Team[] split(String routine, List<int[]> newTeams, List<TeamConfig> configs, int[] groups, int joins,
            String failure) {
        TeamCreateEvent event = runtime.profiler().teamBegin();
        Team[] result = agreeAndCreate(routine, newTeams, configs, groups, joins, failure);
        int size = Arrays.stream(result).filter(Team::isValid).mapToInt(Team::nPes).findFirst().orElse(0);
        runtime.profiler().teamEnd(event, routine, members.length, newTeams.size(), size);
        return result;
    }

    private Team[] agreeAndCreate(String routine, List<int[]> newTeams, List<TeamConfig> configs, int[] groups, int joins,
            String failure) {
        long[] agreed = joins > 0 ? pool.offer() : pool.neutral();
        long split = ++splits;
        long start = pool.start(block);
        new MaskAgreement(access, IntUnaryOperator.identity(), round -> start + layout.cell(split, round), split, false)
                .and(agreed, me, members.length, runtime.waitPolicy(),
                        (member, satisfied) -> runtime.checkNotFinalizing(members[member], satisfied));
        int needed = groups.length == 0 ? 0 : groups[groups.length - 1] + 1;
        if (failure == null && needed > 0 && !TeamPool.roomFor(agreed, needed)) {
            failure = "a member already has the most teams it may (SHMEM_TEAMS_MAX=" + pool.capacity()
                    + "; destroy unused teams or raise it)";
        }
        int[] units = newTeams.stream().mapToInt(t -> pool.unitsFor(t.length)).toArray();
        TeamPool.Block[] blocks = new TeamPool.Block[newTeams.size()];
        for (int g = 0; g < needed && failure == null; g++) {
            int run = 0; // the group's largest team
            for (int t = 0; t < groups.length; t++) {
                run = groups[t] == g ? Math.max(run, units[t]) : run;
            }
            int first = pool.claim(agreed, run);
            if (first < 0) {
                failure = "no " + run * pool.unitBytes() + " bytes of the team area are free at one place on every member"
                        + " (its " + pool.units() * pool.unitBytes() + " bytes are the rest of SHMEM_RESERVED_SIZE;"
                        + " destroy unused teams or raise it)";
            }
            for (int t = 0; t < groups.length; t++) {
                if (groups[t] == g) {
                    blocks[t] = new TeamPool.Block(first, units[t]);
                }
            }
        }
        Team[] result = new Team[Math.max(1, newTeams.size())];
        for (int t = 0; t < result.length; t++) {
            if (failure != null) {
                result[t] = InvalidTeam.because(routine + ": " + failure);
                continue;
            }
            int[] chosen = newTeams.get(t);
            int mine = -1;
            for (int i = 0; i < chosen.length; i++) {
                if (chosen[i] == me) {
                    mine = i;
                }
            }
            if (mine < 0) {
                result[t] = InvalidTeam.because(routine + ": this PE is not a member of the new team");
                continue;
            }
            int[] world = new int[chosen.length];
            for (int i = 0; i < chosen.length; i++) {
                world[i] = members[chosen[i]];
            }
            pool.take(blocks[t]);
            result[t] = runtime.teams().register(new TeamImpl(runtime, pool, world, mine, blocks[t], configs.get(t), false));
        }
        return result;
    }

    // ------------------------------------------------------------------ destruction

    @Override
    public void close() {
        if (predefined) {
            throw new IllegalStateException("shmem_team_destroy: a predefined team cannot be destroyed");
        }
        check("shmem_team_destroy");
        List<CreatedContext> open;
        synchronized (contexts) {
            open = List.copyOf(contexts);
        }
        // Shareable contexts are destroyed with the team (spec 9.4.x); destroying one with
        // private contexts left is undefined, and the cheap defined answer is to retire those
        // too, so a later use fails naming the cause instead of reaching the team's members.
        for (CreatedContext ctx : open) {
            ctx.retireForOwner("the context's team was destroyed (shmem_team_destroy destroys its contexts)");
        }
        runtime.quiet();
        // The slot is zeroed after the barrier and handed to the next team: nothing this PE sent
        // the members may still be on its way then. Quiet leaves raises out (a push broadcast's
        // "entered", which its root awaits two collectives later), and the barrier orders them
        // only between the pairs it connects; its own raises are all awaited by their receivers.
        if (collectives.support().reachesSomeoneByNetwork()) {
            runtime.networkChannel().settle(members);
        }
        collectives.sync("shmem_team_destroy");
        destroyed = true;
        collectives.support().close();
        pool.release(block, runtime.localRegion());
        runtime.teams().unregister(this);
    }

    /**
     * Destroys the team's contexts for the last finalize, completing what their channels carry
     * (before the PE tells its peers it finalizes: spec 9.1.4).
     */
    void retireContexts() {
        synchronized (contexts) {
            contexts.forEach(ctx -> ctx.retireForOwner("the library was finalized (shmem_finalize destroys every context)"));
            contexts.clear();
        }
    }

    /** Marks the team and its contexts unusable without communication (the library is being finalized). */
    void invalidate() {
        destroyed = true;
        retireContexts();
        collectives.support().close();
    }

    @Override
    public String toString() {
        return "Team[" + (destroyed ? "destroyed " : "") + "PE " + me + " of " + Arrays.toString(members) + ", units " + block.first() + "+" + block.units() + "]";
    }
}
