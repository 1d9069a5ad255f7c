package org.shmem4j.bench;

import java.lang.foreign.ValueLayout;
import java.time.Instant;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Start-up cost, the twin of the C peer's {@code peer/startup.c}: every PE initializes, adds 1 to
 * a counter on PE 0 and finalizes. PE 0 checks the counter and prints, in microseconds since the
 * epoch, the instant the last PE entered {@code main} and the instant the last PE left
 * {@code shmem_init}: {@code startup pes=<n> main_us=<latest main> init_us=<latest end of init>}.
 * {@code bench/startup.sh} times the whole command; these instants split it.
 */
public final class Startup {
    private Startup() {
    }

    public static void main(String[] args) {
        long mainUs = epochUs();
        try (Shmem shmem = Shmem.init()) {
            long initUs = epochUs();
            int me = shmem.myPe(), n = shmem.nPes();
            try (SymmetricLongArray counter = shmem.calloc(ValueLayout.JAVA_LONG, 1 + 2L * n)) {
                shmem.atomicAdd(counter, 0, 1, 0);
                shmem.put(counter, 1 + 2L * me, new long[] {mainUs, initUs}, 0, 2, 0);
                shmem.barrierAll();
                if (me == 0) {
                    long lastMain = 0, lastInit = 0;
                    for (int pe = 0; pe < n; pe++) {
                        lastMain = Math.max(lastMain, counter.get(1 + 2L * pe));
                        lastInit = Math.max(lastInit, counter.get(2 + 2L * pe));
                    }
                    if (counter.get(0) != n) {
                        throw new IllegalStateException("startup: the counter is " + counter.get(0) + ", not " + n);
                    }
                    Bench.line("startup pes=%d main_us=%d init_us=%d", n, lastMain, lastInit);
                }
            }
        }
    }

    private static long epochUs() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }
}
