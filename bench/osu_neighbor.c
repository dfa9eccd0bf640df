/*
 * osu_neighbor.c - OSU-style latency of the neighborhood collectives
 * (after OSU's osu_neighbor_alltoall and osu_neighbor_allgather) on a 2-D
 * periodic Cartesian grid of all the ranks (MPI_Dims_create; 4 neighbours
 * each, the same one twice in a dimension of size 2, and oneself in a
 * dimension of size 1).
 *
 * Tables: neighbor_alltoall (size = each block, one per neighbour) and
 * neighbor_allgather (size = the block each rank sends to every neighbour),
 * MPI_INT data, sizes 4 B to 64 KiB (x4; -q: 4 B, 64 B, 1 KiB, 16 KiB).
 *
 * Timing, as OSU does it: every call timed on its own (MPI_Wtime before and
 * after), back to back without barriers; each rank averages its own calls;
 * the table shows the average, minimum and maximum of those per-rank means
 * in microseconds, collected with point-to-point messages. Before every
 * call, outside the timing, each rank stores a new int into each 64-byte
 * line of its send buffer and reads one int of each line of its receive
 * buffer (see bench/coll.c for why). Iterations: -n (default 1000; -q 200)
 * up to 16 KiB, inversely proportional above, after a tenth of that as
 * warm-up, cut to about -T seconds per size (default 0.25; -q 0.02).
 * Before timing each size, the call runs once on known data and every rank
 * checks every block it received (a failure prints CHECK FAILED and exits 1).
 *
 * Builds with any MPI-3 mpicc: mpicc -O2 osu_neighbor.c -o osu_neighbor.
 *
 * Output (bench/compare's format):
 *   # table neighbor_alltoall
 *   # size avg_us min_us max_us iters
 *   4 1.234 1.100 1.300 1000
 */
#include "bench_init.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_TIME 7001
#define NBRS 4                   /* 2 dimensions, -1 and +1 each */

static int rank, nranks;
static MPI_Comm grid;
static int nbr[NBRS];            /* MPI_Cart_shift's order: dim 0 -1, +1, dim 1 -1, +1 */
static volatile int sink;

static int val(int sender, int block, int i) { return sender * 1000003 + block * 65537 + i; }

/* One store per 64-byte line of the send buffer, one load per line of the
 * receive buffer (outside the timing). */
static void touch(int *sbuf, size_t sints, const int *rbuf, size_t rints, int k)
{
    for (size_t i = 0; i < sints; i += 16)
        sbuf[i] = k;
    int s = 0;
    for (size_t i = 0; i < rints; i += 16)
        s += rbuf[i];
    sink = s;
}

static void call(int alltoall, int *sbuf, int n, int *rbuf)
{
    if (alltoall)
        MPI_Neighbor_alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, grid);
    else
        MPI_Neighbor_allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, grid);
}

/* Block j of the receive buffer holds block j^1 of neighbour j's send
 * buffer (alltoall) or its one block (allgather): MPI-4.0 8.6. */
static void check(int alltoall, int *sbuf, int n, int *rbuf)
{
    for (int j = 0; j < NBRS; j++)
        for (int i = 0; i < n; i++)
            sbuf[j * n + i] = val(rank, alltoall ? j : 0, i);
    memset(rbuf, 0xff, (size_t)NBRS * (size_t)n * sizeof(int));
    call(alltoall, sbuf, n, rbuf);
    for (int j = 0; j < NBRS; j++)
        for (int i = 0; i < n; i++)
            if (rbuf[j * n + i] != val(nbr[j], alltoall ? j ^ 1 : 0, i)) {
                fprintf(stderr, "CHECK FAILED: %s, %d ints: rank %d block %d int %d is %d, want %d\n",
                        alltoall ? "MPI_Neighbor_alltoall" : "MPI_Neighbor_allgather", n, rank, j, i,
                        rbuf[j * n + i], val(nbr[j], alltoall ? j ^ 1 : 0, i));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
}

/* Average, minimum and maximum of a per-rank value, on rank 0. */
static void over_ranks(double t, double *avg, double *min, double *max)
{
    if (rank != 0) {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_TIME, MPI_COMM_WORLD);
        return;
    }
    *avg = *min = *max = t;
    for (int r = 1; r < nranks; r++) {
        double x;
        MPI_Recv(&x, 1, MPI_DOUBLE, r, TAG_TIME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *avg += x;
        *min = x < *min ? x : *min;
        *max = x > *max ? x : *max;
    }
    *avg /= nranks;
}

static void table(int alltoall, const size_t *sizes, int nsizes, long iters, double limit)
{
    size_t most = sizes[nsizes - 1] / sizeof(int);
    int *sbuf = malloc(NBRS * most * sizeof(int) + 64), *rbuf = malloc(NBRS * most * sizeof(int) + 64);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("# table %s\n# size avg_us min_us max_us iters\n",
               alltoall ? "neighbor_alltoall" : "neighbor_allgather");
    for (int k = 0; k < nsizes; k++) {
        int n = (int)(sizes[k] / sizeof(int));
        size_t sints = (size_t)(alltoall ? NBRS : 1) * (size_t)n, rints = (size_t)NBRS * (size_t)n;
        long it = sizes[k] <= 16384 ? iters : iters * 16384 / (long)sizes[k];
        if (it < 10)
            it = 10;
        check(alltoall, sbuf, n, rbuf);
        /* the number of calls: what fits in `limit` seconds by rank 0's
         * measure of a few, the same on every rank */
        double t0 = MPI_Wtime();
        for (int w = 0; w < 5; w++)
            call(alltoall, sbuf, n, rbuf);
        double per = (MPI_Wtime() - t0) / 5;
        MPI_Bcast(&per, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (per > 0 && (double)it * per > limit)
            it = (long)(limit / per) < 10 ? 10 : (long)(limit / per);
        for (long w = 0; w < it / 10; w++) {
            touch(sbuf, sints, rbuf, rints, (int)w);
            call(alltoall, sbuf, n, rbuf);
        }
        double sum = 0;
        for (long i = 0; i < it; i++) {
            touch(sbuf, sints, rbuf, rints, (int)i);
            double t = MPI_Wtime();
            call(alltoall, sbuf, n, rbuf);
            sum += MPI_Wtime() - t;
        }
        double avg = 0, min = 0, max = 0;
        over_ranks(sum / (double)it * 1e6, &avg, &min, &max);
        if (rank == 0)
            printf("%zu %.3f %.3f %.3f %ld\n", sizes[k], avg, min, max, it);
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    bench_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int quick = 0;
    long iters = 0;
    double limit = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q"))
            quick = 1;
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            iters = atol(argv[++i]);
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            limit = atof(argv[++i]);
        else {
            if (rank == 0)
                fprintf(stderr, "usage: osu_neighbor [-q] [-n iterations] [-T seconds per size]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (iters <= 0)
        iters = quick ? 200 : 1000;
    if (limit <= 0)
        limit = quick ? 0.02 : 0.25;
    static const size_t full[] = {4, 16, 64, 256, 1024, 4096, 16384, 65536};
    static const size_t fast[] = {4, 64, 1024, 16384};
    const size_t *sizes = quick ? fast : full;
    int nsizes = quick ? 4 : 8;

    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(nranks, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    for (int d = 0; d < 2; d++)
        MPI_Cart_shift(grid, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
    if (rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        for (char *p = version; *p; p++)
            if (*p == '\n')
                *p = ' ';
        printf("# osu_neighbor: %d processes on a %d x %d periodic grid\n", nranks, dims[0], dims[1]);
        printf("# library: %s\n", version);
    }
    table(1, sizes, nsizes, iters, limit);
    table(0, sizes, nsizes, iters, limit);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
