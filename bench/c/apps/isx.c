/* ISx's bucket sort over OpenSHMEM 1.4; the algorithm of Isx.java, step for step. */
#include <stdint.h>
#include <string.h>
#include "apps.h"

#define BUCKET_WIDTH (1 << 20)

int main(int argc, char **argv) {
    apps_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int iterations = (int) arg(argc, argv, 1, 10), keys_per_pe = (int) arg(argc, argv, 2, 1 << 22);
    int capacity = keys_per_pe + keys_per_pe / 8 + 1024;
    int *keys = malloc(keys_per_pe * sizeof(int)), *send = malloc(keys_per_pe * sizeof(int));
    int *bucket_sizes = malloc(npes * sizeof(int)), *offsets = malloc(npes * sizeof(int));
    int *counts = malloc(BUCKET_WIDTH * sizeof(int));
    int *recv = sym_calloc(capacity, sizeof(int));
    int *recv_offset = sym_calloc(1, sizeof(int));
    uint64_t x = 0x9E3779B97F4A7C15ULL * (uint64_t) (me + 1);
    for (int k = 0; k < keys_per_pe; k++) { /* xorshift64*, as Isx.java */
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        keys[k] = (int) (((x * 0x2545F4914F6CDD1DULL) >> 33) % ((uint64_t) npes * BUCKET_WIDTH));
    }
    int received = 0;

    struct apps_clock clock = {.iterations = iterations};
    for (int iter = 0; iter <= iterations; iter++) {
        apps_clock_iteration(&clock, iter);
        memset(bucket_sizes, 0, npes * sizeof(int));
        for (int k = 0; k < keys_per_pe; k++) bucket_sizes[keys[k] / BUCKET_WIDTH]++;
        for (int b = 0, sum = 0; b < npes; b++) {
            offsets[b] = sum;
            sum += bucket_sizes[b];
        }
        for (int k = 0; k < keys_per_pe; k++) {
            int key = keys[k];
            send[offsets[key / BUCKET_WIDTH]++] = key;
        }
        for (int i = 0; i < npes; i++) {
            int target = (me + i) % npes, count = bucket_sizes[target], from = offsets[target] - count;
            int at = shmem_int_atomic_fetch_add(recv_offset, count, target);
            if (at + count > capacity) {
                fprintf(stderr, "isx: PE %d's receive buffer of %d keys overflows\n", target, capacity);
                shmem_global_exit(1);
            }
            shmem_int_put(recv + at, send + from, count, target);
        }
        shmem_barrier_all();
        received = *recv_offset;
        memset(counts, 0, BUCKET_WIDTH * sizeof(int));
        int base = me * BUCKET_WIDTH;
        for (int k = 0; k < received; k++) counts[recv[k] - base]++;
        *recv_offset = 0;
        shmem_barrier_all(); /* nobody adds to the next iteration's offset before it is reset */
    }
    double time = apps_clock_stop(&clock);

    long in_range = 0, counted = 0;
    for (int k = 0; k < received; k++) {
        int v = recv[k] - me * BUCKET_WIDTH;
        in_range += v >= 0 && v < BUCKET_WIDTH;
    }
    for (int c = 0; c < BUCKET_WIDTH; c++) counted += counts[c];
    int local_ok = in_range == received && counted == received;
    double bad = apps_reduce(local_ok ? 0 : 1, 0), total = apps_reduce(received, 0);
    int ok = bad == 0 && total == (double) npes * keys_per_pe;
    char fields[64];
    snprintf(fields, sizeof fields, "keys_per_pe=%d", keys_per_pe);
    apps_report(&clock, "isx", fields, "Mkeys_per_s", 1e-6 * npes * (double) keys_per_pe);
    if (me == 0) {
        printf("# isx %s: %.0f keys sorted of %ld, %.0f PEs with bad keys or counts, %.4f s\n", ok ? "verified" : "FAILED",
               total, (long) npes * keys_per_pe, bad, time);
    }
    shmem_barrier_all();
    shmem_free(recv_offset);
    shmem_free(recv);
    shmem_finalize();
    return ok ? 0 : 1;
}
