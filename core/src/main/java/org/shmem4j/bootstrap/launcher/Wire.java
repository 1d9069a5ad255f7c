package org.shmem4j.bootstrap.launcher;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The framing spoken between {@code oshrun} and its PEs over one TCP connection per PE.
 *
 * <pre>
 * frame   := length:u32 type:u8 body        (length counts type and body, 1..MAX_FRAME_BYTES)
 * string  := n:i32 utf8[n]
 * bytes   := n:i32 byte[n]
 * HELLO            1  magic:i32 version:u16 secret:string rank:i32 pid:i64 host:string   PE -> launcher
 * ALLGATHER        2  seq:i64 blob:bytes                                      PE -> launcher
 * ALLGATHER_RESULT 3  seq:i64 count:i32 bytes[count]   (indexed by rank)      launcher -> PE
 * FINALIZED        4  (empty)                                                 PE -> launcher
 * GLOBAL_EXIT      5  status:i32                                              PE -> launcher
 * ABORT            6  grace:i32 reason:string  (the job is being torn down; the program
 *                     may take grace ms to end and report)                    launcher -> PE
 * PEER_LOST        7  peer:i32 reason:string  (the PE cannot reach peer)       PE -> launcher
 * PUBLISH          8  key:string blob:bytes  (kept for LOOKUPs of this PE)      PE -> launcher
 * LOOKUP           9  id:i64 peer:i32 key:string  (answered once peer published) PE -> launcher
 * LOOKUP_RESULT   10  id:i64 blob:bytes                                      launcher -> PE
 * WELCOME         11  (empty)   (the HELLO was accepted: the PE is in the job)  launcher -> PE
 * PING            12  (empty)   (heartbeat: answer with PONG)                  launcher -> PE
 * PONG            13  (empty)                                                 PE -> launcher
 * INIT_FAILED     14  reason:string  (shmem_init failed: oshrun reports it)   PE -> launcher
 * </pre>
 *
 * A PE sends nothing after its HELLO until the launcher's first frame: WELCOME (it is in), or
 * ABORT (it was rejected, or the job is ending). A connection closed before either was never part
 * of the job (the launcher sheds handshakes under a flood, see oshrun's Rendezvous), so the PE
 * connects again.
 *
 * All integers are big-endian ({@link DataOutputStream}). A PE's all-gather sequence numbers
 * start at 0 and grow by one per call for the life of its process (across re-initialisation).
 * Writers must serialise their {@link #write} calls on a stream; {@link #read} is meant for one
 * reader thread per stream.
 */
public final class Wire {
    /** Largest frame either side accepts: bounds memory when a stream is corrupt or foreign. */
    public static final int MAX_FRAME_BYTES = 64 << 20;
    /**
     * Largest frame a connection may send before it has proved the job secret: a HELLO is a few
     * dozen bytes, and nothing unauthenticated may make the launcher allocate more.
     */
    public static final int MAX_HELLO_BYTES = 1024;
    /** First field of HELLO, "SHJ4": rejects strangers that happen to connect. */
    public static final int MAGIC = 0x53484A34;
    /** Protocol version carried in HELLO. */
    public static final int VERSION = 8;

    static final byte HELLO = 1, ALLGATHER = 2, ALLGATHER_RESULT = 3, FINALIZED = 4, GLOBAL_EXIT = 5, ABORT = 6, PEER_LOST = 7, PUBLISH = 8,
            LOOKUP = 9, LOOKUP_RESULT = 10, WELCOME = 11, PING = 12, PONG = 13, INIT_FAILED = 14;

    private Wire() {}

    /**
     * A decoded frame. Each kind writes its own type byte and body: a {@code switch} over the
     * kinds would be a type switch, whose dispatch class the JDK generates at run time in every PE
     * (its AOT cache cannot hold it), which made up a good part of a PE's start-up CPU.
     */
    public sealed interface Message {
        /** Writes the frame's type byte and body. */
        void writeBody(DataOutputStream d) throws IOException;
    }

    /** First frame of every PE connection; {@code host} is the PE's kernel host name (for messages). */
    public record Hello(int magic, int version, String secret, int rank, long pid, String host) implements Message {
        /** A HELLO of the current protocol version. */
        public Hello(String secret, int rank, long pid, String host) {
            this(MAGIC, VERSION, secret, rank, pid, host);
        }

        @Override
        public String toString() { // keeps the secret out of logs
            return "Hello[rank=" + rank + ", pid=" + pid + ", host=" + host + ", version=" + version + "]";
        }

        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(HELLO);
            d.writeInt(magic);
            d.writeShort(version);
            writeString(d, secret);
            d.writeInt(rank);
            d.writeLong(pid);
            writeString(d, host);
        }
    }

    /** One PE's contribution to the all-gather number {@code seq}. */
    public record AllGather(long seq, byte[] blob) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(ALLGATHER);
            d.writeLong(seq);
            writeBytes(d, blob);
        }
    }

    /** Every PE's contribution to all-gather {@code seq}, indexed by rank. */
    public record AllGatherResult(long seq, byte[][] blobs) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(ALLGATHER_RESULT);
            d.writeLong(seq);
            d.writeInt(blobs.length);
            for (byte[] b : blobs) {
                writeBytes(d, b);
            }
        }
    }

    /** The PE finalized; its exit from now on counts as normal. */
    public record Finalized() implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(FINALIZED);
        }
    }

    /** The PE called {@code shmem_global_exit(status)}. */
    public record GlobalExit(int status) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(GLOBAL_EXIT);
            d.writeInt(status);
        }
    }

    /**
     * The PE's network transport lost {@code peer} (its endpoint failed or it cannot be reached):
     * the launcher names that peer, whose host may be gone, rather than the PE that noticed.
     */
    public record PeerLost(int peer, String reason) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(PEER_LOST);
            d.writeInt(peer);
            writeString(d, reason);
        }
    }

    /**
     * The PE's {@code shmem_init} failed with {@code reason} (a configuration error, most often the
     * same on every PE): the launcher reports it once for the job, and the PE prints nothing more.
     */
    public record InitFailed(String reason) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(INIT_FAILED);
            writeString(d, reason);
        }
    }

    /** The PE's value under {@code key}, which the launcher keeps for the other PEs' {@link Lookup}s. */
    public record Publish(String key, byte[] blob) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(PUBLISH);
            writeString(d, key);
            writeBytes(d, blob);
        }
    }

    /** Asks for the value {@code peer} published under {@code key}; {@code id} names the answer. */
    public record Lookup(long id, int peer, String key) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(LOOKUP);
            d.writeLong(id);
            d.writeInt(peer);
            writeString(d, key);
        }
    }

    /** The answer to lookup {@code id}. */
    public record LookupResult(long id, byte[] blob) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(LOOKUP_RESULT);
            d.writeLong(id);
            writeBytes(d, blob);
        }
    }

    /** The launcher accepted the PE's HELLO: its connection is the PE's for the life of the job. */
    public record Welcome() implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(WELCOME);
        }
    }

    /**
     * The launcher's heartbeat: the PE's reader thread answers with {@link Pong} at once, so an
     * answer says the PE's host, its network and the PE itself are alive (a stopped PE, or one
     * whose JVM is paused, does not answer until it runs again).
     */
    public record Ping() implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(PING);
        }
    }

    /** A PE's answer to {@link Ping}. */
    public record Pong() implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(PONG);
        }
    }

    /**
     * The launcher is tearing the job down for {@code reason}; the PE's program may take
     * {@code graceMs} to end (and report its own failure, if it is the one that failed) before
     * the PE halts.
     */
    public record Abort(int graceMs, String reason) implements Message {
        @Override
        public void writeBody(DataOutputStream d) throws IOException {
            d.writeByte(ABORT);
            d.writeInt(graceMs);
            writeString(d, reason);
        }
    }

    /** Thrown for frames that violate this protocol. */
    public static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        public ProtocolException(String message) {
            super(message);
        }
    }

    /** Writes {@code m} as one frame and flushes. */
    public static void write(DataOutputStream out, Message m) throws IOException {
        byte[] frame = encode(m);
        out.write(frame);
        out.flush();
    }

    /** The complete frame (length prefix included) for {@code m}. */
    public static byte[] encode(Message m) throws ProtocolException {
        var buf = new ByteArrayOutputStream(64);
        var d = new DataOutputStream(buf);
        try {
            d.writeInt(0); // length, patched below
            m.writeBody(d);
        } catch (IOException e) {
            throw new AssertionError("in-memory stream", e);
        }
        byte[] frame = buf.toByteArray();
        int length = frame.length - 4;
        if (length > MAX_FRAME_BYTES) {
            throw new ProtocolException("shmem4j wire: a " + m.getClass().getSimpleName() + " frame of "
                    + length + " bytes exceeds the limit of " + MAX_FRAME_BYTES + " bytes");
        }
        frame[0] = (byte) (length >>> 24);
        frame[1] = (byte) (length >>> 16);
        frame[2] = (byte) (length >>> 8);
        frame[3] = (byte) length;
        return frame;
    }

    /** The frame of {@code m}, a message without variable parts (WELCOME, PING, PONG), encoded once by its sender. */
    public static byte[] encodeFixed(Message m) {
        try {
            return encode(m);
        } catch (ProtocolException e) {
            throw new AssertionError("a fixed frame fits", e);
        }
    }

    /**
     * Reads one frame; returns null at a clean end of stream (between frames). A stream that ends
     * inside a frame throws {@link EOFException}; an invalid frame {@link ProtocolException}.
     */
    public static Message read(DataInputStream in) throws IOException {
        return read(in, MAX_FRAME_BYTES);
    }

    /** {@link #read(DataInputStream)} refusing frames longer than {@code maxFrameBytes} before reading them. */
    public static Message read(DataInputStream in, int maxFrameBytes) throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            return null;
        }
        int length = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (length <= 0 || length > maxFrameBytes) {
            throw new ProtocolException("shmem4j wire: frame length " + Integer.toUnsignedString(length)
                    + " is outside 1.." + maxFrameBytes + " (corrupt stream, or the peer is not shmem4j)");
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return decode(body);
    }

    /** Decodes a frame body (type byte first, no length prefix). */
    static Message decode(byte[] body) throws ProtocolException {
        var d = new DataInputStream(new ByteArrayInputStream(body));
        try {
            Message m = switch (d.readByte()) {
                // version 1 had no host: decoded, then rejected for its version, not as garbage
                case HELLO -> new Hello(d.readInt(), d.readUnsignedShort(), readString(d, body.length), d.readInt(), d.readLong(),
                        d.available() > 0 ? readString(d, body.length) : "");
                case ALLGATHER -> new AllGather(d.readLong(), readBytes(d, body.length));
                case ALLGATHER_RESULT -> {
                    long seq = d.readLong();
                    int n = d.readInt();
                    // Each blob needs at least its 4-byte length, so n is bounded by the frame.
                    if (n < 0 || n > body.length / 4) {
                        throw new ProtocolException("shmem4j wire: ALLGATHER_RESULT claims " + n + " blobs in a frame of " + body.length + " bytes");
                    }
                    byte[][] blobs = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        blobs[i] = readBytes(d, body.length);
                    }
                    yield new AllGatherResult(seq, blobs);
                }
                case FINALIZED -> new Finalized();
                case GLOBAL_EXIT -> new GlobalExit(d.readInt());
                case ABORT -> new Abort(d.readInt(), readString(d, body.length));
                case PEER_LOST -> new PeerLost(d.readInt(), readString(d, body.length));
                case PUBLISH -> new Publish(readString(d, body.length), readBytes(d, body.length));
                case LOOKUP -> new Lookup(d.readLong(), d.readInt(), readString(d, body.length));
                case LOOKUP_RESULT -> new LookupResult(d.readLong(), readBytes(d, body.length));
                case WELCOME -> new Welcome();
                case PING -> new Ping();
                case PONG -> new Pong();
                case INIT_FAILED -> new InitFailed(readString(d, body.length));
                default -> throw new ProtocolException("shmem4j wire: unknown frame type " + body[0]);
            };
            if (d.available() != 0) {
                throw new ProtocolException("shmem4j wire: " + d.available() + " stray bytes after a "
                        + m.getClass().getSimpleName() + " frame");
            }
            return m;
        } catch (ProtocolException e) {
            throw e;
        } catch (IOException e) {
            throw new ProtocolException("shmem4j wire: truncated frame of type " + body[0] + " (" + body.length + " bytes)");
        }
    }

    private static void writeString(DataOutputStream d, String s) throws IOException {
        writeBytes(d, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream d, byte[] b) throws IOException {
        d.writeInt(b.length);
        d.write(b);
    }

    private static String readString(DataInputStream d, int frameLength) throws IOException {
        return new String(readBytes(d, frameLength), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(DataInputStream d, int frameLength) throws IOException {
        int n = d.readInt();
        if (n < 0 || n > frameLength) {
            throw new ProtocolException("shmem4j wire: field length " + n + " does not fit a frame of " + frameLength + " bytes");
        }
        byte[] b = new byte[n];
        d.readFully(b);
        return b;
    }
}
