package org.shmem4j.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.shmem4j.bootstrap.pmix.PmixBootstrap;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;

/**
 * A PE program that drives the PMIx bootstrap directly: all-gathers of empty, small and 100 KB
 * blobs whose lengths and contents differ per rank (checked in rank order), an all-gather of every
 * PE's job id (equal) and host (as many distinct ones as the argument says, default 1), barriers
 * that must hold every PE until the last has entered, then a normal exit through the final fence.
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

    /**
     * Barriers really wait for everyone: in each round one PE (a different one each time) is late
     * (the sleep only makes a barrier that returns early likelier to show), and every PE must leave
     * after the last one entered. The PEs' clocks are compared, which is sound because the tests
     * run every PE, also those of pseudo-hosts, on one kernel (one monotonic clock).
     */
    private static void checkBarriers(PmixBootstrap b, int me, int n) {
        for (int round = 0; round < Math.min(n, 4); round++) {
            if (round == me) {
                sleep(200);
            }
            long entered = System.nanoTime();
            b.barrier();
            long left = System.nanoTime();
            long lastEntered = Long.MIN_VALUE;
            for (byte[] t : b.allGather(ByteBuffer.allocate(8).putLong(entered).array())) {
                lastEntered = Math.max(lastEntered, ByteBuffer.wrap(t).getLong());
            }
            check(left >= lastEntered, "PE " + me + " left barrier " + round + " " + (lastEntered - left) / 1000
                    + " us before the last PE entered it");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void main(String[] args) {
        PmixBootstrap b = PmixBootstrap.processInstance(
                Parameters.from(System.getenv(), List.of(Params.BOOTSTRAP_TIMEOUT_S)).get(Params.BOOTSTRAP_TIMEOUT_S));
        int me = b.rank(), n = b.size();
        for (int size : new int[] {0, 1, 7, 100_000}) {
            byte[][] all = b.allGather(blob(me, size));
            check(all.length == n, "PE " + me + ": " + all.length + " blobs for " + n + " PEs");
            for (int pe = 0; pe < n; pe++) {
                check(Arrays.equals(all[pe], blob(pe, size)), "PE " + me + ": blob of PE " + pe + " (size " + size + ") is wrong");
            }
        }
        byte[][] jobs = b.allGather(b.jobId().getBytes(StandardCharsets.UTF_8));
        check(Arrays.stream(jobs).allMatch(j -> Arrays.equals(j, jobs[me])), "PE " + me + ": the PEs disagree on the job id");
        long hosts = Arrays.stream(b.allGather(b.hostId().getBytes(StandardCharsets.UTF_8)))
                .map(h -> new String(h, StandardCharsets.UTF_8)).distinct().count();
        int expectedHosts = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        check(hosts == expectedHosts, "PE " + me + ": " + hosts + " distinct hosts, expected " + expectedHosts);
        checkBarriers(b, me, n);
        b.barrier();
        b.finalized();
        System.out.println("exchange-ok " + me + " of " + n);
    }
}
