package org.shmem4j.bootstrap;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bootstrap of a program started without a launcher: a job of exactly one PE, as OpenSHMEM
 * implementations conventionally allow.
 */
public final class SingletonBootstrap implements Bootstrap {
    private final String jobId;

    public SingletonBootstrap() {
        byte[] b = new byte[6];
        new SecureRandom().nextBytes(b);
        this.jobId = "s" + HexFormat.of().formatHex(b);
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String hostId() {
        return "localhost";
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        return new byte[][] {mine.clone()};
    }

    @Override
    public void finalized() {
    }

    @Override
    public void globalExit(int status) {
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    @Override
    public String abortReason() {
        return null;
    }

    @Override
    public void close() {
    }
}
