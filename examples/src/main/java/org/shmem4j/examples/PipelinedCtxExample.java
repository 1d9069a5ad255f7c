package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * Spec Example 15 (section 9.5.3, contexts in a single-threaded program): a sum reduction of
 * every PE's {@code in_buf} into every PE's {@code out_buf}, pipelined in segments of
 * {@code PLEN} elements with two contexts: the all-to-all exchange of segment {@code p}
 * ({@code shmem_put_nbi} on {@code ctx[p_idx]} into {@code pbuf[p_idx]} on every PE) overlaps the
 * local reduction of segment {@code p - 1} (after {@code shmem_ctx_quiet} of the other context and
 * {@code shmem_sync_all}). Runs on any number of PEs.
 *
 * <p>The spec's program has a race: nothing stops a fast PE from putting segment {@code p + 1}
 * into {@code pbuf[p_idx ^ 1]} on a slower PE that is still reducing segment {@code p - 1} from
 * that buffer (a put of iteration {@code p + 1} is separated from the remote reduction of
 * iteration {@code p} by no synchronization). The port adds a {@code shmem_sync_all()} after each
 * local reduction, which keeps the overlap the example is about (segment {@code p}'s puts are
 * still in flight during the reduction of {@code p - 1}); the argument {@code --as-in-spec} runs the
 * spec's version, which may fail its check.
 *
 * <p>C's global {@code in_buf}, {@code out_buf} are only local sources and results, so they are Java
 * arrays; {@code pbuf} are symmetric allocations. Check (added; the C program checks nothing): every
 * element of {@code out_buf} is {@code 0 + 1 + .. + (npes - 1)}.
 */
public final class PipelinedCtxExample {
    static final int LEN = 8192; // Full buffer length
    static final int PLEN = 512; // Length of each pipeline stage

    private PipelinedCtxExample() {
    }

    public static void main(String[] args) {
        boolean asInSpec = Arrays.asList(args).contains("--as-in-spec");
        int[] inBuf = new int[LEN];
        int[] outBuf = new int[LEN];
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int i;
            int j;
            int p;
            try (SymmetricIntArray pbuf0 = shmem.malloc(ValueLayout.JAVA_INT, (long) PLEN * npes);
                    SymmetricIntArray pbuf1 = shmem.malloc(ValueLayout.JAVA_INT, (long) PLEN * npes);
                    Context ctx0 = shmem.ctxCreate(0);
                    Context ctx1 = shmem.ctxCreate(0)) {
                SymmetricIntArray[] pbuf = {pbuf0, pbuf1};
                Context[] ctx = {ctx0, ctx1};

                for (i = 0; i < LEN; i++) {
                    inBuf[i] = mype;
                    outBuf[i] = 0;
                }

                int pIdx = 0; // Index of ctx and pbuf (pIdx) for cur. pipeline stage (p)
                p = 0;
                for (i = 1; i <= npes; i++) {
                    ctx[pIdx].putNbi(pbuf[pIdx], (long) PLEN * mype, inBuf, PLEN * p, PLEN, (mype + i) % npes);
                }

                // Issue puts for pipeline stage p, then accumulate results for stage p-1
                for (p = 1; p < LEN / PLEN; p++) {
                    pIdx ^= 1;
                    for (i = 1; i <= npes; i++) {
                        ctx[pIdx].putNbi(pbuf[pIdx], (long) PLEN * mype, inBuf, PLEN * p, PLEN, (mype + i) % npes);
                    }

                    ctx[pIdx ^ 1].quiet();
                    shmem.syncAll();
                    for (i = 0; i < npes; i++) {
                        for (j = 0; j < PLEN; j++) {
                            outBuf[PLEN * (p - 1) + j] += pbuf[pIdx ^ 1].get((long) PLEN * i + j);
                        }
                    }
                    if (!asInSpec) {
                        shmem.syncAll(); // added: every PE is done reading pbuf[pIdx ^ 1] before it is refilled
                    }
                }

                ctx[pIdx].quiet();
                shmem.syncAll();
                for (i = 0; i < npes; i++) {
                    for (j = 0; j < PLEN; j++) {
                        outBuf[PLEN * (p - 1) + j] += pbuf[pIdx].get((long) PLEN * i + j);
                    }
                }
                shmem.syncAll(); // added: no PE frees pbuf while another still reads it
            }

            // added check
            int expected = npes * (npes - 1) / 2;
            for (i = 0; i < LEN; i++) {
                if (outBuf[i] != expected) {
                    Checks.fail(shmem, "out_buf[" + i + "] is " + outBuf[i] + ", expected " + expected);
                }
            }
        }
    }
}
