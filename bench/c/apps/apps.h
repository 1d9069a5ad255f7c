/* Helpers shared by the C twins of bench/src/main/java/org/shmem4j/bench/apps (OpenSHMEM 1.4:
 * the C peer is Open MPI's OSHMEM, which has no team reductions, so sums and maxima go through the
 * active-set *_to_all routines with pSync/pWrk). */
#ifndef APPS_H
#define APPS_H

#include <math.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long apps_psync[2][SHMEM_REDUCE_SYNC_SIZE];
static double apps_pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE > 1 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 1];
static double apps_src, apps_dst;
static int apps_parity;

static inline void apps_init(void) {
    shmem_init();
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            apps_psync[p][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
}

/* sum (max when want_max) of v over all PEs; alternating pSync/pWrk sets, so no barrier between calls */
static inline double apps_reduce(double v, int want_max) {
    int p = apps_parity ^= 1;
    apps_src = v;
    if (want_max)
        shmem_double_max_to_all(&apps_dst, &apps_src, 1, 0, 0, shmem_n_pes(), apps_pwrk[p], apps_psync[p]);
    else
        shmem_double_sum_to_all(&apps_dst, &apps_src, 1, 0, 0, shmem_n_pes(), apps_pwrk[p], apps_psync[p]);
    return apps_dst;
}

static inline double wtime(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The timing of iterations 1..n (iteration 0 warms up): over all of them, and over their second
 * half, as Apps.Clock does in Java (where the second half leaves the JIT's warm-up out). */
struct apps_clock {
    int iterations;
    double start, half, all, steady; /* all, steady: seconds, maxima over the PEs */
};

/* called at the top of every iteration 0..n */
static inline void apps_clock_iteration(struct apps_clock *c, int iter) {
    if (iter == 1) {
        shmem_barrier_all();
        c->start = wtime();
    }
    if (iter == 1 + c->iterations / 2) c->half = wtime();
}

/* ends the timing (collective); returns the time of all timed iterations */
static inline double apps_clock_stop(struct apps_clock *c) {
    double end = wtime();
    c->all = apps_reduce(end - c->start, 1);
    c->steady = apps_reduce(end - c->half, 1);
    return c->all;
}

/* PE 0 prints KERNEL impl=c ... over all timed iterations and KERNEL_steady ... over the second
 * half; work: UNIT's numerator of one iteration */
static inline void apps_report(const struct apps_clock *c, const char *kernel, const char *fields, const char *unit,
                               double work) {
    int last = c->iterations - c->iterations / 2;
    if (shmem_my_pe() != 0) return;
    printf("%s impl=c pes=%d %s iterations=%d %s=%.1f\n", kernel, shmem_n_pes(), fields, c->iterations, unit,
           work * c->iterations / c->all);
    printf("%s_steady impl=c pes=%d %s iterations=%d last=%d %s=%.1f\n", kernel, shmem_n_pes(), fields, c->iterations,
           last, unit, work * last / c->steady);
}

/* first index of block b of `blocks` over n points (the first n % blocks get one more) */
static inline int block_start(int n, int blocks, int b) {
    int base = n / blocks, extra = n % blocks;
    return b * base + (b < extra ? b : extra);
}

static inline long arg(int argc, char **argv, int i, long dflt) {
    return i < argc ? atol(argv[i]) : dflt;
}

static inline void *sym_calloc(size_t count, size_t size) {
    void *p = shmem_calloc(count, size);
    if (p == NULL && count > 0) {
        fprintf(stderr, "shmem_calloc of %zu x %zu bytes failed (raise SHMEM_SYMMETRIC_SIZE)\n", count, size);
        shmem_global_exit(1);
    }
    return p;
}

#endif
