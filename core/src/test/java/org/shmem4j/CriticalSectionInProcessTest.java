package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mutual exclusion (spec 9.13 and a compare-swap spinlock built from 9.7) protecting a deliberately
 * non-atomic read-modify-write (g, then p) of a counter on PE 0. With 8 PEs on 2 cores the PEs are
 * preempted inside the critical section, which is exactly when a broken lock loses updates.
 */
@Timeout(180)
class CriticalSectionInProcessTest {
    private static final int ITER = 200;

    /** The unprotected read-modify-write, with a yield in the middle to widen the race window. */
    private static void increment(Shmem shmem, SymmetricLongArray counter, SymmetricLongArray owner, int me, int k) {
        long v = shmem.g(counter, 0, 0);
        shmem.p(owner, 0, me, 0); // who is inside: checked by the next line and by the next holder
        if ((k & 7) == 0) {
            Thread.yield();
        }
        assertEquals(me, shmem.g(owner, 0, 0), "another PE entered the critical section");
        shmem.p(counter, 0, v + 1, 0);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void setLockClearLockProtectsGetThenPut(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray owner = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int k = 0; k < ITER; k++) {
                    shmem.setLock(lock, 0);
                    increment(shmem, counter, owner, me, k);
                    shmem.clearLock(lock, 0); // clear_lock completes the p first
                }
                shmem.barrierAll();
                if (me == 0) {
                    assertEquals((long) n * ITER, counter.get(0), "lost updates under setLock/clearLock");
                }
                shmem.barrierAll();
                owner.close();
                counter.close();
                lock.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void compareSwapSpinlockProtectsGetThenPut(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricIntArray lock = shmem.calloc(ValueLayout.JAVA_INT, 1);
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray owner = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int k = 0; k < ITER; k++) {
                    while (shmem.atomicCompareSwap(lock, 0, 0, me + 1, 0) != 0) {
                        Thread.yield(); // oversubscribed: let the holder run
                    }
                    increment(shmem, counter, owner, me, k);
                    shmem.quiet(); // the p is complete before the lock is seen free
                    assertEquals(me + 1, shmem.atomicSwap(lock, 0, 0, 0), "the lock word changed while held");
                }
                shmem.barrierAll();
                if (me == 0) {
                    assertEquals((long) n * ITER, counter.get(0), "lost updates under the CAS spinlock");
                    assertEquals(0, lock.get(0));
                }
                shmem.barrierAll();
                owner.close();
                counter.close();
                lock.close();
            }
        });
    }

    /** Acquiring with a testLock polling loop instead of setLock gives the same exclusion. */
    @ParameterizedTest
    @ValueSource(ints = {3, 8})
    void testLockPollingProtectsGetThenPut(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray owner = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                for (int k = 0; k < ITER / 2; k++) {
                    if ((me + k) % 2 == 0) {
                        while (!shmem.testLock(lock, 1)) {
                            Thread.yield();
                        }
                    } else {
                        shmem.setLock(lock, 1); // mixed with blocking acquirers on the same lock
                    }
                    increment(shmem, counter, owner, me, k);
                    shmem.clearLock(lock, 1);
                }
                shmem.barrierAll();
                if (me == 0) {
                    assertEquals((long) n * (ITER / 2), counter.get(0), "lost updates with testLock/setLock mixed");
                }
                shmem.barrierAll();
                owner.close();
                counter.close();
                lock.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void testLockIsTrueWhenFreeAndFalseWhenHeld(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray locks = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                if (me == 0) {
                    shmem.setLock(locks, 0);
                }
                shmem.barrierAll();
                if (me != 0) {
                    assertFalse(shmem.testLock(locks, 0), "testLock acquired a lock held by PE 0");
                    assertFalse(shmem.testLock(locks, 0), "a failed testLock changed the lock");
                }
                shmem.barrierAll();
                // locks[1] is a different lock: free while locks[0] is held
                if (me == n - 1) {
                    assertTrue(shmem.testLock(locks, 1), "an unrelated lock is not free");
                }
                shmem.barrierAll();
                if (me == 0) {
                    assertFalse(shmem.testLock(locks, 1), "locks[1] is held by PE n-1");
                    shmem.clearLock(locks, 0);
                }
                shmem.barrierAll();
                if (me == 1) {
                    assertTrue(shmem.testLock(locks, 0), "the lock is free after clearLock");
                }
                shmem.barrierAll();
                if (me != 1) {
                    assertFalse(shmem.testLock(locks, 0), "testLock acquired a lock held by PE 1");
                }
                shmem.barrierAll();
                if (me == 1) {
                    shmem.clearLock(locks, 0);
                }
                if (me == n - 1) {
                    shmem.clearLock(locks, 1);
                }
                shmem.barrierAll();
                // exactly one of the PEs racing with testLock gets it
                boolean got = shmem.testLock(locks, 0);
                SymmetricIntArray winners = shmem.calloc(ValueLayout.JAVA_INT, 1);
                if (got) {
                    shmem.atomicInc(winners, 0, 0);
                }
                shmem.barrierAll();
                if (me == 0) {
                    assertEquals(1, winners.get(0), "testLock races must have exactly one winner");
                }
                if (got) {
                    shmem.clearLock(locks, 0);
                }
                shmem.barrierAll();
                // and the lock is reusable afterwards by everyone in turn
                for (int p = 0; p < n; p++) {
                    if (me == p) {
                        assertTrue(shmem.testLock(locks, 0), "PE " + p + " cannot take the free lock");
                        shmem.clearLock(locks, 0);
                    }
                    shmem.barrierAll();
                }
                winners.close();
                locks.close();
            }
        });
    }

    /** clearLock completes the holder's puts: the next holder reads them with a plain g. */
    @Test
    void clearLockPublishesPutsOfTheHolder() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricLongArray lock = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 64);
                for (int k = 0; k < 50; k++) {
                    shmem.setLock(lock, 0);
                    long[] cur = new long[64];
                    shmem.get(cur, 0, data, 0, 64, 1 % n);
                    for (int j = 1; j < 64; j++) {
                        assertEquals(cur[0], cur[j], "a holder saw a partial update of the previous holder");
                    }
                    java.util.Arrays.fill(cur, cur[0] + 1);
                    shmem.putNbi(data, 0, cur, 0, 64, 1 % n);
                    shmem.clearLock(lock, 0);
                }
                shmem.barrierAll();
                if (me == 1 % n) {
                    assertEquals(50L * n, data.get(63));
                }
                shmem.barrierAll();
                data.close();
                lock.close();
            }
        });
    }
}
