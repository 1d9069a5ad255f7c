package org.shmem4j.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.shmem4j.bootstrap.pmix.PmixBootstrap;

/**
 * A PE program that drives the PMIx bootstrap directly: all-gathers of empty, small and 100 KB
 * blobs whose lengths and contents differ per rank (checked in rank order), an all-gather of every
 * PE's job id and host (equal on one host), a barrier, then a normal exit through the final fence.
 * Prints {@code exchange-ok <rank> of <size>}; a wrong result ends the PE with an exception.
 */
public final class PmixExchange {
    private PmixExchange() {}

    private static byte[] blob(int rank, int size) {
        byte[] b = new byte[size == 0 ? 0 : size + rank];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (rank * 31 + i);
        }
        return b;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    public static void main(String[] args) {
        PmixBootstrap b = PmixBootstrap.processInstance();
        int me = b.rank(), n = b.size();
        for (int size : new int[] {0, 1, 7, 100_000}) {
            byte[][] all = b.allGather(blob(me, size));
            check(all.length == n, "PE " + me + ": " + all.length + " blobs for " + n + " PEs");
            for (int pe = 0; pe < n; pe++) {
                check(Arrays.equals(all[pe], blob(pe, size)), "PE " + me + ": blob of PE " + pe + " (size " + size + ") is wrong");
            }
        }
        byte[] identity = (b.jobId() + " " + b.hostId()).getBytes(StandardCharsets.UTF_8);
        for (byte[] other : b.allGather(identity)) {
            check(Arrays.equals(other, identity), "PE " + me + ": job and host " + new String(identity, StandardCharsets.UTF_8)
                    + ", a peer has " + new String(other, StandardCharsets.UTF_8));
        }
        b.barrier();
        b.finalized();
        System.out.println("exchange-ok " + me + " of " + n);
    }
}
