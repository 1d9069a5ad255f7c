package org.shmem4j.bootstrap;

import java.util.concurrent.ThreadLocalRandom;
import java.util.HexFormat;
import java.util.Map;
import org.shmem4j.ShmemException;
import org.shmem4j.ShmemGlobalExit;

/**
 * The rendezvous of a job whose PEs are threads of one JVM: all-gathers meet here (blocking, no
 * spinning), and a failure or global exit of one PE aborts the others' waits. Each PE talks to it
 * through its own {@link #bootstrap(int)}.
 */
public final class InProcessHub {
    /**
     * Environment variable of an in-process job: split its PEs into this many pseudo-hosts, PE
     * {@code r} of {@code n} on host {@code r * H / n} ({@link PseudoHosts#hostOf}), all on one
     * node (they still share memory); as {@code oshrun --hosts H}.
     */
    public static final String HOSTS = "SHMEM4J_INPROCESS_HOSTS";
    /**
     * Environment variable of an in-process job: split its PEs into this many pseudo-nodes (fewer
     * when the job has fewer PEs) in blocks as {@link #HOSTS} does, as {@code oshrun --nodes K}:
     * PEs of different pseudo-nodes do not map each other and talk through the network engine
     * ({@code SHMEM_NETWORK}).
     */
    public static final String NODES = "SHMEM4J_INPROCESS_NODES";
    /** Node id (and, without pseudo-hosts, host id) of every in-process PE of a one-node job. */
    public static final String NODE = "in-process";

    private final int size;
    private final int hosts;
    private final int nodes;
    private final String jobId;
    private final Map<String, String> environment;
    private final byte[][][] rounds = new byte[2][][];
    private long generation;
    private int arrived;
    /** Values published for lookup ({@link Bootstrap#publish}), by name, indexed by rank. */
    private final Map<String, byte[][]> published = new java.util.HashMap<>();
    /** Lookups waiting for a value: a publication wakes the hub's waiters only when there are some. */
    private int lookupsWaiting;
    private volatile String abortReason;
    private volatile Integer exitStatus;

    /** A hub for {@code size} PEs on the pseudo-hosts and nodes {@link #HOSTS} and {@link #NODES} ask for (default 1). */
    public InProcessHub(int size, Map<String, String> environment) {
        this(size, countFrom(environment, HOSTS, "pseudo-hosts"), environment);
    }

    /** A hub for {@code size} PEs split into {@code hosts} pseudo-hosts (1 to {@code size}), nodes as {@link #NODES} asks. */
    public InProcessHub(int size, int hosts, Map<String, String> environment) {
        this(size, hosts, Math.min(size, countFrom(environment, NODES, "pseudo-nodes")), environment);
    }

    /**
     * A hub for {@code size} PEs split into {@code hosts} pseudo-hosts and {@code nodes}
     * pseudo-nodes (each 1 to {@code size}); with several nodes, every host must lie within one.
     */
    public InProcessHub(int size, int hosts, int nodes, Map<String, String> environment) {
        if (size < 1) {
            throw new IllegalArgumentException("an in-process job needs at least 1 PE, not " + size);
        }
        checkCount(size, hosts, "pseudo-hosts");
        checkCount(size, nodes, "pseudo-nodes");
        this.size = size;
        this.hosts = hosts;
        this.nodes = nodes;
        this.environment = Map.copyOf(environment);
        this.jobId = "t" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
    }

    private static void checkCount(int size, int count, String what) {
        if (count < 1 || count > size) {
            throw new IllegalArgumentException("an in-process job of " + size + " PEs can have 1 to " + size + " " + what
                    + ", not " + count);
        }
    }

    private static int countFrom(Map<String, String> environment, String variable, String what) {
        String v = environment.get(variable);
        if (v == null || v.isBlank()) {
            return 1;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(variable + "=" + v + " is not a number of " + what);
        }
    }

    /** Number of pseudo-hosts. */
    public int hosts() {
        return hosts;
    }

    /** Number of pseudo-nodes. */
    public int nodes() {
        return nodes;
    }

    public String jobId() {
        return jobId;
    }

    /** Ends every wait of the job with {@code reason} (the first reason wins). */
    public synchronized void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        notifyAll();
    }

    /** The status of the first {@code global_exit}, or null. */
    public Integer exitStatus() {
        return exitStatus;
    }

    public String abortReason() {
        return abortReason;
    }

    private synchronized byte[][] allGather(int rank, byte[] mine) throws InterruptedException {
        checkAbort();
        long myGeneration = generation;
        int slot = (int) (myGeneration & 1);
        if (arrived == 0) {
            rounds[slot] = new byte[size][];
        }
        rounds[slot][rank] = mine.clone();
        if (++arrived == size) {
            arrived = 0;
            generation++;
            notifyAll();
        } else {
            while (generation == myGeneration) {
                checkAbort();
                wait();
            }
        }
        // Two slots suffice: nobody can start round g+2 before everyone has left round g+1's wait.
        return rounds[slot].clone();
    }

    /**
     * Keeps PE {@code rank}'s value under {@code key} and the all-gathers completed so far, a
     * count every PE sees alike between two all-gathers (the next cannot complete before this PE
     * arrives at it); returns that name.
     */
    private synchronized String publish(int rank, String key, byte[] mine) {
        checkAbort();
        String name = key + "@" + generation;
        published.computeIfAbsent(name, k -> new byte[size][])[rank] = mine.clone();
        if (lookupsWaiting > 0) { // else the PEs waiting in an all-gather would wake N times
            notifyAll();
        }
        return name;
    }

    /** The value PE {@code pe} published under {@code name}, once it has. */
    private synchronized byte[] lookup(int pe, String name) throws InterruptedException {
        while (true) {
            checkAbort();
            byte[][] values = published.get(name);
            if (values != null && values[pe] != null) {
                return values[pe];
            }
            lookupsWaiting++;
            try {
                wait();
            } finally {
                lookupsWaiting--;
            }
        }
    }

    private void checkAbort() {
        if (abortReason != null) {
            if (exitStatus != null) {
                throw new ShmemGlobalExit(exitStatus, abortReason);
            }
            throw new ShmemException("job aborted: " + abortReason);
        }
    }

    /** The bootstrap of PE {@code rank}. */
    public Bootstrap bootstrap(int rank) {
        String nodeId = nodes == 1 ? NODE : PseudoHosts.nodeId(NODE, PseudoHosts.hostOf(rank, size, nodes));
        String hostId = hosts == 1 ? nodeId : PseudoHosts.hostId(NODE, PseudoHosts.hostOf(rank, size, hosts));
        return new JobMember(rank, size, jobId, hostId, nodeId) {
            @Override
            public Map<String, String> environment() {
                return environment;
            }

            @Override
            public byte[][] allGather(byte[] mine) {
                try {
                    return InProcessHub.this.allGather(rank, mine);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ShmemException("interrupted in the bootstrap exchange");
                }
            }

            @Override
            public Directory publish(String key, byte[] mine) {
                String name = InProcessHub.this.publish(rank, key, mine);
                return pe -> {
                    try {
                        return InProcessHub.this.lookup(pe, name);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ShmemException("interrupted looking up PE " + pe + "'s " + name);
                    }
                };
            }

            @Override
            public void finalized() {
            }

            @Override
            public void globalExit(int status) {
                synchronized (InProcessHub.this) {
                    if (exitStatus == null) {
                        exitStatus = status;
                    }
                }
                abort("PE " + rank + " called shmem_global_exit(" + status + ")");
                throw new ShmemGlobalExit(status, "PE " + rank + " called shmem_global_exit(" + status + ")");
            }

            @Override
            public String abortReason() {
                return abortReason;
            }

            @Override
            public void checkAlive() {
                if (abortReason != null) {
                    checkAbort();
                }
            }

            @Override
            public void close() {
            }
        };
    }
}
