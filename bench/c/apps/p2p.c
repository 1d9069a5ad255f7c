/* The PRK synch_p2p over OpenSHMEM 1.4; the algorithm of SynchP2p.java, step for step. */
#include "apps.h"

#define EPSILON 1e-8

int main(int argc, char **argv) {
    apps_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int iterations = (int) arg(argc, argv, 1, 50), m = (int) arg(argc, argv, 2, 4000), n = (int) arg(argc, argv, 3, 4000);
    if (n < npes) {
        if (me == 0) printf("# p2p: %d columns cannot be shared by %d PEs\n", n, npes);
        shmem_finalize();
        return 1;
    }
    int jstart = block_start(n, npes, me), jend = block_start(n, npes, me + 1) - 1;
    int w = jend - jstart + 2; /* local column 0 is the halo (global column jstart - 1) */
    double *a = sym_calloc((size_t) m * ((n + npes - 1) / npes + 1), sizeof(double)); /* one size on every PE */
    long *flags = sym_calloc(m, sizeof(long)); /* [0]: the corner, [i]: row i */
    for (int j = jstart - 1 > 0 ? jstart - 1 : 0; j <= jend; j++) a[j - jstart + 1] = j;
    if (me == 0)
        for (int i = 0; i < m; i++) a[(size_t) i * w + 1] = i;
    int right = me + 1 < npes ? me + 1 : -1;
    int right_w = block_start(n, npes, me + 2) - block_start(n, npes, me + 1) + 1;
    int first = me == 0 ? 2 : 1;

    struct apps_clock clock = {.iterations = iterations};
    for (int iter = 0; iter <= iterations; iter++) {
        apps_clock_iteration(&clock, iter);
        for (int i = 1; i < m; i++) {
            if (me > 0) shmem_long_wait_until(&flags[i], SHMEM_CMP_GE, iter + 1L);
            double *row = a + (size_t) i * w;
            double left = row[first - 1]; /* carried as SynchP2p.java does */
            for (int c = first; c < w; c++) row[c] = left = row[c - w] + left - row[c - w - 1];
            if (right >= 0) {
                shmem_double_p(&a[(size_t) i * right_w], row[w - 1], right);
                shmem_fence();
                shmem_long_p(&flags[i], iter + 1L, right);
            }
        }
        double corner = -a[(size_t) m * w - 1];
        if (npes == 1) {
            a[1] = corner;
        } else if (me == npes - 1) {
            shmem_double_p(&a[1], corner, 0);
            shmem_fence();
            shmem_long_p(&flags[0], iter + 1L, 0);
        } else if (me == 0) {
            shmem_long_wait_until(&flags[0], SHMEM_CMP_GE, iter + 1L);
        }
    }
    double time = apps_clock_stop(&clock);

    double expect = (iterations + 1.0) * (m + n - 2);
    double err = apps_reduce(me == npes - 1 ? fabs(a[(size_t) m * w - 1] - expect) / expect : 0, 1);
    int ok = err < EPSILON;
    char fields[64];
    snprintf(fields, sizeof fields, "m=%d n=%d", m, n);
    apps_report(&clock, "p2p", fields, "MFlops", 1e-6 * 2.0 * (m - 1) * (n - 1));
    if (me == 0) {
        printf("# p2p %s: corner relative error %.3e, %.4f s\n", ok ? "verified" : "FAILED", err, time);
    }
    shmem_barrier_all();
    shmem_free(flags);
    shmem_free(a);
    shmem_finalize();
    return ok ? 0 : 1;
}
