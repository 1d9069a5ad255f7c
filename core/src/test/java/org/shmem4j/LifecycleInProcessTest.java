package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;

/** init/finalize counting, re-initialisation, global exit and failure containment (spec 9.1, 9.2). */
@Timeout(120)
class LifecycleInProcessTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void nestedInitIsCountedAndReinitStartsAFreshEpoch(int npes) {
        InProcessTestSupport.run(npes, () -> {
            assertFalse(Shmem.queryInitialized());
            Shmem first = Shmem.init();
            Shmem nested = Shmem.initThread(ThreadLevel.SERIALIZED);
            assertSame(first, nested);
            assertEquals(ThreadLevel.MULTIPLE, nested.queryThread());
            SymmetricLongArray x = first.calloc(ValueLayout.JAVA_LONG, 1);
            nested.close(); // not the last: a barrier, nothing released
            assertTrue(Shmem.queryInitialized());
            x.set(0, 5);
            first.close();
            assertFalse(Shmem.queryInitialized());
            var e = assertThrows(IllegalStateException.class, () -> x.get(0));
            assertTrue(e.getMessage().contains("finalized"), e.getMessage());
            assertThrows(IllegalStateException.class, first::barrierAll);
            assertThrows(IllegalStateException.class, first::myPe);
            try (Shmem second = Shmem.init()) {
                assertNotSame(first, second);
                assertEquals(npes, second.nPes());
                SymmetricLongArray y = second.calloc(ValueLayout.JAVA_LONG, 1);
                second.p(y, 0, second.myPe(), (second.myPe() + 1) % npes);
                second.barrierAll();
                assertEquals((second.myPe() - 1 + npes) % npes, y.get(0));
                assertThrows(IllegalStateException.class, () -> second.p(x, 0, 1L, 0)); // an object of the old epoch
                y.close();
            }
        });
    }

    @Test
    void versionAndName() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                assertEquals(1, shmem.infoGetVersion()[0]);
                assertEquals(6, shmem.infoGetVersion()[1]);
                assertTrue(shmem.infoGetName().length() < Shmem.MAX_NAME_LEN);
            }
        });
    }

    @Test
    void globalExitEndsEveryPeWithItsStatus() {
        var result = InProcessTestSupport.runWith(4, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                if (shmem.myPe() == 2) {
                    shmem.globalExit(7);
                }
                shmem.barrierAll(); // the others wait here until the exit reaches them
            }
        });
        assertEquals(7, result.status());
        assertFalse(result.timedOut());
        assertTrue(result.failures().isEmpty(), result.failures().toString());
    }

    @Test
    void globalExitReachesPesParkedInAWait() {
        var result = InProcessTestSupport.runWith(3, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                if (shmem.myPe() == 1) {
                    // Only makes it likely that the others are parked in the barrier already; the
                    // exit must reach them wherever they are.
                    Thread.sleep(300);
                    shmem.globalExit(3);
                }
                shmem.barrierAll();
            }
        });
        assertEquals(3, result.status());
        assertTrue(result.failures().isEmpty(), result.failures().toString());
    }

    @Test
    void aFailingPeEndsTheOthersWaits() {
        var result = InProcessJob.run(3, InProcessTestSupport.env(), Duration.ofSeconds(60), () -> {
            try (Shmem shmem = Shmem.init()) {
                if (shmem.myPe() == 1) {
                    throw new IllegalStateException("boom on PE 1");
                }
                shmem.barrierAll();
            }
        });
        assertEquals(1, result.status());
        assertFalse(result.timedOut());
        assertTrue(result.failures().toString().contains("boom on PE 1"), result.failures().toString());
    }

    @Test
    void malformedSymmetricSizeIsReportedByInit() {
        var result = InProcessTestSupport.runWith(2, InProcessTestSupport.env("SHMEM_SYMMETRIC_SIZE", "12q"), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll();
            }
        });
        assertEquals(1, result.status());
        String all = result.failures().toString();
        assertTrue(all.contains("SHMEM_SYMMETRIC_SIZE") && all.contains("12q"), all);
    }

    @Test
    void aHeapLargerThanTheShmDirectoryIsRefusedClearly() {
        var result = InProcessTestSupport.runWith(2, InProcessTestSupport.env("SHMEM_SYMMETRIC_SIZE", "64t"), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll();
            }
        });
        assertEquals(1, result.status());
        String all = result.failures().toString();
        assertTrue(all.contains("bytes free") && all.contains("SHMEM_SYMMETRIC_SIZE"), all);
    }

    @Test
    void returningWithoutFinalizeIsAFailure() {
        var result = InProcessTestSupport.runWith(1, InProcessTestSupport.env(), () -> Shmem.init());
        assertEquals(1, result.status());
        assertTrue(result.failures().toString().contains("without calling shmem_finalize"));
    }
}
