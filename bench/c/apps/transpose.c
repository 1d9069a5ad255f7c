/* The PRK transpose over OpenSHMEM 1.4; the algorithm of Transpose.java, step for step. */
#include "apps.h"

#define TILE 32
#define EPSILON 1e-8
#define MIN(a, b) ((a) < (b) ? (a) : (b))

int main(int argc, char **argv) {
    apps_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int iterations = (int) arg(argc, argv, 1, 20), order = (int) arg(argc, argv, 2, 2048);
    if (order % npes != 0) {
        if (me == 0) printf("# transpose: order %d is not a multiple of the number of PEs %d\n", order, npes);
        shmem_finalize();
        return 1;
    }
    int cw = order / npes, colstart = me * cw;
    double *a = calloc((size_t) order * cw, sizeof(double)), *b = calloc((size_t) order * cw, sizeof(double));
    double *work_out = malloc((size_t) cw * cw * sizeof(double));
    double *work_in = sym_calloc((size_t) cw * cw * npes, sizeof(double));
    long *flags = sym_calloc(npes, sizeof(long));
    for (int j = 0; j < cw; j++)
        for (int i = 0; i < order; i++) a[i + (size_t) order * j] = (double) order * (j + colstart) + i;

    struct apps_clock clock = {.iterations = iterations};
    for (int iter = 0; iter <= iterations; iter++) {
        apps_clock_iteration(&clock, iter);
        int row = me * cw; /* the local phase: B(row + i, j) += A(row + j, i) */
        for (int it = 0; it < cw; it += TILE)
            for (int jt = 0; jt < cw; jt += TILE)
                for (int i = it; i < MIN(cw, it + TILE); i++)
                    for (int j = jt; j < MIN(cw, jt + TILE); j++)
                        b[row + i + (size_t) order * j] += a[row + j + (size_t) order * i];
        for (int phase = 1; phase < npes; phase++) {
            int to = (me - phase + npes) % npes, from = (me + phase) % npes, arow = to * cw;
            for (int it = 0; it < cw; it += TILE)
                for (int jt = 0; jt < cw; jt += TILE)
                    for (int i = it; i < MIN(cw, it + TILE); i++)
                        for (int j = jt; j < MIN(cw, jt + TILE); j++)
                            work_out[i + (size_t) cw * j] = a[arow + j + (size_t) order * i];
            shmem_putmem(work_in + (size_t) phase * cw * cw, work_out, (size_t) cw * cw * sizeof(double), to);
            shmem_fence();
            shmem_long_p(&flags[phase], iter + 1L, to);
            shmem_long_wait_until(&flags[phase], SHMEM_CMP_GE, iter + 1L);
            const double *w = work_in + (size_t) phase * cw * cw;
            for (int j = 0; j < cw; j++)
                for (int i = 0; i < cw; i++) b[from * cw + i + (size_t) order * j] += w[i + (size_t) cw * j];
        }
        for (size_t c = 0; c < (size_t) order * cw; c++) a[c] += 1.0;
        if (npes > 1) shmem_barrier_all();
    }
    double time = apps_clock_stop(&clock);

    double addit = (iterations + 1.0) * iterations / 2.0, local = 0;
    for (int j = 0; j < cw; j++)
        for (int i = 0; i < order; i++)
            local += fabs(b[i + (size_t) order * j] - (((double) order * i + j + colstart) * (iterations + 1) + addit));
    double abserr = apps_reduce(local, 0);
    int ok = abserr < EPSILON;
    char fields[64];
    snprintf(fields, sizeof fields, "order=%d", order);
    apps_report(&clock, "transpose", fields, "MBps", 1e-6 * 2.0 * sizeof(double) * order * order);
    if (me == 0) {
        printf("# transpose %s: summed absolute error %.3e, %.4f s\n", ok ? "verified" : "FAILED", abserr, time);
    }
    shmem_barrier_all();
    shmem_free(flags);
    shmem_free(work_in);
    shmem_finalize();
    return ok ? 0 : 1;
}
