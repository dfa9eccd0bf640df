/*
 * osu_pingpong.c - OSU-style point-to-point benchmarks between ranks 0 and 1.
 *
 * Three tests, chosen with -t (default: all three):
 *   lat   ping-pong: rank 0 sends, rank 1 answers with the same size.
 *         latency_us = half the round trip; bandwidth_MBps = size / latency.
 *   bw    streaming, like osu_bw: rank 0 posts a window of Isends, rank 1 a
 *         window of Irecvs, both Waitall, then rank 1 sends a 0-byte ack.
 *         bandwidth_MBps = size * window / time per window.
 *   bibw  bidirectional, like osu_bibw: both ranks post a window of Irecvs and
 *         a window of Isends, then Waitall.  bandwidth_MBps counts both
 *         directions.
 *
 * MB is 10^6 bytes.  Buffers are allocated once (page-aligned), touched before
 * timing, and the same buffer is used for every message of every iteration.
 * Before each size is timed, one message carrying a known pattern is checked on
 * the receiver, so a broken MPI cannot report a fast but wrong result.
 *
 * Output: one table per test, parsed by bench/compare:
 *   # table lat
 *   # size latency_us bandwidth_MBps
 *   0 0.45 0.00
 *   ...
 * Extra ranks (if started with more than 2) only take part in the barriers.
 * With -T SECONDS the ping-pong runs for a time instead of a count: a
 * quarter of it warm-up, then SECONDS measured (rank 0 ends each phase with a
 * message of its own tag), so extra ranks have long settled into their wait
 * and an MPI whose round trip takes milliseconds still finishes.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include "bench_init.h"
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_DATA 1
#define TAG_ACK 2
#define TAG_CHECK 3
#define TAG_LAST 4     /* -T: the last ping-pong of a phase */
#define LARGE_SIZE 8192 /* above this, iteration counts shrink with size */

struct options {
    size_t max_size;
    size_t min_size;
    size_t *sizes; /* explicit list (-s), or NULL for 0,1,2,4,...,max */
    int nsizes;
    int do_lat, do_bw, do_bibw;
    int lat_iters, lat_warmup; /* for sizes <= LARGE_SIZE */
    int bw_iters, bw_warmup;   /* windows, for sizes <= LARGE_SIZE */
    int window;
    int check;
    double lat_seconds;        /* -T: time-based ping-pong (0: counts) */
};

static int rank, nranks;

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: osu_pingpong [-t lat,bw,bibw] [-m MAX] [-n MIN] [-s S1,S2,...]\n"
                "                    [-i LAT_ITERS] [-x LAT_WARMUP] [-I BW_ITERS] [-X BW_WARMUP]\n"
                "                    [-W WINDOW] [-T SECONDS] [-C]\n"
                "  -t  tests to run (default lat,bw,bibw)\n"
                "  -m  largest size in bytes, suffix K/M/G allowed (default 4M)\n"
                "  -n  smallest size (default 0)\n"
                "  -s  explicit comma-separated list of sizes (overrides -m/-n)\n"
                "  -i  ping-pong iterations for sizes <= 8K (default 10000; scaled down above)\n"
                "  -x  ping-pong warm-up iterations (default 1000; scaled down above 8K)\n"
                "  -I  bw/bibw windows for sizes <= 8K (default 200; scaled down above)\n"
                "  -X  bw/bibw warm-up windows (default 20)\n"
                "  -W  window size for bw/bibw (default 64)\n"
                "  -T  ping-pong for SECONDS after SECONDS/4 of warm-up, instead of -i/-x\n"
                "  -C  skip the per-size data check\n");
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    if (v < 0)
        v = 0;
    return (size_t)v;
}

static void parse_options(int argc, char **argv, struct options *o)
{
    o->max_size = 4u << 20;
    o->min_size = 0;
    o->sizes = NULL;
    o->nsizes = 0;
    o->do_lat = o->do_bw = o->do_bibw = 1;
    o->lat_iters = 10000;
    o->lat_warmup = 1000;
    o->bw_iters = 200;
    o->bw_warmup = 20;
    o->window = 64;
    o->check = 1;
    o->lat_seconds = 0;

    int c;
    while ((c = getopt(argc, argv, "t:m:n:s:i:x:I:X:W:T:Ch")) != -1) {
        switch (c) {
        case 't':
            o->do_lat = strstr(optarg, "lat") != NULL;
            o->do_bibw = strstr(optarg, "bibw") != NULL;
            /* "bw" alone, not just the tail of "bibw" */
            o->do_bw = 0;
            for (const char *p = optarg; (p = strstr(p, "bw")) != NULL; p += 2)
                if (p == optarg || p[-1] == ',')
                    o->do_bw = 1;
            break;
        case 'm': o->max_size = parse_size(optarg); break;
        case 'n': o->min_size = parse_size(optarg); break;
        case 's': {
            int n = 1;
            for (const char *p = optarg; *p; p++)
                n += *p == ',';
            o->sizes = malloc(sizeof(size_t) * n);
            char *copy = strdup(optarg), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
                o->sizes[o->nsizes++] = parse_size(tok);
            free(copy);
            break;
        }
        case 'i': o->lat_iters = atoi(optarg); break;
        case 'x': o->lat_warmup = atoi(optarg); break;
        case 'I': o->bw_iters = atoi(optarg); break;
        case 'X': o->bw_warmup = atoi(optarg); break;
        case 'W': o->window = atoi(optarg); break;
        case 'T': o->lat_seconds = atof(optarg); break;
        case 'C': o->check = 0; break;
        default:
            usage();
            MPI_Finalize();
            exit(c == 'h' ? 0 : 2);
        }
    }
    if (o->window < 1)
        o->window = 1;
    if (!o->sizes) {
        /* 0, 1, 2, 4, ... up to max_size, keeping those >= min_size */
        o->sizes = malloc(sizeof(size_t) * 70);
        if (o->min_size == 0)
            o->sizes[o->nsizes++] = 0;
        for (size_t s = 1; s <= o->max_size && s > 0; s *= 2)
            if (s >= o->min_size)
                o->sizes[o->nsizes++] = s;
    }
    o->max_size = 0;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] > o->max_size)
            o->max_size = o->sizes[i];
}

/* Iterations for a size: the base count up to LARGE_SIZE, then inversely
 * proportional to the size, never below min_count. */
static int scaled(int base, size_t size, int min_count)
{
    if (size <= LARGE_SIZE)
        return base;
    long n = (long)((double)base * LARGE_SIZE / (double)size);
    if (n < min_count)
        n = min_count;
    if (n > base)
        n = base;
    return (int)n;
}

static void *alloc_buffer(size_t size)
{
    void *p = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (size == 0)
        size = 1;
    if (posix_memalign(&p, (size_t)page, size) != 0) {
        fprintf(stderr, "rank %d: cannot allocate %zu bytes\n", rank, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 0, size); /* touch every page before timing */
    return p;
}

static unsigned char pattern_byte(size_t size, size_t i)
{
    return (unsigned char)((i * 131u + size * 7u + 1u) & 0xff);
}

/* One message of `size` from rank 0 to rank 1 with a known pattern, checked
 * by rank 1 (and the reverse direction too for bibw).  Outside timing. */
static void check_size(unsigned char *sbuf, unsigned char *rbuf, size_t size, int both_ways)
{
    for (int dir = 0; dir < (both_ways ? 2 : 1); dir++) {
        int sender = dir == 0 ? 0 : 1, receiver = 1 - sender;
        if (rank == sender) {
            for (size_t i = 0; i < size; i++)
                sbuf[i] = pattern_byte(size, i);
            MPI_Send(sbuf, (int)size, MPI_CHAR, receiver, TAG_CHECK, MPI_COMM_WORLD);
        } else if (rank == receiver) {
            MPI_Status st;
            int count = -1;
            memset(rbuf, 0, size);
            MPI_Recv(rbuf, (int)size, MPI_CHAR, sender, TAG_CHECK, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_CHAR, &count);
            if ((size_t)count != size) {
                fprintf(stderr, "CHECK FAILED: size %zu received count %d\n", size, count);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            for (size_t i = 0; i < size; i++) {
                if (rbuf[i] != pattern_byte(size, i)) {
                    fprintf(stderr, "CHECK FAILED: size %zu byte %zu got %u expected %u\n", size,
                            i, rbuf[i], pattern_byte(size, i));
                    MPI_Abort(MPI_COMM_WORLD, 3);
                }
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static double pingpong(unsigned char *sbuf, unsigned char *rbuf, size_t size, int iters, int warmup)
{
    double t0 = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(sbuf, (int)size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(rbuf, (int)size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int)size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* Ping-pongs between ranks 0 and 1 for `seconds` (rank 0 reads the clock
 * every 16 round trips and tags the last one TAG_LAST); returns the round
 * trips done, their time in *elapsed (on rank 0). */
static long pingpong_for(unsigned char *sbuf, unsigned char *rbuf, size_t size, double seconds, double *elapsed)
{
    long n = 0;
    double t0 = MPI_Wtime();
    for (int last = 0; !last; n++) {
        if (rank == 0) {
            last = (n & 15) == 15 && MPI_Wtime() - t0 >= seconds;
            MPI_Send(sbuf, (int)size, MPI_CHAR, 1, last ? TAG_LAST : TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Status st;
            MPI_Recv(rbuf, (int)size, MPI_CHAR, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Send(sbuf, (int)size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD);
            last = st.MPI_TAG == TAG_LAST;
        } else {
            last = 1;
        }
    }
    *elapsed = MPI_Wtime() - t0;
    return n;
}

/* -T: latency in seconds per round trip, measured after a warm-up. */
static double pingpong_timed(unsigned char *sbuf, unsigned char *rbuf, size_t size, double seconds)
{
    double t;
    MPI_Barrier(MPI_COMM_WORLD);
    pingpong_for(sbuf, rbuf, size, seconds / 4, &t);
    long n = pingpong_for(sbuf, rbuf, size, seconds, &t);
    MPI_Barrier(MPI_COMM_WORLD);
    return t / (double)n;
}

static double stream_bw(unsigned char *sbuf, unsigned char *rbuf, size_t size, int iters,
                        int warmup, int window, MPI_Request *reqs)
{
    double t0 = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            t0 = MPI_Wtime();
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(sbuf, (int)size, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Recv(NULL, 0, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < window; w++)
                MPI_Irecv(rbuf, (int)size, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
            MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

static double bidir_bw(unsigned char *sbuf, unsigned char *rbuf, size_t size, int iters,
                       int warmup, int window, MPI_Request *reqs)
{
    double t0 = 0.0;
    int peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            t0 = MPI_Wtime();
        if (rank < 2) {
            for (int w = 0; w < window; w++)
                MPI_Irecv(rbuf, (int)size, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            for (int w = 0; w < window; w++)
                MPI_Isend(sbuf, (int)size, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                          &reqs[window + w]);
            MPI_Waitall(2 * window, reqs, MPI_STATUSES_IGNORE);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* Rank 0 prints where ranks 0 and 1 are allowed to run (shows pinning). */
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
        MPI_Send(mine, (int)sizeof(mine), MPI_CHAR, 0, TAG_CHECK, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Recv(theirs, (int)sizeof(theirs), MPI_CHAR, 1, TAG_CHECK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf("# affinity rank0=%s rank1=%s\n", mine, theirs);
    }
}

int main(int argc, char **argv)
{
    struct options o;

    bench_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    parse_options(argc, argv, &o);
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "osu_pingpong needs at least 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    unsigned char *sbuf = alloc_buffer(o.max_size);
    unsigned char *rbuf = alloc_buffer(o.max_size);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)o.window);

    if (rank == 0) {
        printf("# osu_pingpong: %d processes, window %d, MB = 10^6 bytes\n", nranks, o.window);
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

    if (o.do_lat) {
        if (rank == 0)
            printf("# table lat\n# size latency_us bandwidth_MBps\n");
        for (int k = 0; k < o.nsizes; k++) {
            size_t size = o.sizes[k];
            if (o.check)
                check_size(sbuf, rbuf, size, 1);
            memset(sbuf, 'a', size);
            double rtt;
            if (o.lat_seconds > 0) {
                rtt = pingpong_timed(sbuf, rbuf, size, o.lat_seconds);
            } else {
                int iters = scaled(o.lat_iters, size, 100);
                int warmup = scaled(o.lat_warmup, size, 10);
                rtt = pingpong(sbuf, rbuf, size, iters, warmup) / iters;
            }
            if (rank == 0) {
                double lat_us = rtt * 1e6 / 2.0;
                printf("%zu %.3f %.2f\n", size, lat_us, lat_us > 0 ? size / lat_us : 0.0);
                fflush(stdout);
            }
        }
    }

    if (o.do_bw) {
        if (rank == 0)
            printf("# table bw\n# size bandwidth_MBps\n");
        for (int k = 0; k < o.nsizes; k++) {
            size_t size = o.sizes[k];
            if (o.check)
                check_size(sbuf, rbuf, size, 0);
            memset(sbuf, 'b', size);
            int iters = scaled(o.bw_iters, size, 10);
            int warmup = scaled(o.bw_warmup, size, 2);
            double t = stream_bw(sbuf, rbuf, size, iters, warmup, o.window, reqs);
            if (rank == 0) {
                double bytes = (double)size * o.window * iters;
                printf("%zu %.2f\n", size, t > 0 ? bytes / t / 1e6 : 0.0);
                fflush(stdout);
            }
        }
    }

    if (o.do_bibw) {
        if (rank == 0)
            printf("# table bibw\n# size bandwidth_MBps\n");
        for (int k = 0; k < o.nsizes; k++) {
            size_t size = o.sizes[k];
            if (o.check)
                check_size(sbuf, rbuf, size, 1);
            memset(sbuf, 'c', size);
            int iters = scaled(o.bw_iters, size, 10);
            int warmup = scaled(o.bw_warmup, size, 2);
            double t = bidir_bw(sbuf, rbuf, size, iters, warmup, o.window, reqs);
            if (rank == 0) {
                double bytes = 2.0 * (double)size * o.window * iters;
                printf("%zu %.2f\n", size, t > 0 ? bytes / t / 1e6 : 0.0);
                fflush(stdout);
            }
        }
    }

    free(reqs);
    free(sbuf);
    free(rbuf);
    free(o.sizes);
    MPI_Finalize();
    return 0;
}
