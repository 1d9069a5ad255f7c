package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.transport.Capabilities;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.JobHealth;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Traffic;
import org.shmem4j.transport.Transport;

/**
 * The UCX network engine of one PE: a UCP context restricted to network transports (shmem4j owns
 * the on-node path, and pseudo-nodes of one machine must really talk over the network), this PE's
 * region registered with {@code ucp_mem_map}, and a "home" worker whose address and the region's
 * packed key this PE publishes at start-up ({@link Bootstrap#publish}) and a peer looks up at
 * its first contact (a PE of a large job holds only the addresses of the peers it talks to, and
 * init moves O(1) bytes per PE for them, not O(N)). Peers' operations on this PE arrive at the home worker;
 * over tcp UCX emulates RMA and atomics with messages the target must progress, so a
 * {@link ProgressAgent} progresses it while the application does not call the library.
 * Each context's {@link UcxChannel} has a worker of its own and connects to the peers' home workers.
 */
final class UcxTransport implements Transport {
    private static final long FLUSH_BOUND_NANOS = 5_000_000_000L;

    private final Ucx.Library ucx;
    private final MemorySegment context;
    private final MemorySegment memh;
    private final MemorySegment home;
    private final ProgressAgent agent;
    /** Who progresses the home worker now (the agent or a waiting thread); the others skip it. */
    private final ReentrantLock homeLock = new ReentrantLock();
    private boolean homeDestroyed; // guarded by homeLock
    /** Per world rank: true for the PEs this transport reaches. */
    private final boolean[] remote;
    /** Where the peers' descriptions are looked up at first contact; set by {@link #open}. */
    private Bootstrap.Directory directory;
    /**
     * Per world rank: the peer's home worker address, packed key and region base, filled at first
     * contact ({@link #address}, under the array's lock); null before and where not remote.
     */
    private final MemorySegment[] addresses;
    private final byte[][] rkeys;
    private final long[] bases;
    private final Arena arena = Arena.ofShared();
    private final List<UcxChannel> channels = new ArrayList<>();
    /** The channels of sessions that batch: their aged batches leave from any waiter's progress and the agent's. */
    private final java.util.concurrent.CopyOnWriteArrayList<UcxChannel> batching = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Identities of closed channels, for the next ones (guarded by this). */
    private final java.util.ArrayDeque<SenderIdentity> retiredSenders = new java.util.ArrayDeque<>();
    private long nextSender = 1; // guarded by this
    /** Asked while waiting long for a peer, told of a peer lost: see {@link NetworkSetup#health()}. */
    private final JobHealth health;
    /** This PE's key for {@link SignalMessages#stopServing}, 0 before its handler is set. */
    private long serving;
    /** This PE's world rank. */
    private final int rank;
    /** The agent's {@link ProgressAgent#served} when a waiter last progressed. */
    private long agentServedSeen;
    /** See {@link #capabilities()}. */
    private final Capabilities capabilities;
    /** What this PE sent: its channels' operations and its handlers' replies and answers. */
    private final Traffic traffic = new Traffic();
    private boolean closed;

    private UcxTransport(Ucx.Library ucx, MemorySegment context, MemorySegment memh, MemorySegment home, NetworkSetup setup) {
        int npes = setup.npes();
        this.ucx = ucx;
        this.health = setup.health();
        this.rank = setup.rank();
        this.context = context;
        this.memh = memh;
        this.home = home;
        this.remote = setup.remote();
        this.addresses = new MemorySegment[npes];
        this.rkeys = new byte[npes][];
        this.bases = new long[npes];
        this.agent = new ProgressAgent(ucx, home, homeLock, this::sendAgedBatches, () -> !batching.isEmpty());
        boolean rdmaDevice = !noRdmaDevice();
        // A raise carries up to MAX_STREAMED in messages ahead of it where puts travel as messages (no
        // RDMA device: NetworkPolicy), else it flushes a put of more than a message holds first (UcxChannel#putRaise).
        this.capabilities = new Capabilities(atomicsCoherentWithCpu(System.getenv(), setup.everyAmo(), rdmaDevice), rdmaDevice,
                SignalMessages.MAX_PAYLOAD, rdmaDevice ? SignalMessages.MAX_PAYLOAD : SignalMessages.MAX_STREAMED);
    }

    /**
     * Collective: see {@link org.shmem4j.transport.NetworkProvider#open}. Publishes this PE's
     * description (or its failure, which a peer looking it up then reports) without waiting for
     * the peers': the init's later barrier waits for them.
     */
    static UcxTransport open(NetworkSetup setup) {
        UcxTransport t = null;
        byte[] mine;
        RuntimeException failed = null;
        try {
            t = start(setup);
            t.serving = SignalMessages.serve(t.ucx, t.home, setup.region(), setup.rank(), t.arena, t.traffic);
            mine = t.describeSelf(setup.region());
        } catch (RuntimeException e) {
            if (t != null) {
                t.close();
            }
            t = null;
            failed = e;
            mine = failure("PE " + setup.rank() + ": " + e.getMessage());
        }
        // Published even after failing: a peer that looks this PE up learns why it cannot reach it.
        Bootstrap.Directory directory;
        try {
            directory = setup.publish().apply("ucx", mine);
        } catch (RuntimeException e) {
            if (t != null) {
                t.close();
            }
            if (failed != null) {
                e.addSuppressed(failed);
            }
            throw e;
        }
        if (failed != null) {
            throw failed;
        }
        t.directory = directory;
        t.agent.start();
        return t;
    }

    /**
     * A UCX setting shmem4j changes, unless the environment variable that sets it is there: a UCP
     * one, or a transport's, which {@code ucp_config_modify} keeps for the interfaces UCP opens and
     * applies to every transport with a field of that name.
     */
    record Setting(String name, String variable, String value) {}

    /**
     * The settings to apply for a job whose environment is {@code env}: none whose variable is set
     * there, and tcp's only where the user's {@code UCX_TLS} leaves tcp in (UCX warns about a
     * setting no opened transport has); the atomic mode only on a node with an RDMA device.
     */
    static List<Setting> settings(Map<String, String> env, boolean everyAmo, boolean rdmaDevice) {
        List<Setting> all = new ArrayList<>();
        // Network transports only: UCX's shared-memory ones (sysv, posix, cma) and self would
        // carry same-machine traffic that shmem4j's own mapped path already owns.
        all.add(new Setting("TLS", "UCX_TLS", "^shm,cma,self"));
        if (tcpAllowed(env.get("UCX_TLS"))) {
            // Over tcp UCX emulates RMA with messages of at most a send segment: with its 8 KiB
            // default a large put is a train of 8 KiB sends, each handled apart by the target. 64 KiB
            // (its receive segment's default): 1 MiB puts between pseudo-nodes went from 0.5-0.9 to
            // 1.4-2.3 GB/s. A segment is taken per endpoint only while it sends.
            all.add(new Setting("TX_SEG_SIZE", "UCX_TCP_TX_SEG_SIZE", "64k"));
        }
        if (!everyAmo && rdmaDevice) {
            // This node's PEs apply AMOs to each other with CPU atomics: UCX's must be atomic with
            // respect to them. Its default ("guess") picks an RDMA device's atomics where there is
            // one, which are not; "cpu" makes it apply them on the target's CPU instead. Without a
            // device UCX has only tcp, whose atomics it applies on the target's CPU anyway.
            all.add(new Setting("ATOMIC_MODE", "UCX_ATOMIC_MODE", CPU_ATOMICS));
        }
        return all.stream().filter(s -> !env.containsKey(s.variable())).toList();
    }

    private static final String CPU_ATOMICS = "cpu";

    /** Whether a {@code UCX_TLS} value (null: unset) lets UCX open tcp. */
    private static boolean tcpAllowed(String tls) {
        if (tls == null) {
            return true;
        }
        boolean excluding = tls.startsWith("^");
        boolean named = List.of((excluding ? tls.substring(1) : tls).split(",")).contains("tcp");
        return excluding ? !named : named || tls.equals("all");
    }

    /**
     * Whether UCX's atomics are atomic with respect to CPU atomics on the target's node: where the
     * node has no RDMA device UCX has only tcp and applies them on the target's CPU; elsewhere only
     * in UCX's {@code cpu} atomic mode (shmem4j's setting unless every AMO goes through UCX, or the
     * user's {@code UCX_ATOMIC_MODE}).
     */
    static boolean atomicsCoherentWithCpu(Map<String, String> env, boolean everyAmo, boolean rdmaDevice) {
        String mode = env.getOrDefault("UCX_ATOMIC_MODE", everyAmo ? "guess" : CPU_ATOMICS);
        return !rdmaDevice || mode.equals(CPU_ATOMICS);
    }

    /** This PE's UCP context, registration and home worker. */
    private static UcxTransport start(NetworkSetup setup) {
        Ucx.Library ucx = Ucx.lib();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment configP = a.allocate(ADDRESS);
            ucx.check((int) ucx.configRead.invokeExact(MemorySegment.NULL, MemorySegment.NULL, configP), "ucp_config_read");
            MemorySegment config = configP.get(ADDRESS, 0);
            MemorySegment contextP = a.allocate(ADDRESS);
            try {
                for (Setting setting : settings(System.getenv(), setup.everyAmo(), !noRdmaDevice())) {
                    ucx.check((int) ucx.configModify.invokeExact(config, a.allocateFrom(setting.name()),
                            a.allocateFrom(setting.value())), "ucp_config_modify(" + setting.name() + ")");
                }
                MemorySegment params = a.allocate(Ucx.PARAMS_SIZE, 8);
                params.set(JAVA_LONG, Ucx.PARAMS_FIELD_MASK, Ucx.PARAM_FIELD_FEATURES | Ucx.PARAM_FIELD_MT_WORKERS_SHARED);
                params.set(JAVA_LONG, Ucx.PARAMS_FEATURES,
                        Ucx.FEATURE_RMA | Ucx.FEATURE_AMO32 | Ucx.FEATURE_AMO64 | Ucx.FEATURE_WAKEUP | Ucx.FEATURE_AM);
                params.set(JAVA_INT, Ucx.PARAMS_MT_WORKERS_SHARED, 1); // contexts' workers live on several threads
                ucx.check((int) ucx.initVersion.invokeExact(Ucx.API_MAJOR, Ucx.API_MINOR, params, config, contextP), "ucp_init");
            } finally {
                ucx.configRelease.invokeExact(config);
            }
            MemorySegment context = contextP.get(ADDRESS, 0);
            MemorySegment memh;
            try {
                memh = register(ucx, context, setup.region(), a);
            } catch (RuntimeException e) {
                ucx.cleanup.invokeExact(context);
                throw e;
            }
            MemorySegment home;
            try {
                home = createWorker(ucx, context, Ucx.THREAD_MODE_MULTI); // the agent and the peers' requests meet here
            } catch (RuntimeException e) {
                int ignored = (int) ucx.memUnmap.invokeExact(context, memh);
                ucx.cleanup.invokeExact(context);
                throw e;
            }
            return new UcxTransport(ucx, context, memh, home, setup);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("UCX start-up failed: " + t, t);
        }
    }

    private static MemorySegment register(Ucx.Library ucx, MemorySegment context, MemorySegment region, Arena a) throws Throwable {
        MemorySegment params = a.allocate(Ucx.MEM_MAP_PARAMS_SIZE, 8);
        params.set(JAVA_LONG, Ucx.MEM_MAP_FIELD_MASK, Ucx.MEM_MAP_PARAM_FIELD_ADDRESS | Ucx.MEM_MAP_PARAM_FIELD_LENGTH);
        params.set(ADDRESS, Ucx.MEM_MAP_ADDRESS, region);
        params.set(JAVA_LONG, Ucx.MEM_MAP_LENGTH, region.byteSize());
        MemorySegment memhP = a.allocate(ADDRESS);
        ucx.check((int) ucx.memMap.invokeExact(context, params, memhP), "ucp_mem_map");
        return memhP.get(ADDRESS, 0);
    }

    /** A worker of {@code threadMode} ({@code UCS_THREAD_MODE_*}) on {@code context}. */
    static MemorySegment createWorker(Ucx.Library ucx, MemorySegment context, int threadMode) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Ucx.WORKER_PARAMS_SIZE, 8);
            params.set(JAVA_LONG, Ucx.WORKER_FIELD_MASK, Ucx.WORKER_PARAM_FIELD_THREAD_MODE);
            params.set(JAVA_INT, Ucx.WORKER_THREAD_MODE, threadMode);
            MemorySegment workerP = a.allocate(ADDRESS);
            ucx.check((int) ucx.workerCreate.invokeExact(context, params, workerP), "ucp_worker_create");
            return workerP.get(ADDRESS, 0);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("ucp_worker_create failed: " + t, t);
        }
    }

    /** What peers need to reach this PE: its home worker's address, its region's key and base. */
    private byte[] describeSelf(MemorySegment region) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addrP = a.allocate(ADDRESS), lenP = a.allocate(JAVA_LONG);
            ucx.check((int) ucx.workerGetAddress.invokeExact(home, addrP, lenP), "ucp_worker_get_address");
            MemorySegment addr = addrP.get(ADDRESS, 0);
            byte[] address = addr.reinterpret(lenP.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            ucx.workerReleaseAddress.invokeExact(home, addr);
            MemorySegment keyP = a.allocate(ADDRESS), keyLenP = a.allocate(JAVA_LONG);
            ucx.check((int) ucx.rkeyPack.invokeExact(context, memh, keyP, keyLenP), "ucp_rkey_pack");
            MemorySegment key = keyP.get(ADDRESS, 0);
            byte[] rkey = key.reinterpret(keyLenP.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            ucx.rkeyBufferRelease.invokeExact(key);
            var bytes = new ByteArrayOutputStream();
            var out = new DataOutputStream(bytes);
            out.writeBoolean(true);
            out.writeLong(region.address());
            out.writeInt(address.length);
            out.write(address);
            out.writeInt(rkey.length);
            out.write(rkey);
            return bytes.toByteArray();
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new ShmemException("describing the UCX endpoint failed: " + t, t);
        }
    }

    private static byte[] failure(String message) {
        try {
            var bytes = new ByteArrayOutputStream();
            var out = new DataOutputStream(bytes);
            out.writeBoolean(false);
            out.writeUTF(message.length() > 8000 ? message.substring(0, 8000) : message);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The failure a peer reported, or null. */
    private static String failureIn(byte[] contribution) {
        try {
            var in = new DataInputStream(new ByteArrayInputStream(contribution));
            return in.readBoolean() ? null : in.readUTF();
        } catch (IOException e) {
            return "a malformed contribution (" + e.getMessage() + ")";
        }
    }

    /** Fills in PE {@code pe}'s address, key and base from its published description. Caller holds the addresses' lock. */
    private void learn(int pe, byte[] contribution) {
        String failed = failureIn(contribution);
        if (failed != null) {
            throw new ShmemException("the UCX network engine failed on " + failed);
        }
        try {
            var in = new DataInputStream(new ByteArrayInputStream(contribution));
            in.readBoolean();
            bases[pe] = in.readLong();
            byte[] address = in.readNBytes(in.readInt());
            rkeys[pe] = in.readNBytes(in.readInt());
            addresses[pe] = arena.allocate(address.length).copyFrom(MemorySegment.ofArray(address));
        } catch (IOException e) {
            throw new ShmemException("PE " + pe + "'s UCX address is malformed: " + e.getMessage());
        }
    }

    /** How many peers this PE has looked up so far (for tests). */
    int peersKnown() {
        synchronized (addresses) {
            return (int) java.util.Arrays.stream(addresses).filter(java.util.Objects::nonNull).count();
        }
    }

    Ucx.Library ucx() {
        return ucx;
    }

    MemorySegment context() {
        return context;
    }

    ProgressAgent agent() {
        return agent;
    }

    /**
     * The peer's home worker address (native), looked up at the first call for it (which may wait
     * for the bootstrap's answer). Called before {@link #rkey} and {@link #base} of that peer, by
     * every channel's connect: their values are then known to the calling thread.
     */
    MemorySegment address(int pe) {
        if (!reaches(pe)) {
            throw new ShmemException("PE " + pe + " is not reached by the UCX network engine");
        }
        synchronized (addresses) {
            if (addresses[pe] == null) {
                learn(pe, directory.lookup(pe));
            }
            return addresses[pe];
        }
    }

    byte[] rkey(int pe) {
        return rkeys[pe];
    }

    /** The peer's region base; valid once {@link #address} returned for it (on the hot path: no lock). */
    long base(int pe) {
        return bases[pe];
    }

    int rank() {
        return rank;
    }

    /** Throws when the job is being torn down (a blocking operation that waits long asks). */
    void checkAlive() {
        health.checkAlive();
    }

    /**
     * Reports {@code pe} lost to the job and returns the exception the failing operation throws;
     * throws the job's own end instead when it is being torn down (a global exit, another PE's
     * failure), which is then why the peer went: its teardown can beat the news to this PE.
     */
    ShmemException peerLost(int pe, String message) {
        health.checkAlive();
        health.peerLost(pe, message);
        return new ShmemException(message);
    }

    /**
     * Progresses the home worker unless another thread does; how much advanced, counting as one
     * what the progress agent advanced since a waiter last asked (while the waiters park it serves
     * the peers, and a waiter that hears of it polls again instead of leaving each of their round
     * trips a wake-up of the agent).
     */
    int progressHome() {
        agent.waiterProgressed();
        long served = agent.served();
        int byAgent = served != agentServedSeen ? 1 : 0; // racy between waiters: at worst one extra poll
        agentServedSeen = served;
        if (homeLock.tryLock()) {
            try {
                return byAgent + (homeDestroyed ? 0 : (int) ucx.workerProgress.invokeExact(home));
            } catch (Throwable t) {
                throw new ShmemException("ucp_worker_progress failed: " + t, t);
            } finally {
                homeLock.unlock();
            }
        }
        return byAgent;
    }

    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public boolean reaches(int pe) {
        return pe >= 0 && pe < remote.length && remote[pe];
    }

    /**
     * RMA without the target's CPU only with an RDMA device: UCX emulates RMA with messages over
     * tcp, the only network transport of a node without one (InfiniBand, RoCE and iWARP devices all
     * appear under {@code /sys/class/infiniband}), and the target's CPU then answers each put. Atomics
     * as {@link #atomicsCoherentWithCpu(Map, boolean, boolean)} says; messages of up to
     * {@link SignalMessages#MAX_PAYLOAD} sent eagerly; a put with raise is one way up to
     * {@link SignalMessages#MAX_STREAMED} where puts travel as messages.
     */
    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    private static boolean noRdmaDevice() {
        try (var devices = Files.list(Path.of("/sys/class/infiniband"))) {
            return devices.findAny().isEmpty();
        } catch (IOException | SecurityException e) {
            return true; // no such directory: no RDMA stack at all
        }
    }

    @Override
    public Traffic traffic() {
        return traffic;
    }

    /**
     * Every mode gets the same serialized channel: its lock is uncontended for a private context,
     * and the progress agent needs it anyway (see {@link UcxChannel}). Its routes are the options'.
     */
    @Override
    public synchronized Channel openChannel(ChannelOptions options) {
        if (closed) {
            throw new IllegalStateException("the UCX transport is closed");
        }
        if (options.messagePutLimit() > SignalMessages.MAX_PAYLOAD) {
            throw new IllegalArgumentException("openChannel: a message put limit of " + options.messagePutLimit()
                    + " bytes exceeds UCX's messages' payload (" + SignalMessages.MAX_PAYLOAD + ")");
        }
        SenderIdentity as = retiredSenders.poll();
        UcxChannel c = new UcxChannel(this, options, addresses.length,
                as != null ? as : new SenderIdentity((long) rank << 32 | nextSender++, new long[addresses.length]));
        channels.add(c);
        return c;
    }

    /**
     * How a channel's messages are numbered at their targets: its key (this PE's rank and a number)
     * and how many it sent to each PE. Every target keeps a record per key it heard from; a closed
     * channel whose messages were all confirmed hands its identity to the next channel opened, so a
     * program that opens and closes contexts all along leaves as many records as it had contexts
     * open at once, not one per context ever created.
     */
    record SenderIdentity(long key, long[] sent) {}

    /** {@code c}'s session started (or stopped) batching. */
    void batching(UcxChannel c, boolean on) {
        if (on) {
            batching.addIfAbsent(c);
        } else {
            batching.remove(c);
        }
    }

    /** Sends every batching channel's batches that waited longer than their delay (channels in use check their own); true when one left. */
    boolean sendAgedBatches() {
        if (batching.isEmpty()) {
            return false;
        }
        long now = System.nanoTime();
        boolean any = false;
        for (UcxChannel c : batching) {
            any |= c.sendAgedBatches(now);
        }
        return any;
    }

    /** A closed channel; {@code retired}: its identity for reuse, or null when messages of it may be unconfirmed. */
    synchronized void forget(UcxChannel c, SenderIdentity retired) {
        channels.remove(c);
        if (retired != null) {
            retiredSenders.push(retired);
        }
    }

    /** How many sending channels this PE keeps a record of (for tests). */
    int sendersKnown() {
        return SignalMessages.sendersKnown(serving);
    }

    /**
     * Sends what {@code worker} still has queued, progressing it, for at most {@link #FLUSH_BOUND_NANOS}:
     * chiefly the connections under way, before the worker (or an endpoint of it) goes. UCX 1.13
     * aborts the process when a connection fails with its wireup reply still queued (an assertion
     * in {@code ucp_request_send_state_ff}, removed in 1.14): on the side that answers, when the
     * side that connects closes before the reply went out. So a home worker sends its replies
     * before it is destroyed, and a channel waits for its connections to be set up (or to fail:
     * the peer is gone) before it force-closes them. Bounded by time, not by the job's liveness:
     * a job that is ending is exactly when peers tear down while others still connect; a peer that
     * never answers cannot hold the teardown longer.
     */
    static void flushWithin(Ucx.Library ucx, MemorySegment worker) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment request = (MemorySegment) ucx.workerFlushNbx.invokeExact(worker, a.allocate(Ucx.REQUEST_PARAM_SIZE, 8));
            if (request.address() == 0 || Ucx.isError(request)) {
                return; // nothing was queued, or the flush failed at once (a peer is gone): nothing to wait for
            }
            long deadline = System.nanoTime() + FLUSH_BOUND_NANOS;
            while ((int) ucx.requestCheckStatus.invokeExact(request) == Ucx.INPROGRESS && System.nanoTime() - deadline < 0) {
                if ((int) ucx.workerProgress.invokeExact(worker) == 0) {
                    Thread.yield();
                }
            }
            if ((int) ucx.requestCheckStatus.invokeExact(request) != Ucx.INPROGRESS) {
                ucx.requestFree.invokeExact(request);
            } // else the worker's destruction releases it
        }
    }

    /** Closes channels still open, stops the agent, then releases the worker, the registration and the context. */
    @Override
    public void close() {
        List<UcxChannel> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open = List.copyOf(channels);
        }
        Throwable failed = null;
        for (UcxChannel c : open) {
            try {
                c.close();
            } catch (RuntimeException | Error e) { // the rest must still go: the heap is unmapped after this
                failed = first(failed, e);
            }
        }
        try {
            agent.stop(); // else it would progress the home worker into the unmapped heap
        } catch (RuntimeException e) {
            failed = first(failed, e);
        }
        homeLock.lock(); // no waiting thread progresses it from here on
        try {
            // Before the flush: a message or query handled during it would queue an answer that
            // the flush need not send. This PE has finalized or left: what still arrives is not needed.
            SignalMessages.stopServing(serving); // the region is unmapped after this
            flushWithin(ucx, home); // with the agent stopped, nothing handles a request that arrives after this
            ucx.workerDestroy.invokeExact(home);
            homeDestroyed = true;
            int ignored = (int) ucx.memUnmap.invokeExact(context, memh);
            ucx.cleanup.invokeExact(context);
        } catch (Throwable t) {
            throw new ShmemException("UCX teardown failed: " + t, t);
        } finally {
            homeLock.unlock();
            arena.close();
        }
        if (failed instanceof Error e) {
            throw e;
        }
        if (failed != null) {
            throw (RuntimeException) failed;
        }
    }

    private static Throwable first(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
