package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SignalOp;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 27 (section 9.8.3, {@code shmem_put_signal}): a ring broadcast of 2048 words from
 * PE 0 to every PE: PE 0 puts its message with signal to PE 1; every other PE waits for its signal
 * ({@code shmem_wait_until(&sig_addr, SHMEM_CMP_EQ, 1)}) and forwards the data it received, with
 * signal, to its right neighbour (the last PE back to PE 0). Runs on any number of PEs (on one PE,
 * PE 0 puts to itself). Prints nothing.
 *
 * <p>C's {@code static uint64_t sig_addr} becomes a zeroed symmetric allocation, the
 * {@code malloc}ed message a Java array, the {@code shmem_calloc}ed {@code data} a symmetric
 * allocation. Added so that the checks can see the broadcast: every PE fills its {@code data} with
 * a sentinel before a barrier (PE 0's message of zeros would be indistinguishable from the zeroed
 * allocation). Checks: as soon as its signal is 1 a PE other than 0 holds PE 0's whole message
 * (put-with-signal delivers the data no later than the signal); after a barrier every PE, PE 0
 * included, holds the message and a signal of 1.
 */
public final class PutSignalExample {
    private static final long SENTINEL = 0xdead_beefL;

    private PutSignalExample() {
    }

    public static void main(String[] args) {
        int size = 2048;
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray sigAddr = shmem.calloc(ValueLayout.JAVA_LONG, 1)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int pe = (mype + 1) % npes;
            long[] message = new long[size];
            Arrays.fill(message, mype);
            try (SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, size)) {
                data.fill(SENTINEL); // added, see the class comment
                shmem.barrierAll();
                long[] expected = new long[size]; // PE 0's message
                if (mype == 0) {
                    shmem.putSignal(data, 0, message, 0, size, sigAddr, 0, 1, SignalOp.SET, pe);
                } else {
                    shmem.waitUntil(sigAddr, 0, Cmp.EQ, 1);
                    Checks.expectEquals(shmem, "data as soon as the signal is 1", expected, data.toArray());
                    // the source is this PE's own copy of data: the bytes of its segment
                    shmem.put64Signal(data, 0, data.elements(), size, sigAddr, 0, 1, SignalOp.SET, pe);
                }
                shmem.barrierAll(); // added: the last PE's put to PE 0 is complete
                Checks.expectEquals(shmem, "data after the broadcast", expected, data.toArray());
                Checks.expectEquals(shmem, "sig_addr after the broadcast", 1L, shmem.signalFetch(sigAddr, 0));
            }
        }
    }
}
