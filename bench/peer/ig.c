/* peer/ig.c - bale's index gather, plain (OSHMEM 4.1 has no sessions; the Java side's IndexGather
 * also runs get_nbi in a SHMEM_CTX_SESSION_BATCH session, compare.py pairs that row with get_nbi here).
 * Every PE holds a table of T longs, entry idx of PE pe being value_at(pe*T + idx), and gathers M
 * entries at random (PE, idx) pairs (its own splitmix64 stream, common.h) into a local array, one
 * 8-byte get each, then checks every word against its stream:
 *   op=get     : shmem_long_get(&tgt[i], &table[idx], 1, pe), blocking
 *   op=get_nbi : shmem_long_get_nbi(...), then shmem_quiet
 * Timed barrier to barrier. Knobs: IG_GETS (M per PE per repeat, default 2^18, times PEER_SCALE
 * percent), IG_TABLE (T, default 100000, as bale). At most 3 repeats, after one untimed tenth.
 * Output: ig op=get|get_nbi mode=plain pes=<n> Mgets=<million gets/s, all PEs together>
 */
#include "common.h"

static int me, np;
static long m_gets, t_size;
static long *table, *tgt;

static inline long value_at(uint64_t g)
{
    return (long)mix(g + 1);
}

static double pass(int nbi, long m, uint64_t s)
{
    shmem_barrier_all();
    double t0 = now_s();
    if (nbi) {
        for (long i = 0; i < m; i++) {
            s += SPLITMIX_GAMMA;
            uint64_t z = mix(s);
            shmem_long_get_nbi(&tgt[i], &table[low_below(z, (uint64_t)t_size)], 1, (int)high_below(z, (uint64_t)np));
        }
    } else {
        for (long i = 0; i < m; i++) {
            s += SPLITMIX_GAMMA;
            uint64_t z = mix(s);
            shmem_long_get(&tgt[i], &table[low_below(z, (uint64_t)t_size)], 1, (int)high_below(z, (uint64_t)np));
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    return now_s() - t0;
}

static void check(long m, uint64_t s)
{
    for (long i = 0; i < m; i++) {
        s += SPLITMIX_GAMMA;
        uint64_t z = mix(s);
        long want = value_at(high_below(z, (uint64_t)np) * (uint64_t)t_size + low_below(z, (uint64_t)t_size));
        if (tgt[i] != want) {
            fprintf(stderr, "ig: check failed on PE %d: entry %ld is %ld, expected %ld\n", me, i, tgt[i], want);
            shmem_global_exit(3);
        }
    }
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    np = shmem_n_pes();
    m_gets = scaled(env_long("IG_GETS", 1L << 18));
    t_size = env_table_size("ig", "IG_TABLE", 100000);
    int nrep = reps() > 3 ? 3 : reps();
    table = must_malloc_sym(sizeof(long) * (size_t)t_size);
    tgt = malloc(sizeof(long) * (size_t)m_gets);
    if (tgt == NULL) {
        fprintf(stderr, "ig: out of memory\n");
        shmem_global_exit(2);
    }
    for (long i = 0; i < t_size; i++)
        table[i] = value_at((uint64_t)me * (uint64_t)t_size + (uint64_t)i);
    shmem_barrier_all();

    for (int nbi = 0; nbi < 2; nbi++) {
        double v[MAX_REPS];
        pass(nbi, m_gets / 10 + 1, ~seed_of(me, 0));   /* warm-up, not timed */
        for (int r = 0; r < nrep; r++) {
            memset(tgt, 0, sizeof(long) * (size_t)m_gets);
            v[r] = (double)m_gets * np / pass(nbi, m_gets, seed_of(me, r)) / 1e6;
            check(m_gets, seed_of(me, r));
        }
        if (me == 0) {
            printf("ig op=%s mode=plain pes=%d Mgets=%.3f\n", nbi ? "get_nbi" : "get", np, median_of(v, nrep));
            fflush(stdout);
        }
        shmem_barrier_all();
    }
    free(tgt);
    shmem_free(table);
    shmem_finalize();
    return 0;
}
