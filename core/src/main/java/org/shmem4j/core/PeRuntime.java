package org.shmem4j.core;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.shmem4j.ShmemException;
import org.shmem4j.Context;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.ThreadLevel;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.core.coll.CollectivePolicy;
import org.shmem4j.core.heap.Handles;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.jfr.Profiler;
import org.shmem4j.core.info.BuildInfo;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.core.param.SizeParser;
import org.shmem4j.core.sync.PointToPointSync;
import org.shmem4j.core.sync.WaitPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.function.Supplier;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.NetworkProvider;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Transport;
import org.shmem4j.transport.shm.ShmTransport;

/**
 * One PE's initialized library, assembled from its parts: parameters, {@link Topology}, the
 * shared-memory transport and the route table, the {@link WaitPolicy}, the symmetric heap, the
 * {@link FinalizeRendezvous} and the {@link TeamRegistry}; it is also the default context. Created
 * by the first {@code Shmem.init} of an epoch and torn down by the matching last {@code close()}.
 */
final class PeRuntime extends ShmemBase {
    private static final long PAGE = 4096;

    private final PeSlot slot;
    private final Bootstrap bootstrap;
    private final Parameters params;
    private final int me;
    private final int npes;
    private final ShmTransport shm;
    /** The network engine for the PEs on other nodes; null when every PE is on this node. */
    private final Transport network;
    /** Every AMO and signal update goes through the network engine (SHMEM_NETWORK_ATOMICS). */
    private final boolean amosByNetwork;
    private final SymmetricHeap heap;
    private final TeamRegistry teams;
    private final TeamImpl world;
    private final LegacySupport legacySupport = new LegacySupport(this);
    private final Topology topology;
    private final CollectivePolicy collectivePolicy;
    private final FinalizeRendezvous lastFinalize;
    private final WaitPolicy waitPolicy;
    private final PointToPointSync p2p;
    private final boolean debug;
    private final Profiler profiler;
    private int initCount = 1;
    private long collectiveCalls;
    private volatile boolean closed;
    /** Set when a peer was found gone mid-collective: no collective can complete any more. */
    private volatile boolean broken;

    PeRuntime(PeSlot slot) {
        this(slot, slot.bootstrap());
    }

    private PeRuntime(PeSlot slot, Bootstrap bootstrap) {
        this(slot, bootstrap, Parameters.from(bootstrap.environment()), Topology.gather(bootstrap));
    }

    /**
     * The init sequence: parameters, topology, the shared-memory transport and the route table,
     * waiting, the heap, the finalize rendezvous, then the team registry with the predefined teams.
     */
    private PeRuntime(PeSlot slot, Bootstrap bootstrap, Parameters params, Topology topology) {
        super(new MemorySegment[bootstrap.size()]);
        this.slot = slot;
        this.bootstrap = bootstrap;
        this.params = params;
        this.topology = topology;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.debug = params.get(Params.DEBUG);
        this.profiler = new Profiler(me, params.get(Params.JFR_RMA_SIZE), params.get(Params.JFR_RMA_US) * 1000L);
        profileWith(profiler);
        announce();
        long reserved = roundUp(params.get(Params.RESERVED_SIZE), PAGE);
        long user = roundUp(params.get(Params.SYMMETRIC_SIZE), PAGE);
        this.shm = ShmTransport.open(bootstrap, topology.nodeIds(), params.get(Params.SHM_DIR), reserved + user);
        MemorySegment[] peers = routing();
        for (int pe = 0; pe < npes; pe++) {
            peers[pe] = shm.mapping(pe);
        }
        this.amosByNetwork = params.get(Params.NETWORK_ATOMICS);
        this.network = openNetwork(bootstrap, params, peers, amosByNetwork);
        useNetwork(network, amosByNetwork);
        this.waitPolicy = waitPolicy(params, topology.pesOnMyNode() > LaunchEnv.nodeCores(), bootstrap,
                network == null ? null : this::networkChannel);
        this.heap = new SymmetricHeap(peers[me], reserved, profiler, new SymmetricHeap.HeapSync() {
            @Override
            public void barrier() {
                barrierAll();
            }

            @Override
            public void agree(String call) {
                agreeOnCollective(call);
            }
        });
        if (debug) {
            heap.recordOrigins();
        }
        this.lastFinalize = new FinalizeRendezvous(peers[me], heap.allocateReserved("finalize announcements", npes * 8L), me, npes);
        this.p2p = new PointToPointSync(peers[me], waitPolicy, lastFinalize::checkWaitCanEnd, profiler);
        this.collectivePolicy = new CollectivePolicy(params);
        this.teams = new TeamRegistry(this,
                new TeamPool(heap, params.get(Params.TEAMS_MAX), npes, params.get(Params.COLLECTIVE_SCRATCH)), topology, me, npes);
        this.world = teams.world();
        // Everyone's reserved words are zeroed before anyone may signal them.
        bootstrap.barrier();
    }

    /**
     * Collective: opens the network engine {@code SHMEM_NETWORK} names when some PE is not mapped
     * (on another node), or for every PE when every AMO goes through it ({@code everyAmo}), else
     * nothing. Every PE of a multi-node job has such a peer, so all take part; each first says
     * whether it found the engine, so that a PE lacking it fails them all with its reason instead
     * of leaving them in the engine's exchange.
     */
    private static Transport openNetwork(Bootstrap bootstrap, Parameters params, MemorySegment[] mapped, boolean everyAmo) {
        boolean[] remote = new boolean[mapped.length];
        int example = -1;
        for (int pe = 0; pe < mapped.length; pe++) {
            remote[pe] = everyAmo || mapped[pe] == null;
            if (remote[pe] && example < 0) {
                example = pe;
            }
        }
        if (example < 0) {
            return null;
        }
        String name = params.get(Params.NETWORK);
        NetworkProvider provider = ServiceLoader.load(NetworkProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst().orElse(null);
        String mine = provider != null ? "ok" : "PE " + bootstrap.rank() + " has no network engine named '" + name
                + "' (" + Params.NETWORK.name() + ") for PE " + example + " on another node";
        for (byte[] answer : bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8))) {
            String said = new String(answer, StandardCharsets.UTF_8);
            if (!said.equals("ok")) {
                throw new ShmemException("shmem_init: " + said);
            }
        }
        Transport network = provider.open(new NetworkSetup(bootstrap.rank(), remote, mapped[bootstrap.rank()], bootstrap::allGather,
                bootstrap::checkAlive));
        if (!everyAmo && !network.atomicsCoherentWithCpu()) {
            network.close();
            throw new ShmemException("shmem_init: the atomics of network engine '" + name + "' are not atomic with respect to"
                    + " CPU atomics on the PEs of a node; set " + Params.NETWORK_ATOMICS.name() + "=1 to send every AMO through it");
        }
        return network;
    }

    /**
     * Spin, then yield, then park. When the node's PEs outnumber its cores, the PE we wait for
     * may not be running: spinning only delays it, so hand the core over at once and keep
     * yielding (cheap while others are runnable) long before parking. Measured at 4 PEs on 2
     * cores: collectives 1.5-3x faster than with the spin defaults.
     */
    private static WaitPolicy waitPolicy(Parameters params, boolean oversubscribed, Bootstrap bootstrap,
            Supplier<Channel> network) {
        int spins = params.get(Params.WAIT_SPINS);
        int yields = params.get(Params.WAIT_YIELDS);
        if (oversubscribed) {
            spins = "default".equals(params.source(Params.WAIT_SPINS)) ? 0 : spins;
            yields = "default".equals(params.source(Params.WAIT_YIELDS)) ? 20_000 : yields;
        }
        return new WaitPolicy(spins, yields, params.get(Params.WAIT_PARK_MAX_US) * 1000L, bootstrap::checkAlive, network);
    }

    /**
     * Throws if world PE {@code pe} has entered its last finalize while this PE waits for it in a
     * collective or barrier (see {@link FinalizeRendezvous#checkPeerNotGone}); the collective state
     * is then inconsistent, so this PE's own finalize will not wait for the others.
     */
    void checkNotFinalizing(int pe, java.util.function.BooleanSupplier satisfied) {
        try {
            lastFinalize.checkPeerNotGone(pe, satisfied);
        } catch (ShmemException e) {
            broken = true;
            throw e;
        }
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
     * The channel collectives, barriers and finalize use for PEs that are not mapped (the default
     * context's, shareable); null when no network transport is open (every peer is on this node).
     */
    Channel networkChannel() {
        return network == null ? null : channel("shmem_init");
    }

    /** The network engine for PEs on other nodes, or null. */
    Transport network() {
        return network;
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

    MemorySegment[] worldRouting() {
        return routing();
    }

    private void announce() {
        if (me != 0 || !slot.firstAnnouncement()) {
            return;
        }
        PrintStream out = System.out;
        if (params.get(Params.VERSION)) {
            out.println(BuildInfo.current().describe() + ", " + npes + " PEs, Java " + Runtime.version());
        }
        if (params.get(Params.INFO)) {
            out.println("shmem4j bootstrap: " + bootstrap);
            out.print(params.infoText());
        }
        if (debug && !params.unknownVariables().isEmpty()) {
            System.err.println("shmem4j: warning: unknown variables ignored: " + params.unknownVariables());
        }
        if (debug) {
            System.err.println("shmem4j: debug: heap " + SizeParser.format(params.get(Params.SYMMETRIC_SIZE))
                    + " per PE in " + params.get(Params.SHM_DIR));
        }
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }

    synchronized void retain() {
        checkOpen("shmem_init");
        initCount++;
    }

    void checkInitialized(String routine) {
        checkOpen(routine);
    }

    private void checkOpen(String routine) {
        if (closed) {
            throw new IllegalStateException(routine + ": the library is not initialized (shmem_finalize was called)");
        }
    }

    @Override
    protected SymmetricHeap heap(String routine) {
        checkOpen(routine);
        return heap;
    }

    @Override
    protected PointToPointSync p2p(String routine) {
        checkOpen(routine);
        return p2p;
    }

    @Override
    public Team teamWorld() {
        checkOpen("SHMEM_TEAM_WORLD");
        return world;
    }

    @Override
    public Team teamShared() {
        checkOpen("SHMEM_TEAM_SHARED");
        return teams.shared();
    }

    @Override
    public Team teamHost() {
        checkOpen("team_host");
        return teams.host();
    }

    @Override
    public Team teamLeaders() {
        checkOpen("team_leaders");
        return teams.leaders();
    }

    @Override
    public Team team() {
        return teamWorld();
    }

    @Override
    public Context ctxCreate(long options) {
        checkOpen("shmem_ctx_create");
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

    @Override
    protected MemorySegment localRegion() {
        return heap.local();
    }

    // ------------------------------------------------------------------ set-up and query

    @Override
    public ThreadLevel queryThread() {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public void close() {
        if (broken) {
            // A peer entered finalize while this PE waited for it in a collective: the collective
            // state is inconsistent. Release locally (announcing, so finalizing peers finish) and
            // let the failure that got us here end the job.
            checkOpen("shmem_finalize");
            abandon();
            return;
        }
        synchronized (this) {
            checkOpen("shmem_finalize");
            if (--initCount > 0) {
                barrierAll();
                return;
            }
        }
        if (debug && me == 0) {
            reportUnfreed();
        }
        // No resource is released before every PE has entered finalize (spec 9.1.4).
        announceFinalize();
        lastFinalize.await(waitPolicy);
        release();
        bootstrap.finalized();
    }

    /**
     * Local teardown without waiting for the peers: the PE is gone (failed or returned early). It
     * still announces itself, so peers finalizing (e.g. the one whose failure got us here) finish.
     */
    void abandon() {
        if (!closed) {
            try {
                quiet();
            } catch (RuntimeException peerGone) {
                // what could not complete is lost with the job; the announcement still goes out
            }
            lastFinalize.announceLeaving(world.access());
            try {
                release();
            } catch (RuntimeException secondary) {
                // a gone peer failed the network's completion; the job already ends with the
                // failure that made this PE leave, and release() still unmapped everything
            }
        }
    }

    /**
     * SHMEM_DEBUG: the symmetric objects the program never freed, grouped by where it allocated
     * them. Allocation is collective and checked to agree, so PE 0 speaks for every PE.
     */
    private void reportUnfreed() {
        List<SymmetricHeap.Origin> unfreed = heap.unfreed();
        if (unfreed.isEmpty()) {
            return;
        }
        Map<SymmetricHeap.Origin, Long> counts = unfreed.stream()
                .collect(Collectors.groupingBy(o -> o, LinkedHashMap::new, Collectors.counting()));
        StringBuilder report = new StringBuilder("shmem4j: debug: PE 0: ").append(unfreed.size())
                .append(" symmetric allocation(s) of ").append(unfreed.stream().mapToLong(SymmetricHeap.Origin::bytes).sum())
                .append(" bytes never freed (close() frees one; the same on every PE):");
        counts.forEach((o, n) -> report.append("\n  ").append(n).append(" x ").append(o.bytes()).append(" bytes by ")
                .append(o.routine()).append(" at ").append(o.where()));
        System.err.println(report);
    }

    private void announceFinalize() {
        quiet(); // what this PE put before finalizing arrives before its announcement
        lastFinalize.announce(world.access());
    }

    private void release() {
        closed = true;
        teams.invalidateAll();
        try {
            if (network != null) {
                try {
                    retire("shmem_finalize was called"); // completes and closes the default context's channel
                } finally {
                    network.close(); // before the heap it registered is unmapped
                }
            }
        } finally {
            // even when a peer's failure made the network's completion fail, nothing stays in /dev/shm
            heap.close();
            synchronized (slot) {
                slot.set(null);
            }
            shm.close();
        }
    }

    @Override
    public int myPe() {
        checkOpen("shmem_my_pe");
        return me;
    }

    @Override
    public int nPes() {
        checkOpen("shmem_n_pes");
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
        checkOpen("shmem_pe_accessible");
        return reachable(pe);
    }

    /** True if {@code pe} is a PE this one can communicate with: mapped, or reached by the network. */
    private boolean reachable(int pe) {
        return mapped(pe) || (pe >= 0 && pe < npes && network != null && network.reaches(pe));
    }

    @Override
    public boolean addrAccessible(SymmetricObject object, int pe) {
        checkOpen("shmem_addr_accessible");
        return object.isLive() && Handles.allocation(object).heap() == heap && reachable(pe);
    }

    @Override
    public MemorySegment ptr(SymmetricObject object, int pe) {
        object.checkLive("shmem_ptr");
        if (pe < 0 || pe >= npes) {
            throw new IllegalArgumentException("shmem_ptr: PE " + pe + " is out of range [0, " + npes + ")");
        }
        return mapped(pe) && sameHost(pe) ? peer(pe, "shmem_ptr").asSlice(object.offset(), object.byteSize()) : null;
    }

    // ------------------------------------------------------------------ synchronization

    @Override
    public void barrierAll() {
        checkOpen("shmem_barrier_all");
        world.quietAndSync("shmem_barrier_all");
    }

    @Override
    public void syncAll() {
        checkOpen("shmem_sync_all");
        world.collectives("shmem_sync_all").sync("shmem_sync_all");
    }

    /**
     * SHMEM_DEBUG: every PE publishes its description of the collective call and compares it with
     * PE 0's, so a program whose PEs allocate in different orders fails at the diverging call
     * instead of corrupting memory later.
     */
    private void agreeOnCollective(String call) {
        if (!debug) {
            return;
        }
        long n;
        synchronized (this) {
            n = ++collectiveCalls;
        }
        String mine = "#" + n + " " + call;
        byte[][] all = bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8));
        String reference = new String(all[0], StandardCharsets.UTF_8);
        for (int pe = 1; pe < all.length; pe++) {
            String theirs = new String(all[pe], StandardCharsets.UTF_8);
            if (!theirs.equals(reference)) {
                throw new ShmemException("SHMEM_DEBUG: PEs disagree on collective allocation call: PE 0 made "
                        + reference + " but PE " + pe + " made " + theirs);
            }
        }
    }
}
