package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.bootstrap.launcher.Wire;

/** Runs oshrun as a subprocess on {@link TestPe} jobs and checks output, statuses and containment. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OshrunTest {
    private static final Pattern PE_LINE = Pattern.compile(
            "PE (\\d+)/(\\d+) pid=(\\d+) job=(\\w+) host=(\\S+) rv=(\\S+) gathered=(\\S+)(?: secret=(\\w+))?(?: file=(\\S+))?");

    record Run(int status, String out, String err, long millis) {}

    @TempDir
    Path tmp;

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String PE_CP = location(TestPe.class);

    static ProcessBuilder oshrun(List<String> args) {
        var cmd = new ArrayList<>(List.of(Oshrun.javaExecutable(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", location(Oshrun.class) + java.io.File.pathSeparator + location(Bootstrap.class),
                Oshrun.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd);
    }

    static List<String> job(int n, String... modeArgs) {
        var a = new ArrayList<>(List.of("-n", Integer.toString(n), "--oversubscribe", "-cp", PE_CP, TestPe.class.getName()));
        a.addAll(List.of(modeArgs));
        return a;
    }

    private static Run run(List<String> args) throws Exception {
        return run(oshrun(args));
    }

    // Output goes to files: reading a pipe while Process reaps the child can fail with "Stream closed".
    static Run run(ProcessBuilder pb) throws Exception {
        Path out = Files.createTempFile("oshrun-out", ".txt"), err = Files.createTempFile("oshrun-err", ".txt");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
            long t0 = System.nanoTime();
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("oshrun did not end within 30 s; stderr: " + Files.readString(err));
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err), ms);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Starts oshrun with stdout as a pipe (to follow progress) and stderr into {@code err}. */
    private static Process startStreaming(List<String> args, Path err) throws IOException {
        Process p = oshrun(args).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        return p;
    }

    /** PE lines of the output, by rank. */
    static Matcher[] peLines(String out, int n) {
        var byRank = new Matcher[n];
        for (String line : out.split("\n")) {
            Matcher m = PE_LINE.matcher(line);
            if (m.find()) {
                byRank[Integer.parseInt(m.group(1))] = m;
            }
        }
        return byRank;
    }

    static String expectedGather(int n) {
        var s = new ArrayList<String>();
        for (int i = 0; i < n; i++) {
            s.add("r" + i);
        }
        return String.join(",", s);
    }

    private static void assertGone(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hang bound
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            assertTrue(System.nanoTime() < deadline, "PE pid " + pid + " still alive");
            Thread.sleep(20);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void everyPePrintsAndTheJobSucceeds(int n) throws Exception {
        Run r = run(job(n, "hello"));
        assertEquals(0, r.status(), r.err());
        Matcher[] lines = peLines(r.out(), n);
        String jobId = null;
        for (int i = 0; i < n; i++) {
            assertNotNull(lines[i], "line of PE " + i + " in\n" + r.out());
            assertEquals(Integer.toString(n), lines[i].group(2));
            assertEquals(expectedGather(n), lines[i].group(7), "all-gather in rank order");
            assertEquals(org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName(), lines[i].group(5));
            if (jobId == null) {
                jobId = lines[i].group(4);
            }
            assertEquals(jobId, lines[i].group(4), "one job id");
        }
        assertTrue(LaunchEnv.isValidJobId(jobId) && jobId.length() == 12, jobId);
        System.out.printf("[timing] oshrun -n %d hello (test JVM flags): %d ms%n", n, r.millis());
    }

    @Test
    void tagOutputUsesOpenMpiPrefixes() throws Exception {
        Run r = run(List.of("--tag-output", "-n", "2", "-cp", PE_CP, TestPe.class.getName()));
        assertEquals(0, r.status(), r.err());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(r.out().contains("[1," + rank + "]<stdout>: PE " + rank + "/2 "), r.out());
            assertTrue(r.err().contains("[1," + rank + "]<stderr>: err line from " + rank + "\n"), r.err());
        }
        for (String line : r.out().split("\n")) {
            assertTrue(line.matches("\\[1,[01]\\]<stdout>: PE [01]/2 .*"), "whole tagged line: " + line);
        }
    }

    @Test
    void concurrentOutputIsForwardedInWholeLines() throws Exception {
        Run r = run(List.of("--tag-output", "-n", "4", "-cp", PE_CP, TestPe.class.getName(), "spam"));
        assertEquals(0, r.status(), r.err());
        int spam = 0;
        for (String line : r.out().split("\n")) {
            if (line.contains("spam")) {
                assertTrue(line.matches("\\[1,(\\d)\\]<stdout>: spam \\1 \\d+ x{300}"), "mangled line: " + line);
                spam++;
            }
        }
        assertEquals(4 * 400, spam);
    }

    @Test
    void reinitialisationKeepsTheConnection() throws Exception {
        Run r = run(job(3, "reinit"));
        assertEquals(0, r.status(), r.err());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(r.out().contains("PE " + rank + " again gathered=r0,r1,r2 same=true"), r.out());
        }
    }

    @Test
    void programWithoutShmemSucceeds() throws Exception {
        Run r = run(job(2, "noshmem"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("plain program, rank 1"), r.out());
    }

    @Test
    void peExitingBeforeFinalizeEndsTheJob() throws Exception {
        Run r = run(job(3, "exit3", "1"));
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().matches("(?s).*oshrun: PE 1 \\(pid \\d+\\) exited with status 3 before finalizing; ending the job.*"),
                r.err());
        Matcher[] lines = peLines(r.out(), 3);
        for (int rank = 0; rank < 3; rank++) {
            assertGone(Long.parseLong(lines[rank].group(3)));
        }
        System.out.printf("[timing] exit3 job end to end: %d ms%n", r.millis());
    }

    /** oshrun's message never continues a PE's unfinished line. */
    @Test
    void aPesPartialLineEndsBeforeOshrunsMessage() throws Exception {
        Run r = run(job(2, "partialThenExit3", "1"));
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().contains("\nPE 1: half a line\n") || r.err().startsWith("PE 1: half a line\n"), r.err());
        for (String line : r.err().split("\n")) {
            assertTrue(!line.contains("oshrun:") || line.startsWith("oshrun:"), "a merged line: " + line);
        }
    }

    @Test
    void aPeThatLosesAPeerEndsTheJobNamingThePeer() throws Exception {
        // the peer's host may be gone: the job's message names it, not the PE that noticed and failed
        Run r = run(job(3, "peerLost", "1"));
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().matches("(?s).*oshrun: PE 2 \\(pid \\d+\\) cannot be reached from PE 1 \\(pid \\d+\\): "
                + "ucp_ep_create to PE 2 failed; ending the job.*"), r.err());
        assertFalse(r.err().contains("before finalizing"), "the PE that reported is not blamed: " + r.err());
        Matcher[] lines = peLines(r.out(), 3);
        for (int rank = 0; rank < 3; rank++) {
            assertGone(Long.parseLong(lines[rank].group(3)));
        }
    }

    @Test
    void sigkilledPeEndsTheJobWithinTwoSecondsAndShmIsCleaned() throws Exception {
        Path errFile = Files.createTempFile(tmp, "err", ".txt");
        Process p = startStreaming(job(4, "shmfile"), errFile);
        var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Matcher[] lines = new Matcher[4];
        int seen = 0;
        while (seen < 4) {
            String line = reader.readLine();
            assertNotNull(line, "oshrun ended early");
            Matcher m = PE_LINE.matcher(line);
            if (m.find()) {
                lines[Integer.parseInt(m.group(1))] = m;
                seen++;
            }
        }
        String jobId = lines[0].group(4);
        for (Matcher m : lines) {
            assertTrue(Files.exists(Path.of(m.group(9))), m.group(9));
        }
        long victim = Long.parseLong(lines[2].group(3));
        long t0 = System.nanoTime();
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly()); // SIGKILL
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "oshrun still running 60 s after the SIGKILL"); // a hang bound
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String e = Files.readString(errFile);
        assertEquals(128 + 9, p.exitValue(), e);
        assertTrue(e.contains("oshrun: PE 2 (pid " + victim + ") was killed by signal 9 (SIGKILL) before finalizing; ending the job"), e);
        for (Matcher m : lines) {
            assertGone(Long.parseLong(m.group(3)));
        }
        try (var left = Files.list(Path.of(LaunchEnv.DEFAULT_SHM_DIR))) {
            List<Path> mine = left.filter(f -> f.getFileName().toString().startsWith(LaunchEnv.shmFilePrefix(jobId))).toList();
            assertEquals(List.of(), mine, "shm files left behind");
        }
        System.out.printf("[timing] SIGKILL of PE 2 -> oshrun exit: %d ms%n", ms);
    }

    @Test
    void pesDieWhenTheLauncherIsKilled() throws Exception {
        Process p = startStreaming(job(2, "sleep"), Files.createTempFile(tmp, "err", ".txt"));
        var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        var pids = new ArrayList<Long>();
        while (pids.size() < 2) {
            String line = reader.readLine();
            assertNotNull(line, "oshrun ended early");
            Matcher m = PE_LINE.matcher(line);
            if (m.find()) {
                pids.add(Long.parseLong(m.group(3)));
            }
        }
        p.destroyForcibly(); // SIGKILL: no shutdown hook; the PEs must notice the lost connection
        p.waitFor();
        for (long pid : pids) {
            assertGone(pid);
        }
    }

    @Test
    void globalExitEndsTheJobWithItsStatus() throws Exception {
        Run r = run(job(3, "global7", "2"));
        assertEquals(7, r.status(), r.err());
        assertTrue(r.err().contains("called shmem_global_exit(7)"), r.err());
        Matcher[] lines = peLines(r.out(), 3);
        for (int rank = 0; rank < 3; rank++) {
            assertGone(Long.parseLong(lines[rank].group(3)));
        }
        System.out.printf("[timing] global exit job end to end: %d ms%n", r.millis());
    }

    @Test
    void timeoutEndsTheJobWith124() throws Exception {
        Run r = run(List.of("--timeout", "1", "-n", "2", "-cp", PE_CP, TestPe.class.getName(), "sleep"));
        assertEquals(124, r.status(), r.err());
        assertTrue(r.err().contains("--timeout"), r.err());
        System.out.printf("[timing] --timeout 1 job end to end: %d ms%n", r.millis());
    }

    @Test
    void missingPesAtTheRendezvousEndTheJob() throws Exception {
        var pb = oshrun(job(3, "noconnect", "1"));
        pb.environment().put(LaunchEnv.BOOTSTRAP_TIMEOUT_S, "1");
        Run r = run(pb);
        assertNotEquals(0, r.status());
        // PE 1 never connects; on a loaded machine PE 0 or 2 may also miss the 1 s bound and be named with it
        Matcher m = Pattern.compile("oshrun: (PE 1|PEs ([0-9, -]+) \\(\\d+\\)) did not reach the rendezvous").matcher(r.err());
        assertTrue(m.find(), r.err());
        assertTrue(m.group(2) == null || namesRank(m.group(2), 1), r.err());
    }

    /** Whether {@code ranges} ("0-2, 5", as PeRanges writes them) covers {@code rank}. */
    private static boolean namesRank(String ranges, int rank) {
        for (String part : ranges.split(", ")) {
            String[] ends = part.split("-");
            if (Integer.parseInt(ends[0]) <= rank && rank <= Integer.parseInt(ends[ends.length - 1])) {
                return true;
            }
        }
        return false;
    }

    @Test
    void peLeavingWhileOthersWaitInAnExchangeEndsTheJob() throws Exception {
        Run r = run(job(3, "finalizeThenExit", "0"));
        assertNotEquals(0, r.status());
        assertTrue(r.err().matches("(?s).*while PEs? [0-9, ()-]+ waits? for it in a collective bootstrap exchange.*"), r.err());
    }

    @Test
    void badConnectionsAreRejectedAndTheJobGoesOn() throws Exception {
        Path errFile = Files.createTempFile(tmp, "err", ".txt");
        Process p = startStreaming(job(2, "secret"), errFile);
        var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Matcher[] lines = new Matcher[2];
        for (int seen = 0; seen < 2; ) {
            String line = reader.readLine();
            assertNotNull(line, "oshrun ended early");
            Matcher m = PE_LINE.matcher(line);
            if (m.find()) {
                lines[Integer.parseInt(m.group(1))] = m;
                seen++;
            }
        }
        String rv = lines[0].group(6);
        String secret = lines[0].group(8);
        assertTrue(secret.length() >= 32, "128-bit hex secret: " + secret);
        String wrong = (secret.charAt(0) == '0' ? "1" : "0") + secret.substring(1);
        assertRejected(rv, new Wire.Hello(wrong, 1, 1, "localhost"), "wrong job secret");
        assertRejected(rv, new Wire.Hello(secret, 0, 1, "localhost"), "rank 0 has already connected");
        assertRejected(rv, new Wire.Hello(secret, 5, 1, "localhost"), "rank 5 is outside 0..1");
        assertTrue(p.isAlive(), "the job survives bad connections");

        p.destroy(); // SIGTERM to oshrun: its shutdown hook ends the PEs
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "oshrun still running 60 s after SIGTERM"); // a hang bound
        assertEquals(143, p.exitValue());
        String e = Files.readString(errFile);
        assertTrue(e.contains("rejected a rendezvous connection"), e);
        for (Matcher m : lines) {
            assertGone(Long.parseLong(m.group(3)));
        }
    }

    private static void assertRejected(String rv, Wire.Hello hello, String why) throws IOException {
        int colon = rv.lastIndexOf(':');
        try (var s = new Socket(rv.substring(0, colon), Integer.parseInt(rv.substring(colon + 1)))) {
            s.setSoTimeout(5000);
            Wire.write(new DataOutputStream(s.getOutputStream()), hello);
            var in = new DataInputStream(s.getInputStream());
            var m = Wire.read(in);
            assertInstanceOf(Wire.Abort.class, m);
            assertTrue(((Wire.Abort) m).reason().contains(why), ((Wire.Abort) m).reason());
            assertNull(Wire.read(in), "connection closed after the ABORT");
        }
    }

    /** Runs a job that oshrun must refuse before any PE starts, in one line; returns that line. */
    private static String refusedUpFront(ProcessBuilder pb) throws Exception {
        Run r = run(pb);
        assertEquals(Oshrun.CONFIGURATION_ERROR, r.status(), r.err());
        assertEquals("", r.out(), "no PE started");
        assertEquals(1, r.err().lines().count(), r.err());
        return r.err();
    }

    /** A job this machine cannot hold is refused before any PE starts, in one line naming the limit. */
    @Test
    void aJobBeyondTheMachinesMemoryIsRefusedUpFront() throws Exception {
        String err = refusedUpFront(oshrun(job(100_000, "hello")));
        assertTrue(err.matches("oshrun: 100000 PEs cannot fit this machine's memory: each PE's JVM needs about 32 MiB, .*"
                + "is available \\(MemAvailable\\), room for \\d+ PEs\n"), err);
    }

    @Test
    void aJobBeyondTheSharedMemoryIsRefusedUpFront() throws Exception {
        var pb = oshrun(job(4, "hello"));
        pb.environment().put("SHMEM_SYMMETRIC_SIZE", "1T");
        String err = refusedUpFront(pb);
        assertTrue(err.matches("oshrun: 4 PEs cannot fit \\S+ \\(SHMEM_SHM_DIR\\): each PE's heap file needs 1 TiB "
                + "\\(SHMEM_SYMMETRIC_SIZE \\+ SHMEM_RESERVED_SIZE\\), .* is free, room for \\d+ PEs\n"), err);
    }

    /** A bad SHMEM_* setting is said once by oshrun, in one line, not by every PE with its stack trace. */
    @Test
    void aBadSettingIsOneLineOncePerJob() throws Exception {
        var pb = oshrun(job(4, "hello"));
        pb.environment().put("SHMEM_SYMMETRIC_SIZE", "garbage");
        assertTrue(refusedUpFront(pb).startsWith("oshrun: SHMEM_SYMMETRIC_SIZE='garbage'"));
    }

    @Test
    void usageErrorsExitWith2() throws Exception {
        for (List<String> args : List.<List<String>>of(List.of(), List.of("-n"), List.of("-n", "0", "-cp", ".", "Main"),
                List.of("-cp", ".", "Main"), List.of("-n", "2", "Main"), List.of("-n", "2", "--timeout", "x", "-cp", ".", "M"),
                List.of("-n", "2", "-cp", "."), List.of("-n", "2", "-jar", "/nonexistent.jar"))) {
            Run r = run(args);
            assertEquals(2, r.status(), args + ": " + r.err());
            assertTrue(r.err().startsWith("oshrun: "), args + ": " + r.err());
        }
        Run help = run(List.of("--help"));
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: oshrun"), help.out());
    }

    @Test
    void badHostAndNodeCountsAreUsageErrors() throws Exception {
        for (List<String> args : List.<List<String>>of(List.of("-n", "2", "--hosts", "0", "-cp", ".", "Main"),
                List.of("--hosts", "-1", "-n", "2", "-cp", ".", "Main"), List.of("-n", "2", "--hosts", "3", "-cp", ".", "Main"),
                List.of("-n", "2", "--hosts", "two", "-cp", ".", "Main"), List.of("-n", "2", "--hosts"),
                List.of("-n", "2", "--nodes", "0", "-cp", ".", "Main"), List.of("-n", "2", "--nodes", "3", "-cp", ".", "Main"),
                List.of("-n", "2", "--nodes", "x", "-cp", ".", "Main"))) {
            Run r = run(args);
            assertEquals(2, r.status(), args + ": " + r.err());
            assertTrue(r.err().startsWith("oshrun: "), args + ": " + r.err());
        }
        assertTrue(run(List.of("-n", "2", "--hosts", "3", "-cp", ".", "Main")).err().contains("--hosts 3 is more than the PEs"));
        assertTrue(run(List.of("-n", "2", "--nodes", "3", "-cp", ".", "Main")).err().contains("--nodes 3 is more than the PEs"));
        assertEquals(3, LaunchOptions.parse(List.of("--nodes", "3", "-n", "4", "-cp", ".", "M")).nodes());
        assertEquals(0, LaunchOptions.parse(List.of("-n", "4", "-cp", ".", "M")).nodes());
        assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(List.of("-n", "4", "--hosts", "5", "-cp", ".", "M")));
        assertEquals(2, LaunchOptions.parse(List.of("--hosts", "2", "-n", "4", "-cp", ".", "M")).hosts());
        assertEquals(4, LaunchOptions.parse(List.of("-n", "4", "--hosts", "4", "-cp", ".", "M")).hosts());
        assertEquals(0, LaunchOptions.parse(List.of("-n", "4", "-cp", ".", "M")).hosts());
    }

    @Test
    void pseudoHostsDeclareHostIdsInBlocks() throws Exception {
        Run r = run(withHosts(job(5, "hello"), 2));
        assertEquals(0, r.status(), r.err());
        Matcher[] lines = peLines(r.out(), 5);
        String node = org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName();
        for (int rank = 0; rank < 5; rank++) {
            assertNotNull(lines[rank], r.out());
            assertEquals(node + "#" + (rank < 3 ? 0 : 1), lines[rank].group(5), r.out());
        }
    }

    /** Hosts named localhost start without ssh; more PEs than slots warn, as more PEs than cores do. */
    @Test
    void localhostInAHostListStartsLocallyAndMorePesThanSlotsWarn() throws Exception {
        var args = new ArrayList<>(List.of("--host", "localhost:2", "-n", "3", "-cp", PE_CP, TestPe.class.getName(), "hello"));
        Run r = run(args);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("3 PEs on 2 slots"), r.err());
        Matcher[] lines = peLines(r.out(), 3);
        for (int rank = 0; rank < 3; rank++) {
            assertNotNull(lines[rank], r.out());
            assertEquals(org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName(), lines[rank].group(5), r.out());
        }
        args.addFirst("--oversubscribe");
        assertFalse(run(args).err().contains("slots"));
    }

    /** With --nodes K alone, every pseudo-node is a host of its own, named after the machine. */
    @Test
    void pseudoNodesAreTheirOwnHostsInBlocks() throws Exception {
        var args = new ArrayList<>(List.of("--nodes", "2"));
        args.addAll(job(5, "hello"));
        Run r = run(args);
        assertEquals(0, r.status(), r.err());
        Matcher[] lines = peLines(r.out(), 5);
        String machine = org.shmem4j.bootstrap.launcher.LaunchEnv.kernelHostName();
        for (int rank = 0; rank < 5; rank++) {
            assertNotNull(lines[rank], r.out());
            assertEquals(machine + "/node" + (rank < 3 ? 0 : 1), lines[rank].group(5), r.out());
        }
    }

    private static List<String> withHosts(List<String> job, int hosts) {
        var a = new ArrayList<>(List.of("--hosts", Integer.toString(hosts)));
        a.addAll(job);
        return a;
    }

    @Test
    void jarModeReadsMainClassAndClassPathFromTheManifest(@TempDir Path dir) throws Exception {
        // app.jar only names the main class; the class itself lives in lib/pe.jar (Class-Path).
        Path lib = Files.createDirectories(dir.resolve("lib"));
        try (var jar = new JarOutputStream(Files.newOutputStream(lib.resolve("pe.jar")))) {
            jar.putNextEntry(new JarEntry("org/shmem4j/launcher/TestPe.class"));
            jar.write(Files.readAllBytes(Path.of(PE_CP, "org/shmem4j/launcher/TestPe.class")));
            jar.closeEntry();
        }
        var mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, TestPe.class.getName());
        mf.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/pe.jar");
        Path app = dir.resolve("app.jar");
        try (var jar = new JarOutputStream(Files.newOutputStream(app), mf)) {
            // manifest only
        }
        Run r = run(List.of("-n", "2", "-Dunused=1", "-jar", app.toString(), "hello"));
        assertEquals(0, r.status(), r.err());
        Matcher[] lines = peLines(r.out(), 2);
        assertNotNull(lines[0], r.out());
        assertNotNull(lines[1], r.out());
        assertEquals("r0,r1", lines[1].group(7));
    }

    @Test
    void parserSeparatesLauncherAndJvmOptions() throws Exception {
        var o = LaunchOptions.parse(List.of("--tag-output", "-np", "4", "-Xmx1g", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED", "--timeout", "2.5", "-cp", ".:/", "Main", "-n", "x"));
        assertEquals(4, o.pes());
        assertTrue(o.tagOutput());
        assertEquals(2500, o.timeout().toMillis());
        assertEquals(List.of("-Xmx1g", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"),
                o.jvmOptions());
        assertEquals(List.of(".", "/"), o.classpath());
        assertEquals("Main", o.mainClass());
        assertEquals(List.of("-n", "x"), o.programArgs(), "program args are not parsed");
    }

    @Test
    void describesSignalDeaths() {
        assertEquals("was killed by signal 9 (SIGKILL)", Job.describeExit(137));
        assertEquals("was killed by signal 15 (SIGTERM)", Job.describeExit(143));
        assertEquals("exited with status 3", Job.describeExit(3));
    }
}
