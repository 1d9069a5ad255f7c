package org.shmem4j.it;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Cmp;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * The idiomatic error path of issue 9: PE {@code n-1} throws inside try-with-resources before its
 * second {@code barrierAll} (or before setting the flag PE 0 waits for, with {@code args[0] = wait}),
 * while the other PEs call {@code barrierAll} twice (or PE 0 waits). Its {@code close()} finalizes
 * on the way out; the job must still end, with status 1.
 */
public final class ThrowInsideTryWithResources {
    private ThrowInsideTryWithResources() {}

    public static void main(String[] args) {
        boolean pointToPoint = args.length > 0 && args[0].equals("wait");
        try (Shmem shmem = Shmem.init()) {
            SymmetricLongArray flag = shmem.calloc(ValueLayout.JAVA_LONG, 1);
            shmem.barrierAll();
            int me = shmem.myPe();
            if (me == shmem.nPes() - 1) {
                throw new SlowToReport("deliberate failure on PE " + me + " inside try-with-resources");
            }
            if (!pointToPoint) {
                shmem.barrierAll();
            } else if (me == 0) {
                shmem.waitUntil(flag, 0, Cmp.NE, 0);
            } else {
                return; // nothing to wait for
            }
            System.out.println("PE " + me + " passed the step the failed PE never reached");
        }
    }

    /**
     * An exception that takes a while to print, as any does on a loaded machine: the peers fail
     * (their barrier sees this PE finalize) and oshrun ends the job while it is still being
     * reported, which makes a launcher that halts PEs too early lose it (no sleep orders anything).
     */
    private static final class SlowToReport extends IllegalStateException {
        SlowToReport(String message) {
            super(message);
        }

        @Override
        public String getMessage() {
            try {
                Thread.sleep(700);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.getMessage();
        }
    }
}
