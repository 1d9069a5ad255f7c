package org.shmem4j.bootstrap.launcher;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.ShmemException;

@Timeout(10)
class WireTest {
    private static Wire.Message roundTrip(Wire.Message m) throws IOException {
        var buf = new ByteArrayOutputStream();
        Wire.write(new DataOutputStream(buf), m);
        var in = new DataInputStream(new ByteArrayInputStream(buf.toByteArray()));
        Wire.Message back = Wire.read(in);
        assertNull(Wire.read(in), "clean end of stream after one frame");
        return back;
    }

    @Test
    void everyMessageRoundTrips() throws IOException {
        var h = (Wire.Hello) roundTrip(new Wire.Hello("00ff", 3, 12345L, "node7"));
        assertEquals(new Wire.Hello(Wire.MAGIC, Wire.VERSION, "00ff", 3, 12345L, "node7"), h);
        assertFalse(h.toString().contains("00ff"), "secret stays out of toString");

        var g = (Wire.AllGather) roundTrip(new Wire.AllGather(7, new byte[] {1, 2, 3}));
        assertEquals(7, g.seq());
        assertArrayEquals(new byte[] {1, 2, 3}, g.blob());

        var r = (Wire.AllGatherResult) roundTrip(new Wire.AllGatherResult(9, new byte[][] {{}, {4}, {5, 6}}));
        assertEquals(9, r.seq());
        assertArrayEquals(new byte[][] {{}, {4}, {5, 6}}, r.blobs());

        assertEquals(new Wire.Finalized(), roundTrip(new Wire.Finalized()));
        assertEquals(new Wire.GlobalExit(-2), roundTrip(new Wire.GlobalExit(-2)));
        assertEquals(new Wire.Welcome(), roundTrip(new Wire.Welcome()));
        assertEquals(new Wire.Ping(), roundTrip(new Wire.Ping()));
        assertEquals(new Wire.Pong(), roundTrip(new Wire.Pong()));
        assertEquals(new Wire.Abort(1500, "PE 1 died \u2013 ending"), roundTrip(new Wire.Abort(1500, "PE 1 died \u2013 ending")));
        assertEquals(new Wire.PeerLost(4, "unreachable"), roundTrip(new Wire.PeerLost(4, "unreachable")));
        assertEquals(new Wire.InitFailed("SHMEM_X is bad"), roundTrip(new Wire.InitFailed("SHMEM_X is bad")));

        var p = (Wire.Publish) roundTrip(new Wire.Publish("ucx@5", new byte[] {7, 8}));
        assertEquals("ucx@5", p.key());
        assertArrayEquals(new byte[] {7, 8}, p.blob());
        assertEquals(new Wire.Lookup(11, 3, "ucx@5"), roundTrip(new Wire.Lookup(11, 3, "ucx@5")));
        var lr = (Wire.LookupResult) roundTrip(new Wire.LookupResult(11, new byte[] {9}));
        assertEquals(11, lr.id());
        assertArrayEquals(new byte[] {9}, lr.blob());
    }

    @Test
    void oversizedFrameIsRejectedBeforeAllocation() {
        byte[] huge = {0x7f, 0, 0, 0, Wire.ABORT};
        var e = assertThrows(Wire.ProtocolException.class,
                () -> Wire.read(new DataInputStream(new ByteArrayInputStream(huge))));
        assertTrue(e.getMessage().contains("outside 1.."), e.getMessage());
    }

    @Test
    void malformedFramesAreRejected() throws IOException {
        byte[] unknown = {0, 0, 0, 1, 42};
        assertThrows(Wire.ProtocolException.class, () -> Wire.read(new DataInputStream(new ByteArrayInputStream(unknown))));
        byte[] truncated = {0, 0, 0, 3, Wire.GLOBAL_EXIT, 0, 0};
        assertThrows(Wire.ProtocolException.class, () -> Wire.read(new DataInputStream(new ByteArrayInputStream(truncated))));
        byte[] badField = {0, 0, 0, 5, Wire.ABORT, 0x10, 0, 0, 0};
        assertThrows(Wire.ProtocolException.class, () -> Wire.read(new DataInputStream(new ByteArrayInputStream(badField))));
        byte[] cut = {0, 0, 0, 9, Wire.ABORT};
        assertThrows(EOFException.class, () -> Wire.read(new DataInputStream(new ByteArrayInputStream(cut))));
    }

    @Test
    void connectNamesTheMissingOrBadVariable() {
        var e = assertThrows(ShmemException.class, () -> LauncherBootstrap.connect(Map.of(), 1));
        assertTrue(e.getMessage().contains(LaunchEnv.RENDEZVOUS), e.getMessage());
        var env = Map.of(LaunchEnv.RENDEZVOUS, "127.0.0.1:1", LaunchEnv.JOB_SECRET, "ab", LaunchEnv.JOB_ID, "abc",
                LaunchEnv.SIZE, "2", LaunchEnv.RANK, "2", LaunchEnv.HOST_ID, "h");
        e = assertThrows(ShmemException.class, () -> LauncherBootstrap.connect(env, 1));
        assertTrue(e.getMessage().contains(LaunchEnv.RANK), e.getMessage());
        var badId = new java.util.HashMap<>(env);
        badId.put(LaunchEnv.RANK, "0");
        badId.put(LaunchEnv.JOB_ID, "a/b");
        e = assertThrows(ShmemException.class, () -> LauncherBootstrap.connect(badId, 1));
        assertTrue(e.getMessage().contains(LaunchEnv.JOB_ID), e.getMessage());
    }
}
