package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PE stopped (SIGSTOP) while its peers wait in a barrier: oshrun names it by rank and host, says
 * when it resumes, and with {@code --stopped-timeout} ends the job naming it.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StoppedPeTest {
    /** Bound of every wait for oshrun's output (a hang bound, not a timing claim). */
    private static final long WAIT_S = 45;

    @TempDir
    Path tmp;

    /** oshrun running {@code n} PEs in mode "stopped" (rank 1 waits for {@code go}), stderr into {@code err}. */
    private static Process start(List<String> extra, int n, Path go, Path err) throws IOException {
        var args = new ArrayList<>(extra);
        args.addAll(OshrunTest.job(n, "stopped", "1", go.toString()));
        Process p = OshrunTest.oshrun(args).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        return p;
    }

    /** The pids of the job's PEs, by rank, from their first lines. */
    private static long[] pids(Process oshrun, int n) throws IOException {
        var reader = new BufferedReader(new InputStreamReader(oshrun.getInputStream(), StandardCharsets.UTF_8));
        long[] pids = new long[n];
        int seen = 0;
        while (seen < n) {
            String line = reader.readLine();
            assertNotNull(line, "oshrun ended early");
            for (Matcher m : OshrunTest.peLines(line, n)) {
                if (m != null) {
                    pids[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(3));
                    seen++;
                }
            }
        }
        // The rest of stdout is drained so that the PEs never block on a full pipe.
        Thread.ofVirtual().start(() -> {
            try {
                reader.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // oshrun ended
            }
        });
        return pids;
    }

    private static void signal(String sig, long pid) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
        assertTrue(k.waitFor(10, TimeUnit.SECONDS));
    }

    /** Waits (at most {@value #WAIT_S} s) until {@code err} holds {@code text}; returns the whole text. */
    private static String awaitErr(Path err, String text, Process oshrun) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (true) {
            String e = Files.readString(err);
            if (e.contains(text)) {
                return e;
            }
            assertTrue(oshrun.isAlive() || Files.readString(err).contains(text), "oshrun ended without '" + text + "':\n" + e);
            assertTrue(System.nanoTime() < deadline, "no '" + text + "' within " + WAIT_S + " s:\n" + e);
            Thread.sleep(50);
        }
    }

    @Test
    void aStoppedPeIsNamedAndTheJobGoesOnWhenItResumes() throws Exception {
        Path go = tmp.resolve("go"), err = tmp.resolve("err.txt");
        Process p = start(List.of(), 3, go, err);
        long victim = -1;
        try {
            long[] pids = pids(p, 3);
            victim = pids[1];
            signal("STOP", victim);
            long t0 = System.nanoTime();
            String host = org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName();
            String named = "oshrun: PE 1 (pid " + victim + ") on " + host + " has been stopped (SIGSTOP or SIGTSTP) for ";
            awaitErr(err, named, p);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(p.isAlive(), "by default a stopped PE is only reported");
            signal("CONT", victim);
            awaitErr(err, "oshrun: PE 1 (pid " + victim + ") on " + host + " resumed after ", p);
            Files.writeString(go, "go"); // now the PE enters the barrier its peers wait in
            assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the job did not complete after the PE resumed");
            String e = Files.readString(err);
            assertEquals(0, p.exitValue(), e);
            assertTrue(e.contains("(--stopped-timeout SECONDS would end the job)"), e);
            System.out.printf("[timing] SIGSTOP of PE 1 -> oshrun names it: %d ms (first report after %d s)%n", ms,
                    StoppedPeWatch.FIRST_REPORT_S);
        } finally {
            if (victim > 0) {
                signal("CONT", victim);
            }
            p.destroyForcibly();
        }
    }

    @Test
    void stoppedTimeoutEndsTheJobNamingThePe() throws Exception {
        Path go = tmp.resolve("go"), err = tmp.resolve("err.txt");
        Process p = start(List.of("--stopped-timeout", "2"), 3, go, err);
        long victim = -1;
        try {
            long[] pids = pids(p, 3);
            victim = pids[1];
            signal("STOP", victim);
            long t0 = System.nanoTime();
            assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the job did not end with --stopped-timeout 2");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            String e = Files.readString(err);
            assertEquals(1, p.exitValue(), e);
            assertTrue(e.contains("oshrun: PE 1 (pid " + victim + ") on " + org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName()
                    + " has been stopped (SIGSTOP or SIGTSTP) for "), e);
            assertTrue(e.contains(" s (--stopped-timeout 2 s); ending the job"), e);
            for (long pid : pids) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    assertTrue(System.nanoTime() < deadline, "PE pid " + pid + " still alive");
                    Thread.sleep(20);
                }
            }
            System.out.printf("[timing] SIGSTOP of PE 1 -> oshrun exit with --stopped-timeout 2: %d ms%n", ms);
        } finally {
            if (victim > 0) {
                signal("CONT", victim);
            }
            p.destroyForcibly();
        }
    }

    @Test
    void theStateIsReadAfterTheCommandName() {
        assertEquals('T', StoppedPeWatch.stateOf("1234 (java) T 1 1234 ..."));
        assertEquals('t', StoppedPeWatch.stateOf("1234 (a) b) (c) t 1 1234 ..."));
        char mine = StoppedPeWatch.state(ProcessHandle.current().pid());
        assertTrue(mine == 'R' || mine == 'S', "this running JVM's state: " + mine);
        assertEquals(0, StoppedPeWatch.state(-5));
    }
}
