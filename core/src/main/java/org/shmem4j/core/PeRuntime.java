package org.shmem4j.core;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.shmem4j.ShmemException;
import org.shmem4j.Context;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;
import org.shmem4j.ThreadLevel;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.core.coll.CollectivePolicy;
import org.shmem4j.core.coll.PeerAccess;
import org.shmem4j.core.heap.SymmetricHeap;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.core.param.SizeParser;
import org.shmem4j.core.sync.PointToPointSync;
import org.shmem4j.core.sync.WaitPolicy;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.shm.ShmTransport;

/**
 * One PE's initialized library: parameters, the shared-memory transport and routing table, the
 * symmetric heap, and the world barrier. Created by the first {@code Shmem.init} of an epoch and
 * torn down by the matching last {@code close()}.
 */
final class PeRuntime extends ShmemBase {
    private static final long PAGE = 4096;

    private final PeSlot slot;
    private final Bootstrap bootstrap;
    private final Parameters params;
    private final int me;
    private final int npes;
    private final ShmTransport shm;
    private final SymmetricHeap heap;
    private final TeamPool teamPool;
    private final TeamImpl world;
    private final Team shared;
    private final Team host;
    /** The leaders team, or null on a PE that does not lead its host. */
    private final Team leaders;
    private final String notLeader;
    private final int[] hostIndexOfWorld;
    private final CollectivePolicy collectivePolicy;
    /** npes words: word i is set (by PE i, in this PE's region) when PE i enters its last finalize. */
    private final long finalizeArrivals;
    private final java.util.Set<TeamImpl> teams = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final WaitPolicy waitPolicy;
    private final PointToPointSync p2p;
    private final boolean debug;
    private int initCount = 1;
    private long collectiveCalls;
    private volatile boolean closed;
    /** Set when a peer was found gone mid-collective: no collective can complete any more. */
    private volatile boolean broken;

    PeRuntime(PeSlot slot) {
        this(slot, slot.bootstrap());
    }

    private PeRuntime(PeSlot slot, Bootstrap bootstrap) {
        this(slot, bootstrap, Parameters.from(bootstrap.environment()), gather(bootstrap, bootstrap.hostId()),
                gather(bootstrap, bootstrap.nodeId()));
    }

    /**
     * @param hostIds every PE's declared host (teams SHARED, host and leaders, {@code shmem_ptr},
     *        the collective policy)
     * @param nodeIds every PE's physical node (what the shared-memory transport maps)
     */
    private PeRuntime(PeSlot slot, Bootstrap bootstrap, Parameters params, String[] hostIds, String[] nodeIds) {
        super(new MemorySegment[bootstrap.size()]);
        this.slot = slot;
        this.bootstrap = bootstrap;
        this.params = params;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.debug = params.get(Params.DEBUG);
        announce();
        long reserved = roundUp(params.get(Params.RESERVED_SIZE), PAGE);
        long user = roundUp(params.get(Params.SYMMETRIC_SIZE), PAGE);
        checkHostsWithinNodes(hostIds, nodeIds);
        this.shm = ShmTransport.open(bootstrap, nodeIds, params.get(Params.SHM_DIR), reserved + user);
        MemorySegment[] peers = routing();
        for (int pe = 0; pe < npes; pe++) {
            peers[pe] = shm.mapping(pe);
        }
        int localPes = (int) Arrays.stream(nodeIds).filter(nodeIds[me]::equals).count();
        boolean oversubscribed = localPes > Runtime.getRuntime().availableProcessors();
        int spins = params.get(Params.WAIT_SPINS);
        int yields = params.get(Params.WAIT_YIELDS);
        if (oversubscribed) {
            // The PE we wait for may not be running: spinning only delays it, so hand the core over
            // at once and keep yielding (cheap while others are runnable) long before parking.
            // Measured at 4 PEs on 2 cores: collectives 1.5-3x faster than with the spin defaults.
            spins = "default".equals(params.source(Params.WAIT_SPINS)) ? 0 : spins;
            yields = "default".equals(params.source(Params.WAIT_YIELDS)) ? 20_000 : yields;
        }
        this.waitPolicy = new WaitPolicy(spins, yields, params.get(Params.WAIT_PARK_MAX_US) * 1000L, bootstrap::checkAlive);
        this.p2p = new PointToPointSync(peers[me], waitPolicy, this::checkWaitCanEnd);
        this.heap = new SymmetricHeap(peers[me], reserved, new SymmetricHeap.HeapSync() {
            @Override
            public void barrier() {
                barrierAll();
            }

            @Override
            public void agree(String call) {
                agreeOnCollective(call);
            }
        });
        this.finalizeArrivals = heap.allocateReserved("finalize arrivals", npes * 8L);
        this.hostIndexOfWorld = hostIndices(hostIds);
        this.collectivePolicy = new CollectivePolicy(params);
        this.teamPool = new TeamPool(heap, params.get(Params.TEAMS_MAX), npes, params.get(Params.COLLECTIVE_SCRATCH));
        int[] all = java.util.stream.IntStream.range(0, npes).toArray();
        int[] sameHost = java.util.stream.IntStream.range(0, npes).filter(pe -> hostIds[pe].equals(hostIds[me])).toArray();
        int[] hostLeaders = java.util.stream.IntStream.range(0, npes)
                .filter(pe -> java.util.stream.IntStream.range(0, pe).noneMatch(q -> hostIds[q].equals(hostIds[pe]))).toArray();
        this.world = predefined(all, TeamPool.WORLD);
        this.shared = predefined(sameHost, TeamPool.SHARED);
        this.host = predefined(sameHost, TeamPool.HOST);
        boolean leads = Arrays.binarySearch(hostLeaders, me) >= 0;
        this.leaders = leads ? predefined(hostLeaders, TeamPool.LEADERS) : null;
        this.notLeader = "PE " + me + " is not the leader of its host (PE " + sameHost[0] + " is)";
        // Everyone's reserved words are zeroed before anyone may signal them.
        bootstrap.barrier();
    }

    private TeamImpl predefined(int[] members, int slot) {
        return register(new TeamImpl(this, teamPool, members, Arrays.binarySearch(members, me), slot, TeamConfig.DEFAULT, true));
    }

    /** Hosts numbered 0, 1, ... in order of their lowest PE. */
    private static int[] hostIndices(String[] hostIds) {
        java.util.Map<String, Integer> index = new java.util.LinkedHashMap<>();
        int[] out = new int[hostIds.length];
        for (int pe = 0; pe < hostIds.length; pe++) {
            out[pe] = index.computeIfAbsent(hostIds[pe], h -> index.size());
        }
        return out;
    }

    private static final java.lang.invoke.VarHandle ARRIVAL = java.lang.foreign.ValueLayout.JAVA_LONG.varHandle();

    /** True once world PE {@code pe} has entered its last finalize (it told this PE so). */
    private boolean finalizing(int pe) {
        return (long) ARRIVAL.getAcquire(localRegion(), finalizeArrivals + pe * 8L) != 0;
    }

    /**
     * Throws if world PE {@code pe} has entered its last finalize while this PE has not and the
     * awaited condition still does not hold: a wait on that PE outside finalize can never end (the
     * collective calls are out of order, or the PE failed and its try-with-resources is finalizing).
     * A PE announces its finalize after its last signal, so reading the condition after the
     * announcement cannot miss a signal sent before it.
     */
    void checkNotFinalizing(int pe, java.util.function.BooleanSupplier satisfied) {
        if (!finalizing(me) && finalizing(pe) && !satisfied.getAsBoolean()) {
            broken = true;
            throw new ShmemException("PE " + pe + " entered shmem_finalize while PE " + me + " waits for it in a"
                    + " collective or barrier: the PEs' collective calls are out of order, or PE " + pe + " failed");
        }
    }

    /**
     * For point-to-point waits on this PE's own words: throws when every other PE has entered its
     * last finalize and the condition still does not hold, because no PE can change this PE's
     * symmetric memory any more (what a peer put before finalizing has arrived: finalize completes
     * its operations before announcing itself). Only this PE's own other threads could still end
     * such a wait; a program that relies on that after all its peers finalized gets this error.
     */
    void checkWaitCanEnd(String routine, java.util.function.BooleanSupplier satisfied) {
        if (npes == 1 || finalizing(me)) {
            return;
        }
        for (int pe = 0; pe < npes; pe++) {
            if (pe != me && !finalizing(pe)) {
                return;
            }
        }
        if (!satisfied.getAsBoolean()) {
            throw new ShmemException(routine + ": PE " + me + " waits for a condition no PE can satisfy any more:"
                    + " every other PE has entered shmem_finalize (did one of them fail?)");
        }
    }

    /**
     * The finalize rendezvous. It uses words no other synchronization uses, so a finalizing PE can
     * never pair with a peer's barrier or collective (that peer sees the announcement and fails
     * instead), and it is push-only: after announcing, a PE reads only its own region, so a PE
     * that leaves early is never read by one still waiting.
     */
    private void announceFinalize() {
        quiet(); // what this PE put before finalizing arrives before its announcement
        PeerAccess everyone = world.access();
        everyone.signal(me, finalizeArrivals + me * 8L, 1);
        for (int pe = 0; pe < npes; pe++) {
            if (pe != me) {
                everyone.signal(pe, finalizeArrivals + me * 8L, 1);
            }
        }
    }

    private void awaitFinalizeAnnouncements() {
        WaitPolicy.Waiter w = waitPolicy.start();
        for (int pe = 0; pe < npes; pe++) {
            while (!finalizing(pe)) {
                w.pause();
            }
        }
    }

    /** The (declared) host number of world PE {@code pe}. */
    int hostIndex(int pe) {
        return hostIndexOfWorld[pe];
    }

    /**
     * True when this PE may load and store {@code pe}'s heap directly ({@code shmem_ptr}): mapped
     * and on the same declared host. Pseudo-hosts of one node are mapped (data moves through the
     * node's shared memory) but not load/store-reachable for the program, as real hosts would not be.
     */
    boolean sameHost(int pe) {
        return hostIndexOfWorld[pe] == hostIndexOfWorld[me];
    }

    /**
     * The channel collectives, barriers and finalize use for PEs that are not mapped; null while
     * no network transport is open (every peer is then on this node).
     */
    Channel networkChannel() {
        return null;
    }

    CollectivePolicy collectivePolicy() {
        return collectivePolicy;
    }

    TeamImpl register(TeamImpl team) {
        teams.add(team);
        return team;
    }

    void unregister(TeamImpl team) {
        teams.remove(team);
    }

    MemorySegment[] worldRouting() {
        return routing();
    }

    /** A host spans no more than one node: PEs declared on one host must be able to map each other. */
    private static void checkHostsWithinNodes(String[] hostIds, String[] nodeIds) {
        java.util.Map<String, String> nodeOfHost = new java.util.HashMap<>();
        for (int pe = 0; pe < hostIds.length; pe++) {
            String node = nodeOfHost.putIfAbsent(hostIds[pe], nodeIds[pe]);
            if (node != null && !node.equals(nodeIds[pe])) {
                throw new ShmemException("shmem_init: host " + hostIds[pe] + " is declared on two nodes (" + node
                        + " and " + nodeIds[pe] + " of PE " + pe + "); a host must lie within one node");
            }
        }
    }

    /** Every PE's blob {@code mine} (a host or node id), indexed by rank. */
    private static String[] gather(Bootstrap bootstrap, String mine) {
        byte[][] all = bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8));
        String[] ids = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            ids[i] = new String(all[i], StandardCharsets.UTF_8);
        }
        return ids;
    }

    private void announce() {
        if (me != 0) {
            return;
        }
        PrintStream out = System.out;
        if (params.get(Params.VERSION)) {
            out.println("shmem4j: OpenSHMEM " + MAJOR_VERSION + "." + MINOR_VERSION + " (" + VENDOR_STRING + "), "
                    + npes + " PEs, Java " + Runtime.version());
        }
        if (params.get(Params.INFO)) {
            out.print("shmem4j parameters (environment variables):\n" + params.infoText());
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
        return shared;
    }

    @Override
    public Team teamHost() {
        checkOpen("team_host");
        return host;
    }

    @Override
    public Team teamLeaders() {
        checkOpen("team_leaders");
        return leaders != null ? leaders : InvalidTeam.because(notLeader);
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
        return teamPool.freeCount();
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
        // No resource is released before every PE has entered finalize (spec 9.1.4).
        announceFinalize();
        awaitFinalizeAnnouncements();
        release();
        bootstrap.finalized();
    }

    /**
     * Local teardown without waiting for the peers: the PE is gone (failed or returned early). It
     * still announces itself, so peers finalizing (e.g. the one whose failure got us here) finish.
     */
    void abandon() {
        if (!closed) {
            announceFinalize();
            release();
        }
    }

    private void release() {
        closed = true;
        teams.forEach(TeamImpl::invalidate);
        heap.close();
        synchronized (slot) {
            slot.set(null);
        }
        shm.close();
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
        return mapped(pe);
    }

    @Override
    public boolean addrAccessible(SymmetricObject object, int pe) {
        checkOpen("shmem_addr_accessible");
        return object.isLive() && object.allocation().heap() == heap && mapped(pe);
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
        world.sync();
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
