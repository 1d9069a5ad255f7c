package org.shmem4j.bootstrap;

import java.util.concurrent.ThreadLocalRandom;
import java.util.HexFormat;

/**
 * The bootstrap of a program started without a launcher: a job of exactly one PE, as OpenSHMEM
 * implementations conventionally allow.
 */
public final class SingletonBootstrap implements Bootstrap {
    private final String jobId;

    public SingletonBootstrap() {
        this.jobId = "s" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
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
