package org.shmem4j.transport.deferred;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Which PEs of one in-process job still have their regions mapped. A real network fails or drops
 * an operation to a process that is gone; here the target's region would be unmapped memory of the
 * same process, so a delivery holds the target's read lock and a closing PE takes its write lock.
 */
final class Liveness {
    private static final Map<String, Liveness> JOBS = new ConcurrentHashMap<>();

    private final String job;
    private final ReentrantReadWriteLock[] locks;
    private final boolean[] gone;
    private int open;

    private Liveness(String job, int npes) {
        this.job = job;
        this.locks = new ReentrantReadWriteLock[npes];
        this.gone = new boolean[npes];
        for (int pe = 0; pe < npes; pe++) {
            locks[pe] = new ReentrantReadWriteLock();
        }
    }

    /** The job's shared record; each PE of the job calls this once. */
    static Liveness join(String job, int npes) {
        Liveness l = JOBS.computeIfAbsent(job, j -> new Liveness(j, npes));
        synchronized (l) {
            l.open++;
        }
        return l;
    }

    /** Runs {@code delivery} unless {@code pe} is gone (then the operation is dropped, as by a network); says which. */
    boolean deliver(int pe, Runnable delivery) {
        var read = locks[pe].readLock();
        read.lock();
        try {
            if (gone[pe]) {
                return false;
            }
            delivery.run();
            return true;
        } finally {
            read.unlock();
        }
    }

    /** {@code pe} unmaps its region next: waits for deliveries in progress, refuses later ones. */
    void leave(int pe) {
        var write = locks[pe].writeLock();
        write.lock();
        try {
            gone[pe] = true;
        } finally {
            write.unlock();
        }
        synchronized (this) {
            if (--open == 0) {
                JOBS.remove(job);
            }
        }
    }
}
