/*
 * comm_create.c - rate of creating and freeing communicators, all ranks of
 * MPI_COMM_WORLD taking part (run it at 2 and at 4 processes).
 *
 * Three cycles, each timed over -n cycles (default 10000):
 *   dup     MPI_Comm_dup(MPI_COMM_WORLD) + MPI_Comm_free
 *   split   MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank) + MPI_Comm_free
 *   create  MPI_Comm_create(MPI_COMM_WORLD, group) + MPI_Comm_free, where the
 *           group (made once, outside the timing) holds every rank in reverse
 *           order, so every rank gets a communicator and its rank changes.
 * Each cycle's result is checked once before timing (size and rank of the new
 * communicator, and a barrier on it); "CHECK FAILED ...", exit 3, if wrong.
 *
 * Result: microseconds per cycle, the maximum over the ranks of each rank's
 * time (collected with point-to-point only).  A warm-up of 1% of the cycles
 * (at least 10) estimates the time per cycle; if the full count would take
 * longer than -L seconds (default 20) the count is cut to fit, and the printed
 * `cycles` column says how many were timed (a guard for implementations that
 * slow down a lot when oversubscribed).
 *
 * Output, parsed by bench/compare:
 *   # table comm_create
 *   # operation us_per_cycle cycles
 *   dup 5.21 10000
 *   split 7.90 10000
 *   create 6.02 10000
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_TIME 11

enum cycle { DUP, SPLIT, CREATE };

static int rank, nranks;
static MPI_Group reversed;

static void make_comm(enum cycle c, MPI_Comm *newcomm)
{
    switch (c) {
    case DUP: MPI_Comm_dup(MPI_COMM_WORLD, newcomm); break;
    case SPLIT: MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, newcomm); break;
    case CREATE: MPI_Comm_create(MPI_COMM_WORLD, reversed, newcomm); break;
    }
}

static void check(enum cycle c, const char *name)
{
    MPI_Comm comm = MPI_COMM_NULL;
    int size = -1, r = -1, want_size = nranks, want_rank = rank;
    make_comm(c, &comm);
    if (c == SPLIT) {
        want_size = nranks / 2 + (rank % 2 == 0 ? nranks % 2 : 0);
        want_rank = rank / 2;
    } else if (c == CREATE) {
        want_rank = nranks - 1 - rank;
    }
    if (comm == MPI_COMM_NULL) {
        fprintf(stderr, "CHECK FAILED: %s: rank %d got MPI_COMM_NULL\n", name, rank);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &r);
    if (size != want_size || r != want_rank) {
        fprintf(stderr, "CHECK FAILED: %s: world rank %d is rank %d of %d, expected %d of %d\n",
                name, rank, r, size, want_rank, want_size);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    if (comm != MPI_COMM_NULL) {
        fprintf(stderr, "CHECK FAILED: %s: MPI_Comm_free left the handle set\n", name);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* The CPUs this process may run on, e.g. "0,1" (shows pinning in the report). */
static void cpu_list(char *out, size_t cap)
{
    cpu_set_t set;
    size_t len = 0;
    out[0] = '\0';
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && len + 8 < cap; c++)
        if (CPU_ISSET(c, &set))
            len += (size_t)snprintf(out + len, cap - len, "%s%d", len ? "," : "", c);
}

/* Rank 0 prints every rank's CPUs: "# affinity rank0=0,1 rank1=0,1". */
static void report_affinity(void)
{
    char cpus[256];
    cpu_list(cpus, sizeof(cpus));
    if (rank != 0) {
        MPI_Send(cpus, (int)sizeof(cpus), MPI_CHAR, 0, TAG_TIME, MPI_COMM_WORLD);
        return;
    }
    printf("# affinity rank0=%s", cpus);
    for (int r = 1; r < nranks; r++) {
        MPI_Recv(cpus, (int)sizeof(cpus), MPI_CHAR, r, TAG_TIME, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf(" rank%d=%s", r, cpus);
    }
    printf("\n");
}

/* This rank's time for `cycles` create+free cycles, started together. */
static double run(enum cycle c, long cycles)
{
    MPI_Comm comm;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < cycles; i++) {
        make_comm(c, &comm);
        MPI_Comm_free(&comm);
    }
    return MPI_Wtime() - t0;
}

/* The largest `t` over the ranks, on rank 0 (point-to-point only). */
static double max_over_ranks(double t)
{
    if (rank != 0) {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_TIME, MPI_COMM_WORLD);
        return t;
    }
    for (int r = 1; r < nranks; r++) {
        double other;
        MPI_Recv(&other, 1, MPI_DOUBLE, r, TAG_TIME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (other > t)
            t = other;
    }
    return t;
}

/* Rank 0's value to every rank (point-to-point only). */
static long share(long v)
{
    if (rank == 0) {
        for (int r = 1; r < nranks; r++)
            MPI_Send(&v, 1, MPI_LONG, r, TAG_TIME, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&v, 1, MPI_LONG, 0, TAG_TIME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return v;
}

int main(int argc, char **argv)
{
    long cycles = 10000;
    double limit_s = 20;
    int c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    while ((c = getopt(argc, argv, "n:L:h")) != -1) {
        switch (c) {
        case 'n': cycles = atol(optarg); break;
        case 'L': limit_s = atof(optarg); break;
        default:
            if (rank == 0)
                fprintf(stderr,
                        "usage: comm_create [-n CYCLES(10000)] [-L SECONDS(20)]\n"
                        "  -n  create+free cycles timed per operation\n"
                        "  -L  cut the cycles so that one operation takes about this long at most\n");
            MPI_Finalize();
            return c == 'h' ? 0 : 2;
        }
    }
    if (cycles < 1)
        cycles = 1;

    MPI_Group world;
    int *ranks = malloc(sizeof(int) * (size_t)nranks);
    for (int r = 0; r < nranks; r++)
        ranks[r] = nranks - 1 - r;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, nranks, ranks, &reversed);
    MPI_Group_free(&world);
    free(ranks);

    if (rank == 0) {
        printf("# comm_create: %d processes, up to %ld cycles per operation, max over ranks\n",
               nranks, cycles);
#if defined(MPI_VERSION) && MPI_VERSION >= 3
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(version, &len);
        char *nl = strchr(version, '\n');
        if (nl)
            *nl = '\0';
        printf("# library: %s\n", version);
#endif
    }
    report_affinity();
    if (rank == 0) {
        printf("# table comm_create\n# operation us_per_cycle cycles\n");
        fflush(stdout);
    }

    static const char *const names[] = {"dup", "split", "create"};
    for (enum cycle op = DUP; op <= CREATE; op++) {
        check(op, names[op]);
        long warm = cycles / 100 < 10 ? 10 : cycles / 100;
        double per = max_over_ranks(run(op, warm)) / (double)warm;
        long n = cycles;
        if (rank == 0 && per * (double)n > limit_s) {
            n = (long)(limit_s / per);
            if (n < warm)
                n = warm;
        }
        n = share(n);
        double t = max_over_ranks(run(op, n));
        if (rank == 0) {
            printf("%s %.3f %ld\n", names[op], t * 1e6 / (double)n, n);
            fflush(stdout);
        }
    }

    MPI_Group_free(&reversed);
    MPI_Finalize();
    return 0;
}
