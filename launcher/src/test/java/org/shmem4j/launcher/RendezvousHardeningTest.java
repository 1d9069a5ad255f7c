package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.bootstrap.launcher.Wire;

/**
 * The rendezvous as an attacker or a careless client would meet it: before proving the job secret
 * a connection can make the launcher allocate only a small frame, cannot stretch the handshake by
 * trickling bytes, and cannot hold more than a bounded number of handshakes open.
 */
@Timeout(120)
class RendezvousHardeningTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final int HELLO_MS = 1500;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private Rendezvous rendezvous;
    private String host;
    private int port;

    @BeforeEach
    void start() throws IOException {
        Job job = new Job(1, "hardening", Path.of("/nonexistent-shm-dir"), log, timer);
        rendezvous = new Rendezvous(SECRET, job, log, HELLO_MS, java.net.InetAddress.getLoopbackAddress());
        rendezvous.start();
        String[] hp = rendezvous.address().split(":");
        host = hp[0];
        port = Integer.parseInt(hp[1]);
    }

    @AfterEach
    void stop() {
        rendezvous.close();
        timer.shutdownNow();
    }

    private String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    /** Waits (bounded) until {@code condition} holds; the bound is a hang guard, not a speed claim. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    /** Reads until the launcher closes the connection (bounded by the socket timeout). */
    private static void assertClosedByLauncher(Socket s) throws IOException {
        s.setSoTimeout(60_000);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[256];
        while (in.read(buf) >= 0) {
            // an ABORT frame may come first
        }
    }

    @Test
    void aHugeFrameHeaderBeforeTheSecretIsRefusedUnread() throws Exception {
        try (Socket s = new Socket(host, port)) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt((64 << 20) - 1); // the old limit: the launcher would have allocated 64 MiB
            out.writeByte(1);
            out.flush();
            assertClosedByLauncher(s);
        }
        await("the rejection is logged", () -> log().contains("outside 1.." + Wire.MAX_HELLO_BYTES));
    }

    @Test
    void aTricklingHandshakeEndsAtItsDeadline() throws Exception {
        try (Socket s = new Socket(host, port)) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(200);
            out.flush();
            // One byte at a time: every read returns, so only a deadline for the whole handshake ends it.
            try {
                for (int i = 0; i < 200; i++) {
                    out.writeByte(0);
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (IOException closed) {
                // the launcher closed it: what the test wants
            }
            assertClosedByLauncher(s);
        }
        await("the deadline is logged", () -> log().contains("no HELLO within " + HELLO_MS + " ms"));
    }

    @Test
    void handshakesInProgressAreBoundedBySheddingTheOldest() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < Rendezvous.MAX_UNAUTHENTICATED; i++) {
                idle.add(new Socket(host, port));
            }
            // One more: the oldest idle handshake is closed, not the newcomer (likelier a PE).
            try (Socket extra = new Socket(host, port)) {
                assertClosedByLauncher(idle.getFirst());
                await("the shed connection is logged", () -> log().contains("closed the oldest"));
                // The newcomer is served: a PE with the secret gets its WELCOME and its all-gather answered.
                assertAdmitted(extra);
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
        assertEquals(false, log().contains("wrong job secret"), log());
    }

    /** Sends a HELLO and an all-gather (a job of one PE) on {@code pe}; checks the WELCOME and the answer. */
    private static void assertAdmitted(Socket pe) throws IOException {
        pe.setSoTimeout(60_000);
        pe.getOutputStream().write(Wire.encode(new Wire.Hello(SECRET, 0, 1234, "localhost")));
        pe.getOutputStream().flush();
        var in = new java.io.DataInputStream(pe.getInputStream());
        Wire.Message welcome = Wire.read(in);
        assertTrue(welcome instanceof Wire.Welcome, String.valueOf(welcome));
        pe.getOutputStream().write(Wire.encode(new Wire.AllGather(0, new byte[] {42})));
        pe.getOutputStream().flush();
        Wire.Message answer = Wire.read(in);
        assertTrue(answer instanceof Wire.AllGatherResult r && r.blobs()[0][0] == 42, String.valueOf(answer));
    }
}
