package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;

/** SHMEM_DEBUG's report of symmetric objects never freed, and the hint of a PE that forgot to finalize. */
class DiagnosticsInProcessTest {
    /** What the job printed on stderr (the test's PEs share this JVM's). */
    private static String stderrOf(int npes, Map<String, String> env, InProcessJob.Program program) {
        PrintStream saved = System.err;
        var captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            InProcessTestSupport.runWith(npes, env, program).orThrow();
        } finally {
            System.setErr(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static void leaky(Shmem shmem) {
        SymmetricLongArray kept = shmem.calloc(ValueLayout.JAVA_LONG, 4);
        SymmetricSegment freed = shmem.malloc(48);
        for (int i = 0; i < 2; i++) {
            shmem.malloc(100); // allocated here twice and never freed
        }
        freed.close();
        SymmetricLongArray grown = shmem.realloc(kept, 8);
        assertEquals(8, grown.length());
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 3})
    void debugModeReportsWhatWasNeverFreedAndWhere(int npes) {
        String err = stderrOf(npes, InProcessTestSupport.env("SHMEM_DEBUG", "1"), () -> {
            try (Shmem shmem = Shmem.init()) {
                leaky(shmem);
            }
        });
        String head = "shmem4j: debug: PE 0: 3 symmetric allocation(s) of 264 bytes never freed";
        assertTrue(err.contains(head), err);
        String report = err.substring(err.indexOf(head));
        assertTrue(report.contains("\n  2 x 100 bytes by shmem_malloc at org.shmem4j.DiagnosticsInProcessTest.leaky(DiagnosticsInProcessTest.java:"),
                report);
        assertTrue(report.contains("\n  1 x 64 bytes by shmem_realloc at org.shmem4j.DiagnosticsInProcessTest.leaky("), report);
        assertFalse(report.contains("48 bytes") || report.contains("shmem_calloc"), "freed or moved objects are not reported: " + report);
        assertEquals(1, err.split("never freed", -1).length - 1, "PE 0 reports for all: " + err);
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2})
    void withoutDebugModeNothingIsReported(int npes) {
        String err = stderrOf(npes, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                leaky(shmem);
            }
        });
        assertFalse(err.contains("never freed"), err);
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2})
    void aPeReturningWithoutFinalizingIsToldAboutTryWithResources(int npes) {
        InProcessJob.Result r = InProcessTestSupport.runWith(npes, InProcessTestSupport.env(), () -> {
            Shmem shmem = Shmem.init();
            shmem.barrierAll();
        });
        assertEquals(1, r.status());
        // Whichever PE returned first is reported; the others may fail by the job's abort, which names it.
        String message = r.failuresByPe().get(0).getMessage();
        assertTrue(message.matches("(?s).*returned without calling shmem_finalize \\(close\\); initialize with"
                + " try \\(Shmem shmem = Shmem.init\\(\\)\\) \\{ \\.\\.\\. \\}.*"), message);
        assertTrue(npes == 2 || message.startsWith("returned"), message);
        // the report names the PE: the message does not (so PEs failing alike are reported once)
        AssertionError report = assertThrows(AssertionError.class, r::orThrow);
        assertTrue(report.getMessage().matches("(?s).*\\n  PEs? [0-9, ()-]+: java.lang.IllegalStateException: returned without.*"),
                report.getMessage());
    }
}
