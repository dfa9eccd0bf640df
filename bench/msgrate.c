/*
 * msgrate.c - small-message rate between ranks 0 (sender) and 1 (receiver).
 *
 * Two modes, each measured `-r` times after a warm-up; the best and the
 * median trial are printed (in millions of messages per second):
 *   window    rank 0: Isend x W, Waitall; rank 1: Irecv x W, Waitall, then a
 *             0-byte ack from rank 1 to rank 0 (W = 64 by default).
 *   blocking  rank 0: a stream of blocking MPI_Send; rank 1: MPI_Recv; every
 *             W messages rank 1 sends a 0-byte ack that rank 0 waits for, so
 *             the unexpected-message queue stays bounded.
 * The message size is 8 bytes unless -s says otherwise; the same buffer is
 * used for every message.
 *
 * Output, parsed by bench/compare:
 *   # table msgrate
 *   # mode Mmsgs_per_s best_Mmsgs_per_s messages
 *   window64 7.95 8.10 640000
 *   blocking 5.12 5.30 640000
 */
#define _GNU_SOURCE
#include <mpi.h>
#include "bench_init.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_DATA 1
#define TAG_ACK 2
#define MAX_TRIALS 64

static int rank, nranks;

static double run_window(char *buf, int size, int window, int iters, MPI_Request *reqs)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(buf, size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Recv(NULL, 0, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < window; w++)
                MPI_Irecv(buf, size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

static double run_blocking(char *buf, int size, int window, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Send(buf, size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < window; w++)
                MPI_Recv(buf, size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* Rank 0 prints where ranks 0 and 1 may run, so the report can show pinning. */
static void report_affinity(void)
{
    char mine[256] = "", theirs[256] = "?";
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        size_t len = 0;
        for (int c = 0; c < CPU_SETSIZE && len + 8 < sizeof(mine); c++)
            if (CPU_ISSET(c, &set))
                len += (size_t)snprintf(mine + len, sizeof(mine) - len, "%s%d", len ? "," : "", c);
    }
    if (rank == 1)
        MPI_Send(mine, (int)sizeof(mine), MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Recv(theirs, (int)sizeof(theirs), MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf("# affinity rank0=%s rank1=%s\n", mine, theirs);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_row(const char *name, double *rates, int trials, long messages)
{
    qsort(rates, (size_t)trials, sizeof(double), cmp_double);
    double median = trials % 2 ? rates[trials / 2]
                               : 0.5 * (rates[trials / 2 - 1] + rates[trials / 2]);
    printf("%s %.3f %.3f %ld\n", name, median, rates[trials - 1], messages);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int size = 8, window = 64, iters = 10000, warmup = 1000, trials = 5;
    int c;

    bench_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    while ((c = getopt(argc, argv, "s:W:i:x:r:h")) != -1) {
        switch (c) {
        case 's': size = atoi(optarg); break;
        case 'W': window = atoi(optarg); break;
        case 'i': iters = atoi(optarg); break;
        case 'x': warmup = atoi(optarg); break;
        case 'r': trials = atoi(optarg); break;
        default:
            if (rank == 0)
                fprintf(stderr,
                        "usage: msgrate [-s SIZE(8)] [-W WINDOW(64)] [-i WINDOWS_PER_TRIAL(10000)]\n"
                        "               [-x WARMUP_WINDOWS(1000)] [-r TRIALS(5)]\n");
            MPI_Finalize();
            return c == 'h' ? 0 : 2;
        }
    }
    if (window < 1) window = 1;
    if (iters < 1) iters = 1;
    if (trials < 1) trials = 1;
    if (trials > MAX_TRIALS) trials = MAX_TRIALS;
    if (size < 0) size = 0;
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "msgrate needs at least 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    char *buf = NULL;
    if (posix_memalign((void **)&buf, (size_t)sysconf(_SC_PAGESIZE), (size_t)size + 1) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, 1, (size_t)size + 1);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)window);
    double rates[MAX_TRIALS];
    long messages = (long)window * iters;
    char name[32];

    if (rank == 0) {
        printf("# msgrate: %d processes, %d-byte messages, window %d, %d trials of %ld messages\n",
               nranks, size, window, trials, messages);
    }
    report_affinity();
    if (rank == 0) {
        printf("# table msgrate\n# mode Mmsgs_per_s best_Mmsgs_per_s messages\n");
    }

    run_window(buf, size, window, warmup, reqs);
    for (int t = 0; t < trials; t++)
        rates[t] = messages / run_window(buf, size, window, iters, reqs) / 1e6;
    snprintf(name, sizeof(name), "window%d", window);
    if (rank == 0)
        print_row(name, rates, trials, messages);

    run_blocking(buf, size, window, warmup);
    for (int t = 0; t < trials; t++)
        rates[t] = messages / run_blocking(buf, size, window, iters) / 1e6;
    if (rank == 0)
        print_row("blocking", rates, trials, messages);

    free(reqs);
    free(buf);
    MPI_Finalize();
    return 0;
}
