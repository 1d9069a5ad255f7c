/* peer/startup.c - start-up cost: every PE initializes, adds 1 to a counter on PE 0 and
 * finalizes. PE 0 checks the counter and prints, in microseconds since the epoch, the instant
 * the last PE entered main and the instant the last PE left shmem_init:
 *     startup pes=<n> main_us=<latest main> init_us=<latest end of init>
 * The whole command's wall time is what bench/startup.sh compares; these instants split it.
 * Java twin: org.shmem4j.bench.Startup. Written for this project. */
#include "common.h"
#include <sys/time.h>

#define MAX_PES 4096
/* Static, so symmetric and zero before shmem_init: OSHMEM's shmem_calloc zeroes its block after
 * the barrier of its allocation, so an early PE's add could land before PE 0's zeroing. */
static long counter[1 + 2 * MAX_PES];

static long epoch_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (long)tv.tv_sec * 1000000L + tv.tv_usec;
}

int main(void)
{
    long main_us = epoch_us();
    shmem_init();
    long init_us = epoch_us();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n > MAX_PES) {
        if (me == 0) fprintf(stderr, "startup: at most %d PEs\n", MAX_PES);
        shmem_finalize();
        return 1;
    }
    long mine[2] = {main_us, init_us};
    shmem_long_atomic_add(counter, 1, 0);
    shmem_long_put(counter + 1 + 2 * me, mine, 2, 0);
    shmem_barrier_all();
    int status = 0;
    if (me == 0) {
        long last_main = 0, last_init = 0;
        for (int pe = 0; pe < n; pe++) {
            if (counter[1 + 2 * pe] > last_main) last_main = counter[1 + 2 * pe];
            if (counter[2 + 2 * pe] > last_init) last_init = counter[2 + 2 * pe];
        }
        if (counter[0] != n) {
            fprintf(stderr, "startup: the counter is %ld, not %d\n", counter[0], n);
            status = 1;
        }
        printf("startup pes=%d main_us=%ld init_us=%ld\n", n, last_main, last_init);
    }
    shmem_finalize();
    return status;
}
