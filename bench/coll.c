/*
 * coll.c - OSU-style collective latency on MPI_COMM_WORLD.
 *
 * Collectives (-c picks some; default all, in this order), one table each:
 *   barrier
 *   bcast, bcast_root_last,          size = the whole message / vector; root 0,
 *   reduce, reduce_root_last,        and the last rank for *_root_last
 *   allreduce, scan, exscan
 *   allgather, allgatherv,           size = the block each rank contributes
 *   alltoall, gather, gatherv,       (per destination for alltoall); root 0;
 *   scatter, scatterv,               the v-forms with equal counts, displacement
 *   reduce_scatter_block,            j * count; reduce_scatter is
 *   reduce_scatter                   MPI_Reduce_scatter (every count the size)
 *   alltoallv                        dense: every pair exchanges `size` bytes
 *   alltoallv_sparse                 every rank sends 8-64 bytes to two ranks
 *                                    (ranks r+1 and r+1+p/2, itself left out),
 *                                    every other count zero; sizes cycle through
 *                                    8 patterns so that counts change from call
 *                                    to call; thousands of calls
 * Data are MPI_INT (reductions: MPI_SUM), so sizes are multiples of 4 bytes:
 * 4, 16, 64, ... 1 MiB by default.
 *
 * Timing, as OSU does it: every call is timed on its own (MPI_Wtime before and
 * after), without barriers between calls; each rank averages its own calls;
 * the table shows the average, the minimum and the maximum of those per-rank
 * averages, in microseconds, collected with point-to-point messages only.
 *
 * Buffers change between calls (unlike OSU's).  Before every call (warm-up,
 * probe and timed calls alike), outside the timed region, each rank stores a
 * new value into one int of every 64-byte line of its send buffer (the root's
 * whole input for bcast/scatter), and reads one int of every line of its
 * receive buffer.  Why: a benchmark that sends the same unchanged buffer again
 * and again flatters single-copy designs.  A reader that copied the sender's
 * buffer in the previous call (process_vm_readv, a mapped peer buffer) still
 * holds those lines in its own cache, so the next call copies from its own
 * cache instead of pulling the lines across, as it must when an application
 * has just computed new data.  One store per line is enough to make the whole
 * line Modified in the writer's cache and invalidate every other copy, which
 * is exactly the state a real producer leaves; one store per page would leave
 * 63 of 64 lines valid in the readers' caches, and rewriting every byte would
 * add nothing but time (untimed, but it slows the run).  The read of the
 * result is the same thing the other way round: a design that writes into
 * the receiver's buffer from another process (process_vm_writev, a mapped
 * buffer) would otherwise find those lines still in its own cache, where an
 * application that reads its results would have pulled them away.  The cost
 * is one access per 64 bytes, 1/16 of a full rewrite of ints.
 *
 * Every rank touches the same number of lines: the non-roots of a rooted call
 * as many as the root's input and result (in buffers the call does not use),
 * so the touching does not change the order in which ranks arrive at the
 * call: with back-to-back calls, a rank that spent longer outside the timing
 * would make the others wait inside it.  Reading a result that another
 * process wrote can still take the reader longer than reading one it wrote
 * itself, and then the others wait for it inside the next call: that is the
 * real cost of writing into another process's buffer, moved, not hidden.
 * --same-buffers measures the OSU way (nothing touched), to show the
 * difference.
 *
 * Before timing each size, the collective is run once on known data and every
 * rank checks what it received (a barrier is checked through a shared file:
 * nobody may leave before everybody has arrived).  A wrong result prints
 * "CHECK FAILED ..." and exits with status 3 (MPI_Abort).
 *
 * Iterations: 1000 (300 with --quick) up to 16 KiB, then inversely
 * proportional to the size, at least 10 (5); the barrier 10 times as many;
 * warm-up a tenth of that.  Three
 * probe calls estimate the time per call first (the slowest rank's median):
 * if the iterations would take longer than -L seconds (default 0.25; 0.02
 * with --quick; 4 times that for alltoallv_sparse), they are cut to fit (at
 * least 3), and the `iters` column says how many were timed.  Once the whole
 * run has taken -T seconds (default 200; 20 with --quick), the rest is
 * skipped with a comment line.  That keeps an oversubscribed MPI that spins
 * (milliseconds per call) from taking an hour.
 *
 * Output, parsed by bench/compare:
 *   # table allreduce
 *   # size avg_us min_us max_us iters
 *   4 1.234 1.200 1.270 1000
 *   ...
 *   # table alltoallv_sparse
 *   # bytes avg_us min_us max_us calls
 *   8-64 2.345 2.300 2.390 10000
 * The barrier table has the single size 0.
 *
 * --form=nonblocking times MPI_Ixxx + MPI_Wait instead of the blocking call;
 * --form=persistent times MPI_Start + MPI_Wait of a persistent collective
 * (MPI_Xxx_init, MPI-4) made once per collective and size, and freed before
 * the next: running the same collective both ways shows what building the
 * schedule once saves. The result check runs in the chosen form too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TAG_CTRL 17
#define LARGE_SIZE (16 * 1024) /* above this, iteration counts shrink with size */
#define SPARSE_MAX 64          /* largest sparse message, bytes */
#define SPARSE_PATTERNS 8
#define INTS_PER_LINE (64 / (int)sizeof(int))

enum coll {
    BARRIER, BCAST, BCAST_LAST, REDUCE, REDUCE_LAST, ALLREDUCE, SCAN, EXSCAN, ALLGATHER,
    ALLGATHERV, ALLTOALL, ALLTOALLV, GATHER, GATHERV, SCATTER, SCATTERV, REDUCE_SCATTER_BLOCK,
    REDUCE_SCATTER, ALLTOALLV_SPARSE, NCOLL
};

static const char *const coll_names[NCOLL] = {
    "barrier", "bcast", "bcast_root_last", "reduce", "reduce_root_last", "allreduce", "scan",
    "exscan", "allgather", "allgatherv", "alltoall", "alltoallv", "gather", "gatherv",
    "scatter", "scatterv", "reduce_scatter_block", "reduce_scatter", "alltoallv_sparse"};

struct options {
    int want[NCOLL];
    size_t *sizes;
    int nsizes;
    int iters;         /* for sizes <= LARGE_SIZE */
    int min_iters;     /* for the largest sizes */
    int sparse_calls;  /* alltoallv_sparse */
    double limit_s;    /* time one measurement may take, about */
    double budget_s;   /* time the whole run may take, about */
    int vary;          /* touch the buffers before every call (default; see vary) */
};

/* How each call is made (--form). */
enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *const form_names[] = {"blocking", "nonblocking", "persistent"};
static enum form form;

static int rank, nranks;

/* Buffers, allocated once for the largest size (nranks blocks each). */
static int *sbuf, *rbuf;
static int *counts, *displs;      /* dense alltoallv: the same for send and receive */
static int *scounts[SPARSE_PATTERNS], *rcounts[SPARSE_PATTERNS];
static int *sdispls, *rdispls;    /* sparse: rank j's slot at j * SPARSE_MAX */
static unsigned char *sparse_s, *sparse_r;

/* ---------------------------------------------------------------- helpers */

static void usage(void)
{
    if (rank != 0)
        return;
    fprintf(stderr,
            "usage: coll [--quick] [--same-buffers] [-c COLL,...] [-m MAX] [-s S1,S2,...]\n"
            "            [-i ITERS] [-n CALLS] [-L SECONDS] [-T SECONDS]\n"
            "            [--form=blocking|nonblocking|persistent]\n"
            "  --quick  sizes 4,64,1K,16K,256K,1M; 300 iterations; 2000 sparse calls;\n"
            "           -L 0.02 -T 20\n"
            "  --same-buffers  touch no buffer between calls (OSU's way; flatters\n"
            "           single-copy designs: the readers' caches stay warm)\n"
            "  -c  collectives (default all): barrier,bcast,bcast_root_last,reduce,\n"
            "      reduce_root_last,allreduce,scan,exscan,allgather,allgatherv,alltoall,\n"
            "      alltoallv,gather,gatherv,scatter,scatterv,reduce_scatter_block,\n"
            "      reduce_scatter,alltoallv_sparse\n"
            "  -m  largest size, suffix K/M allowed (default 1M): sizes 4, 16, 64, ... (x4)\n"
            "  -s  explicit comma-separated sizes, multiples of 4 (overrides -m)\n"
            "  -i  iterations up to 16 KiB (default 1000), fewer above, 10x for barrier\n"
            "  -n  alltoallv_sparse calls (default 10000)\n"
            "  -L  cut a measurement's iterations to take about this long (default 0.25 s)\n"
            "  -T  skip what is left once the run has taken this long (default 200 s)\n"
            "  --form  how each call is made: the blocking call (default), the nonblocking\n"
            "      one and MPI_Wait, or MPI_Start and MPI_Wait of a persistent one made\n"
            "      once per collective and size (MPI-4)\n");
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    default: break;
    }
    return v < 4 ? 4 : (size_t)v / 4 * 4;
}

static void set_sizes(struct options *o, const char *list)
{
    int n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    free(o->sizes);
    o->sizes = malloc(sizeof(size_t) * (size_t)n);
    o->nsizes = 0;
    char *copy = strdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        o->sizes[o->nsizes++] = parse_size(tok);
    free(copy);
}

static void parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {{"quick", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"same-buffers", no_argument, NULL, 'S'},
                                             {"form", required_argument, NULL, 'F'},
                                             {NULL, 0, NULL, 0}};
    size_t max_size = 1u << 20;
    const char *list = NULL, *colls = NULL;
    int quick = 0, iters = -1, calls = -1, same = 0, c;
    double limit = -1, budget = -1;

    while ((c = getopt_long(argc, argv, "qc:m:s:i:n:L:T:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'q': quick = 1; break;
        case 'S': same = 1; break;
        case 'F':
            for (form = BLOCKING; form <= PERSISTENT && strcmp(optarg, form_names[form]); form++)
                ;
            if (form > PERSISTENT) {
                if (rank == 0)
                    fprintf(stderr, "coll: unknown form '%s'\n", optarg);
                usage();
                MPI_Finalize();
                exit(2);
            }
#if !defined(MPI_VERSION) || MPI_VERSION < 4
            if (form == PERSISTENT) {
                if (rank == 0)
                    fprintf(stderr, "coll: persistent collectives need an MPI-4 library\n");
                MPI_Finalize();
                exit(2);
            }
#endif
            break;
        case 'c': colls = optarg; break;
        case 'm': max_size = parse_size(optarg); break;
        case 's': list = optarg; break;
        case 'i': iters = atoi(optarg); break;
        case 'n': calls = atoi(optarg); break;
        case 'L': limit = atof(optarg); break;
        case 'T': budget = atof(optarg); break;
        default:
            usage();
            MPI_Finalize();
            exit(c == 'h' ? 0 : 2);
        }
    }
    o->sizes = NULL;
    if (list)
        set_sizes(o, list);
    else if (quick)
        set_sizes(o, "4,64,1K,16K,256K,1M");
    else {
        o->sizes = malloc(sizeof(size_t) * 32);
        o->nsizes = 0;
        for (size_t s = 4; s <= max_size && o->nsizes < 32; s *= 4)
            o->sizes[o->nsizes++] = s;
    }
    o->iters = iters > 0 ? iters : quick ? 300 : 1000;
    o->min_iters = quick ? 5 : 10;
    o->sparse_calls = calls > 0 ? calls : quick ? 2000 : 10000;
    o->limit_s = limit > 0 ? limit : quick ? 0.02 : 0.25;
    o->budget_s = budget > 0 ? budget : quick ? 20 : 200;
    o->vary = !same;
    for (int k = 0; k < NCOLL; k++)
        o->want[k] = colls == NULL;
    if (colls) {
        char *copy = strdup(colls), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int k = 0;
            while (k < NCOLL && strcmp(tok, coll_names[k]) != 0)
                k++;
            if (k == NCOLL) {
                if (rank == 0)
                    fprintf(stderr, "coll: unknown collective '%s'\n", tok);
                usage();
                MPI_Finalize();
                exit(2);
            }
            o->want[k] = 1;
        }
        free(copy);
    }
}

static void *alloc_buffer(size_t size)
{
    void *p = NULL;
    if (size == 0)
        size = 1;
    if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size) != 0) {
        fprintf(stderr, "rank %d: cannot allocate %zu bytes\n", rank, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 0, size); /* touch every page before timing */
    return p;
}

/* The value rank `src` contributes at element `i` of its block for rank `dst`:
 * it changes with each of the three, and stays below 2^24 so that sums over
 * up to 127 ranks fit an int. */
static int val(int src, int dst, size_t i)
{
    return (int)(((unsigned)src * 131071u + (unsigned)dst * 8191u + (unsigned)i * 31u + 7u) &
                 0xffffffu);
}

static void fail(const char *coll, size_t size, const char *what, size_t i, long got,
                 long want)
{
    fprintf(stderr, "CHECK FAILED: %s size %zu: rank %d %s %zu got %ld expected %ld\n", coll,
            size, rank, what, i, got, want);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* buf[i] must be val(src, dst, i), or with nsum > 0 the sum of val(r, dst, i)
 * over the ranks r = 0 .. nsum - 1. */
static void expect(const char *coll, size_t size, const int *buf, size_t n, int src, int dst,
                   int nsum)
{
    for (size_t i = 0; i < n; i++) {
        long want = 0;
        if (nsum > 0)
            for (int r = 0; r < nsum; r++)
                want += val(r, dst, i);
        else
            want = val(src, dst, i);
        if (buf[i] != (int)want)
            fail(coll, size, "element", i, buf[i], want);
    }
}

/* The largest `t` over the ranks, on rank 0 (point-to-point only). */
static double max_over_ranks(double t)
{
    if (rank != 0) {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_CTRL, MPI_COMM_WORLD);
        return t;
    }
    for (int r = 1; r < nranks; r++) {
        double other;
        MPI_Recv(&other, 1, MPI_DOUBLE, r, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (other > t)
            t = other;
    }
    return t;
}

/* Rank 0's value to every rank (point-to-point only). */
static int share(int v)
{
    if (rank == 0) {
        for (int r = 1; r < nranks; r++)
            MPI_Send(&v, 1, MPI_INT, r, TAG_CTRL, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&v, 1, MPI_INT, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return v;
}

/* Average, minimum and maximum of `t` over the ranks, on rank 0. */
static void stats_over_ranks(double t, double *avg, double *min, double *max)
{
    *avg = *min = *max = t;
    if (rank != 0) {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_CTRL, MPI_COMM_WORLD);
        return;
    }
    double sum = t;
    for (int r = 1; r < nranks; r++) {
        double other;
        MPI_Recv(&other, 1, MPI_DOUBLE, r, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += other;
        if (other < *min)
            *min = other;
        if (other > *max)
            *max = other;
    }
    *avg = sum / nranks;
}

/* --------------------------------------------------------- the collectives */

/* Sparse partners: rank r sends to r + offsets[k] (mod p), receives from
 * r - offsets[k]; offsets 1 and 1 + p/2, without 0 and duplicates. */
static int sparse_offsets(int *offs)
{
    int n = 0, cand[2] = {1 % nranks, (1 + nranks / 2) % nranks};
    for (int k = 0; k < 2; k++)
        if (cand[k] != 0 && (n == 0 || offs[0] != cand[k]))
            offs[n++] = cand[k];
    return n;
}

/* Bytes from src to dst in sparse pattern q: 8 to 64. */
static int sparse_bytes(int q, int src, int dst)
{
    return 8 * (1 + (q + 3 * src + 5 * dst) % 8);
}

static void setup_sparse(void)
{
    int offs[2], n = sparse_offsets(offs);
    for (int q = 0; q < SPARSE_PATTERNS; q++) {
        scounts[q] = calloc((size_t)nranks, sizeof(int));
        rcounts[q] = calloc((size_t)nranks, sizeof(int));
        for (int k = 0; k < n; k++) {
            int to = (rank + offs[k]) % nranks, from = (rank - offs[k] + nranks) % nranks;
            scounts[q][to] = sparse_bytes(q, rank, to);
            rcounts[q][from] = sparse_bytes(q, from, rank);
        }
    }
    sdispls = malloc(sizeof(int) * (size_t)nranks);
    rdispls = malloc(sizeof(int) * (size_t)nranks);
    for (int j = 0; j < nranks; j++)
        sdispls[j] = rdispls[j] = j * SPARSE_MAX;
    sparse_s = alloc_buffer((size_t)nranks * SPARSE_MAX);
    sparse_r = alloc_buffer((size_t)nranks * SPARSE_MAX);
}

/* The root of a rooted collective: the last rank for the *_root_last tables. */
static int root_of(enum coll c)
{
    return c == BCAST_LAST || c == REDUCE_LAST ? nranks - 1 : 0;
}

/* How many blocks of n ints the send buffer holds: one per rank where each
 * rank gets its own (alltoall*, scatter*, reduce_scatter*), otherwise one. */
static int send_blocks(enum coll c)
{
    switch (c) {
    case ALLTOALL: case ALLTOALLV: case SCATTER: case SCATTERV: case REDUCE_SCATTER_BLOCK:
    case REDUCE_SCATTER:
        return nranks;
    default:
        return 1;
    }
}

/* Ints of the receive buffer that the call writes on the rank that gets the
 * most (bcast: none, its results land in the send buffer, which vary writes). */
static size_t recv_elems(enum coll c, int n)
{
    switch (c) {
    case BARRIER: case BCAST: case BCAST_LAST: return 0;
    case ALLGATHER: case ALLGATHERV: case ALLTOALL: case ALLTOALLV: case GATHER: case GATHERV:
        return (size_t)nranks * (size_t)n;
    default: return (size_t)n;
    }
}

/* Before every call, outside the timed region: one int in every 64-byte
 * line of the send buffer takes a new value, and one int in every line of
 * the receive buffer is read, as an application reads its previous result
 * (see the header comment).  All ranks touch the same number of lines (as
 * many as the rank with the largest input and the largest result), so that
 * this does not skew their arrival at the call. */
static unsigned stamp;
static volatile int sink;

static void vary(enum coll c, int n)
{
    int v = (int)(++stamp & 0xffffu), sum = 0;
    if (c == BARRIER)
        return;
    if (c == ALLTOALLV_SPARSE) {
        for (int j = 0; j < nranks; j++) { /* one 64-byte slot per peer */
            sum += sparse_r[(size_t)j * SPARSE_MAX];
            sparse_s[(size_t)j * SPARSE_MAX] = (unsigned char)v;
        }
        sink = sum;
        return;
    }
    size_t relems = recv_elems(c, n), selems = (size_t)send_blocks(c) * (size_t)n;
    for (size_t k = 0; k < relems; k += INTS_PER_LINE)
        sum += rbuf[k];
    sink = sum;
    for (size_t k = 0; k < selems; k += INTS_PER_LINE)
        sbuf[k] = v;
}

/* The nonblocking (init 0) or persistent (init 1) form of collective c,
 * with the arguments of run_once, as request *r. */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define ISSUE(Name, name, ...) \
    (init ? MPI_##Name##_init(__VA_ARGS__, MPI_INFO_NULL, r) : MPI_I##name(__VA_ARGS__, r))
#else
#define ISSUE(Name, name, ...) MPI_I##name(__VA_ARGS__, r)
#endif
static void issue(enum coll c, int n, int q, int init, MPI_Request *r)
{
    (void)init;
    switch (c) {
    case BARRIER:
#if defined(MPI_VERSION) && MPI_VERSION >= 4
        if (init) {
            MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, r);
            break;
        }
#endif
        MPI_Ibarrier(MPI_COMM_WORLD, r);
        break;
    case BCAST: case BCAST_LAST: ISSUE(Bcast, bcast, sbuf, n, MPI_INT, root_of(c), MPI_COMM_WORLD); break;
    case REDUCE: case REDUCE_LAST:
        ISSUE(Reduce, reduce, sbuf, rbuf, n, MPI_INT, MPI_SUM, root_of(c), MPI_COMM_WORLD);
        break;
    case ALLREDUCE: ISSUE(Allreduce, allreduce, sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case SCAN: ISSUE(Scan, scan, sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case EXSCAN: ISSUE(Exscan, exscan, sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLGATHER: ISSUE(Allgather, allgather, sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD); break;
    case ALLGATHERV:
        ISSUE(Allgatherv, allgatherv, sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
        break;
    case ALLTOALL: ISSUE(Alltoall, alltoall, sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD); break;
    case ALLTOALLV:
        ISSUE(Alltoallv, alltoallv, sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
        break;
    case GATHER: ISSUE(Gather, gather, sbuf, n, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD); break;
    case GATHERV:
        ISSUE(Gatherv, gatherv, sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case SCATTER: ISSUE(Scatter, scatter, sbuf, n, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD); break;
    case SCATTERV:
        ISSUE(Scatterv, scatterv, sbuf, counts, displs, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER_BLOCK:
        ISSUE(Reduce_scatter_block, reduce_scatter_block, sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        ISSUE(Reduce_scatter, reduce_scatter, sbuf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLTOALLV_SPARSE:
        ISSUE(Alltoallv, alltoallv, sparse_s, scounts[q], sdispls, MPI_BYTE, sparse_r, rcounts[q], rdispls,
              MPI_BYTE, MPI_COMM_WORLD);
        break;
    case NCOLL: break;
    }
}

/* --form=persistent: the requests of one collective and block size, one
 * per sparse pattern, made at their first call. */
static MPI_Request preq[SPARSE_PATTERNS];
static enum coll preq_coll = NCOLL;
static int preq_n = -1;

static void persistent_free(void)
{
    for (int q = 0; q < SPARSE_PATTERNS; q++)
        if (preq[q] != MPI_REQUEST_NULL)
            MPI_Request_free(&preq[q]);
    preq_coll = NCOLL;
    preq_n = -1;
}

static MPI_Request *persistent_for(enum coll c, int n, int q)
{
    if (c != preq_coll || n != preq_n) {
        persistent_free();
        preq_coll = c;
        preq_n = n;
    }
    if (preq[q] == MPI_REQUEST_NULL)
        issue(c, n, q, 1, &preq[q]);
    return &preq[q];
}

/* One call of collective c with blocks of n ints; `q` picks the sparse pattern. */
static void run_once(enum coll c, int n, int q)
{
    if (form != BLOCKING) {
        MPI_Request r, *rp = &r;
        if (form == PERSISTENT) {
            rp = persistent_for(c, n, c == ALLTOALLV_SPARSE ? q : 0);
            MPI_Start(rp);
        } else {
            issue(c, n, q, 0, rp);
        }
        MPI_Wait(rp, MPI_STATUS_IGNORE);
        return;
    }
    switch (c) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BCAST: case BCAST_LAST:
        MPI_Bcast(sbuf, n, MPI_INT, root_of(c), MPI_COMM_WORLD);
        break;
    case REDUCE: case REDUCE_LAST:
        MPI_Reduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, root_of(c), MPI_COMM_WORLD);
        break;
    case ALLREDUCE: MPI_Allreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case SCAN: MPI_Scan(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case EXSCAN: MPI_Exscan(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLGATHER:
        MPI_Allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD);
        break;
    case ALLGATHERV:
        MPI_Allgatherv(sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
        break;
    case ALLTOALL: MPI_Alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, MPI_COMM_WORLD); break;
    case ALLTOALLV:
        MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT,
                      MPI_COMM_WORLD);
        break;
    case GATHER: MPI_Gather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD); break;
    case GATHERV:
        MPI_Gatherv(sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case SCATTER: MPI_Scatter(sbuf, n, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD); break;
    case SCATTERV:
        MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, n, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(sbuf, rbuf, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLTOALLV_SPARSE:
        MPI_Alltoallv(sparse_s, scounts[q], sdispls, MPI_BYTE, sparse_r, rcounts[q], rdispls,
                      MPI_BYTE, MPI_COMM_WORLD);
        break;
    case NCOLL: break;
    }
}

/* A barrier must not let anybody out before everybody is in: each rank
 * increments a counter in a shared file before the barrier (one rank late on
 * purpose) and checks after it that all have.  Skipped, with a note, if the
 * ranks cannot share a file (not all on one node). */
static void check_barrier(void)
{
    char path[64] = "";
    int fd = -1, all_ok;
    if (rank == 0) {
        snprintf(path, sizeof(path), "/tmp/coll-barrier-XXXXXX");
        fd = mkstemp(path);
        if (fd < 0 || ftruncate(fd, 64) != 0)
            path[0] = '\0';
    }
    for (int r = 1; r < nranks; r++) {
        if (rank == 0)
            MPI_Send(path, (int)sizeof(path), MPI_CHAR, r, TAG_CTRL, MPI_COMM_WORLD);
        else if (rank == r)
            MPI_Recv(path, (int)sizeof(path), MPI_CHAR, 0, TAG_CTRL, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
    if (rank != 0 && path[0])
        fd = open(path, O_RDWR);
    volatile int *counter = NULL;
    if (path[0] && fd >= 0) {
        void *p = mmap(NULL, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED)
            counter = p;
    }
    /* Everyone must have the mapping, or nobody checks. */
    all_ok = share(max_over_ranks(counter == NULL) == 0);
    if (all_ok) {
        for (int round = 0; round < 4; round++) {
            if (rank == round % nranks)
                usleep(2000);
            __atomic_fetch_add((int *)counter, 1, __ATOMIC_SEQ_CST);
            run_once(BARRIER, 0, 0); /* the call under test */
            int seen = __atomic_load_n((int *)counter, __ATOMIC_SEQ_CST);
            if (seen < (round + 1) * nranks)
                fail("barrier", 0, "round", (size_t)round, seen, (long)(round + 1) * nranks);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else if (rank == 0) {
        printf("# barrier: not checked (the ranks could not share a file in /tmp)\n");
    }
    if (counter)
        munmap((void *)counter, 64);
    if (fd >= 0)
        close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && path[0])
        unlink(path);
}

static void check_sparse(void)
{
    int offs[2], noffs = sparse_offsets(offs);
    for (int q = 0; q < SPARSE_PATTERNS; q++) {
        for (int j = 0; j < nranks; j++)
            for (int b = 0; b < SPARSE_MAX; b++)
                sparse_s[j * SPARSE_MAX + b] = (unsigned char)(val(rank, j, (size_t)b) + q);
        memset(sparse_r, 0xee, (size_t)nranks * SPARSE_MAX);
        run_once(ALLTOALLV_SPARSE, 0, q);
        for (int j = 0; j < nranks; j++) {
            int from = 0;
            for (int k = 0; k < noffs; k++)
                from |= (rank - offs[k] + nranks) % nranks == j;
            int got_bytes = from ? sparse_bytes(q, j, rank) : 0;
            for (int b = 0; b < SPARSE_MAX; b++) {
                unsigned char want = b < got_bytes ? (unsigned char)(val(j, rank, (size_t)b) + q)
                                                   : 0xee;
                unsigned char got = sparse_r[j * SPARSE_MAX + b];
                if (got != want) {
                    fprintf(stderr, "CHECK FAILED: alltoallv_sparse pattern %d: rank %d byte %d "
                            "from rank %d got %u expected %u\n", q, rank, b, j, got, want);
                    MPI_Abort(MPI_COMM_WORLD, 3);
                }
            }
        }
    }
}

/* Run c once on known data with blocks of n ints and check every rank's result. */
static void check(enum coll c, int n, size_t size)
{
    const char *name = coll_names[c];
    size_t blocks = (size_t)nranks * (size_t)n;
    if (c == BARRIER) {
        check_barrier();
        return;
    }
    if (c == ALLTOALLV_SPARSE) {
        check_sparse();
        return;
    }
    /* Send data: block j (for rank j, or the only block) holds val(rank, j, i). */
    int nblocks = send_blocks(c), root = root_of(c);
    for (int j = 0; j < nblocks; j++)
        for (int i = 0; i < n; i++)
            sbuf[(size_t)j * (size_t)n + (size_t)i] = val(rank, nblocks == 1 ? 0 : j, (size_t)i);
    memset(rbuf, 0xff, blocks * sizeof(int));
    if ((c == BCAST || c == BCAST_LAST) && rank != root)
        memset(sbuf, 0xff, (size_t)n * sizeof(int));
    for (int j = 0; j < nranks; j++) {
        counts[j] = n;
        displs[j] = j * n;
    }
    run_once(c, n, 0);
    switch (c) {
    case BCAST: case BCAST_LAST: expect(name, size, sbuf, (size_t)n, root, 0, 0); break;
    case REDUCE: case REDUCE_LAST:
        if (rank == root)
            expect(name, size, rbuf, (size_t)n, 0, 0, nranks);
        break;
    case ALLREDUCE: expect(name, size, rbuf, (size_t)n, 0, 0, nranks); break;
    case SCAN: expect(name, size, rbuf, (size_t)n, 0, 0, rank + 1); break;
    case EXSCAN: /* rank 0's result is undefined */
        if (rank > 0)
            expect(name, size, rbuf, (size_t)n, 0, 0, rank);
        break;
    case ALLGATHER: case ALLGATHERV:
        for (int j = 0; j < nranks; j++)
            expect(name, size, rbuf + (size_t)j * (size_t)n, (size_t)n, j, 0, 0);
        break;
    case ALLTOALL: case ALLTOALLV:
        for (int j = 0; j < nranks; j++)
            expect(name, size, rbuf + (size_t)j * (size_t)n, (size_t)n, j, rank, 0);
        break;
    case GATHER: case GATHERV:
        if (rank == 0)
            for (int j = 0; j < nranks; j++)
                expect(name, size, rbuf + (size_t)j * (size_t)n, (size_t)n, j, 0, 0);
        break;
    case SCATTER: case SCATTERV: expect(name, size, rbuf, (size_t)n, 0, rank, 0); break;
    case REDUCE_SCATTER_BLOCK: case REDUCE_SCATTER:
        /* rank r gets the sum over ranks of their block r */
        expect(name, size, rbuf, (size_t)n, 0, rank, nranks);
        break;
    default: break;
    }
}

/* This rank's average time per call over `iters` calls, each timed alone,
 * after `warmup` untimed ones.  No barrier at the end: collecting the times
 * waits for everybody anyway. */
static double timed_calls(enum coll c, int n, int iters, int warmup, int vary_buffers)
{
    double total = 0.0;
    for (int i = 0; i < warmup; i++) {
        if (vary_buffers)
            vary(c, n);
        run_once(c, n, i % SPARSE_PATTERNS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++) {
        if (vary_buffers)
            vary(c, n);
        double t0 = MPI_Wtime();
        run_once(c, n, i % SPARSE_PATTERNS);
        total += MPI_Wtime() - t0;
    }
    return total / iters;
}

/* This rank's median of three calls, each timed alone: a typical call, which
 * one preemption does not change. */
static double median_call(enum coll c, int n, int vary_buffers)
{
    double t[3];
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++) {
        if (vary_buffers)
            vary(c, n);
        double t0 = MPI_Wtime();
        run_once(c, n, i % SPARSE_PATTERNS);
        t[i] = MPI_Wtime() - t0;
    }
    double lo = t[0] < t[1] ? t[0] : t[1], hi = t[0] < t[1] ? t[1] : t[0];
    return t[2] < lo ? lo : t[2] > hi ? hi : t[2];
}

/* Iterations for a size: the base count up to LARGE_SIZE, then inversely
 * proportional to the size, never below min_count. */
static int scaled(int base, size_t size, int min_count)
{
    if (size <= LARGE_SIZE)
        return base;
    long n = (long)((double)base * LARGE_SIZE / (double)size);
    return (int)(n < min_count ? min_count : n > base ? base : n);
}

static double t_start; /* rank 0: when the first measurement began */

static void measure(const struct options *o, enum coll c, size_t size)
{
    int n = (int)(size / sizeof(int));
    /* the barrier, a fraction of a microsecond, gets 10 times the calls: one
     * interrupt in a few hundred calls would move its average visibly */
    int iters = c == ALLTOALLV_SPARSE ? o->sparse_calls
                : c == BARRIER        ? 10 * o->iters
                                      : scaled(o->iters, size, o->min_iters);
    /* the sparse case is about many calls: it may take 4 times as long */
    double limit = c == ALLTOALLV_SPARSE ? 4 * o->limit_s : o->limit_s;
    size_t key = c == BARRIER ? 0 : size;

    /* Past the budget (-T), what is left is skipped, on rank 0's word. */
    if (share(rank == 0 && MPI_Wtime() - t_start > o->budget_s)) {
        if (rank == 0)
            printf("# %s %zu: skipped, the run took longer than -T %g s\n", coll_names[c], key,
                   o->budget_s);
        return;
    }
    check(c, n, size);
    /* Estimate the time per call (the slowest rank's typical call) and cut
     * the iterations to fit the limit. */
    double per = max_over_ranks(median_call(c, n, o->vary));
    if (rank == 0 && per * iters > limit) {
        iters = (int)(limit / per);
        if (iters < 3)
            iters = 3;
    }
    iters = share(iters);
    int warmup = iters / 10 < 1 ? 1 : iters / 10;
    double avg, min, max;
    stats_over_ranks(timed_calls(c, n, iters, warmup, o->vary), &avg, &min, &max);
    if (rank == 0) {
        if (c == ALLTOALLV_SPARSE)
            printf("8-%d", SPARSE_MAX);
        else
            printf("%zu", key);
        printf(" %.3f %.3f %.3f %d\n", avg * 1e6, min * 1e6, max * 1e6, iters);
        fflush(stdout);
    }
}

/* Rank 0 prints every rank's CPUs: "# affinity rank0=0,1 rank1=0,1". */
static void report_affinity(void)
{
    char cpus[256] = "";
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        size_t len = 0;
        for (int c = 0; c < CPU_SETSIZE && len + 8 < sizeof(cpus); c++)
            if (CPU_ISSET(c, &set))
                len += (size_t)snprintf(cpus + len, sizeof(cpus) - len, "%s%d", len ? "," : "", c);
    }
    if (rank != 0) {
        MPI_Send(cpus, (int)sizeof(cpus), MPI_CHAR, 0, TAG_CTRL, MPI_COMM_WORLD);
        return;
    }
    printf("# affinity rank0=%s", cpus);
    for (int r = 1; r < nranks; r++) {
        MPI_Recv(cpus, (int)sizeof(cpus), MPI_CHAR, r, TAG_CTRL, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf(" rank%d=%s", r, cpus);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    struct options o;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    parse_options(argc, argv, &o);

    size_t max_size = 4;
    for (int k = 0; k < o.nsizes; k++)
        if (o.sizes[k] > max_size)
            max_size = o.sizes[k];
    sbuf = alloc_buffer((size_t)nranks * max_size);
    rbuf = alloc_buffer((size_t)nranks * max_size);
    counts = malloc(sizeof(int) * (size_t)nranks);
    displs = malloc(sizeof(int) * (size_t)nranks);
    setup_sparse();
    for (int q = 0; q < SPARSE_PATTERNS; q++)
        preq[q] = MPI_REQUEST_NULL;

    if (rank == 0) {
        printf("# coll: %d processes, MPI_INT data, MPI_SUM, root 0 (*_root_last: %d), "
               "microseconds per call; avg/min/max over the ranks' averages\n", nranks,
               nranks - 1);
        printf("# form: %s\n", form_names[form]);
        printf("# buffers: %s\n", o.vary ? "before each call, outside the timing, one int "
               "per 64-byte line of the send buffer written and of the receive buffer read"
               : "the same before every call, nothing touched (--same-buffers)");
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

    t_start = MPI_Wtime();
    for (enum coll c = 0; c < NCOLL; c++) {
        if (!o.want[c])
            continue;
        if (rank == 0) {
            printf("# table %s\n# %s avg_us min_us max_us %s\n", coll_names[c],
                   c == ALLTOALLV_SPARSE ? "bytes" : "size",
                   c == ALLTOALLV_SPARSE ? "calls" : "iters");
            fflush(stdout);
        }
        if (c == BARRIER || c == ALLTOALLV_SPARSE) {
            measure(&o, c, 4);
            continue;
        }
        for (int k = 0; k < o.nsizes; k++)
            measure(&o, c, o.sizes[k]);
    }

    persistent_free();
    for (int q = 0; q < SPARSE_PATTERNS; q++) {
        free(scounts[q]);
        free(rcounts[q]);
    }
    free(sdispls);
    free(rdispls);
    free(sparse_s);
    free(sparse_r);
    free(counts);
    free(displs);
    free(sbuf);
    free(rbuf);
    free(o.sizes);
    MPI_Finalize();
    return 0;
}
