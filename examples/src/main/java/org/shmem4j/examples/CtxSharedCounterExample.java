package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.ThreadLevel;

/**
 * Spec Example 14 (section 9.5.3, {@code shmem_ctx_destroy}): shared-counter load balancing with
 * one private context per thread. Every PE has {@code ntasks = 1024} tasks counted by
 * {@code task_cntr}; each thread of each PE creates a {@code SHMEM_CTX_PRIVATE} context and claims
 * tasks with {@code shmem_atomic_fetch_inc} on that context, first on its own PE and then on the
 * next ones, until every PE's tasks are done; it then destroys its context. Runs on any number of
 * PEs.
 *
 * <p>The OpenMP parallel region becomes {@value #THREADS} Java platform threads per PE, its
 * {@code reduction(+ : tasks_done)} an {@link AtomicLong}. The spec ends with
 * {@code shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total_done, &tasks_done, 1)}; team reductions do
 * not exist yet, so the port computes the same {@code total_done} with an atomic add of
 * {@code tasks_done} to {@code total_done} on every PE followed by {@code shmem_barrier_all}. A
 * worker's failure is recorded and reported by the PE's main thread. Checks: the spec's
 * {@code total_done == ntasks * npes}; added: every PE's {@code task_cntr} ends at
 * {@code ntasks + THREADS * npes} (each thread's one unsuccessful claim per PE), and a private
 * context refuses a thread other than its creator.
 */
public final class CtxSharedCounterExample {
    static final int THREADS = 4;

    private CtxSharedCounterExample() {
    }

    public static void main(String[] args) throws InterruptedException {
        long ntasks = 1024; // Total tasks per PE
        try (Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE);
                SymmetricLongArray taskCntr = shmem.calloc(ValueLayout.JAVA_LONG, 1); // Next task counter
                SymmetricLongArray totalDone = shmem.calloc(ValueLayout.JAVA_LONG, 1)) { // Total tasks done by all PEs
            if (shmem.queryThread() != ThreadLevel.MULTIPLE) {
                shmem.globalExit(1);
            }
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            AtomicLong tasksDone = new AtomicLong(); // Tasks done by this PE
            var failures = new ConcurrentLinkedQueue<Throwable>();

            List<Thread> team = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                team.add(Thread.ofPlatform().name("pe-" + mype + "-worker-" + t).start(() -> {
                    try {
                        long done = 0;
                        int taskPe = mype;
                        int pesDone = 0;
                        try (Context ctx = shmem.ctxCreate(Context.CTX_PRIVATE)) {
                            // Process tasks on all PEs, starting with the local PE. After all
                            // tasks on a PE are completed, help the next PE.
                            while (pesDone < npes) {
                                long task = ctx.atomicFetchInc(taskCntr, 0, taskPe);
                                while (task < ntasks) {
                                    // Perform task (taskPe, task)
                                    done++;
                                    task = ctx.atomicFetchInc(taskCntr, 0, taskPe);
                                }
                                pesDone++;
                                taskPe = (taskPe + 1) % npes;
                            }
                            checkPrivate(ctx, taskCntr, mype);
                        }
                        tasksDone.addAndGet(done);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : team) {
                t.join();
            }
            if (!failures.isEmpty()) {
                Checks.fail(shmem, "a worker failed: " + failures);
            }

            // shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total_done, &tasks_done, 1), with AMOs
            shmem.barrierAll(); // no PE's task_cntr changes any more
            for (int pe = 0; pe < npes; pe++) {
                shmem.atomicAdd(totalDone, 0, tasksDone.get(), pe);
            }
            shmem.barrierAll();

            Checks.expectEquals(shmem, "total_done", ntasks * npes, totalDone.get(0));
            // added check
            Checks.expectEquals(shmem, "task_cntr", ntasks + (long) THREADS * npes, taskCntr.get(0));
        }
    }

    /** A private context used by another thread throws {@link WrongThreadException}. */
    private static void checkPrivate(Context ctx, SymmetricLongArray taskCntr, int mype) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                ctx.atomicFetch(taskCntr, 0, mype);
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        other.join();
        if (!(thrown[0] instanceof WrongThreadException)) {
            throw new AssertionError("a private context used by another thread gave " + thrown[0]);
        }
    }
}
