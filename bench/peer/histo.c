/* peer/histo.c - bale's histogram, plain (OSHMEM 4.1 has no sessions; the Java side's Histo
 * also runs each part in a SHMEM_CTX_SESSION_BATCH session, compare.py pairs those rows with these).
 * Every PE makes N updates to random (PE, idx) pairs, idx < T, from its own splitmix64 stream
 * (common.h), then shmem_quiet + barrier:
 *   op=add : shmem_long_atomic_add(&counts[idx], 1, pe)    (checked: the sum over all tables,
 *            a sum_to_all, is N x PEs x repeats)
 *   op=p   : shmem_long_p(&slots[me*T + idx], value(me, idx), pe), the writer's own part of a
 *            (PEs x T)-long table (zeroed before each repeat; after the last every PE replays all
 *            streams and checks every slot)
 * Knobs: HISTO_UPDATES (N per PE per repeat, default 2^20, times PEER_SCALE percent),
 * HISTO_TABLE (T, default 1000, as bale). At most 3 repeats, after one untimed tenth.
 * Output: histo op=add|p mode=plain pes=<n> Mups=<million updates/s, all PEs together>
 */
#include "common.h"

static int me, np;
static long n_upd, t_size;
static long *counts, *slots;

static inline long value(int src, uint64_t idx)
{
    return (long)(((uint64_t)(src + 1) << 32) | (idx + 1));
}

static double pass(int p, long n, uint64_t s)
{
    long base = (long)me * t_size;
    shmem_barrier_all();
    double t0 = now_s();
    if (p) {
        for (long u = 0; u < n; u++) {
            s += SPLITMIX_GAMMA;
            uint64_t z = mix(s);
            uint64_t idx = low_below(z, (uint64_t)t_size);
            shmem_long_p(&slots[base + (long)idx], value(me, idx), (int)high_below(z, (uint64_t)np));
        }
    } else {
        for (long u = 0; u < n; u++) {
            s += SPLITMIX_GAMMA;
            uint64_t z = mix(s);
            shmem_long_atomic_add(&counts[low_below(z, (uint64_t)t_size)], 1, (int)high_below(z, (uint64_t)np));
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    return now_s() - t0;
}

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long sum_in, sum_out;

static void check_counts(long want)
{
    long mine = 0;
    for (long i = 0; i < t_size; i++)
        mine += counts[i];
    sum_in = mine;
    shmem_barrier_all();
    shmem_long_sum_to_all(&sum_out, &sum_in, 1, 0, 0, np, pwrk, psync);
    if (sum_out != want) {
        fprintf(stderr, "histo op=add: check failed on PE %d: sum of the tables %ld != %ld\n", me, sum_out, want);
        shmem_global_exit(3);
    }
    shmem_barrier_all();
    memset(counts, 0, sizeof(long) * (size_t)t_size);
}

static void check_slots(long n, int r)
{
    long *want = calloc((size_t)(t_size * np), sizeof(long));
    if (want == NULL) {
        fprintf(stderr, "histo: out of memory\n");
        shmem_global_exit(2);
    }
    for (int src = 0; src < np; src++) {
        uint64_t s = seed_of(src, r);
        for (long u = 0; u < n; u++) {
            s += SPLITMIX_GAMMA;
            uint64_t z = mix(s);
            if ((int)high_below(z, (uint64_t)np) == me) {
                uint64_t idx = low_below(z, (uint64_t)t_size);
                want[(long)src * t_size + (long)idx] = value(src, idx);
            }
        }
    }
    for (long i = 0; i < t_size * np; i++) {
        if (slots[i] != want[i]) {
            fprintf(stderr, "histo op=p: check failed on PE %d: slot %ld holds %ld, expected %ld\n",
                    me, i, slots[i], want[i]);
            shmem_global_exit(3);
        }
    }
    free(want);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    np = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    n_upd = scaled(env_long("HISTO_UPDATES", 1L << 20));
    t_size = env_table_size("histo", "HISTO_TABLE", 1000);
    int nrep = reps() > 3 ? 3 : reps();
    counts = must_malloc_sym(sizeof(long) * (size_t)t_size);
    slots = must_malloc_sym(sizeof(long) * (size_t)(t_size * np));
    memset(counts, 0, sizeof(long) * (size_t)t_size);

    for (int p = 0; p < 2; p++) {
        double v[MAX_REPS];
        pass(p, n_upd / 10 + 1, ~seed_of(me, 0));           /* warm-up, not timed */
        memset(counts, 0, sizeof(long) * (size_t)t_size);   /* its updates are complete (barrier) */
        shmem_barrier_all();
        for (int r = 0; r < nrep; r++) {
            if (p)
                memset(slots, 0, sizeof(long) * (size_t)(t_size * np));   /* pass() starts with a barrier */
            v[r] = (double)n_upd * np / pass(p, n_upd, seed_of(me, r)) / 1e6;
        }
        if (p)
            check_slots(n_upd, nrep - 1);
        else
            check_counts(n_upd * np * nrep);
        if (me == 0) {
            printf("histo op=%s mode=plain pes=%d Mups=%.3f\n", p ? "p" : "add", np, median_of(v, nrep));
            fflush(stdout);
        }
        shmem_barrier_all();
    }
    shmem_free(slots);
    shmem_free(counts);
    shmem_finalize();
    return 0;
}
