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

    /** A test's part once PE 1 of its job was stopped at {@code stoppedAt} ({@link System#nanoTime}). */
    private interface AfterStop {
        void run(Process oshrun, long[] pids, Path err, Path go, long stoppedAt) throws Exception;
    }

    /** Starts oshrun ({@code extra} options, {@code n} PEs), stops PE 1 once every PE runs, then runs {@code then}. */
    private void withPe1Stopped(List<String> extra, int n, AfterStop then) throws Exception {
        Path go = tmp.resolve("go"), err = tmp.resolve("err.txt");
        Process p = start(extra, n, go, err);
        long victim = -1;
        try {
            long[] pids = pids(p, n);
            victim = pids[1];
            signal("STOP", victim);
            then.run(p, pids, err, go, System.nanoTime());
        } finally {
            if (victim > 0) {
                signal("CONT", victim);
            }
            p.destroyForcibly();
        }
    }

    /** Resumes PE 1, waits for {@code resumed}, lets it into the barrier, and checks the job succeeds. */
    private static String resumeAndComplete(Process p, long victim, Path err, Path go, String resumed) throws Exception {
        signal("CONT", victim);
        awaitErr(err, resumed, p);
        Files.writeString(go, "go"); // now the PE enters the barrier its peers wait in
        assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the job did not complete after the PE resumed");
        String e = Files.readString(err);
        assertEquals(0, p.exitValue(), e);
        return e;
    }

    /** Waits for oshrun to end the job by itself; checks status 1; returns its stderr. */
    private static String awaitFailure(Process p, Path err) throws Exception {
        assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the job did not end");
        String e = Files.readString(err);
        assertEquals(1, p.exitValue(), e);
        return e;
    }

    private static final String HERE = org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName();

    @Test
    void aStoppedPeIsNamedAndTheJobGoesOnWhenItResumes() throws Exception {
        withPe1Stopped(List.of(), 3, (p, pids, err, go, t0) -> {
            awaitErr(err, "oshrun: PE 1 (pid " + pids[1] + ") on " + HERE + " has been stopped (SIGSTOP or SIGTSTP) for ", p);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(p.isAlive(), "by default a stopped PE is only reported");
            String e = resumeAndComplete(p, pids[1], err, go, "oshrun: PE 1 (pid " + pids[1] + ") on " + HERE + " resumed after ");
            assertTrue(e.contains("(--stopped-timeout SECONDS would end the job)"), e);
            System.out.printf("[timing] SIGSTOP of PE 1 -> oshrun names it: %d ms (first report after %d s)%n", ms,
                    StoppedPeWatch.FIRST_REPORT_S);
        });
    }

    @Test
    void stoppedTimeoutEndsTheJobNamingThePe() throws Exception {
        withPe1Stopped(List.of("--stopped-timeout", "2"), 3, (p, pids, err, go, t0) -> {
            String e = awaitFailure(p, err);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(e.contains("oshrun: PE 1 (pid " + pids[1] + ") on " + HERE + " has been stopped (SIGSTOP or SIGTSTP) for "), e);
            assertTrue(e.contains(" s (--stopped-timeout 2 s); ending the job"), e);
            for (long pid : pids) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    assertTrue(System.nanoTime() < deadline, "PE pid " + pid + " still alive");
                    Thread.sleep(20);
                }
            }
            System.out.printf("[timing] SIGSTOP of PE 1 -> oshrun exit with --stopped-timeout 2: %d ms%n", ms);
        });
    }

    /**
     * {@code --host localhost:1,farhost:K} through a stand-in for ssh that runs the remote command
     * here: the PEs of "farhost" are remote to oshrun (heartbeat, no {@code /proc} watch).
     */
    private List<String> overFakeSsh(int onFarHost) throws IOException {
        Path fake = tmp.resolve("fake-ssh.sh");
        Files.writeString(fake, """
                while [ "$1" = -o ]; do shift 2; done
                shift
                exec sh -c "$1"
                """);
        return List.of("--host", "localhost:1,farhost:" + onFarHost, "--ssh", "sh " + fake, "--rendezvous-address", "127.0.0.1");
    }

    @Test
    void aRemoteHostWhosePesAllStopAnsweringEndsTheJobNamingIt() throws Exception {
        // A host whose every PE is stopped cannot be told from a vanished one: the heartbeat's case.
        withPe1Stopped(overFakeSsh(1), 2, (p, pids, err, go, t0) -> {
            String e = awaitFailure(p, err);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(e.contains("oshrun: host farhost has not answered for "), e);
            assertTrue(e.contains("PE 1 (pid " + pids[1] + " on host farhost)"), e);
            System.out.printf("[timing] the only PE of a remote host stopped -> oshrun exit (heartbeat 1 s): %d ms%n", ms);
        });
    }

    @Test
    void aSilentPeOfALiveRemoteHostIsNamedAndTheJobGoesOn() throws Exception {
        // A 3 s heartbeat: what is tested is the report of the silent PE (after 5 s), and PE 2 must
        // keep its host alive even when a loaded machine delays one of its answers past 1 s.
        var args = new java.util.ArrayList<>(overFakeSsh(2));
        args.addAll(List.of("--heartbeat", "3"));
        withPe1Stopped(args, 3, (p, pids, err, go, t0) -> {
            awaitErr(err, "oshrun: PE 1 (pid " + pids[1] + " on host farhost) has not answered oshrun for ", p);
            assertTrue(p.isAlive(), "PE 2 keeps farhost alive; a silent PE is only reported");
            resumeAndComplete(p, pids[1], err, go, "oshrun: PE 1 (pid " + pids[1] + " on host farhost) answers again after ");
        });
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
