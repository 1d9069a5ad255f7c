package org.shmem4j.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies one PE stream (stdout or stderr) to the launcher's stream of the same kind, whole lines
 * at a time, so that lines of different PEs never interleave mid-line. Bytes pass through
 * unchanged (no charset decoding); with tagging each line gets Open MPI's
 * {@code [1,<rank>]<stdout>: } prefix.
 */
final class OutputForwarder implements Runnable {
    /** A line longer than this is forwarded in pieces rather than buffered without bound. */
    private static final int MAX_LINE = 64 << 10;

    private final InputStream in;
    private final OutputStream sink; // shared by all forwarders of one kind (a PrintStream)
    private final byte[] prefix;

    OutputForwarder(InputStream in, OutputStream sink, int rank, String kind, boolean tag) {
        this.in = in;
        this.sink = sink;
        this.prefix = tag ? ("[1," + rank + "]<" + kind + ">: ").getBytes(StandardCharsets.US_ASCII) : null;
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
            if (prefix != null) {
                out.write('\n'); // a tagged line must end before the next tag
            }
            emit(out);
        }
    }

    private void line(ByteArrayOutputStream out, ByteArrayOutputStream pending, byte[] b, int off, int len) {
        if (prefix != null) {
            out.writeBytes(prefix);
        }
        out.writeBytes(pending.toByteArray());
        pending.reset();
        out.write(b, off, len);
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
