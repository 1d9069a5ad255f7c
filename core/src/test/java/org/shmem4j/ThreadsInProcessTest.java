package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SHMEM_THREAD_MULTIPLE: threads of one PE issue RMA concurrently (spec 9.2). */
@Timeout(120)
class ThreadsInProcessTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 2000;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void concurrentPutsAndGetsFromSeveralThreadsArriveExactly(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE);
                    ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
                assertEquals(ThreadLevel.MULTIPLE, shmem.queryThread());
                int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
                SymmetricLongArray dest = shmem.calloc(ValueLayout.JAVA_LONG, (long) THREADS * PER_THREAD);
                List<Future<Long>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    Callable<Long> work = () -> {
                        long checked = 0;
                        for (int i = 0; i < PER_THREAD; i++) {
                            long index = (long) thread * PER_THREAD + i;
                            long value = me * 1_000_000L + index;
                            if (i % 2 == 0) {
                                shmem.p(dest, index, value, right);
                            } else {
                                shmem.put(dest, index, new long[] {value}, 0, 1, right);
                            }
                            if (shmem.g(dest, index, right) == value) { // my own earlier write to right
                                checked++;
                            }
                        }
                        return checked;
                    };
                    done.add(pool.submit(work));
                }
                for (Future<Long> f : done) {
                    assertEquals(PER_THREAD, f.get());
                }
                shmem.barrierAll();
                int left = (me - 1 + n) % n;
                for (long index = 0; index < (long) THREADS * PER_THREAD; index++) {
                    assertEquals(left * 1_000_000L + index, dest.get(index));
                }
                shmem.barrierAll();
                dest.close();
            }
        });
    }
}
