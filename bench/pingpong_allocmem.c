/*
 * pingpong_allocmem.c - point-to-point latency and bandwidth between ranks 0
 * and 1 with buffers from MPI_Alloc_mem against buffers from malloc, side by
 * side in one table: what memory "for communication" buys (an MPI may
 * register it, place it in shared memory, or treat it like any other).
 *
 *   lat  ping-pong: rank 0 sends, rank 1 sends the same size back;
 *        latency = half the round trip, in microseconds.
 *   bw   like osu_bw: rank 0 posts a window of 64 MPI_Isend, rank 1 64
 *        MPI_Irecv, both MPI_Waitall, then rank 1 sends a 0-byte ack;
 *        MB/s = size * 64 / time per window (MB = 10^6 bytes).
 *
 * Each rank has a send and a receive buffer of the largest size from each
 * allocator (malloc: plain malloc, as an application would have it; touched
 * before timing).  Per size, the two kinds are measured in turn, -r times
 * (default 3: malloc, Alloc_mem, malloc, Alloc_mem, ...) and each column is
 * the median of its repetitions; the last column is the ratio Alloc_mem /
 * malloc of those medians.  Iterations: 10000 round trips (200 windows) up to
 * 8 KiB, inversely proportional above, after a warm-up; a probe of 5 cuts the
 * count so that one measurement takes at most -L seconds (0.25).  Before a
 * size is timed, one message with a known pattern is checked in each kind of
 * buffer (CHECK FAILED, exit 3).
 *
 * Output (bench/compare parses it):
 *   # table lat
 *   # size malloc_us alloc_mem_us alloc_mem_over_malloc
 *   # table bw
 *   # size malloc_MBps alloc_mem_MBps alloc_mem_over_malloc
 * Ranks beyond 1, if any, only join the barriers.
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
#define TAG_CHECK 3
#define LARGE_SIZE 8192 /* above this, iteration counts shrink with size */
#define MAX_SIZES 64
#define MAX_REPS 15
#define PROBE_ITERS 5

enum kind { MALLOC, ALLOC_MEM, NKIND };
static const char *const kind_names[NKIND] = {"malloc", "MPI_Alloc_mem"};

struct options {
    size_t sizes[MAX_SIZES];
    int nsizes;
    size_t max_size;
    int do_lat, do_bw;
    int lat_iters, lat_warmup, bw_iters, bw_warmup, window, reps;
    double limit; /* -L: seconds one measurement may take */
};

static int rank, nranks;

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: pingpong_allocmem [-t lat,bw] [-n MIN] [-m MAX] [-s S1,S2,...] [-r REPS]\n"
                "                         [-i ITERS] [-x WARMUP] [-I BW_ITERS] [-X BW_WARMUP]\n"
                "                         [-W WINDOW]\n"
                "  -t  tests (default lat,bw)\n"
                "  -n, -m  smallest and largest size, K/M suffixes (default 1K and 4M;\n"
                "      sizes are the powers of 2 between)\n"
                "  -s  explicit comma-separated sizes (overrides -n/-m)\n"
                "  -r  repetitions of each kind per size, taken in turn (default 3)\n"
                "  -i  ping-pongs up to 8K (default 10000, scaled down above, at least 100)\n"
                "  -x  ping-pong warm-up (default 1000)\n"
                "  -I  bw windows up to 8K (default 200, scaled down above, at least 10)\n"
                "  -X  bw warm-up windows (default 20)\n"
                "  -W  window (default 64)\n"
                "  -L  at most this many seconds per measurement (default 0.25): 5 probe\n"
                "      iterations after the warm-up estimate the time, and the count is cut\n");
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K')
        v *= 1024.0;
    else if (*end == 'm' || *end == 'M')
        v *= 1024.0 * 1024.0;
    return v < 0 ? 0 : (size_t)v;
}

static void parse_options(int argc, char **argv, struct options *o)
{
    size_t min_size = 1024;
    const char *list = NULL;
    int c;

    memset(o, 0, sizeof(*o));
    o->max_size = 4u << 20;
    o->do_lat = o->do_bw = 1;
    o->lat_iters = 10000;
    o->lat_warmup = 1000;
    o->bw_iters = 200;
    o->bw_warmup = 20;
    o->window = 64;
    o->reps = 3;
    o->limit = 0.25;
    while ((c = getopt(argc, argv, "t:n:m:s:r:i:x:I:X:W:L:h")) != -1) {
        switch (c) {
        case 't':
            o->do_lat = strstr(optarg, "lat") != NULL;
            o->do_bw = strstr(optarg, "bw") != NULL;
            break;
        case 'n': min_size = parse_size(optarg); break;
        case 'm': o->max_size = parse_size(optarg); break;
        case 's': list = optarg; break;
        case 'r': o->reps = atoi(optarg); break;
        case 'i': o->lat_iters = atoi(optarg); break;
        case 'x': o->lat_warmup = atoi(optarg); break;
        case 'I': o->bw_iters = atoi(optarg); break;
        case 'X': o->bw_warmup = atoi(optarg); break;
        case 'W': o->window = atoi(optarg); break;
        case 'L': o->limit = atof(optarg); break;
        default:
            usage();
            MPI_Finalize();
            exit(c == 'h' ? 0 : 2);
        }
    }
    if (o->reps < 1)
        o->reps = 1;
    if (o->reps > MAX_REPS)
        o->reps = MAX_REPS;
    if (o->window < 1)
        o->window = 1;
    if (o->lat_iters < 1)
        o->lat_iters = 1;
    if (o->bw_iters < 1)
        o->bw_iters = 1;
    if (list) {
        char *copy = strdup(list), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok && o->nsizes < MAX_SIZES;
             tok = strtok_r(NULL, ",", &save))
            o->sizes[o->nsizes++] = parse_size(tok);
        free(copy);
    } else {
        for (size_t s = 1; s <= o->max_size && o->nsizes < MAX_SIZES; s *= 2)
            if (s >= min_size)
                o->sizes[o->nsizes++] = s;
    }
    o->max_size = 0;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] > o->max_size)
            o->max_size = o->sizes[i];
}

static int scaled(int base, size_t size, int min_count)
{
    if (size <= LARGE_SIZE)
        return base;
    double n = (double)base * LARGE_SIZE / (double)size;
    if (n < min_count)
        n = min_count;
    return n > base ? base : (int)n;
}

static unsigned char *get_buffer(enum kind k, size_t size)
{
    void *p = NULL;
    if (size == 0)
        size = 1;
    if (k == MALLOC) {
        p = malloc(size);
    } else if (MPI_Alloc_mem((MPI_Aint)size, MPI_INFO_NULL, &p) != MPI_SUCCESS) {
        p = NULL;
    }
    if (!p) {
        fprintf(stderr, "rank %d: %s of %zu bytes failed\n", rank, kind_names[k], size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 0, size); /* every page touched before timing */
    return p;
}

static void put_buffer(enum kind k, unsigned char *p)
{
    if (k == MALLOC)
        free(p);
    else
        MPI_Free_mem(p);
}

static unsigned char pattern(size_t size, size_t i, int k)
{
    return (unsigned char)((i * 61u + size * 13u + (unsigned)k * 101u + 7u) & 0xff);
}

/* One message with a known pattern from rank 0 to rank 1, checked there. */
static void check(unsigned char *sbuf, unsigned char *rbuf, size_t size, int k)
{
    if (rank == 0) {
        for (size_t i = 0; i < size; i++)
            sbuf[i] = pattern(size, i, k);
        MPI_Send(sbuf, (int)size, MPI_BYTE, 1, TAG_CHECK, MPI_COMM_WORLD);
    } else if (rank == 1) {
        memset(rbuf, 0, size);
        MPI_Recv(rbuf, (int)size, MPI_BYTE, 0, TAG_CHECK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (size_t i = 0; i < size; i++)
            if (rbuf[i] != pattern(size, i, k)) {
                fprintf(stderr, "CHECK FAILED: %s buffers, size %zu, byte %zu: got %u, "
                        "expected %u\n", kind_names[k], size, i, rbuf[i], pattern(size, i, k));
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Seconds per round trip (rank 0). */
static double pingpong(unsigned char *sbuf, unsigned char *rbuf, size_t size, int warm, int iters)
{
    double t0 = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(sbuf, (int)size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(rbuf, (int)size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int)size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t / iters;
}

/* Seconds per window of `window` messages (rank 0).  Real statuses, not
 * MPI_STATUSES_IGNORE: with MPICH's header, GCC's -Wstringop-overflow takes
 * that constant for an empty array. */
static double stream(unsigned char *sbuf, unsigned char *rbuf, size_t size, int window, int warm,
                     int iters, MPI_Request *reqs, MPI_Status *stats)
{
    double t0 = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(sbuf, (int)size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < window; w++)
                MPI_Irecv(rbuf, (int)size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t / iters;
}

/* Seconds per round trip (test 0) or per window (test 1), on rank 0. */
static double measure(int test, unsigned char *sbuf, unsigned char *rbuf, size_t size,
                      const struct options *o, int warm, int iters, MPI_Request *reqs,
                      MPI_Status *stats)
{
    if (test == 0)
        return pingpong(sbuf, rbuf, size, warm, iters);
    return stream(sbuf, rbuf, size, o->window, warm, iters, reqs, stats);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_affinity(void)
{
    char list[256] = "", other[256] = "?";
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        size_t len = 0;
        for (int c = 0; c < CPU_SETSIZE && len + 8 < sizeof(list); c++)
            if (CPU_ISSET(c, &set))
                len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", len ? "," : "",
                                        c);
    }
    if (rank == 1)
        MPI_Send(list, (int)sizeof(list), MPI_CHAR, 0, TAG_CHECK, MPI_COMM_WORLD);
    else if (rank == 0) {
        MPI_Recv(other, (int)sizeof(other), MPI_CHAR, 1, TAG_CHECK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf("# affinity rank0=%s rank1=%s\n", list, other);
    }
}

int main(int argc, char **argv)
{
    struct options o;
    unsigned char *sbuf[NKIND], *rbuf[NKIND];

    bench_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    parse_options(argc, argv, &o);
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong_allocmem needs at least 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int k = 0; k < NKIND; k++) {
        sbuf[k] = get_buffer((enum kind)k, o.max_size);
        rbuf[k] = get_buffer((enum kind)k, o.max_size);
    }
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)o.window);
    MPI_Status *stats = malloc(sizeof(MPI_Status) * (size_t)o.window);

    if (rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(version, &len);
        char *nl = strchr(version, '\n');
        if (nl)
            *nl = '\0';
        printf("# pingpong_allocmem: %d processes, window %d, %d repetitions per kind and size "
               "(medians), MB = 10^6 bytes\n", nranks, o.window, o.reps);
        printf("# library: %s\n", version);
        printf("# buffers: malloc send %p recv %p; MPI_Alloc_mem send %p recv %p\n",
               (void *)sbuf[MALLOC], (void *)rbuf[MALLOC], (void *)sbuf[ALLOC_MEM],
               (void *)rbuf[ALLOC_MEM]);
    }
    print_affinity();

    for (int test = 0; test < 2; test++) {
        if (test == 0 ? !o.do_lat : !o.do_bw)
            continue;
        if (rank == 0) {
            if (test == 0)
                printf("# table lat\n# size malloc_us alloc_mem_us alloc_mem_over_malloc\n");
            else
                printf("# table bw\n# size malloc_MBps alloc_mem_MBps alloc_mem_over_malloc\n");
        }
        for (int s = 0; s < o.nsizes; s++) {
            size_t size = o.sizes[s];
            double v[NKIND][MAX_REPS], med[NKIND];
            for (int k = 0; k < NKIND; k++)
                check(sbuf[k], rbuf[k], size, k);
            /* the warm-up and 5 probe iterations (malloc'd buffers) estimate the
             * time per iteration; the count is cut to fit -L seconds */
            int iters = test == 0 ? scaled(o.lat_iters, size, 100) : scaled(o.bw_iters, size, 10);
            int warm = test == 0 ? scaled(o.lat_warmup, size, 10) : scaled(o.bw_warmup, size, 2);
            double per = measure(test, sbuf[MALLOC], rbuf[MALLOC], size, &o, warm, PROBE_ITERS,
                                 reqs, stats);
            if (rank == 0 && per * iters > o.limit)
                iters = per > 0 && o.limit / per > PROBE_ITERS ? (int)(o.limit / per)
                                                               : PROBE_ITERS;
            MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
            if (warm > iters / 10)
                warm = iters / 10 > 0 ? iters / 10 : 1;
            for (int r = 0; r < o.reps; r++) {
                for (int k = 0; k < NKIND; k++) {
                    per = measure(test, sbuf[k], rbuf[k], size, &o, warm, iters, reqs, stats);
                    if (test == 0)
                        v[k][r] = per * 1e6 / 2.0;
                    else
                        v[k][r] = per > 0 ? (double)size * o.window / per / 1e6 : 0.0;
                }
            }
            for (int k = 0; k < NKIND; k++)
                med[k] = median(v[k], o.reps);
            if (rank == 0) {
                printf(test == 0 ? "%zu %.3f %.3f %.3f\n" : "%zu %.2f %.2f %.3f\n", size,
                       med[MALLOC], med[ALLOC_MEM],
                       med[MALLOC] > 0 ? med[ALLOC_MEM] / med[MALLOC] : 0.0);
                fflush(stdout);
            }
        }
    }

    for (int k = 0; k < NKIND; k++) {
        put_buffer((enum kind)k, sbuf[k]);
        put_buffer((enum kind)k, rbuf[k]);
    }
    free(reqs);
    free(stats);
    MPI_Finalize();
    return 0;
}
