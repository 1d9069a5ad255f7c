package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.ThreadLevel;

/**
 * Spec Example 16 (section 9.5.3, {@code SHMEM_CTX_INVALID}): a "library" gives each thread an
 * implicit context held in thread-local storage: {@code lib_thread_register} creates a private
 * context (or else a shareable one, or else falls back to the default context),
 * {@code lib_thread_putmem} puts on it, {@code lib_thread_unregister} destroys it. Every PE fills
 * {@code src_bufs[i]} ({@code count = 1 << 15} ints each) and puts it into {@code dst_bufs[mype]}
 * on PE {@code i}, the loops over {@code i} shared among the threads. Runs on any number of PEs.
 *
 * <p>The OpenMP parallel region becomes {@value #THREADS} Java platform threads per PE; each
 * {@code omp for} gives iteration {@code i} to thread {@code i % THREADS} (a static schedule) and
 * ends with the implied barrier (a {@link CyclicBarrier}); {@code omp_get_thread_num()} is the
 * thread's index; {@code _Thread_local} is a {@link ThreadLocal}, whose initial {@code null} is
 * {@code SHMEM_CTX_INVALID}; a failed {@code shmem_ctx_create} is an exception. A worker's failure
 * is recorded and reported by the PE's main thread. Checks (added; the C program checks nothing):
 * after a barrier, every {@code dst_bufs[j]} on PE {@code me} holds {@code (j << 10) + me % THREADS}
 * everywhere (PE {@code j}'s {@code src_bufs[me]}, filled by its thread {@code me % THREADS}), and
 * every thread got a private context.
 */
public final class ThreadCtxExample {
    static final int THREADS = 3;

    /**
     * The "library": its thread-local context handle. (An object per PE rather than statics, since
     * the tests run several PEs as threads of one JVM.)
     */
    private static final class Lib {
        private final Shmem shmem;
        private final ThreadLocal<Context> threadCtx = new ThreadLocal<>(); // null: SHMEM_CTX_INVALID
        private final ThreadLocal<Boolean> isPrivate = ThreadLocal.withInitial(() -> false);

        Lib(Shmem shmem) {
            this.shmem = shmem;
        }

        void threadRegister() {
            if (threadCtx.get() == null) {
                try {
                    threadCtx.set(shmem.ctxCreate(Context.CTX_PRIVATE));
                    isPrivate.set(true);
                } catch (RuntimeException privateFailed) {
                    try {
                        threadCtx.set(shmem.ctxCreate(0));
                    } catch (RuntimeException shareableFailed) {
                        threadCtx.set(shmem); // SHMEM_CTX_DEFAULT
                    }
                }
            }
        }

        void threadUnregister() {
            Context ctx = threadCtx.get();
            if (ctx != shmem) {
                ctx.close();
                threadCtx.remove();
            }
        }

        void threadPutmem(SymmetricIntArray dst, SymmetricIntArray src, int pe) {
            threadCtx.get().putmem(dst, 0, src.segment(), pe);
        }
    }

    private ThreadCtxExample() {
    }

    public static void main(String[] args) throws InterruptedException {
        try (Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE)) {
            Lib lib = new Lib(shmem);
            if (shmem.queryThread() != ThreadLevel.MULTIPLE) {
                shmem.globalExit(2);
            }
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int count = 1 << 15;

            SymmetricIntArray[] srcBufs = new SymmetricIntArray[npes];
            SymmetricIntArray[] dstBufs = new SymmetricIntArray[npes];
            for (int i = 0; i < npes; i++) {
                srcBufs[i] = shmem.calloc(ValueLayout.JAVA_INT, count);
                dstBufs[i] = shmem.calloc(ValueLayout.JAVA_INT, count);
            }

            CyclicBarrier ompBarrier = new CyclicBarrier(THREADS);
            var failures = new ConcurrentLinkedQueue<Throwable>();
            var privateContexts = new ConcurrentLinkedQueue<Boolean>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int myThrd = t;
                threads.add(Thread.ofPlatform().name("pe-" + mype + "-omp-" + t).start(() -> {
                    try {
                        for (int i = myThrd; i < npes; i += THREADS) { // omp for
                            srcBufs[i].fill((mype << 10) + myThrd);
                        }
                        ompBarrier.await();

                        lib.threadRegister();
                        privateContexts.add(lib.isPrivate.get());

                        for (int i = myThrd; i < npes; i += THREADS) { // omp for
                            lib.threadPutmem(dstBufs[mype], srcBufs[i], i);
                        }
                        ompBarrier.await();

                        lib.threadUnregister();
                    } catch (Throwable e) {
                        failures.add(e);
                        // Break the barrier for good (an interrupted await does), so that the
                        // other threads fail with BrokenBarrierException instead of waiting.
                        Thread.currentThread().interrupt();
                        try {
                            ompBarrier.await();
                        } catch (InterruptedException | BrokenBarrierException expected) {
                            // the barrier is broken now
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            if (!failures.isEmpty()) {
                Checks.fail(shmem, "a thread failed: " + failures.stream()
                        .filter(e -> !(e instanceof BrokenBarrierException)).findFirst().orElse(failures.peek()));
            }

            // added checks
            shmem.barrierAll();
            Checks.expectEquals(shmem, "private contexts", Collections.nCopies(THREADS, true), List.copyOf(privateContexts));
            for (int j = 0; j < npes; j++) {
                int expected = (j << 10) + mype % THREADS;
                int[] got = dstBufs[j].toArray();
                for (int k = 0; k < count; k++) {
                    if (got[k] != expected) {
                        Checks.fail(shmem, "dst_bufs[" + j + "][" + k + "] is " + got[k] + ", expected " + expected);
                    }
                }
            }
            shmem.barrierAll(); // (the C program frees nothing; shmem_finalize frees the heap)
        }
    }
}
