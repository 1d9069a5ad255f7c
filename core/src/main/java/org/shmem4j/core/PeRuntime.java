package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;
import org.shmem4j.Context;
import org.shmem4j.ShmemException;
import org.shmem4j.ShmemGlobalExit;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.ThreadLevel;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.core.coll.CollectivePolicy;
import org.shmem4j.core.heap.Handles;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.core.route.Router;
import org.shmem4j.core.route.Routes;
import org.shmem4j.core.sync.PointToPointSync;
import org.shmem4j.core.sync.WaitPolicy;
import org.shmem4j.transport.Batches;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.Traffic;
import org.shmem4j.transport.Transport;

/**
 * One PE's initialized library: its lifecycle (init count, finalize, abandon, global exit) and
 * the PE-level routines, over parts built by an init sequence of separate steps (topology;
 * memory: the shared-memory transport, the world route table and the symmetric heap; the network
 * engine; waiting; the finalize rendezvous; the default context; the teams) and released by one
 * {@link Teardown} in the opposite order. Created by the first {@code Shmem.init} of an epoch and
 * torn down by the matching last {@code close()}.
 */
final class PeRuntime extends ShmemBase {
    private final PeSlot slot;
    private final Bootstrap bootstrap;
    private final ThreadLevel threadLevel;
    private final int me;
    private final int npes;
    private final Profiler profiler;
    private final Diagnostics diagnostics;
    private final Topology topology;
    /** The world route table: each PE's mapped region, null for a PE reached through the network. */
    private final Routes routes;
    private final SymmetricHeap heap;
    /** The network engine for the PEs on other nodes; null when every PE is on this node. */
    private final Transport network;
    /** Every AMO and signal update goes through the network engine (SHMEM_NETWORK_ATOMICS). */
    private final boolean amosByNetwork;
    /** How contexts batch in SESSION_BATCH sessions (null: never), and whether always. */
    private final Batches.Limits batchLimits;
    private final boolean batchAll;
    private final WaitPolicy waitPolicy;
    private final FinalizeRendezvous lastFinalize;
    private final PointToPointSync p2p;
    private final DefaultContext context;
    private final CollectivePolicy collectivePolicy;
    private final TeamRegistry teams;
    private final TeamImpl world;
    private final LegacySupport legacySupport = new LegacySupport(this);
    private final Teardown teardown;
    private int initCount = 1;
    private volatile boolean closed;
    /** Set when a peer was found gone mid-collective: no collective can complete any more. */
    private volatile boolean broken;

    /**
     * The init sequence. Each step that holds resources registers their release with the
     * teardown; a step that throws releases the steps before it, in the opposite order. The
     * default context comes before the teams because a team's peer access uses its channel.
     */
    PeRuntime(PeSlot slot, ThreadLevel threadLevel) {
        this.slot = slot;
        this.bootstrap = slot.bootstrap();
        Parameters params = Parameters.from(bootstrap.environment());
        this.threadLevel = threadLevel;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.topology = Topology.gather(bootstrap);
        this.profiler = new Profiler(me, params.get(Params.JFR_RMA_SIZE), params.get(Params.JFR_RMA_US) * 1000L);
        this.diagnostics = new Diagnostics(bootstrap, params);
        diagnostics.announce(slot);
        Teardown parts = new Teardown();
        try {
            // memory: this node's regions mapped, the routes to them, the heap in this PE's region
            PeMemory memory = parts.add(PeMemory.open(slot.regionMappings(), bootstrap, topology, params, profiler, new SymmetricHeap.HeapSync() {
                @Override
                public void barrier() {
                    barrierAll();
                }

                @Override
                public void agree(String call) {
                    diagnostics.agreeOnCollective(call);
                }
            }), PeMemory::close);
            this.routes = Routes.world(memory.routes());
            this.heap = memory.heap();
            // the network engine, for the PEs not mapped
            this.amosByNetwork = params.get(Params.NETWORK_ATOMICS);
            long batchBytes = params.get(Params.BATCH_BYTES);
            this.batchLimits = batchBytes == 0 ? null
                    : new Batches.Limits((int) batchBytes, params.get(Params.BATCH_MEMORY), params.get(Params.BATCH_DELAY_US) * 1000L);
            this.batchAll = params.get(Params.BATCH_ALL);
            this.network = parts.add(NetworkEngine.open(bootstrap, params, memory.routes(), amosByNetwork), Transport::close);
            // waiting, then the finalize rendezvous, whose words live in the heap's reserved part
            boolean oversubscribed = LaunchEnv.pesSharingCores(topology.pesOnMyNode()) > LaunchEnv.nodeCores();
            this.waitPolicy = WaitTuning.policy(params, oversubscribed, bootstrap, network == null ? null : this::networkChannel);
            this.lastFinalize = new FinalizeRendezvous(routes.region(me), heap.allocateReserved("finalize announcements", npes * 8L), me, npes);
            this.p2p = new PointToPointSync(routes.region(me), waitPolicy, this::checkWaitCanEnd, profiler);
            // the default context, over the world's routes
            this.context = parts.add(new DefaultContext(this, routes, routes.region(me), network, amosByNetwork, profiler, threadLevel),
                    DefaultContext::close);
            // the teams: the team area (the rest of the reserved region) and the predefined teams
            this.collectivePolicy = new CollectivePolicy(params);
            this.teams = parts.add(new TeamRegistry(this,
                    new TeamPool(heap, params.get(Params.TEAMS_MAX), params.get(Params.COLLECTIVE_SCRATCH)), topology, me, npes),
                    TeamRegistry::invalidateAll);
            this.world = teams.world();
            // Everyone's reserved words are zeroed before anyone may signal them.
            bootstrap.barrier();
        } catch (RuntimeException | Error e) {
            parts.failed(e);
            throw e;
        }
        this.teardown = parts;
    }

    /**
     * Throws if world PE {@code pe} has entered its last finalize while this PE waits for it in a
     * collective or barrier (see {@link FinalizeRendezvous#checkPeerNotGone}); the collective state
     * is then inconsistent, so this PE's own finalize will not wait for the others.
     */
    void checkNotFinalizing(int pe, BooleanSupplier satisfied) {
        try {
            lastFinalize.checkPeerNotGone(pe, satisfied);
        } catch (ShmemException e) {
            broken = true;
            throw jobEndedFirst(e);
        }
    }

    /** See {@link FinalizeRendezvous#checkWaitCanEnd}; the job's end, when it ended, is the reason given. */
    private void checkWaitCanEnd(String routine, BooleanSupplier satisfied) {
        try {
            lastFinalize.checkWaitCanEnd(routine, satisfied);
        } catch (ShmemException e) {
            throw jobEndedFirst(e);
        }
    }

    /**
     * The job's end ({@link Bootstrap#checkAlive}) rather than {@code peersGone} when both hold:
     * peers that left because the job ended look like peers that finalized early, and the end is
     * what the user must read.
     */
    private ShmemException jobEndedFirst(ShmemException peersGone) {
        bootstrap.checkAlive();
        return peersGone;
    }

    /** The (declared) host number of world PE {@code pe}. */
    int hostIndex(int pe) {
        return topology.hostIndex(pe);
    }

    /**
     * True when this PE may load and store {@code pe}'s heap directly ({@code shmem_ptr}): mapped
     * and on the same declared host. Pseudo-hosts of one node are mapped (data moves through the
     * node's shared memory) but not load/store-reachable for the program, as real hosts would not be.
     */
    boolean sameHost(int pe) {
        return topology.sameHost(pe);
    }

    /**
     * The channel collectives, barriers and finalize use for PEs that are not mapped: the default
     * context's (used as the thread level allows: collectives run on the program's calling
     * threads); null when no network transport is open (every peer is on this node).
     */
    Channel networkChannel() {
        return network == null ? null : context.channel("shmem_init");
    }

    /**
     * Where the collectives' routers get {@link #networkChannel()}; null when no network engine is
     * open (their routers then fail naming the PE a collective tried to reach).
     */
    Router.Network collectiveNetwork() {
        return network == null ? null : new Router.Network() {
            @Override
            public Channel channel(String routine) {
                return networkChannel();
            }

            @Override
            public Channel opened() {
                return networkChannel();
            }
        };
    }

    /** The network engine for PEs on other nodes, or null. */
    Transport network() {
        return network;
    }

    /** What a put with raise to a PE on another node carries without a round trip ({@code Capabilities.oneWayRaisePayload}). */
    long oneWayRaisePayload() {
        return network == null ? Long.MAX_VALUE : network.capabilities().oneWayRaisePayload();
    }

    /** How contexts batch in SESSION_BATCH sessions (null: never). */
    Batches.Limits batchLimits() {
        return batchLimits;
    }

    /** Whether every context batches as if always in a SESSION_BATCH session ({@code SHMEM_BATCH_ALL}). */
    boolean batchAll() {
        return batchAll;
    }

    /** True when every AMO and signal update goes through the network engine ({@code SHMEM_NETWORK_ATOMICS}). */
    boolean amosByNetwork() {
        return amosByNetwork;
    }

    /** This PE's JFR events and profiling level. */
    @Override
    protected Profiler profiler() {
        return profiler;
    }

    @Override
    public void pcontrol(int level, Object... args) {
        profiler.level(level);
    }

    @Override
    public java.util.Map<String, Long> performanceCounters() {
        checkInitialized("performanceCounters");
        java.util.Map<String, Long> counts = (network == null ? Traffic.NONE : network.traffic()).snapshot();
        long[] batched = profiler.batched();
        counts.put("session.operations", batched[0]);
        counts.put("session.batches", batched[1]);
        return java.util.Collections.unmodifiableMap(counts);
    }

    CollectivePolicy collectivePolicy() {
        return collectivePolicy;
    }

    @Override
    public LegacySupport legacySupport() {
        return legacySupport;
    }

    TeamRegistry teams() {
        return teams;
    }

    /** The world's routes (teams take theirs from these). */
    Routes worldRoutes() {
        return routes;
    }

    @Override
    protected DefaultContext context() {
        return context;
    }

    synchronized void retain() {
        checkInitialized("shmem_init");
        initCount++;
    }

    void checkInitialized(String routine) {
        if (closed) {
            throw new IllegalStateException(routine + ": the library is not initialized (shmem_finalize was called)");
        }
    }

    @Override
    protected SymmetricHeap heap(String routine) {
        checkInitialized(routine);
        return heap;
    }

    @Override
    protected PointToPointSync p2p(String routine) {
        checkInitialized(routine);
        return p2p;
    }

    @Override
    public Team teamWorld() {
        checkInitialized("SHMEM_TEAM_WORLD");
        return world;
    }

    @Override
    public Team teamShared() {
        checkInitialized("SHMEM_TEAM_SHARED");
        return teams.shared();
    }

    @Override
    public Team teamHost() {
        checkInitialized("team_host");
        return teams.host();
    }

    @Override
    public Team teamLeaders() {
        checkInitialized("team_leaders");
        return teams.leaders();
    }

    @Override
    public Context ctxCreate(long options) {
        checkInitialized("shmem_ctx_create");
        return world.createCtx(options);
    }

    /** The number of team slots still free on this PE (for tests of the pool). */
    int freeTeamSlots() {
        return teams.freeSlots();
    }

    @Override
    protected WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /** This PE's own region. */
    MemorySegment localRegion() {
        return routes.region(me);
    }

    // ------------------------------------------------------------------ set-up and query

    @Override
    public ThreadLevel queryThread() {
        return threadLevel;
    }

    @Override
    public void close() {
        if (broken) {
            // A peer entered finalize while this PE waited for it in a collective: the collective
            // state is inconsistent. Release locally (announcing, so finalizing peers finish) and
            // let the failure that got us here end the job.
            checkInitialized("shmem_finalize");
            abandon();
            return;
        }
        synchronized (this) {
            checkInitialized("shmem_finalize");
            if (--initCount > 0) {
                barrierAll();
                return;
            }
        }
        if (bootstrap.abortReason() != null) {
            // The job has ended (a peer failed, a global exit, the launcher lost): nobody waits
            // for this PE's announcement, and a peer whose news of the end comes late would take
            // it for a finalize. Release locally and report the end.
            abandon();
            bootstrap.checkAlive();
        }
        diagnostics.reportUnfreed(heap);
        diagnostics.reportCounters(performanceCounters());
        // No resource is released before every PE has entered finalize (spec 9.1.4).
        announceFinalize();
        lastFinalize.await(waitPolicy);
        release();
        bootstrap.finalized();
    }

    /**
     * Local teardown without waiting for the peers: the PE is gone (failed or returned early). It
     * still announces itself, so peers finalizing (e.g. the one whose failure got us here) finish,
     * unless the job has ended (then their waits end with it).
     */
    void abandon() {
        if (!closed) {
            // A gone peer, or the job's end (a global exit ends waits with an Error), may fail
            // each step; what could not complete is lost with the job, and the steps after it
            // still run: nothing may stay mapped or open.
            try {
                quiet();
            } catch (RuntimeException | ShmemGlobalExit peerGoneOrJobEnding) {
                // the announcement still goes out
            }
            // When the job has ended the peers learn of it from the job: an announcement would
            // only let a peer whose news of the end is late take this PE for one that finalized.
            if (bootstrap.abortReason() == null) {
                try {
                    lastFinalize.announceLeaving(world.access());
                } catch (RuntimeException | ShmemGlobalExit jobEnding) {
                    // the peers learn of the end from the job
                }
            }
            try {
                release();
            } catch (RuntimeException | ShmemGlobalExit secondary) {
                // the job already ends with the failure that made this PE leave, and release()
                // still unmapped everything
            }
        }
    }

    private void announceFinalize() {
        // What this PE put before finalizing arrives before its announcement: the created
        // contexts' channels (destroyed by the last finalize) as well as the default one.
        teams().retireContexts();
        quiet();
        lastFinalize.announce(world.access());
    }

    /**
     * Releases every part in the opposite order of the init sequence: the teams (and their
     * contexts' channels), the default context's channel, the network engine (before the heap it
     * registered is unmapped), the heap, the mappings. Every part is released even when one fails
     * (a peer's failure can fail the network's completion), so nothing stays in /dev/shm.
     */
    private void release() {
        closed = true;
        try {
            teardown.release();
        } finally {
            synchronized (slot) {
                slot.set(null);
            }
        }
    }

    @Override
    public int myPe() {
        checkInitialized("shmem_my_pe");
        return me;
    }

    @Override
    public int nPes() {
        checkInitialized("shmem_n_pes");
        return npes;
    }

    @Override
    public void globalExit(int status) {
        System.out.flush();
        System.err.flush();
        bootstrap.globalExit(status);
        throw new IllegalStateException("shmem_global_exit: the bootstrap returned"); // globalExit never returns
    }

    @Override
    public boolean peAccessible(int pe) {
        checkInitialized("shmem_pe_accessible");
        return reachable(pe);
    }

    /** True if {@code pe} is a PE this one can communicate with: mapped, or reached by the network. */
    private boolean reachable(int pe) {
        return pe >= 0 && pe < npes && (routes.region(pe) != null || network != null && network.reaches(pe));
    }

    @Override
    public boolean addrAccessible(SymmetricObject object, int pe) {
        checkInitialized("shmem_addr_accessible");
        return object.isLive() && Handles.allocation(object).heap() == heap && reachable(pe);
    }

    @Override
    public MemorySegment ptr(SymmetricObject object, int pe) {
        Symmetrics.live("shmem_ptr", "object", object);
        if (pe < 0 || pe >= npes) {
            throw new IllegalArgumentException("shmem_ptr: PE " + pe + " is out of range [0, " + npes + ")");
        }
        return routes.region(pe) != null && sameHost(pe) ? routes.region(pe).asSlice(object.offset(), object.byteSize()) : null;
    }

    // ------------------------------------------------------------------ synchronization

    @Override
    public void barrierAll() {
        checkInitialized("shmem_barrier_all");
        world.quietAndSync("shmem_barrier_all");
    }

    @Override
    public void syncAll() {
        checkInitialized("shmem_sync_all");
        world.collectives("shmem_sync_all").sync("shmem_sync_all");
    }
}
