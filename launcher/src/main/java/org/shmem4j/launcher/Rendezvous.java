package org.shmem4j.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.shmem4j.bootstrap.launcher.Wire;

/**
 * The launcher's TCP service that PEs connect to: authenticates each connection's HELLO (job
 * secret, protocol version) and feeds the frames of accepted PEs to the {@link Job}. One daemon
 * thread accepts, one per connection reads.
 *
 * <p>Until a connection has proved the secret it costs the launcher little, whoever opens it: its
 * frames may not exceed {@link Wire#MAX_HELLO_BYTES}, the whole handshake has one deadline (a
 * peer trickling bytes cannot extend it), and at most {@link #MAX_UNAUTHENTICATED} such
 * connections are served at once; more are closed at once.
 */
final class Rendezvous implements AutoCloseable {
    /** A PE has this long after connecting to complete its HELLO. */
    private static final int HELLO_TIMEOUT_MS = 10_000;
    /** Connections still in their handshake, at most (a job's PEs connect once each, spread over time). */
    static final int MAX_UNAUTHENTICATED = 64;

    /** The launcher's end of one PE connection. */
    static final class Connection {
        private final Socket socket;
        private final DataOutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        }

        /** Sends one pre-encoded frame; failures are ignored (the reader sees the connection end). */
        void sendFrame(byte[] frame) {
            synchronized (out) {
                try {
                    out.write(frame);
                    out.flush();
                } catch (IOException e) {
                    // The PE is gone; its exit or EOF is reported through the job.
                }
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private final ServerSocket server;
    private final byte[] secret;
    private final Job job;
    private final PrintStream log;
    private final Semaphore handshakes = new Semaphore(MAX_UNAUTHENTICATED);
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("oshrun-handshake-deadline").factory());
    private final AtomicLong turnedAway = new AtomicLong();
    private final int helloTimeoutMs;

    /** Binds an ephemeral port on {@code address} (loopback for a job on this machine). */
    Rendezvous(String secret, Job job, PrintStream log, InetAddress address) throws IOException {
        this(secret, job, log, HELLO_TIMEOUT_MS, address);
    }

    Rendezvous(String secret, Job job, PrintStream log, int helloTimeoutMs, InetAddress address) throws IOException {
        this.server = new ServerSocket(0, 128, address);
        this.secret = secret.getBytes(StandardCharsets.US_ASCII);
        this.job = job;
        this.log = log;
        this.helloTimeoutMs = helloTimeoutMs;
    }

    /** {@code host:port} for {@code SHMEM4J_RENDEZVOUS} ({@code [v6]:port} for IPv6). */
    String address() {
        InetAddress a = server.getInetAddress();
        String host = a.getHostAddress();
        return (a instanceof java.net.Inet6Address ? "[" + host + "]" : host) + ":" + server.getLocalPort();
    }

    void start() {
        Thread.ofPlatform().daemon().name("oshrun-accept").stackSize(256 << 10).start(this::acceptLoop);
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                if (!handshakes.tryAcquire()) {
                    // Log the first, then every 1000th: a flood must not flood the job's stderr too.
                    long n = turnedAway.incrementAndGet();
                    if (n == 1 || n % 1000 == 0) {
                        log.println("oshrun: " + MAX_UNAUTHENTICATED + " rendezvous connections are already in their"
                                + " handshake; closed a new one from " + s.getRemoteSocketAddress() + " (" + n + " so far)");
                    }
                    closeQuietly(s);
                    continue;
                }
                Thread.ofPlatform().daemon().name("oshrun-conn").stackSize(256 << 10).start(() -> serve(s));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.println("oshrun: rendezvous accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void serve(Socket s) {
        String peer = String.valueOf(s.getRemoteSocketAddress());
        Connection c;
        DataInputStream in;
        Wire.Hello hello;
        // One deadline for the whole handshake: closing the socket ends the read wherever it is.
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = deadlines.schedule(() -> {
            expired.set(true); // before the close: the reader's failure must know why
            closeQuietly(s);
        }, helloTimeoutMs, TimeUnit.MILLISECONDS);
        try {
            s.setTcpNoDelay(true);
            c = new Connection(s);
            in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            Wire.Message first = Wire.read(in, Wire.MAX_HELLO_BYTES);
            if (!(first instanceof Wire.Hello h)) {
                reject(s, null, peer, first == null ? "closed before HELLO" : "first frame is not HELLO");
                return;
            }
            hello = h;
        } catch (IOException e) {
            reject(s, null, peer, expired.get() ? "no HELLO within " + helloTimeoutMs + " ms" : e.getMessage());
            return;
        } finally {
            deadline.cancel(false);
            handshakes.release();
        }
        if (expired.get()) { // the deadline fired just as the HELLO arrived
            reject(s, null, peer, "no HELLO within " + helloTimeoutMs + " ms");
            return;
        }
        String why;
        if (hello.magic() != Wire.MAGIC || hello.version() != Wire.VERSION) {
            why = "protocol version " + hello.version() + " is not " + Wire.VERSION;
        } else if (!MessageDigest.isEqual(secret, hello.secret().getBytes(StandardCharsets.UTF_8))) { // constant time
            why = "wrong job secret";
        } else {
            why = job.accept(hello.rank(), hello.pid(), hello.host(), c);
        }
        if (why != null) {
            reject(s, c, peer, why + " (claimed rank " + hello.rank() + ", pid " + hello.pid() + ")");
            return;
        }
        int rank = hello.rank();
        try {
            while (true) {
                Wire.Message m = Wire.read(in);
                // instanceof, not a type switch: see Wire.Message
                if (m == null) {
                    return;
                } else if (m instanceof Wire.AllGather g) {
                    job.allGather(rank, g.seq(), g.blob());
                } else if (m instanceof Wire.Finalized) {
                    job.finalized(rank);
                } else if (m instanceof Wire.GlobalExit g) {
                    job.globalExit(rank, g.status());
                } else if (m instanceof Wire.PeerLost l) {
                    job.peerLost(rank, l.peer(), l.reason());
                } else if (m instanceof Wire.Publish p) {
                    job.publish(rank, p.key(), p.blob());
                } else if (m instanceof Wire.Lookup l) {
                    job.lookup(rank, l.id(), l.peer(), l.key());
                } else {
                    throw new Wire.ProtocolException("unexpected " + m.getClass().getSimpleName() + " from a PE");
                }
            }
        } catch (IOException e) {
            if (e instanceof Wire.ProtocolException) {
                log.println("oshrun: PE " + rank + ": " + e.getMessage());
            }
        } finally {
            c.close();
            job.disconnected(rank);
        }
    }

    private void reject(Socket s, Connection c, String peer, String why) {
        log.println("oshrun: rejected a rendezvous connection from " + peer + ": " + why);
        if (c != null) {
            try {
                c.sendFrame(Wire.encode(new Wire.Abort("oshrun rejected this connection: " + why)));
            } catch (Wire.ProtocolException impossible) {
                // a short ABORT always fits
            }
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
