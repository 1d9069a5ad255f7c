/* The PRK stencil (star, radius 2) over OpenSHMEM 1.4; the algorithm of Stencil.java, step for step. */
#include "apps.h"

#define R 2
#define EPSILON 1e-8
enum { TOP, BOTTOM, RIGHT, LEFT };

int main(int argc, char **argv) {
    apps_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int iterations = (int) arg(argc, argv, 1, 50), n = (int) arg(argc, argv, 2, 4000);
    int npx = (int) sqrt(npes + 1);
    while (npes % npx != 0) npx--;
    int npy = npes / npx, idx = me % npx, idy = me / npx;
    int istart = block_start(n, npx, idx), iend = block_start(n, npx, idx + 1) - 1;
    int jstart = block_start(n, npy, idy), jend = block_start(n, npy, idy + 1) - 1;
    int width = iend - istart + 1, height = jend - jstart + 1, w2 = width + 2 * R;
    if (width < R || height < R) {
        if (me == 0) printf("# stencil: a tile of %d x %d is smaller than the radius %d\n", width, height, R);
        shmem_finalize();
        return 1;
    }
    int maxW = (n + npx - 1) / npx, maxH = (n + npy - 1) / npy, slot = (maxW > maxH ? maxW : maxH) * R;
    double *in = calloc((size_t) w2 * (height + 2 * R), sizeof(double));
    double *out = calloc((size_t) width * height, sizeof(double));
    double *send = malloc(slot * sizeof(double));
    double *recv = sym_calloc(2 * 4 * (size_t) slot, sizeof(double)); /* [parity][side][slot] */
    long *flags = sym_calloc(4, sizeof(long));
    double weight[2 * R + 1] = {0};
    for (int k = 1; k <= R; k++) {
        weight[R + k] = 1.0 / (2.0 * k * R);
        weight[R - k] = -1.0 / (2.0 * k * R);
    }
    for (int j = jstart; j <= jend; j++)
        for (int i = istart; i <= iend; i++)
            in[(i - istart + R) + (j - jstart + R) * w2] = i + j;
    int nbr[4] = {idy + 1 < npy ? me + npx : -1, idy > 0 ? me - npx : -1, idx + 1 < npx ? me + 1 : -1, idx > 0 ? me - 1 : -1};
    static const int arrives[4] = {BOTTOM, TOP, LEFT, RIGHT};
    /* the edge strip of a side: first row (TOP/BOTTOM) or column (RIGHT/LEFT), own edge or halo */
    int own_first[4] = {height, R, width, R}, halo_first[4] = {height + R, 0, width + R, 0};
    int ilo = istart > R ? istart : R, ihi = iend < n - R - 1 ? iend : n - R - 1;
    int jlo = jstart > R ? jstart : R, jhi = jend < n - R - 1 ? jend : n - R - 1;

    struct apps_clock clock = {.iterations = iterations};
    for (int iter = 0; iter <= iterations; iter++) {
        apps_clock_iteration(&clock, iter);
        int parity = iter & 1;
        for (int to = 0; to < 4; to++) {
            if (nbr[to] < 0) continue;
            int k = 0;
            if (to == TOP || to == BOTTOM) {
                for (int r = 0; r < R; r++)
                    for (int i = 0; i < width; i++) send[k++] = in[(R + i) + (own_first[to] + r) * w2];
            } else {
                for (int j = 0; j < height; j++)
                    for (int c = 0; c < R; c++) send[k++] = in[(own_first[to] + c) + (R + j) * w2];
            }
            shmem_putmem(recv + (size_t) (parity * 4 + arrives[to]) * slot, send, k * sizeof(double), nbr[to]);
        }
        shmem_fence();
        for (int to = 0; to < 4; to++)
            if (nbr[to] >= 0) shmem_long_p(&flags[arrives[to]], iter + 1L, nbr[to]);
        for (int side = 0; side < 4; side++) {
            if (nbr[side] < 0) continue;
            shmem_long_wait_until(&flags[side], SHMEM_CMP_GE, iter + 1L);
            const double *b = recv + (size_t) (parity * 4 + side) * slot;
            int k = 0;
            if (side == TOP || side == BOTTOM) {
                for (int r = 0; r < R; r++)
                    for (int i = 0; i < width; i++) in[(R + i) + (halo_first[side] + r) * w2] = b[k++];
            } else {
                for (int j = 0; j < height; j++)
                    for (int c = 0; c < R; c++) in[(halo_first[side] + c) + (R + j) * w2] = b[k++];
            }
        }
        for (int j = jlo; j <= jhi; j++) {
            int rowIn = (j - jstart + R) * w2 + R - istart, rowOut = (j - jstart) * width - istart;
            for (int i = ilo; i <= ihi; i++) {
                int c = rowIn + i;
                /* written out for R = 2 in the order of a loop over k = -2, -1, 1, 2, as Stencil.java */
                out[rowOut + i] = out[rowOut + i] + (weight[0] * in[c - 2 * w2] + weight[0] * in[c - 2])
                                  + (weight[1] * in[c - w2] + weight[1] * in[c - 1])
                                  + (weight[3] * in[c + w2] + weight[3] * in[c + 1])
                                  + (weight[4] * in[c + 2 * w2] + weight[4] * in[c + 2]);
            }
        }
        for (int j = 0; j < height; j++)
            for (int i = 0; i < width; i++) in[(i + R) + (j + R) * w2] += 1.0;
    }
    double time = apps_clock_stop(&clock);

    double local = 0;
    for (int j = jlo; j <= jhi; j++)
        for (int i = ilo; i <= ihi; i++) local += fabs(out[(i - istart) + (j - jstart) * width]);
    double active = (double) (n - 2 * R) * (n - 2 * R);
    double norm = apps_reduce(local, 0) / active, reference = (iterations + 1) * 2.0;
    int ok = fabs(norm - reference) <= EPSILON;
    char fields[64];
    snprintf(fields, sizeof fields, "n=%d radius=%d", n, R);
    apps_report(&clock, "stencil", fields, "MFlops", 1e-6 * (2 * (4 * R + 1) + 1) * active);
    if (me == 0) {
        printf("# stencil %s: norm %.10f, reference %.10f, %.4f s\n", ok ? "verified" : "FAILED", norm, reference, time);
    }
    shmem_barrier_all();
    shmem_free(flags);
    shmem_free(recv);
    shmem_finalize();
    return ok ? 0 : 1;
}
