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
    private final int size;
    private final String jobId;
    private final Map<String, String> environment;
    private final byte[][][] rounds = new byte[2][][];
    private long generation;
    private int arrived;
    private volatile String abortReason;
    private volatile Integer exitStatus;

    public InProcessHub(int size, Map<String, String> environment) {
        if (size < 1) {
            throw new IllegalArgumentException("an in-process job needs at least 1 PE, not " + size);
        }
        this.size = size;
        this.environment = Map.copyOf(environment);
        this.jobId = "t" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
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
        return new JobMember(rank, size, jobId, "in-process") {
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
