package org.shmem4j.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Copies one PE stream (stdout or stderr) to the launcher's stream of the same kind, whole lines
 * at a time, so that lines of different PEs never interleave mid-line. Bytes pass through
 * unchanged (no charset decoding); with tagging each line gets Open MPI's
 * {@code [1,<rank>]<stdout>: } prefix. A last line without its newline (a PE ended mid-line) gets
 * one, so that it never runs into oshrun's next message.
 *
 * <p>While the job is being ended, the line the JDK prints when a SIGTERM reaches a JVM still
 * booting ({@code Runtime.exit(143) logging failed: ...}: its exit logging cannot start yet) is
 * dropped: it is noise from oshrun's own termination, not the program's.
 */
final class OutputForwarder implements Runnable {
    /** A line longer than this is forwarded in pieces rather than buffered without bound. */
    private static final int MAX_LINE = 64 << 10;

    /** The start of the JDK's line for an exit whose logging failed (java.lang.Shutdown). */
    private static final byte[] EXIT_LOGGING_NOISE = "Runtime.exit(".getBytes(StandardCharsets.US_ASCII);
    private static final String EXIT_LOGGING_FAILED = ") logging failed: ";

    private final InputStream in;
    private final OutputStream sink; // shared by all forwarders of one kind (a PrintStream)
    private final byte[] prefix;
    private final BooleanSupplier ending;
    private final Consumer<String> launcherLines;

    /** The first byte of a line for the launcher rather than the user (SOH: no program starts a line with it). */
    static final char LAUNCHER_LINE = '\u0001';

    /**
     * @param ending        true once oshrun is ending the job (its SIGTERMs' noise is dropped then)
     * @param launcherLines takes the {@link #LAUNCHER_LINE} lines (without that byte); null: they pass as any line
     */
    OutputForwarder(InputStream in, OutputStream sink, int rank, String kind, boolean tag, BooleanSupplier ending,
            Consumer<String> launcherLines) {
        this.in = in;
        this.sink = sink;
        this.prefix = tag ? ("[1," + rank + "]<" + kind + ">: ").getBytes(StandardCharsets.US_ASCII) : null;
        this.ending = ending;
        this.launcherLines = launcherLines;
    }

    /** Starts forwarding on a daemon thread and returns it. */
    Thread start(String name) {
        return Thread.ofPlatform().daemon().name(name).stackSize(128 << 10).start(this);
    }

    @Override
    public void run() {
        byte[] buf = new byte[8192];
        var pending = new ByteArrayOutputStream(); // a line begun but not yet ended
        var out = new ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        line(out, pending, buf, start, i + 1 - start);
                        start = i + 1;
                    }
                }
                pending.write(buf, start, n - start);
                if (pending.size() >= MAX_LINE) {
                    line(out, pending, buf, 0, 0);
                    out.write('\n');
                }
                emit(out); // every complete line read so far, in one write
            }
        } catch (IOException e) {
            // The PE is gone or its pipe broke; forward what we have.
        }
        if (pending.size() > 0) {
            line(out, pending, buf, 0, 0);
            if (out.size() > 0) { // (not a dropped line)
                out.write('\n'); // before the next tag, or oshrun's next message
            }
            emit(out);
        }
    }

    private void line(ByteArrayOutputStream out, ByteArrayOutputStream pending, byte[] b, int off, int len) {
        if (isExitLoggingNoise(pending, b, off, len) && ending.getAsBoolean()) {
            pending.reset();
            return;
        }
        if (launcherLines != null && (pending.size() > 0 ? pending.toByteArray()[0] : len > 0 ? b[off] : 0) == LAUNCHER_LINE) {
            pending.write(b, off, len);
            launcherLines.accept(pending.toString(StandardCharsets.UTF_8).substring(1).stripTrailing());
            pending.reset();
            return;
        }
        if (prefix != null) {
            out.writeBytes(prefix);
        }
        out.writeBytes(pending.toByteArray());
        pending.reset();
        out.write(b, off, len);
    }

    /** Whether pending + b[off, off + len) is the JDK's "Runtime.exit(N) logging failed: ..." line. */
    private static boolean isExitLoggingNoise(ByteArrayOutputStream pending, byte[] b, int off, int len) {
        int n = pending.size();
        if (n + len < EXIT_LOGGING_NOISE.length || n + len > 512) {
            return false;
        }
        byte[] head = n == 0 ? null : pending.toByteArray(); // a line split across reads: rare
        for (int i = 0; i < EXIT_LOGGING_NOISE.length; i++) {
            if ((i < n ? head[i] : b[off + i - n]) != EXIT_LOGGING_NOISE[i]) {
                return false;
            }
        }
        String line = (head == null ? "" : new String(head, StandardCharsets.US_ASCII)) + new String(b, off, len, StandardCharsets.US_ASCII);
        return line.matches("Runtime\\.exit\\(\\d+" + Pattern.quote(EXIT_LOGGING_FAILED) + "(?s).*");
    }

    private void emit(ByteArrayOutputStream out) {
        if (out.size() == 0) {
            return;
        }
        try {
            out.writeTo(sink); // one write call: the sink's lock keeps it whole
            sink.flush();
        } catch (IOException e) {
            // The launcher's own output is gone (closed pipe); keep draining the PE.
        }
        out.reset();
    }
}
