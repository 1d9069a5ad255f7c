package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.bootstrap.launcher.Wire;

/**
 * A local client without the job secret floods oshrun's rendezvous from the instant it listens
 * (found as a hostile user would: oshrun's listening socket in {@code /proc}): 100 idle
 * connections at once, then new idle and junk connections as fast as it can (each new one replaces
 * the oldest of its 100) until the job ends. Every job's PEs must still get in and the job succeed.
 * {@code -Dshmem4j.flood.runs=20} repeats the job (the 20-of-20 measurement); CI runs 2.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class StartupFloodTest {
    private static final int IDLE = 100, PES = 4;

    @TempDir
    Path tmp;

    @Test
    void aFloodOfIdleAndJunkConnectionsAtStartUpLeavesEveryJobIntact() throws Exception {
        int runs = Integer.getInteger("shmem4j.flood.runs", 2);
        int ok = 0;
        var failures = new StringBuilder();
        for (int i = 0; i < runs; i++) {
            String failure = floodedJob(i);
            if (failure == null) {
                ok++;
            } else {
                failures.append("run ").append(i).append(": ").append(failure).append('\n');
            }
        }
        System.out.printf("[flood] %d of %d jobs intact under a start-up flood%n", ok, runs);
        assertEquals(runs, ok, failures.toString());
    }

    /** Runs one job under the flood; null when it succeeded, else what went wrong. */
    private String floodedJob(int run) throws Exception {
        Path out = tmp.resolve("out" + run), err = tmp.resolve("err" + run);
        Process p = OshrunTest.oshrun(OshrunTest.job(PES, "hello")).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        try {
            int port = listeningPort(p);
            var stop = new AtomicBoolean();
            var made = new AtomicLong();
            Thread flooder = Thread.ofPlatform().name("flooder").start(() -> flood(port, stop, made));
            boolean ended = p.waitFor(120, TimeUnit.SECONDS); // a hang bound
            stop.set(true);
            flooder.join();
            if (!ended) {
                return "oshrun did not end within 120 s; stderr:\n" + Files.readString(err);
            }
            String o = Files.readString(out), e = Files.readString(err);
            System.out.printf("[flood] run %d: %d flood connections, oshrun status %d%n", run, made.get(), p.exitValue());
            if (p.exitValue() != 0) {
                return "status " + p.exitValue() + "; stderr:\n" + e;
            }
            Matcher[] lines = OshrunTest.peLines(o, PES);
            for (int rank = 0; rank < PES; rank++) {
                if (lines[rank] == null || !lines[rank].group(7).equals(OshrunTest.expectedGather(PES))) {
                    return "PE " + rank + " did not report its all-gather; stdout:\n" + o + "\nstderr:\n" + e;
                }
            }
            assertTrue(made.get() > IDLE, "the flood opened " + made.get() + " connections");
            return null;
        } finally {
            p.destroyForcibly();
        }
    }

    /** The TCP port oshrun's process listens on, found in /proc as soon as it exists (bounded wait). */
    private static int listeningPort(Process p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Path fds = Path.of("/proc", Long.toString(p.pid()), "fd");
        while (true) {
            assertTrue(p.isAlive(), "oshrun ended before it listened");
            assertTrue(System.nanoTime() < deadline, "oshrun did not listen within 60 s");
            Set<String> inodes = new HashSet<>();
            try (var list = Files.list(fds)) {
                for (Path fd : (Iterable<Path>) list::iterator) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")) {
                            inodes.add(target.substring(8, target.length() - 1));
                        }
                    } catch (IOException closedMeanwhile) {
                        // the descriptor went away while listing
                    }
                }
            } catch (IOException notYet) {
                // the process is still being set up
            }
            for (String table : List.of("tcp", "tcp6")) {
                Path f = Path.of("/proc", Long.toString(p.pid()), "net", table);
                List<String> rows;
                try {
                    rows = Files.readAllLines(f);
                } catch (IOException e) {
                    continue;
                }
                for (String row : rows.subList(Math.min(1, rows.size()), rows.size())) {
                    String[] c = row.trim().split("\\s+");
                    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
                    if (c.length > 9 && c[3].equals("0A") && inodes.contains(c[9])) {
                        return Integer.parseInt(c[1].substring(c[1].indexOf(':') + 1), 16);
                    }
                }
            }
            Thread.onSpinWait();
        }
    }

    /**
     * {@value #IDLE} idle connections, then, until {@code stop}, each new connection replaces the
     * oldest: every fourth sends junk (a byte, a huge frame header, or a HELLO with a wrong secret).
     */
    private static void flood(int port, AtomicBoolean stop, AtomicLong made) {
        var address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        var open = new ArrayDeque<Socket>();
        byte[][] junk;
        try {
            junk = new byte[][] {{0x7f}, {0x03, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1},
                Wire.encode(new Wire.Hello("not the secret", 0, 1, "intruder"))};
        } catch (Wire.ProtocolException e) {
            throw new AssertionError(e);
        }
        try {
            for (long i = 0; !stop.get(); i++) {
                if (open.size() >= IDLE) {
                    open.pollFirst().close();
                }
                Socket s = new Socket();
                try {
                    s.connect(address, 10_000);
                } catch (IOException gone) { // oshrun has ended
                    s.close();
                    break;
                }
                made.incrementAndGet();
                if (i >= IDLE && i % 4 == 0) {
                    try {
                        OutputStream o = s.getOutputStream();
                        o.write(junk[(int) (i / 4 % junk.length)]);
                        o.flush();
                    } catch (IOException closedByOshrun) {
                        // shed or refused already
                    }
                }
                open.addLast(s);
            }
        } catch (IOException e) {
            System.out.println("[flood] the flood stopped: " + e); // the job's outcome is what is checked
        } finally {
            for (Socket s : open) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }
}
