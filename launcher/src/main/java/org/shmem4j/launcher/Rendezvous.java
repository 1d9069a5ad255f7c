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
import java.util.concurrent.TimeUnit;
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
 * connections are served at once. A new connection beyond that sheds the oldest handshake, not
 * itself: a PE sends its HELLO as soon as it is connected, so under a flood of idle connections
 * the newest are the likeliest to be the job's. A PE whose connection is shed anyway learns it
 * (no WELCOME came) and connects again, so no local client can keep the job's PEs out.
 */
final class Rendezvous implements AutoCloseable {
    /** A PE has this long after connecting to complete its HELLO. */
    private static final int HELLO_TIMEOUT_MS = 10_000;
    /** Connections still in their handshake, at most (a job's PEs connect once each, spread over time). */
    static final int MAX_UNAUTHENTICATED = 64;
    /** Rejections before the secret that are logged one by one; after them every 1000th. */
    private static final int LOGGED_REJECTS = 10;

    /** The launcher's end of one PE connection. */
    static final class Connection {
        private final Socket socket;
        private final DataOutputStream out;
        private final java.util.concurrent.locks.ReentrantLock sending = new java.util.concurrent.locks.ReentrantLock();

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        }

        /** Sends one pre-encoded frame; failures are ignored (the reader sees the connection end). */
        void sendFrame(byte[] frame) {
            sending.lock();
            try {
                write(frame);
            } finally {
                sending.unlock();
            }
        }

        /**
         * Sends {@code frame} unless another frame is being sent (to a PE whose host is gone, a
         * large frame can block for long): the heartbeat must never wait. True if it was sent.
         */
        boolean trySendFrame(byte[] frame) {
            if (!sending.tryLock()) {
                return false;
            }
            try {
                write(frame);
                return true;
            } finally {
                sending.unlock();
            }
        }

        private void write(byte[] frame) {
            try {
                out.write(frame);
                out.flush();
            } catch (IOException e) {
                // The PE is gone; its exit or EOF is reported through the job.
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

    private static final byte[] WELCOME = Wire.encodeFixed(new Wire.Welcome());

    private final ServerSocket server;
    private final byte[] secret;
    private final Job job;
    private final PrintStream log;
    /** Connections in their handshake, oldest first. Guarded by itself. */
    private final java.util.ArrayDeque<Handshake> handshakes = new java.util.ArrayDeque<>();
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("oshrun-handshake-deadline").factory());
    private final AtomicLong shed = new AtomicLong(), unauthenticatedRejects = new AtomicLong();
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

    /** One connection before its HELLO was judged; {@link #closedBecause} says why it was cut short. */
    private static final class Handshake {
        final Socket socket;
        volatile String closedBecause; // set before the close, so the reader's failure knows why

        Handshake(Socket socket) {
            this.socket = socket;
        }

        void close(String because) {
            closedBecause = because;
            closeQuietly(socket);
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                var h = new Handshake(s);
                Handshake oldest = null;
                synchronized (handshakes) {
                    if (handshakes.size() >= MAX_UNAUTHENTICATED) {
                        oldest = handshakes.pollFirst();
                    }
                    handshakes.addLast(h);
                }
                if (oldest != null) {
                    // Log the first, then every 1000th: a flood must not flood the job's stderr too.
                    long n = shed.incrementAndGet();
                    if (n == 1 || n % 1000 == 0) {
                        log.println("oshrun: " + MAX_UNAUTHENTICATED + " rendezvous connections are in their handshake;"
                                + " closed the oldest, from " + oldest.socket.getRemoteSocketAddress() + " (" + n + " so far)");
                    }
                    oldest.close("shed");
                }
                Thread.ofPlatform().daemon().name("oshrun-conn").stackSize(256 << 10).start(() -> serve(h));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.println("oshrun: rendezvous accept failed: " + e.getMessage());
                }
            }
        }
    }

    /** Ends {@code h}'s handshake; false if it had been cut short already (shed, or its deadline). */
    private boolean finishHandshake(Handshake h) {
        synchronized (handshakes) {
            return handshakes.remove(h) && h.closedBecause == null;
        }
    }

    private void serve(Handshake h) {
        Socket s = h.socket;
        String peer = String.valueOf(s.getRemoteSocketAddress());
        Connection c;
        DataInputStream in;
        Wire.Hello hello;
        // One deadline for the whole handshake: closing the socket ends the read wherever it is.
        String late = "no HELLO within " + helloTimeoutMs + " ms";
        ScheduledFuture<?> deadline = deadlines.schedule(() -> {
            synchronized (handshakes) { // not once the HELLO has been taken
                if (handshakes.remove(h)) {
                    h.close(late);
                }
            }
        }, helloTimeoutMs, TimeUnit.MILLISECONDS);
        try {
            s.setTcpNoDelay(true);
            c = new Connection(s);
            in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            Wire.Message first = Wire.read(in, Wire.MAX_HELLO_BYTES);
            if (!finishHandshake(h)) {
                throw new IOException("cut short");
            }
            if (!(first instanceof Wire.Hello hh)) {
                reject(s, null, peer, first == null ? "closed before HELLO" : "first frame is not HELLO", false);
                return;
            }
            hello = hh;
        } catch (IOException e) {
            finishHandshake(h);
            String why = h.closedBecause;
            if (!"shed".equals(why)) { // shed ones are counted in acceptLoop's log
                reject(s, null, peer, why != null ? why : e.getMessage(), false);
            }
            closeQuietly(s);
            return;
        } finally {
            deadline.cancel(false);
        }
        String why;
        boolean provedSecret = false;
        if (hello.magic() != Wire.MAGIC || hello.version() != Wire.VERSION) {
            why = "protocol version " + hello.version() + " is not " + Wire.VERSION;
        } else if (!MessageDigest.isEqual(secret, hello.secret().getBytes(StandardCharsets.UTF_8))) { // constant time
            why = "wrong job secret";
        } else {
            provedSecret = true;
            why = job.accept(hello.rank(), hello.pid(), hello.host(), c);
        }
        if (why != null) {
            reject(s, c, peer, why + " (claimed rank " + hello.rank() + ", pid " + hello.pid() + ")", provedSecret);
            return;
        }
        int rank = hello.rank();
        job.heard(rank);
        c.sendFrame(WELCOME); // a failure shows as the connection's end below
        try {
            while (true) {
                Wire.Message m = Wire.read(in);
                if (m != null) {
                    job.heard(rank); // any frame says the PE and its host are alive (the heartbeat)
                }
                // instanceof, not a type switch: see Wire.Message
                if (m == null) {
                    return;
                } else if (m instanceof Wire.Pong) {
                    // heard above
                } else if (m instanceof Wire.AllGather g) {
                    job.allGather(rank, g.seq(), g.blob());
                } else if (m instanceof Wire.Finalized) {
                    job.finalized(rank);
                } else if (m instanceof Wire.GlobalExit g) {
                    job.globalExit(rank, g.status());
                } else if (m instanceof Wire.PeerLost l) {
                    job.peerLost(rank, l.peer(), l.reason());
                } else if (m instanceof Wire.InitFailed f) {
                    job.initFailed(rank, f.reason());
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

    /** Logs and closes a connection, telling it {@code why} over {@code c} if not null. */
    private void reject(Socket s, Connection c, String peer, String why, boolean provedSecret) {
        // Before the secret anyone may connect: log the first few, then every 1000th, so a flood of
        // junk does not flood the job's stderr. Rejections of the secret's holders are all logged.
        long n = provedSecret ? 0 : unauthenticatedRejects.incrementAndGet();
        if (n <= LOGGED_REJECTS || n % 1000 == 0) {
            log.println("oshrun: rejected a rendezvous connection from " + peer + ": " + why
                    + (n == LOGGED_REJECTS ? " (further ones are counted, every 1000th logged)" : n > LOGGED_REJECTS ? " (" + n + " so far)" : ""));
        }
        if (c != null) {
            try {
                c.sendFrame(Wire.encode(new Wire.Abort(0, "oshrun rejected this connection: " + why)));
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
