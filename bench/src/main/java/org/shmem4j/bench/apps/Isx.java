package org.shmem4j.bench.apps;

import java.lang.foreign.ValueLayout;
import java.util.function.LongToIntFunction;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

/**
 * ISx, the scalable integer sort: every PE draws {@code keysPerPe} uniform random keys in
 * {@code [0, npes * BUCKET_WIDTH)} (weak scaling: {@value #BUCKET_WIDTH} key values per PE), counts
 * them per destination bucket (PE {@code key / BUCKET_WIDTH}), bucketizes them into a send buffer,
 * and for each PE in turn (starting with the next one) reserves room in that PE's receive buffer
 * with an atomic fetch-add on its offset counter and puts the bucket there; after a barrier each PE
 * counts its received keys per key value (the local counting sort). Verification: every received
 * key lies in the PE's range, the counts add up to what arrived, and all keys arrived.
 */
final class Isx {
    static final int BUCKET_WIDTH = 1 << 20;

    private Isx() {
    }

    /**
     * Counts the keys per destination PE, turns the counts into offsets, and copies the keys into
     * {@code send} bucket after bucket; {@code offsets} ends as each bucket's end.
     */
    private static void bucketize(int[] keys, int[] bucketSizes, int[] offsets, int[] send) {
        java.util.Arrays.fill(bucketSizes, 0);
        for (int key : keys) {
            bucketSizes[key / BUCKET_WIDTH]++;
        }
        for (int b = 0, sum = 0; b < bucketSizes.length; b++) {
            offsets[b] = sum;
            sum += bucketSizes[b];
        }
        for (int key : keys) {
            send[offsets[key / BUCKET_WIDTH]++] = key;
        }
    }

    /** The local counting sort: how often each key value of this PE's range arrived. */
    private static void countLocal(LongToIntFunction recv, int received, int base, int[] counts) {
        java.util.Arrays.fill(counts, 0);
        for (long k = 0; k < received; k++) {
            counts[recv.applyAsInt(k) - base]++;
        }
    }

    static boolean run(Apps app, Shmem shmem, int iterations, int keysPerPe) {
        int npes = app.npes, me = app.me;
        int capacity = keysPerPe + keysPerPe / 8 + 1024;
        int[] keys = new int[keysPerPe];
        long x = 0x9E3779B97F4A7C15L * (me + 1);
        for (int k = 0; k < keysPerPe; k++) { // xorshift64*, as the C twin
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            keys[k] = (int) (((x * 0x2545F4914F6CDD1DL) >>> 33) % ((long) npes * BUCKET_WIDTH));
        }
        int[] bucketSizes = new int[npes];
        int[] offsets = new int[npes];
        int[] sendBuf = new int[keysPerPe];
        int[] counts = new int[BUCKET_WIDTH];
        // the received keys: symmetric, or a Java array in the reference run (one call site each: inlined)
        SymmetricIntArray recvSym = app.symmetric ? shmem.calloc(ValueLayout.JAVA_INT, capacity) : null;
        int[] recvPlain = app.symmetric ? null : new int[capacity];
        LongToIntFunction recv = app.symmetric ? recvSym::get : k -> recvPlain[(int) k]; // long indices: see Doubles
        SymmetricIntArray recvOffset = shmem.calloc(ValueLayout.JAVA_INT, 1);
        int received = 0;

        Apps.Clock clock = app.new Clock(iterations);
        for (int iter = 0; iter <= iterations; iter++) {
            clock.iteration(iter);
            bucketize(keys, bucketSizes, offsets, sendBuf);
            for (int i = 0; i < npes; i++) {
                int target = (me + i) % npes, count = bucketSizes[target], from = offsets[target] - count;
                if (recvSym == null) { // the plain reference run: one PE, the "exchange" is a copy
                    System.arraycopy(sendBuf, from, recvPlain, 0, count);
                    received = count;
                    continue;
                }
                int at = shmem.atomicFetchAdd(recvOffset, 0, count, target);
                if (at + count > capacity) {
                    throw new IllegalStateException("isx: PE " + target + "'s receive buffer of " + capacity + " keys overflows");
                }
                shmem.put(recvSym, at, sendBuf, from, count, target);
            }
            if (recvSym != null) {
                shmem.barrierAll();
                received = recvOffset.get(0);
            }
            countLocal(recv, received, me * BUCKET_WIDTH, counts);
            if (recvSym != null) {
                recvOffset.set(0, 0);
                shmem.barrierAll(); // nobody adds to the next iteration's offset before it is reset
            }
        }
        double time = clock.stop();

        long inRange = 0, counted = 0;
        for (long k = 0; k < received; k++) {
            int v = recv.applyAsInt(k) - me * BUCKET_WIDTH;
            inRange += v >= 0 && v < BUCKET_WIDTH ? 1 : 0;
        }
        for (int c : counts) {
            counted += c;
        }
        boolean localOk = inRange == received && counted == received;
        double bad = app.sum(localOk ? 0 : 1);
        double total = app.sum(received);
        boolean ok = bad == 0 && total == (double) npes * keysPerPe;
        app.report(clock, "isx", "keys_per_pe=" + keysPerPe, "Mkeys_per_s", 1e-6 * npes * (double) keysPerPe);
        app.line("# isx %s: %.0f keys sorted of %d, %.0f PEs with bad keys or counts, %.4f s", ok ? "verified" : "FAILED", total,
                (long) npes * keysPerPe, bad, time);
        return ok;
    }
}
