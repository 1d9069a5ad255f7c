package org.shmem4j.bootstrap;

import java.util.concurrent.ThreadLocalRandom;
import java.util.HexFormat;

/**
 * The bootstrap of a program started without a launcher: a job of exactly one PE, as OpenSHMEM
 * implementations conventionally allow.
 */
public final class SingletonBootstrap extends JobMember {
    public SingletonBootstrap() {
        super(0, 1, "s" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4), "localhost");
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
        exitProcess(status);
    }

    @Override
    public String abortReason() {
        return null;
    }

    @Override
    public void close() {
    }
}
