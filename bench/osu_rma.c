/*
 * osu_rma.c - one-sided communication between rank 0 (origin) and rank 1
 * (target), after the OSU one-sided benchmarks (osu_put_latency,
 * osu_get_latency, osu_put_bw, osu_get_bw, osu_acc_latency, osu_fop_latency,
 * osu_cas_latency): what they measure, written anew for bench/.
 *
 * Tests (-t, default all), each in the window flavor chosen with -w:
 *   put_lat, get_lat  one MPI_Put / MPI_Get of `size` bytes, then synchronise,
 *                     in three ways (-e, default all):
 *                       lock   MPI_Win_lock(EXCLUSIVE, 1) + op + MPI_Win_unlock
 *                              per operation;
 *                       flush  one MPI_Win_lock_all epoch, op + MPI_Win_flush(1)
 *                              per operation;
 *                       fence  op + MPI_Win_fence on both ranks; the ranks take
 *                              turns (rank 0 to 1, then 1 to 0), so every
 *                              epoch moves one message, as OSU's fence test.
 *                     Microseconds per operation (per epoch for fence).
 *   put_bw, get_bw    a window of 64 operations to distinct offsets, then
 *                     MPI_Win_flush(1) (flush, inside one lock_all epoch) or
 *                     MPI_Win_fence on both ranks (fence).  MB/s = 10^6 bytes
 *                     per second.  Above -M bytes of window the window shrinks
 *                     (the `window` column says to what).
 *   acc_lat           MPI_Accumulate of size/8 doubles with MPI_SUM under
 *                     MPI_Win_lock(EXCLUSIVE) + unlock per operation.
 *   atomic            on one int64_t at the target, in one lock_all epoch:
 *                       fetch_and_op_flush    MPI_Fetch_and_op(MPI_SUM) + flush
 *                       fetch_and_op_window   64 MPI_Fetch_and_op, then flush
 *                       compare_and_swap_flush MPI_Compare_and_swap + flush
 *                     microseconds per operation and operations per second.
 *
 * Flavors (-w): allocate (MPI_Win_allocate, default), create (MPI_Win_create
 * on page-aligned malloc'd memory), dynamic (MPI_Win_create_dynamic +
 * MPI_Win_attach; displacements are addresses), shared
 * (MPI_Win_allocate_shared; still accessed with RMA calls).
 *
 * Before each size is timed, a known pattern is put into the target window
 * and checked there, and another is read back with MPI_Get (accumulate: the
 * sums are checked at the target; atomics: every fetched value and the final
 * counter are checked).  A wrong result prints CHECK FAILED and exits with 3.
 *
 * Iterations: a warm-up, then a short probe estimates the time per
 * operation; the count (10000 up to 8 KiB, inversely proportional above, at
 * least 100; bw: 200 windows, at least 10) is cut so that one cell takes at
 * most -L seconds.  Timing with MPI_Wtime on rank 0.
 *
 * Output (bench/compare parses it):
 *   # table put_lat
 *   # size lock_us flush_us fence_us
 *   1 1.234 0.456 2.345
 * Ranks beyond 1, if any, only take part in the collective calls.
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

#define LARGE_SIZE 8192 /* above this, iteration counts shrink with size */
#define PROBE_ITERS 5
#define MAX_SIZES 64

enum flavor { FLAVOR_ALLOCATE, FLAVOR_CREATE, FLAVOR_DYNAMIC, FLAVOR_SHARED };
static const char *const flavor_names[] = {"allocate", "create", "dynamic", "shared"};

enum sync { SYNC_LOCK, SYNC_FLUSH, SYNC_FENCE, NSYNC };
static const char *const sync_names[] = {"lock", "flush", "fence"};

enum test { T_PUT_LAT, T_GET_LAT, T_PUT_BW, T_GET_BW, T_ACC_LAT, T_ATOMIC, NTEST };
static const char *const test_names[] = {"put_lat", "get_lat", "put_bw", "get_bw", "acc_lat",
                                         "atomic"};

enum atomic_kind { FOP_FLUSH, FOP_WINDOW, CAS_FLUSH, NATOMIC };
static const char *const atomic_names[] = {"fetch_and_op_flush", "fetch_and_op_window",
                                           "compare_and_swap_flush"};

struct options {
    enum flavor flavor;
    size_t sizes[MAX_SIZES];
    int nsizes;
    size_t max_size;
    size_t window_cap;   /* -M: bytes of window a bw test may cover */
    int window;          /* -W: operations per synchronisation in bw tests */
    int lat_iters, lat_warmup;
    int bw_iters, bw_warmup;
    double cell_limit;   /* -L: seconds one cell may take */
    double total_limit;  /* -T: after this, the rest is skipped */
    int tests[NTEST];
    int syncs[NSYNC];
    int check;
};

/* A window and the buffers around it. */
struct rma {
    MPI_Win win;
    unsigned char *local;   /* this rank's window memory */
    void *own_memory;       /* create/dynamic: what we allocated for it */
    MPI_Aint *base;         /* per rank: displacement of its window's byte 0 */
    size_t region;          /* bytes of window (ranks 0 and 1) and of origin */
    unsigned char *origin;  /* origin buffer, region bytes */
    unsigned char *scratch; /* for checks, max_size bytes */
};

static int rank, nranks;
static double start_time;

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: osu_rma [-w allocate|create|dynamic|shared] [-t TESTS] [-e SYNCS]\n"
                "               [-m MAX] [-s S1,S2,...] [-q] [-W WINDOW] [-M BYTES]\n"
                "               [-i ITERS] [-x WARMUP] [-I BW_ITERS] [-X BW_WARMUP]\n"
                "               [-L SECONDS] [-T SECONDS] [-C]\n"
                "  -w  window flavor (default allocate)\n"
                "  -t  tests: put_lat,get_lat,put_bw,get_bw,acc_lat,atomic (default all)\n"
                "  -e  synchronisations for the put/get tests: lock,flush,fence (default all;\n"
                "      bw has no lock column)\n"
                "  -m  largest size, suffix K/M allowed (default 4M); sizes 1,2,4,...,MAX\n"
                "  -s  explicit comma-separated sizes (overrides -m)\n"
                "  -q  quick: sizes 1,8,64,512,4K,32K,256K,1M,4M, fewer iterations,\n"
                "      -L 0.05 -T 60\n"
                "  -W  operations per synchronisation in put_bw/get_bw and\n"
                "      fetch_and_op_window (default 64)\n"
                "  -M  bytes a bw window may cover (default 64M; the window shrinks above)\n"
                "  -i  latency/atomic iterations up to 8K (default 10000; scaled down above)\n"
                "  -x  latency/atomic warm-up iterations (default 1000; scaled down above)\n"
                "  -I  bw windows up to 8K (default 200)   -X  bw warm-up windows (default 20)\n"
                "  -L  at most this many seconds per cell (default 0.5)\n"
                "  -T  skip what is left after this many seconds (default 200)\n"
                "  -C  skip the data checks\n");
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K')
        v *= 1024.0;
    else if (*end == 'm' || *end == 'M')
        v *= 1024.0 * 1024.0;
    else if (*end == 'g' || *end == 'G')
        v *= 1024.0 * 1024.0 * 1024.0;
    return v < 0 ? 0 : (size_t)v;
}

static void parse_sizes(const char *list, struct options *o)
{
    char *copy = strdup(list), *save = NULL;
    o->nsizes = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && o->nsizes < MAX_SIZES;
         tok = strtok_r(NULL, ",", &save)) {
        size_t s = parse_size(tok);
        if (s > 0)
            o->sizes[o->nsizes++] = s;
    }
    free(copy);
}

/* Sets flags[i] for every names[i] named in the comma-separated list. */
static int parse_names(const char *list, const char *const *names, int n, int *flags)
{
    char *copy = strdup(list), *save = NULL;
    int ok = 1;
    for (int i = 0; i < n; i++)
        flags[i] = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int i = 0; i < n; i++)
            if (!strcmp(tok, names[i]))
                flags[i] = found = 1;
        if (!found) {
            if (rank == 0)
                fprintf(stderr, "osu_rma: unknown name '%s'\n", tok);
            ok = 0;
        }
    }
    free(copy);
    return ok;
}

static void bad_usage(int code)
{
    usage();
    MPI_Finalize();
    exit(code);
}

static void parse_options(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof(*o));
    o->flavor = FLAVOR_ALLOCATE;
    o->max_size = 4u << 20;
    o->window_cap = 64u << 20;
    o->window = 64;
    o->lat_iters = 10000;
    o->lat_warmup = 1000;
    o->bw_iters = 200;
    o->bw_warmup = 20;
    o->cell_limit = 0.5;
    o->total_limit = 200;
    o->check = 1;
    for (int i = 0; i < NTEST; i++)
        o->tests[i] = 1;
    for (int i = 0; i < NSYNC; i++)
        o->syncs[i] = 1;
    const char *size_list = NULL;
    int quick = 0, c;
    double cell_limit = -1, total_limit = -1;
    int lat_iters = -1, lat_warmup = -1, bw_iters = -1, bw_warmup = -1;

    while ((c = getopt(argc, argv, "w:t:e:m:s:qW:M:i:x:I:X:L:T:Ch")) != -1) {
        switch (c) {
        case 'w': {
            int found = -1;
            for (int i = 0; i < 4; i++)
                if (!strcmp(optarg, flavor_names[i]))
                    found = i;
            if (found < 0)
                bad_usage(2);
            o->flavor = (enum flavor)found;
            break;
        }
        case 't':
            if (!parse_names(optarg, test_names, NTEST, o->tests))
                bad_usage(2);
            break;
        case 'e':
            if (!parse_names(optarg, sync_names, NSYNC, o->syncs))
                bad_usage(2);
            break;
        case 'm': o->max_size = parse_size(optarg); break;
        case 's': size_list = optarg; break;
        case 'q': quick = 1; break;
        case 'W': o->window = atoi(optarg); break;
        case 'M': o->window_cap = parse_size(optarg); break;
        case 'i': lat_iters = atoi(optarg); break;
        case 'x': lat_warmup = atoi(optarg); break;
        case 'I': bw_iters = atoi(optarg); break;
        case 'X': bw_warmup = atoi(optarg); break;
        case 'L': cell_limit = atof(optarg); break;
        case 'T': total_limit = atof(optarg); break;
        case 'C': o->check = 0; break;
        default: bad_usage(c == 'h' ? 0 : 2);
        }
    }
    if (quick) {
        o->lat_iters = 2000;
        o->lat_warmup = 200;
        o->bw_iters = 50;
        o->bw_warmup = 5;
        o->cell_limit = 0.05;
        o->total_limit = 60;
        if (!size_list)
            size_list = "1,8,64,512,4K,32K,256K,1M,4M";
    }
    if (lat_iters > 0) o->lat_iters = lat_iters;
    if (lat_warmup >= 0) o->lat_warmup = lat_warmup;
    if (bw_iters > 0) o->bw_iters = bw_iters;
    if (bw_warmup >= 0) o->bw_warmup = bw_warmup;
    if (cell_limit > 0) o->cell_limit = cell_limit;
    if (total_limit > 0) o->total_limit = total_limit;
    if (o->window < 1)
        o->window = 1;
    if (size_list) {
        parse_sizes(size_list, o);
    } else {
        for (size_t s = 1; s <= o->max_size && o->nsizes < MAX_SIZES; s *= 2)
            o->sizes[o->nsizes++] = s;
    }
    if (o->nsizes == 0)
        bad_usage(2);
    o->max_size = 0;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] > o->max_size)
            o->max_size = o->sizes[i];
}

/* The base count up to LARGE_SIZE, then inversely proportional to the size,
 * never below min_count (nor above base). */
static int scaled(int base, size_t size, int min_count)
{
    if (size <= LARGE_SIZE)
        return base;
    double n = (double)base * LARGE_SIZE / (double)size;
    if (n < min_count)
        n = min_count;
    if (n > base)
        n = base;
    return (int)n;
}

static void *page_alloc(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size ? size : 1) != 0) {
        fprintf(stderr, "rank %d: cannot allocate %zu bytes\n", rank, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 0, size); /* touch every page before timing */
    return p;
}

static MPI_Aint disp(const struct rma *w, int target, size_t offset)
{
    return w->base[target] + (MPI_Aint)offset;
}

static void window_create(struct rma *w, const struct options *o)
{
    size_t region = o->max_size * (size_t)o->window;
    if (region > o->window_cap)
        region = o->window_cap;
    if (region < o->max_size)
        region = o->max_size;
    if (region < 4096)
        region = 4096;
    w->region = region;
    size_t mine = rank < 2 ? region : 4096;
    MPI_Aint addr = 0;

    w->own_memory = NULL;
    switch (o->flavor) {
    case FLAVOR_ALLOCATE:
        MPI_Win_allocate((MPI_Aint)mine, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->local, &w->win);
        break;
    case FLAVOR_SHARED:
        MPI_Win_allocate_shared((MPI_Aint)mine, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->local,
                                &w->win);
        break;
    case FLAVOR_CREATE:
        w->own_memory = w->local = page_alloc(mine);
        MPI_Win_create(w->local, (MPI_Aint)mine, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        break;
    case FLAVOR_DYNAMIC:
        w->own_memory = w->local = page_alloc(mine);
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        MPI_Win_attach(w->win, w->local, (MPI_Aint)mine);
        MPI_Get_address(w->local, &addr);
        break;
    }
    memset(w->local, 0, mine);
    w->base = malloc(sizeof(MPI_Aint) * (size_t)nranks);
    MPI_Allgather(&addr, 1, MPI_AINT, w->base, 1, MPI_AINT, MPI_COMM_WORLD);
    w->origin = page_alloc(region);
    w->scratch = page_alloc(o->max_size);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void window_free(struct rma *w, const struct options *o)
{
    if (o->flavor == FLAVOR_DYNAMIC)
        MPI_Win_detach(w->win, w->local);
    MPI_Win_free(&w->win);
    free(w->own_memory);
    free(w->base);
    free(w->origin);
    free(w->scratch);
}

static void check_failed(const char *what, size_t size, size_t at, unsigned got, unsigned want)
{
    fprintf(stderr, "CHECK FAILED: %s, size %zu, at %zu: got %u, expected %u\n", what, size, at,
            got, want);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static unsigned char pattern(size_t size, size_t i, unsigned salt)
{
    return (unsigned char)((i * 131u + size * 7u + salt * 29u + 1u) & 0xff);
}

/* A put of a known pattern, checked in the target's memory, and a get of
 * another pattern written there, checked at the origin.  Collective. */
static void check_put_get(struct rma *w, size_t size)
{
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        memset(w->local, 0, size);
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (size_t i = 0; i < size; i++)
            w->origin[i] = pattern(size, i, 1);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        MPI_Put(w->origin, (int)size, MPI_BYTE, 1, disp(w, 1, 0), (int)size, MPI_BYTE, w->win);
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        for (size_t i = 0; i < size; i++)
            if (w->local[i] != pattern(size, i, 1))
                check_failed("MPI_Put, at the target", size, i, w->local[i], pattern(size, i, 1));
        for (size_t i = 0; i < size; i++)
            w->local[i] = pattern(size, i, 2);
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        memset(w->scratch, 0, size);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w->win);
        MPI_Get(w->scratch, (int)size, MPI_BYTE, 1, disp(w, 1, 0), (int)size, MPI_BYTE, w->win);
        MPI_Win_unlock(1, w->win);
        for (size_t i = 0; i < size; i++)
            if (w->scratch[i] != pattern(size, i, 2))
                check_failed("MPI_Get, at the origin", size, i, w->scratch[i],
                             pattern(size, i, 2));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_Accumulate(MPI_SUM) of doubles: target d[i] = i, origin i/2 + 1. */
static void check_accumulate(struct rma *w, size_t size)
{
    size_t n = size / sizeof(double);
    double *t = (double *)w->local, *s = (double *)w->origin;
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        for (size_t i = 0; i < n; i++)
            t[i] = (double)i;
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (size_t i = 0; i < n; i++)
            s[i] = 0.5 * (double)i + 1.0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        MPI_Accumulate(s, (int)n, MPI_DOUBLE, 1, disp(w, 1, 0), (int)n, MPI_DOUBLE, MPI_SUM,
                       w->win);
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        for (size_t i = 0; i < n; i++)
            if (t[i] != 1.5 * (double)i + 1.0)
                check_failed("MPI_Accumulate(MPI_SUM, MPI_DOUBLE), at the target", size, i,
                             (unsigned)t[i], (unsigned)(1.5 * (double)i + 1.0));
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ------------------------------------------------------------------------
 * The timed loops.  Every rank calls them; each returns the seconds its
 * `iters` operations (after `warm` untimed ones) took on rank 0. */

typedef double (*loop_fn)(struct rma *w, int is_get, size_t size, int window, int warm,
                          int iters);

static void rma_op(struct rma *w, int is_get, int target, size_t offset, size_t size)
{
    if (is_get)
        MPI_Get(w->origin + offset, (int)size, MPI_BYTE, target, disp(w, target, offset),
                (int)size, MPI_BYTE, w->win);
    else
        MPI_Put(w->origin + offset, (int)size, MPI_BYTE, target, disp(w, target, offset),
                (int)size, MPI_BYTE, w->win);
}

static double lat_lock(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    (void)window;
    if (rank != 0)
        return 0.0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        rma_op(w, is_get, 1, 0, size);
        MPI_Win_unlock(1, w->win);
    }
    return MPI_Wtime() - t0;
}

static double lat_flush(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    (void)window;
    if (rank != 0)
        return 0.0;
    MPI_Win_lock_all(0, w->win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        rma_op(w, is_get, 1, 0, size);
        MPI_Win_flush(1, w->win);
    }
    double t = MPI_Wtime() - t0;
    MPI_Win_unlock_all(w->win);
    return t;
}

/* One operation per epoch, ranks 0 and 1 in turn, every rank in every fence. */
static double lat_fence(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    (void)window;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        if (rank == (i & 1))
            rma_op(w, is_get, 1 - rank, 0, size);
        MPI_Win_fence(0, w->win);
    }
    double t = MPI_Wtime() - t0;
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
    return t;
}

static double bw_flush(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    if (rank != 0)
        return 0.0;
    MPI_Win_lock_all(0, w->win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        for (int j = 0; j < window; j++)
            rma_op(w, is_get, 1, (size_t)j * size, size);
        MPI_Win_flush(1, w->win);
    }
    double t = MPI_Wtime() - t0;
    MPI_Win_unlock_all(w->win);
    return t;
}

static double bw_fence(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        if (rank == 0)
            for (int j = 0; j < window; j++)
                rma_op(w, is_get, 1, (size_t)j * size, size);
        MPI_Win_fence(0, w->win);
    }
    double t = MPI_Wtime() - t0;
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
    return t;
}

static double acc_lock(struct rma *w, int is_get, size_t size, int window, int warm, int iters)
{
    (void)is_get;
    (void)window;
    if (rank != 0)
        return 0.0;
    int n = (int)(size / sizeof(double));
    double t0 = MPI_Wtime();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = MPI_Wtime();
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        MPI_Accumulate(w->origin, n, MPI_DOUBLE, 1, disp(w, 1, 0), n, MPI_DOUBLE, MPI_SUM,
                       w->win);
        MPI_Win_unlock(1, w->win);
    }
    return MPI_Wtime() - t0;
}

/* Sets the target's counter (its first int64_t) to 0.  Collective. */
static void counter_reset(struct rma *w)
{
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        memset(w->local, 0, sizeof(int64_t));
        MPI_Win_unlock(1, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The target's counter must be `expected` (known on rank 0).  Collective. */
static void counter_check(struct rma *w, const char *what, int64_t expected)
{
    int64_t value = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w->win);
        memcpy(&value, w->local, sizeof(value));
        MPI_Win_unlock(1, w->win);
    }
    MPI_Bcast(&value, 1, MPI_INT64_T, 1, MPI_COMM_WORLD);
    if (rank == 0 && value != expected) {
        fprintf(stderr, "CHECK FAILED: %s: the target's counter is %lld, expected %lld\n", what,
                (long long)value, (long long)expected);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* `kind` in place of is_get; `window` fetch-and-ops per flush for FOP_WINDOW.
 * Every fetched value is checked (fetch_and_op_flush, compare_and_swap: the
 * previous count; fetch_and_op_window: below the final count), then the
 * counter. */
static double atomic_loop(struct rma *w, int kind, size_t size, int window, int warm, int iters)
{
    (void)size;
    int per = kind == FOP_WINDOW ? window : 1;
    int64_t one = 1, result = -1, compare, next, bad = -1;
    int64_t *results = malloc(sizeof(int64_t) * (size_t)per);
    double t = 0.0;

    counter_reset(w);
    if (rank == 0) {
        int64_t count = 0;
        MPI_Win_lock_all(0, w->win);
        double t0 = MPI_Wtime();
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm)
                t0 = MPI_Wtime();
            if (kind == FOP_FLUSH) {
                MPI_Fetch_and_op(&one, &result, MPI_INT64_T, 1, disp(w, 1, 0), MPI_SUM, w->win);
                MPI_Win_flush(1, w->win);
                if (result != count && bad < 0)
                    bad = count;
                count++;
            } else if (kind == CAS_FLUSH) {
                compare = count;
                next = count + 1;
                MPI_Compare_and_swap(&next, &compare, &result, MPI_INT64_T, 1, disp(w, 1, 0),
                                     w->win);
                MPI_Win_flush(1, w->win);
                if (result != count && bad < 0)
                    bad = count;
                count++;
            } else {
                for (int j = 0; j < per; j++)
                    MPI_Fetch_and_op(&one, &results[j], MPI_INT64_T, 1, disp(w, 1, 0), MPI_SUM,
                                     w->win);
                MPI_Win_flush(1, w->win);
                count += per;
                for (int j = 0; j < per; j++)
                    if ((results[j] < 0 || results[j] >= count) && bad < 0)
                        bad = count;
            }
        }
        t = MPI_Wtime() - t0;
        MPI_Win_unlock_all(w->win);
        if (bad >= 0) {
            fprintf(stderr, "CHECK FAILED: %s: wrong value fetched at operation %lld\n",
                    atomic_names[kind], (long long)bad);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        result = count;
    }
    counter_check(w, atomic_names[kind], result);
    free(results);
    return t;
}

/* ------------------------------------------------------------------------
 * The driver: warm-up and probe, a count cut to fit the cell's time, then
 * the timed run.  Returns seconds per iteration (rank 0), *iters_out the
 * count. */

static double measure(struct rma *w, const struct options *o, loop_fn fn, int arg, size_t size,
                      int window, int base_iters, int base_warm, int min_iters, int *iters_out)
{
    int warm = scaled(base_warm, size, 2);
    int n = scaled(base_iters, size, min_iters);
    double t;

    MPI_Barrier(MPI_COMM_WORLD);
    t = fn(w, arg, size, window, warm, PROBE_ITERS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double per = t / PROBE_ITERS;
        if (per > 0 && per * n > o->cell_limit) {
            n = (int)(o->cell_limit / per);
            if (n < PROBE_ITERS)
                n = PROBE_ITERS;
        }
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    warm = n / 10 < warm ? n / 10 : warm;
    if (warm < 1)
        warm = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    t = fn(w, arg, size, window, warm, n);
    MPI_Barrier(MPI_COMM_WORLD);
    *iters_out = n;
    return t / n;
}

/* Rank 0 decides whether the time is up; every rank learns it. */
static int time_is_up(const struct options *o, const char *table, size_t size)
{
    int up = 0;
    if (rank == 0 && MPI_Wtime() - start_time > o->total_limit) {
        up = 1;
        printf("# %s: skipped from size %zu on (more than %.0f s so far)\n", table, size,
               o->total_limit);
    }
    MPI_Bcast(&up, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return up;
}

static void run_latency(struct rma *w, const struct options *o, int is_get)
{
    static const loop_fn fns[NSYNC] = {lat_lock, lat_flush, lat_fence};
    const char *table = is_get ? "get_lat" : "put_lat";
    if (rank == 0) {
        printf("# table %s\n# size", table);
        for (int s = 0; s < NSYNC; s++)
            if (o->syncs[s])
                printf(" %s_us", sync_names[s]);
        printf("\n");
    }
    for (int k = 0; k < o->nsizes; k++) {
        size_t size = o->sizes[k];
        double us[NSYNC] = {0};
        int iters;
        if (time_is_up(o, table, size))
            return;
        for (int s = 0; s < NSYNC; s++) {
            if (!o->syncs[s])
                continue;
            if (o->check)
                check_put_get(w, size);
            us[s] = 1e6 * measure(w, o, fns[s], is_get, size, 1, o->lat_iters, o->lat_warmup,
                                  100, &iters);
        }
        if (rank == 0) {
            printf("%zu", size);
            for (int s = 0; s < NSYNC; s++)
                if (o->syncs[s])
                    printf(" %.3f", us[s]);
            printf("\n");
            fflush(stdout);
        }
    }
}

static void run_bandwidth(struct rma *w, const struct options *o, int is_get)
{
    static const loop_fn fns[NSYNC] = {NULL, bw_flush, bw_fence};
    const char *table = is_get ? "get_bw" : "put_bw";
    if (!o->syncs[SYNC_FLUSH] && !o->syncs[SYNC_FENCE])
        return;
    if (rank == 0) {
        printf("# table %s\n# size", table);
        for (int s = SYNC_FLUSH; s < NSYNC; s++)
            if (o->syncs[s])
                printf(" %s_MBps", sync_names[s]);
        printf(" window\n");
    }
    for (int k = 0; k < o->nsizes; k++) {
        size_t size = o->sizes[k];
        size_t fit = w->region / size;
        int window = fit < (size_t)o->window ? (int)fit : o->window;
        double mbps[NSYNC] = {0};
        int iters;
        if (time_is_up(o, table, size))
            return;
        for (int s = SYNC_FLUSH; s < NSYNC; s++) {
            if (!o->syncs[s])
                continue;
            if (o->check)
                check_put_get(w, size);
            double t = measure(w, o, fns[s], is_get, size, window, o->bw_iters, o->bw_warmup,
                               10, &iters);
            mbps[s] = t > 0 ? (double)size * window / t / 1e6 : 0.0;
        }
        if (rank == 0) {
            printf("%zu", size);
            for (int s = SYNC_FLUSH; s < NSYNC; s++)
                if (o->syncs[s])
                    printf(" %.2f", mbps[s]);
            printf(" %d\n", window);
            fflush(stdout);
        }
    }
}

static void run_accumulate(struct rma *w, const struct options *o)
{
    if (rank == 0)
        printf("# table acc_lat\n# size lock_us\n");
    for (int k = 0; k < o->nsizes; k++) {
        size_t size = o->sizes[k];
        int iters;
        if (size < sizeof(double))
            continue;
        if (time_is_up(o, "acc_lat", size))
            return;
        if (o->check)
            check_accumulate(w, size);
        /* the target's doubles only grow by 1.0 per operation */
        if (rank == 0)
            for (size_t i = 0; i < size / sizeof(double); i++)
                ((double *)w->origin)[i] = 1.0;
        double us = 1e6 * measure(w, o, acc_lock, 0, size, 1, o->lat_iters, o->lat_warmup, 100,
                                  &iters);
        if (rank == 0) {
            printf("%zu %.3f\n", size, us);
            fflush(stdout);
        }
    }
}

static void run_atomics(struct rma *w, const struct options *o)
{
    if (rank == 0)
        printf("# table atomic\n# operation us_per_op ops_per_s ops\n");
    for (int kind = 0; kind < NATOMIC; kind++) {
        int per = kind == FOP_WINDOW ? o->window : 1, iters;
        if (time_is_up(o, "atomic", sizeof(int64_t)))
            return;
        /* a window counts as `per` operations: same total per cell */
        double t = measure(w, o, atomic_loop, kind, sizeof(int64_t), per,
                           (o->lat_iters + per - 1) / per, (o->lat_warmup + per - 1) / per,
                           kind == FOP_WINDOW ? 10 : 100, &iters);
        if (rank == 0) {
            double per_op = t / per;
            printf("%s %.3f %.0f %lld\n", atomic_names[kind], 1e6 * per_op,
                   per_op > 0 ? 1.0 / per_op : 0.0, (long long)iters * per);
            fflush(stdout);
        }
    }
}

/* Rank 0 prints the CPUs ranks 0 and 1 may run on (to show pinning). */
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
        MPI_Send(list, (int)sizeof(list), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    else if (rank == 0) {
        MPI_Recv(other, (int)sizeof(other), MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("# affinity rank0=%s rank1=%s\n", list, other);
    }
}

int main(int argc, char **argv)
{
    struct options o;
    struct rma w;

    bench_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    parse_options(argc, argv, &o);
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "osu_rma needs at least 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    start_time = MPI_Wtime();
    window_create(&w, &o);

    if (rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(version, &len);
        char *nl = strchr(version, '\n');
        if (nl)
            *nl = '\0';
        printf("# osu_rma: %d processes, window flavor %s (%s), %zu bytes of window, "
               "%d operations per bw synchronisation, MB = 10^6 bytes\n",
               nranks, flavor_names[o.flavor],
               o.flavor == FLAVOR_ALLOCATE ? "MPI_Win_allocate" :
               o.flavor == FLAVOR_CREATE ? "MPI_Win_create" :
               o.flavor == FLAVOR_DYNAMIC ? "MPI_Win_create_dynamic" : "MPI_Win_allocate_shared",
               w.region, o.window);
        printf("# library: %s\n", version);
    }
    print_affinity();

    if (o.tests[T_PUT_LAT])
        run_latency(&w, &o, 0);
    if (o.tests[T_GET_LAT])
        run_latency(&w, &o, 1);
    if (o.tests[T_PUT_BW])
        run_bandwidth(&w, &o, 0);
    if (o.tests[T_GET_BW])
        run_bandwidth(&w, &o, 1);
    if (o.tests[T_ACC_LAT])
        run_accumulate(&w, &o);
    if (o.tests[T_ATOMIC])
        run_atomics(&w, &o);

    window_free(&w, &o);
    MPI_Finalize();
    return 0;
}
