/*
 * pack.c - MPI_Pack and MPI_Unpack throughput for three derived datatypes,
 * next to plain memcpy of the same number of bytes (the limit), on one process.
 *
 *   vector   MPI_Type_vector(N, 1, 2, MPI_DOUBLE), count 1: every other double.
 *   indexed  MPI_Type_indexed of doubles, count 1: block lengths cycle 1,2,3,4
 *            and the gaps before them cycle 1,2,3 doubles (deterministic).
 *   struct   MPI_Type_create_struct of struct { int; double; char[3]; },
 *            resized to sizeof (24 bytes), count N (15 data bytes each).
 *
 * For each packed size (default 1K,4K,...,16M) the type is built so that it
 * holds that many data bytes (struct: the largest multiple of 15 not above it).
 * Before timing, the data is packed, unpacked into a second buffer filled with
 * a sentinel, and every byte is compared: data bytes must arrive, gap bytes
 * must stay untouched ("CHECK FAILED ...", exit 3 otherwise).
 *
 * Timing: each operation's iteration count is calibrated to take about -T ms
 * (default 20); -r samples (default 5) are taken and the median is printed.
 * MB/s = 10^6 data bytes per second.  Buffers are allocated once per size and
 * warm (the check touched them).
 *
 * Output, parsed by bench/compare (one table per type):
 *   # table vector
 *   # size pack_MBps unpack_MBps memcpy_MBps bytes pack_iters
 *   1024 3012.5 2890.1 40210.3 1024 20000
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>

#define MAX_REPS 64
#define SENTINEL 0xEE

struct elem {
    int i;
    double d;
    char c[3];
};

/* What a (datatype, count) covers, written out independently of MPI so that
 * the check does not trust the library: `count` elements `extent` bytes apart,
 * each holding the blocks (disp[b], len[b]), in units of `unit` bytes,
 * ascending and disjoint. */
struct layout {
    const char *name;
    MPI_Datatype type;
    int mcount;    /* count passed to MPI_Pack/MPI_Unpack */
    int count;     /* elements, as the check walks them */
    size_t extent;
    int unit;
    int nblocks;
    int *len, *disp;
    size_t bytes;  /* data bytes of (type, count) */
    size_t span;   /* buffer bytes the elements occupy */
};

enum op { OP_PACK, OP_UNPACK, OP_MEMCPY };

struct bufs {
    unsigned char *src, *dst, *packed, *copy;
    int position;
};

static void die(const char *msg)
{
    fprintf(stderr, "pack: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), n ? n : 1) != 0)
        die("out of memory");
    return p;
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

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    default: break;
    }
    return v < 0 ? 0 : (size_t)v;
}

/* vector: N = size / 8 blocks of one double, stride two doubles */
static void build_vector(struct layout *l, size_t size)
{
    int n = (int)(size / sizeof(double));
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &l->type);
    l->mcount = 1;
    l->count = n;  /* the check sees it as n elements of 16 bytes */
    l->extent = 2 * sizeof(double);
    l->unit = sizeof(double);
    l->nblocks = 1;
    l->len = malloc(sizeof(int));
    l->disp = malloc(sizeof(int));
    l->len[0] = 1;
    l->disp[0] = 0;
    l->bytes = (size_t)n * sizeof(double);
    l->span = (size_t)n * l->extent;
}

/* indexed: blocks of 1,2,3,4,1,... doubles after gaps of 1,2,3,1,... doubles,
 * until size / 8 doubles are covered (the last block is cut to fit) */
static void build_indexed(struct layout *l, size_t size)
{
    int total = (int)(size / sizeof(double)), cap = total, nb = 0, done = 0, pos = 0;
    l->len = malloc(sizeof(int) * (size_t)cap);
    l->disp = malloc(sizeof(int) * (size_t)cap);
    while (done < total) {
        int len = 1 + nb % 4, gap = 1 + nb % 3;
        if (len > total - done)
            len = total - done;
        pos += gap;
        l->disp[nb] = pos;
        l->len[nb] = len;
        pos += len;
        done += len;
        nb++;
    }
    MPI_Type_indexed(nb, l->len, l->disp, MPI_DOUBLE, &l->type);
    l->mcount = l->count = 1;
    l->unit = sizeof(double);
    l->nblocks = nb;
    l->extent = (size_t)pos * sizeof(double);
    l->bytes = (size_t)total * sizeof(double);
    l->span = l->extent;
}

/* struct: {int, double, char[3]} resized to sizeof(struct elem), count N */
static void build_struct(struct layout *l, size_t size)
{
    int blen[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct elem, i), offsetof(struct elem, d),
                        offsetof(struct elem, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, raw;
    MPI_Type_create_struct(3, blen, disp, types, &raw);
    MPI_Type_create_resized(raw, 0, (MPI_Aint)sizeof(struct elem), &l->type);
    MPI_Type_free(&raw);
    size_t per = sizeof(int) + sizeof(double) + 3;
    l->mcount = l->count = (int)(size / per);
    l->extent = sizeof(struct elem);
    l->unit = 1;
    l->nblocks = 3;
    l->len = malloc(sizeof(int) * 3);
    l->disp = malloc(sizeof(int) * 3);
    for (int b = 0; b < 3; b++)
        l->disp[b] = (int)disp[b];
    l->len[0] = sizeof(int);
    l->len[1] = sizeof(double);
    l->len[2] = 3;
    l->bytes = (size_t)l->count * per;
    l->span = (size_t)l->count * l->extent;
}

static unsigned char pattern(size_t i)
{
    return (unsigned char)((i * 131u + 7u) % 251u);
}

static void fail(const struct layout *l, size_t size, const char *what, size_t off,
                 unsigned got, unsigned want)
{
    fprintf(stderr, "CHECK FAILED: %s size %zu: %s at byte %zu: got 0x%02x, expected 0x%02x\n",
            l->name, size, what, off, got, want);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* Pack, unpack into a sentinel-filled buffer, and compare every byte of the span. */
static void check(const struct layout *l, struct bufs *b, size_t size, size_t packed_cap)
{
    int count = l->mcount, tsize = 0, pos = 0;
    for (size_t i = 0; i < l->span; i++)
        b->src[i] = pattern(i);
    memset(b->dst, SENTINEL, l->span);
    memset(b->packed, 0, packed_cap);
    MPI_Type_size(l->type, &tsize);
    if ((size_t)tsize * (size_t)count != l->bytes) {
        fprintf(stderr, "CHECK FAILED: %s size %zu: MPI_Type_size %d x %d, expected %zu bytes\n",
                l->name, size, tsize, count, l->bytes);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Pack(b->src, count, l->type, b->packed, (int)packed_cap, &pos, MPI_COMM_SELF);
    if (pos != (int)l->bytes)
        printf("# note: %s size %zu packs to %d bytes, data is %zu\n", l->name, size, pos,
               l->bytes);
    b->position = pos;
    int upos = 0;
    MPI_Unpack(b->packed, pos, &upos, b->dst, count, l->type, MPI_COMM_SELF);
    if (upos != pos) {
        fprintf(stderr, "CHECK FAILED: %s size %zu: unpack consumed %d of %d bytes\n", l->name,
                size, upos, pos);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    size_t cur = 0;
    for (int e = 0; e < l->count; e++) {
        size_t base = (size_t)e * l->extent;
        for (int k = 0; k < l->nblocks; k++) {
            size_t start = base + (size_t)l->disp[k] * l->unit;
            size_t end = start + (size_t)l->len[k] * l->unit;
            for (; cur < start; cur++)
                if (b->dst[cur] != SENTINEL)
                    fail(l, size, "gap byte overwritten", cur, b->dst[cur], SENTINEL);
            for (; cur < end; cur++)
                if (b->dst[cur] != b->src[cur])
                    fail(l, size, "data byte wrong", cur, b->dst[cur], b->src[cur]);
        }
    }
    for (; cur < l->span; cur++)
        if (b->dst[cur] != SENTINEL)
            fail(l, size, "gap byte overwritten", cur, b->dst[cur], SENTINEL);
}

static double run(enum op op, const struct layout *l, struct bufs *b, long iters)
{
    int count = l->mcount, cap = b->position;
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        int pos = 0;
        switch (op) {
        case OP_PACK:
            MPI_Pack(b->src, count, l->type, b->packed, cap, &pos, MPI_COMM_SELF);
            break;
        case OP_UNPACK:
            MPI_Unpack(b->packed, cap, &pos, b->dst, count, l->type, MPI_COMM_SELF);
            break;
        case OP_MEMCPY:
            memcpy(b->copy, b->packed, l->bytes);
            __asm__ __volatile__("" ::: "memory"); /* keep every copy */
            break;
        }
    }
    return MPI_Wtime() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median seconds per operation over `reps` samples of about target_s each;
 * the iteration count used goes to *iters_out. */
static double measure(enum op op, const struct layout *l, struct bufs *b, double target_s,
                      int reps, long *iters_out)
{
    long iters = 1;
    double t;
    run(op, l, b, 1); /* the first call may pay for one-time setup */
    for (;;) {
        t = run(op, l, b, iters);
        if (t >= target_s / 4 || iters >= (1L << 40))
            break;
        iters *= 2;
    }
    if (t > 0)
        iters = (long)((double)iters * target_s / t + 0.5);
    if (iters < 1)
        iters = 1;
    double samples[MAX_REPS];
    for (int r = 0; r < reps; r++)
        samples[r] = run(op, l, b, iters) / (double)iters;
    qsort(samples, (size_t)reps, sizeof(double), cmp_double);
    *iters_out = iters;
    return reps % 2 ? samples[reps / 2] : 0.5 * (samples[reps / 2 - 1] + samples[reps / 2]);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: pack [-t vector,indexed,struct] [-s S1,S2,...] [-T MS] [-r REPS]\n"
            "  -t  types (default all three)\n"
            "  -s  packed sizes, K/M suffixes (default 1K,4K,16K,64K,256K,1M,4M,16M)\n"
            "  -T  milliseconds per sample (default 20)\n"
            "  -r  samples per operation and size; the median is printed (default 5)\n");
}

int main(int argc, char **argv)
{
    const char *types = "vector,indexed,struct";
    char *sizes_arg = NULL;
    double target_ms = 20;
    int reps = 5, c, rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((c = getopt(argc, argv, "t:s:T:r:h")) != -1) {
        switch (c) {
        case 't': types = optarg; break;
        case 's': sizes_arg = optarg; break;
        case 'T': target_ms = atof(optarg); break;
        case 'r': reps = atoi(optarg); break;
        default:
            if (rank == 0)
                usage();
            MPI_Finalize();
            return c == 'h' ? 0 : 2;
        }
    }
    if (reps < 1) reps = 1;
    if (reps > MAX_REPS) reps = MAX_REPS;
    if (target_ms <= 0) target_ms = 1;

    size_t sizes[64];
    int nsizes = 0;
    char *list = strdup(sizes_arg ? sizes_arg : "1K,4K,16K,64K,256K,1M,4M,16M"), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok && nsizes < 64;
         tok = strtok_r(NULL, ",", &save)) {
        size_t s = parse_size(tok);
        if (s < 16 || s > (1u << 30))
            die("sizes must be between 16 bytes and 1 GiB");
        sizes[nsizes++] = s;
    }
    free(list);

    if (rank != 0) {  /* a single-process benchmark: other ranks just wait */
        MPI_Finalize();
        return 0;
    }
    printf("# pack: MPI_Pack/MPI_Unpack vs memcpy, MB = 10^6 data bytes, median of %d samples "
           "of ~%.0f ms\n", reps, target_ms);
#if defined(MPI_VERSION) && MPI_VERSION >= 3
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen = 0;
    MPI_Get_library_version(version, &vlen);
    char *nl = strchr(version, '\n');
    if (nl)
        *nl = '\0';
    printf("# library: %s\n", version);
#endif
    char cpus[256];
    cpu_list(cpus, sizeof(cpus));
    printf("# affinity rank0=%s\n", cpus);

    static const char *const names[] = {"vector", "indexed", "struct"};
    static void (*const builders[])(struct layout *, size_t) = {build_vector, build_indexed,
                                                                 build_struct};
    for (int t = 0; t < 3; t++) {
        if (!strstr(types, names[t]))
            continue;
        printf("# table %s\n# size pack_MBps unpack_MBps memcpy_MBps bytes pack_iters\n",
               names[t]);
        for (int k = 0; k < nsizes; k++) {
            struct layout l = {.name = names[t]};
            struct bufs b;
            int cap = 0;
            builders[t](&l, sizes[k]);
            MPI_Type_commit(&l.type);
            MPI_Pack_size(l.mcount, l.type, MPI_COMM_SELF, &cap);
            b.src = xmalloc(l.span);
            b.dst = xmalloc(l.span);
            b.packed = xmalloc((size_t)cap);
            b.copy = xmalloc(l.bytes);
            memset(b.copy, 0, l.bytes);
            check(&l, &b, sizes[k], (size_t)cap);

            long it_pack, it_unpack, it_copy;
            double target = target_ms / 1e3;
            double tp = measure(OP_PACK, &l, &b, target, reps, &it_pack);
            double tu = measure(OP_UNPACK, &l, &b, target, reps, &it_unpack);
            double tm = measure(OP_MEMCPY, &l, &b, target, reps, &it_copy);
            double mb = (double)l.bytes / 1e6;
            printf("%zu %.1f %.1f %.1f %zu %ld\n", sizes[k], mb / tp, mb / tu, mb / tm, l.bytes,
                   it_pack);
            fflush(stdout);

            MPI_Type_free(&l.type);
            free(l.len);
            free(l.disp);
            free(b.src);
            free(b.dst);
            free(b.packed);
            free(b.copy);
        }
    }
    MPI_Finalize();
    return 0;
}
