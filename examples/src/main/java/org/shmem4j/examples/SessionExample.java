package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.shmem4j.Context;
import org.shmem4j.SessionConfig;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;

/**
 * Spec Example 28 (section 9.9.3, {@code shmem_ctx_session_start} / {@code shmem_ctx_session_stop}):
 * RandomAccess-style updates in a session. Every PE issues {@code N_UPDATES} non-fetching atomic
 * XORs of random values into random elements of a distributed {@code N_INDICES}-element table on
 * random PEs, through a created context in a {@code SHMEM_CTX_SESSION_BATCH} session configured
 * with {@code total_ops = N_UPDATES}; it then stops the session, quiets the context and
 * synchronizes. Runs on any number of PEs.
 *
 * <p>C's {@code srand(mype)} and {@code rand()} become a {@link Random} seeded with the PE number
 * (so any PE can replay any PE's updates); {@code uint64_t} is {@code long} (XOR is sign-blind);
 * the optional argument is the number of updates (default {@value #N_UPDATES}). Check (added; the
 * spec only says it is safe to validate here): every PE replays all PEs' update streams and
 * compares its part of the table with the XOR of the updates aimed at it.
 */
public final class SessionExample {
    static final int N_UPDATES = 1 << 18;
    static final int N_INDICES = 1 << 10;
    static final long N_VALUES = 1L << 31;

    private SessionExample() {
    }

    /** One PE's stream of updates: the same for every caller with the same seed. */
    private static final class Updates {
        private final Random random;
        int pe;
        int idx;
        long val;

        Updates(int seed) {
            random = new Random(seed);
        }

        void next(int npes) {
            pe = random.nextInt(npes);
            idx = random.nextInt(N_INDICES);
            val = random.nextLong(N_VALUES);
        }
    }

    public static void main(String[] args) {
        int nUpdates = args.length > 0 ? Integer.parseInt(args[0]) : N_UPDATES;
        try (Shmem shmem = Shmem.init();
                SymmetricLongArray table = shmem.calloc(ValueLayout.JAVA_LONG, N_INDICES)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            Updates updates = new Updates(mype);

            try (Context ctx = shmem.ctxCreate(0)) {
                SessionConfig config = new SessionConfig(nUpdates);
                long configMask = Context.SESSION_TOTAL_OPS;

                ctx.sessionStart(Context.SESSION_BATCH, config, configMask);

                for (int i = 0; i < nUpdates; i++) {
                    updates.next(npes);
                    ctx.atomicXor(table, updates.idx, updates.val, updates.pe);
                }

                ctx.sessionStop();
                ctx.quiet(); // sessionStop() does not quiet the context.
                shmem.syncAll(); // sessionStop() does not synchronize.

                // At this point, it is safe to check and/or validate the table result...
                long[] expected = new long[N_INDICES];
                for (int pe = 0; pe < npes; pe++) {
                    Updates replay = new Updates(pe);
                    for (int i = 0; i < nUpdates; i++) {
                        replay.next(npes);
                        if (replay.pe == mype) {
                            expected[replay.idx] ^= replay.val;
                        }
                    }
                }
                Checks.expectEquals(shmem, "table", expected, table.toArray());
            }
        }
    }
}
