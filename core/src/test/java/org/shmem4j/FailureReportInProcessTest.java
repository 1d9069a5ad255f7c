package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.shmem4j.inprocess.InProcessJob;

/** A job whose PEs fail alike reports each distinct failure once, with the PEs that had it. */
class FailureReportInProcessTest {
    private static final int PES = 48;

    @Test
    void everyPeFailingWithOneMessageIsOneLineNamingThemAll() {
        InProcessJob.Result r = InProcessTestSupport.runWith(PES, InProcessTestSupport.oneNodeEnv("SHMEM_SYMMETRIC_SIZE", "1m"), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll(); // every PE reaches the failure: none is stopped by another's first
                throw new IllegalStateException("the sum is wrong");
            }
        });
        AssertionError report = assertThrows(AssertionError.class, r::orThrow);
        assertEquals("in-process job failed with status 1: " + PES + " PEs failed\n  PEs 0-" + (PES - 1) + " (" + PES
                + "): java.lang.IllegalStateException: the sum is wrong", report.getMessage());
        assertEquals(1, report.getSuppressed().length, "one exception per distinct failure");
        assertEquals(PES, r.failuresByPe().size());
    }

    @Test
    void peersStoppedByOnePesFailureAreOneLineAndItIsAnother() {
        int failing = 5;
        InProcessJob.Result r = InProcessTestSupport.runWith(PES, InProcessTestSupport.oneNodeEnv("SHMEM_SYMMETRIC_SIZE", "1m"), () -> {
            Shmem shmem = Shmem.init();
            shmem.barrierAll();
            if (shmem.myPe() == failing) {
                throw new IllegalStateException("boom"); // without finalizing: the others only see the job end
            }
            shmem.barrierAll(); // the others wait here until the job's abort ends the wait
            shmem.close();
        });
        List<InProcessJob.Result.FailureGroup> groups = r.failureGroups();
        assertEquals(2, groups.size(), groups.toString());
        assertEquals("PEs 0-4, 6-" + (PES - 1) + " (" + (PES - 1) + "): org.shmem4j.ShmemException: job aborted: PE " + failing
                + " failed: java.lang.IllegalStateException: boom", groups.get(0).toString());
        assertEquals("PE 5: java.lang.IllegalStateException: boom", groups.get(1).toString());
        AssertionError report = assertThrows(AssertionError.class, r::orThrow);
        assertTrue(report.getMessage().startsWith("in-process job failed with status 1: " + PES + " PEs failed\n  "
                + groups.get(0) + "\n  " + groups.get(1)), report.getMessage());
    }

    /** A heap no PE can create: each PE's message names itself (every one used to name PE 0). */
    @Test
    void pesThatAllFailToCreateTheirHeapEachNameThemselves() {
        InProcessJob.Result r = InProcessTestSupport.runWith(3, InProcessTestSupport.oneNodeEnv("SHMEM_SYMMETRIC_SIZE", "1T"), () -> {
            try (Shmem shmem = Shmem.init()) {
                shmem.barrierAll();
            }
        });
        assertEquals(3, r.failuresByPe().size(), r.failureGroups().toString());
        r.failuresByPe().forEach((pe, e) -> assertTrue(e.getMessage().startsWith("shmem_init: PE " + pe
                + " could not create its symmetric heap: "), pe + ": " + e));
    }
}
