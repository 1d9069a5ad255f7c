package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputForwarderTest {
    private static final String NOISE = "Runtime.exit(143) logging failed: Cannot invoke \"java.lang.Module.getClassLoader()\""
            + " because \"m\" is null\n";

    private static String forward(String pe, boolean tag, boolean ending) {
        return forward(pe, tag, ending, null);
    }

    private static String forward(String pe, boolean tag, boolean ending, java.util.function.Consumer<String> launcherLines) {
        var sink = new ByteArrayOutputStream();
        new OutputForwarder(new ByteArrayInputStream(pe.getBytes(StandardCharsets.UTF_8)), sink, 3, "stderr", tag, () -> ending,
                launcherLines).run();
        return sink.toString(StandardCharsets.UTF_8);
    }

    /** A line of oshrun's shell code on the PE's host goes to oshrun, not to the user's stream; the program's lines pass. */
    @Test
    void launcherLinesGoToTheLauncher() {
        var said = new java.util.ArrayList<String>();
        assertEquals("[1,3]<stderr>: mine\n", forward("\u0001oshrun: 2 PEs cannot fit host h1's memory\nmine\n", true, false, said::add));
        assertEquals(java.util.List.of("oshrun: 2 PEs cannot fit host h1's memory"), said);
        assertEquals("", forward("\u0001last, unended", false, false, said::add));
        assertEquals("last, unended", said.getLast());
        assertEquals("\u0001x\n", forward("\u0001x\n", false, false), "stdout, and srun's streams: no such lines");
    }

    /** A PE ended mid-line: its line ends there, so oshrun's next message starts a line of its own. */
    @Test
    void aLastPartialLineIsEnded() {
        assertEquals("a\nPE 45: Exception in thread \"main\" \n", forward("a\nPE 45: Exception in thread \"main\" ", false, false));
        assertEquals("[1,3]<stderr>: x\n", forward("x", true, false));
        assertEquals("whole\n", forward("whole\n", false, false));
    }

    /** The JDK's line for a SIGTERM during its boot is dropped while oshrun ends the job, and only then. */
    @Test
    void theJdksExitLoggingNoiseIsDroppedWhileTheJobEnds() {
        assertEquals("before\nafter\n", forward("before\n" + NOISE + "after\n", false, true));
        assertEquals("before\n" + NOISE, forward("before\n" + NOISE, false, false));
        assertEquals("", forward(NOISE.strip(), true, true));
        assertEquals("Runtime.exit(143) is what I call\n", forward("Runtime.exit(143) is what I call\n", false, true));
    }
}
