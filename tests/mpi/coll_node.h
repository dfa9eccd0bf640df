/*
 * coll_node.h - helpers shared by coll_node.c and coll_node_v.c, the tests of
 * the collectives on communicators whose ranks share a node (the node-level
 * shared-memory component, and the point-to-point algorithms it falls back to).
 *
 * Sizes: the component's thresholds come from its parameters, read here from
 * the same environment variables (DMPI_COLL_NODE_COPY_MAX, default 32 KiB:
 * largest per-rank contribution copied through shared memory, and twice
 * the size of the ring whose quarters larger reduce, scan and exscan use;
 * DMPI_COLL_NODE_CHUNK, default 64 KiB: pipelining chunk of reductions) and
 * the inline size (48 B, a constant), so the tests always cross the
 * thresholds in force, by one byte (or one element) below, at and above.
 *
 * Data: unit e (a byte or an int) of block `blk` that rank `src` contributes
 * in iteration `it` is a hash of (src, blk, e, it), so a unit from the wrong
 * rank, block, place or call shows.  Every buffer is an "image": CN_G guard
 * bytes, the span the datatype touches, CN_G guard bytes, all filled first
 * with a background pattern.  A receive buffer's data positions get the
 * complement of the expected bytes; the expected image is the background with
 * the expected bytes at the data positions.  After the call the whole receive
 * image (guards and the gaps of derived types included) must equal the
 * expected one byte for byte, and every send image must be unchanged.
 *
 * Datatypes ("kinds") for the data-movement collectives, all made of ints
 * (but K_BYTE), so ranks can use different types of one signature:
 *   K_BYTE    MPI_BYTE                                  unit e at byte e
 *   K_INT     MPI_INT                                   int e at byte 4e
 *   K_VEC     vector(2, 1, 2, MPI_INT): x _ x, ext 12   2 ints per element
 *   K_STRUCT  struct {int @0, int[2] @8}, resized ext 20: x _ x x _ (padding
 *             inside and at the end)                    3 ints per element
 *   K_RES     an int at byte 8, resized lb 4, extent 16 1 int per element
 * Counts of int data are multiples of 6 so that every kind fits.
 *
 * Reductions: each case is a type, an op, and a generator; the expected
 * result is folded here in rank order with C code of the test's own (not
 * MPI_Reduce_local), so the non-commutative cases (2x2 matrix product mod a
 * prime; affine maps composed, on a struct with padding) prove rank order.
 */
#ifndef COLL_NODE_H
#define COLL_NODE_H

#include "mtest.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CN_INLINE 48               /* payload carried in the flag's cache line */
#define CN_COPY_DEFAULT 32768      /* DMPI_COLL_NODE_COPY_MAX's default (at most 2 MiB / ranks, at least 8 KiB) */
#define CN_CHUNK_DEFAULT 65536     /* DMPI_COLL_NODE_CHUNK's default */
#define CN_G 64                    /* guard bytes on each side of a buffer */

static int cn_rank, cn_size;       /* in MPI_COMM_WORLD */
static size_t cn_copy_max, cn_chunk;

static inline size_t cn_env_size(const char *name, size_t def)
{
    const char *s = getenv(name);
    return s && *s ? mtest_parse_size(s) : def;
}

static inline void cn_setup(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &cn_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &cn_size);
    cn_copy_max = cn_env_size("DMPI_COLL_NODE_COPY_MAX", CN_COPY_DEFAULT);
    size_t cap = ((size_t)2 << 20) / (size_t)cn_size;    /* on MPI_COMM_WORLD */
    cap = cap < 8192 ? 8192 : cap;
    cn_copy_max = cn_copy_max < cap ? cn_copy_max : cap;
    cn_chunk = cn_env_size("DMPI_COLL_NODE_CHUNK", CN_CHUNK_DEFAULT);
}

static inline double cn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- data ------------------------------------------------------------- */

static inline uint64_t cn_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t cn_hash(uint64_t src, uint64_t blk, uint64_t e, uint64_t it)
{
    return cn_mix((src << 40 ^ blk << 52 ^ it << 20 ^ it >> 44) * 0x9e3779b97f4a7c15ull + e * 0xd1b54a32d192ed03ull);
}

/* ---- images ----------------------------------------------------------- */

typedef struct {
    unsigned char *base;           /* CN_G + span + CN_G bytes */
    size_t span;
} cn_img;

static inline unsigned char *cn_ptr(const cn_img *m)
{
    return m->base + CN_G;
}

/* A new image whose every byte is a background pattern of `seed`. */
static inline cn_img cn_img_new(size_t span, uint64_t seed)
{
    size_t total = span + 2 * CN_G;
    cn_img m = {mtest_malloc(total + 8), span};
    uint64_t x = cn_mix(seed + 0x5151) | 1;
    for (size_t j = 0; j < total; j += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(m.base + j, &x, 8);
    }
    return m;
}

static inline cn_img cn_img_copy(const cn_img *a)
{
    cn_img m = {mtest_malloc(a->span + 2 * CN_G + 8), a->span};
    memcpy(m.base, a->base, a->span + 2 * CN_G);
    return m;
}

static inline void cn_img_free(cn_img *m)
{
    free(m->base);
    m->base = NULL;
}

/* A result byte string `len` bytes at offset off: want gets it, the receive
 * buffer its complement (so that nothing written shows too). */
static inline void cn_put(cn_img *rb, cn_img *want, size_t off, const void *val, size_t len)
{
    const unsigned char *v = val;
    for (size_t j = 0; j < len; j++) {
        want->base[CN_G + off + j] = v[j];
        rb->base[CN_G + off + j] = (unsigned char)~v[j];
    }
}

/* Same bytes into both (data a buffer holds before an in-place call). */
static inline void cn_put2(cn_img *a, cn_img *b, size_t off, const void *val, size_t len)
{
    memcpy(a->base + CN_G + off, val, len);
    if (b)
        memcpy(b->base + CN_G + off, val, len);
}

/* Compares the whole images (guards included) except the bytes [lo, hi) of
 * the span; reports the first difference and how many bytes differ. */
static inline int cn_cmp(const cn_img *got, const cn_img *want, size_t lo, size_t hi, const char *what)
{
    size_t total = got->span + 2 * CN_G, bad = 0, first = 0;
    if (hi <= lo)
        lo = hi = 0;
    if (!memcmp(got->base, want->base, CN_G + lo) &&
        !memcmp(got->base + CN_G + hi, want->base + CN_G + hi, total - CN_G - hi))
        return 1;
    for (size_t j = 0; j < total; j++) {
        if (j >= CN_G + lo && j < CN_G + hi)
            continue;
        if (got->base[j] != want->base[j] && bad++ == 0)
            first = j;
    }
    if (bad) {
        long off = (long)first - CN_G;
        mtest_fail("%s: %zu of %zu bytes wrong, first at offset %ld%s (span %zu): 0x%02x, want 0x%02x", what, bad,
                   total, off, off < 0 || (size_t)off >= got->span ? " (guard)" : "", got->span, got->base[first],
                   want->base[first]);
    }
    return bad == 0;
}

/* ---- kinds of data-movement datatypes ---------------------------------- */

enum { K_BYTE, K_INT, K_VEC, K_STRUCT, K_RES, NKINDS };
static MPI_Datatype k_type[NKINDS];
static const int k_per[NKINDS] = {1, 1, 2, 3, 1};                  /* units per element */
static const size_t k_unit[NKINDS] = {1, 4, 4, 4, 4};              /* bytes per unit */
static const size_t k_ext[NKINDS] = {1, 4, 12, 20, 16};            /* extent */
static const char *const k_name[NKINDS] = {"byte", "int", "vector", "struct", "resized"};

static inline void cn_kinds_init(void)
{
    k_type[K_BYTE] = MPI_BYTE;
    k_type[K_INT] = MPI_INT;
    MPI_Type_vector(2, 1, 2, MPI_INT, &k_type[K_VEC]);
    MPI_Type_commit(&k_type[K_VEC]);
    int bl[2] = {1, 2};
    MPI_Aint dp[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT}, st, at8;
    MPI_Type_create_struct(2, bl, dp, ty, &st);
    MPI_Type_create_resized(st, 0, 20, &k_type[K_STRUCT]);
    MPI_Type_commit(&k_type[K_STRUCT]);
    MPI_Type_free(&st);
    int one = 1;
    MPI_Aint eight = 8;
    MPI_Type_create_struct(1, &one, &eight, ty, &at8);
    MPI_Type_create_resized(at8, 4, 16, &k_type[K_RES]);
    MPI_Type_commit(&k_type[K_RES]);
    MPI_Type_free(&at8);
    for (int k = 0; k < NKINDS; k++) {
        MPI_Aint lb, ext;
        int sz;
        MPI_Type_get_extent(k_type[k], &lb, &ext);
        MPI_Type_size(k_type[k], &sz);
        if (!MTEST_CHECK((size_t)ext == k_ext[k] && (size_t)sz == k_unit[k] * (size_t)k_per[k],
                         "kind %s: extent %ld size %d", k_name[k], (long)ext, sz))
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static inline void cn_kinds_free(void)
{
    MPI_Type_free(&k_type[K_VEC]);
    MPI_Type_free(&k_type[K_STRUCT]);
    MPI_Type_free(&k_type[K_RES]);
}

/* Byte offset from the buffer pointer of data unit e. */
static inline size_t k_off(int k, size_t e)
{
    static const size_t sto[3] = {0, 8, 12};
    switch (k) {
    case K_BYTE: return e;
    case K_INT: return 4 * e;
    case K_VEC: return (e / 2) * 12 + (e % 2) * 8;
    case K_STRUCT: return (e / 3) * 20 + sto[e % 3];
    default: return 16 * e + 8;
    }
}

/* Bytes from the buffer pointer that `units` units at element displacement
 * d need. */
static inline size_t k_span(int k, size_t d, size_t units)
{
    return units ? d * k_ext[k] + k_off(k, units - 1) + k_unit[k] : 0;
}

/* The unit's value as bytes (k_unit[k] of them). */
static inline void k_val(int k, void *out, int src, int blk, size_t e, int it)
{
    uint64_t h = cn_hash((uint64_t)src, (uint64_t)blk, e, (uint64_t)it);
    if (k == K_BYTE) {
        *(unsigned char *)out = (unsigned char)h;
    } else {
        uint32_t v = (uint32_t)(h >> 16);
        memcpy(out, &v, 4);
    }
}

/* units units of (src, blk) at element displacement d of image m, and of
 * want when given (a send buffer, or a buffer that holds data in place). */
static inline void k_write(int k, cn_img *m, cn_img *want, size_t d, size_t units, int src, int blk, int it)
{
    unsigned char v[4];
    for (size_t e = 0; e < units; e++) {
        k_val(k, v, src, blk, e, it);
        cn_put2(m, want, d * k_ext[k] + k_off(k, e), v, k_unit[k]);
    }
}

/* Expected: units of (src, blk) at d in want, their complement in rb. */
static inline void k_expect(int k, cn_img *rb, cn_img *want, size_t d, size_t units, int src, int blk, int it)
{
    unsigned char v[4];
    for (size_t e = 0; e < units; e++) {
        k_val(k, v, src, blk, e, it);
        cn_put(rb, want, d * k_ext[k] + k_off(k, e), v, k_unit[k]);
    }
}

/* ---- reduction cases ---------------------------------------------------- */

#define CN_P 2147483647u           /* 2^31 - 1 */

typedef struct {
    uint32_t m[4];
} cn_mat_t;

typedef struct {                   /* x -> a x + b (mod CN_P); 4 bytes of padding */
    uint32_t a;
    uint32_t pad;
    uint64_t b;
} cn_aff_t;

/* b = a * b (rows times columns, mod CN_P): a is the lower ranks' part. */
static inline void cn_mat_comb(const void *pa, void *pb)
{
    cn_mat_t x, y, z;
    memcpy(&x, pa, sizeof x);
    memcpy(&y, pb, sizeof y);
    z.m[0] = (uint32_t)(((uint64_t)x.m[0] * y.m[0] + (uint64_t)x.m[1] * y.m[2]) % CN_P);
    z.m[1] = (uint32_t)(((uint64_t)x.m[0] * y.m[1] + (uint64_t)x.m[1] * y.m[3]) % CN_P);
    z.m[2] = (uint32_t)(((uint64_t)x.m[2] * y.m[0] + (uint64_t)x.m[3] * y.m[2]) % CN_P);
    z.m[3] = (uint32_t)(((uint64_t)x.m[2] * y.m[1] + (uint64_t)x.m[3] * y.m[3]) % CN_P);
    memcpy(pb, &z, sizeof z);
}

/* b = (first a, then b): x -> b.a (a.a x + a.b) + b.b.  Writes only a and b. */
static inline void cn_aff_comb(const void *pa, void *pb)
{
    const cn_aff_t *x = pa;
    cn_aff_t *y = pb;
    uint64_t na = (uint64_t)x->a * y->a % CN_P;
    uint64_t nb = ((uint64_t)y->a * (x->b % CN_P) + y->b) % CN_P;
    y->a = (uint32_t)na;
    y->b = nb;
}

static inline void cn_mat_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        cn_mat_comb((char *)in + i * sizeof(cn_mat_t), (char *)inout + i * sizeof(cn_mat_t));
}

static inline void cn_aff_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        cn_aff_comb((char *)in + i * sizeof(cn_aff_t), (char *)inout + i * sizeof(cn_aff_t));
}

enum { R_INT_SUM, R_DOUBLE_SUM, R_DOUBLE_MAX, R_SCHAR_MAX, R_LL_SUM, R_MAT, R_AFF, R_VEC_SUM, R_RES_MIN, NRCASES };

typedef struct {
    const char *name;
    MPI_Datatype type;
    MPI_Op op;
    size_t ext;                    /* bytes per element in memory */
    int nseg;                      /* data bytes of an element: (off, len) */
    size_t seg[2][2];
} cn_rcase;

static cn_rcase rc[NRCASES];
static MPI_Datatype cn_mat_type, cn_aff_type, cn_vec_type, cn_res_type;
static MPI_Op cn_mat_op, cn_aff_op;

static inline void cn_rcases_init(void)
{
    MPI_Type_contiguous(4, MPI_UINT32_T, &cn_mat_type);
    MPI_Type_commit(&cn_mat_type);
    int bl[2] = {1, 1};
    MPI_Aint dp[2] = {offsetof(cn_aff_t, a), offsetof(cn_aff_t, b)};
    MPI_Datatype ty[2] = {MPI_UINT32_T, MPI_UINT64_T}, st;
    MPI_Type_create_struct(2, bl, dp, ty, &st);
    MPI_Type_create_resized(st, 0, sizeof(cn_aff_t), &cn_aff_type);
    MPI_Type_free(&st);
    MPI_Type_commit(&cn_aff_type);
    MPI_Type_vector(2, 1, 2, MPI_INT, &cn_vec_type);
    MPI_Type_commit(&cn_vec_type);
    int one = 1;
    MPI_Aint eight = 8;
    MPI_Datatype mint = MPI_INT, at8;
    MPI_Type_create_struct(1, &one, &eight, &mint, &at8);
    MPI_Type_create_resized(at8, 4, 16, &cn_res_type);
    MPI_Type_free(&at8);
    MPI_Type_commit(&cn_res_type);
    MPI_Op_create(cn_mat_fn, 0, &cn_mat_op);
    MPI_Op_create(cn_aff_fn, 0, &cn_aff_op);
    cn_rcase c[NRCASES] = {
        {"MPI_INT SUM", MPI_INT, MPI_SUM, 4, 1, {{0, 4}}},
        {"MPI_DOUBLE SUM", MPI_DOUBLE, MPI_SUM, 8, 1, {{0, 8}}},
        {"MPI_DOUBLE MAX", MPI_DOUBLE, MPI_MAX, 8, 1, {{0, 8}}},
        /* MPI_CHAR is text, not an integer: MAX is not defined on it
         * (MPI-4.0 6.9.2), so the char case is MPI_SIGNED_CHAR */
        {"MPI_SIGNED_CHAR MAX", MPI_SIGNED_CHAR, MPI_MAX, 1, 1, {{0, 1}}},
        {"MPI_LONG_LONG SUM", MPI_LONG_LONG, MPI_SUM, 8, 1, {{0, 8}}},
        {"2x2 matrix product mod p (user, non-commutative)", cn_mat_type, cn_mat_op, 16, 1, {{0, 16}}},
        {"affine maps composed, struct with padding (user, non-commutative)", cn_aff_type, cn_aff_op, 16, 2,
         {{0, 4}, {8, 8}}},
        {"vector of MPI_INT with a gap, SUM", cn_vec_type, MPI_SUM, 12, 2, {{0, 4}, {8, 4}}},
        {"resized MPI_INT (lb 4, extent 16), MIN", cn_res_type, MPI_MIN, 16, 1, {{8, 4}}},
    };
    memcpy(rc, c, sizeof c);
}

static inline void cn_rcases_free(void)
{
    MPI_Op_free(&cn_mat_op);
    MPI_Op_free(&cn_aff_op);
    MPI_Type_free(&cn_mat_type);
    MPI_Type_free(&cn_aff_type);
    MPI_Type_free(&cn_vec_type);
    MPI_Type_free(&cn_res_type);
}

/* Rank r's element i in call `it`: the data bytes at elem (ext bytes). */
static inline void rc_gen(int k, void *elem, int r, size_t i, int it)
{
    uint64_t h = cn_hash((uint64_t)r, 7, i, (uint64_t)it), g = k >= R_MAT && k <= R_VEC_SUM ? cn_mix(h) : 0;
    switch (k) {
    case R_INT_SUM: {
        int v = (int)(h & 0xfffff) - 0x80000;
        memcpy(elem, &v, 4);
        break;
    }
    case R_DOUBLE_SUM: {   /* multiples of 1/4 below 2^20: sums are exact in any order */
        double v = ((double)(int)(h & 0xfffff) - 524288.0) * 0.25;
        memcpy(elem, &v, 8);
        break;
    }
    case R_DOUBLE_MAX: {
        double v = (double)(int64_t)(h >> 11) * 1e-9 - 4e3;
        memcpy(elem, &v, 8);
        break;
    }
    case R_SCHAR_MAX: {
        signed char v = (signed char)(h >> 3);
        memcpy(elem, &v, 1);
        break;
    }
    case R_LL_SUM: {
        long long v = (long long)(h >> 13) - (1LL << 50);
        memcpy(elem, &v, 8);
        break;
    }
    case R_MAT: {
        cn_mat_t m = {{(uint32_t)(h % CN_P), (uint32_t)((h >> 32) % CN_P), (uint32_t)(g % CN_P),
                       (uint32_t)((g >> 32) % CN_P)}};
        memcpy(elem, &m, sizeof m);
        break;
    }
    case R_AFF: {
        cn_aff_t *a = elem;
        a->a = (uint32_t)(1 + h % (CN_P - 1));
        a->b = g % CN_P;
        break;
    }
    case R_VEC_SUM: {
        int v[2] = {(int)(h & 0xfffff) - 0x80000, (int)(g & 0xfffff) - 0x80000};
        memcpy(elem, &v[0], 4);
        memcpy((char *)elem + 8, &v[1], 4);
        break;
    }
    default: {
        int v = (int)(h >> 33) - (1 << 30);
        memcpy((char *)elem + 8, &v, 4);
        break;
    }
    }
}

/* b = a op b, a the lower ranks' part. */
static inline void rc_comb(int k, const void *a, void *b)
{
    switch (k) {
    case R_INT_SUM: {
        int x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        y += x;
        memcpy(b, &y, 4);
        break;
    }
    case R_DOUBLE_SUM:
    case R_DOUBLE_MAX: {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        y = k == R_DOUBLE_SUM ? x + y : (x > y ? x : y);
        memcpy(b, &y, 8);
        break;
    }
    case R_SCHAR_MAX:
        if (*(const signed char *)a > *(signed char *)b)
            *(signed char *)b = *(const signed char *)a;
        break;
    case R_LL_SUM: {
        long long x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        y += x;
        memcpy(b, &y, 8);
        break;
    }
    case R_MAT: cn_mat_comb(a, b); break;
    case R_AFF: cn_aff_comb(a, b); break;
    case R_VEC_SUM:
        rc_comb(R_INT_SUM, a, b);
        rc_comb(R_INT_SUM, (const char *)a + 8, (char *)b + 8);
        break;
    default: {
        int x, y;
        memcpy(&x, (const char *)a + 8, 4);
        memcpy(&y, (char *)b + 8, 4);
        if (x < y)
            memcpy((char *)b + 8, &x, 4);
        break;
    }
    }
}

/* Elements [first, first + n) of rank r into image m (and want) from
 * element displacement d: the data bytes only. */
static inline void rc_write(int k, cn_img *m, cn_img *want, size_t d, size_t first, size_t n, int r, int it)
{
    unsigned char e[16];
    for (size_t i = 0; i < n; i++) {
        rc_gen(k, e, r, first + i, it);
        for (int s = 0; s < rc[k].nseg; s++)
            cn_put2(m, want, (d + i) * rc[k].ext + rc[k].seg[s][0], e + rc[k].seg[s][0], rc[k].seg[s][1]);
    }
}

/* Expected reduction over ranks lo .. hi-1 (in rank order) of elements
 * [first, first + n), at element displacement d of want (complement in rb). */
static inline void rc_expect(int k, cn_img *rb, cn_img *want, size_t d, size_t first, size_t n, int lo, int hi, int it)
{
    unsigned char acc[16], x[16];
    for (size_t i = 0; i < n; i++) {
        rc_gen(k, acc, lo, first + i, it);
        for (int r = lo + 1; r < hi; r++) {
            rc_gen(k, x, r, first + i, it);
            rc_comb(k, acc, x);
            memcpy(acc, x, sizeof acc);
        }
        for (int s = 0; s < rc[k].nseg; s++)
            cn_put(rb, want, (d + i) * rc[k].ext + rc[k].seg[s][0], acc + rc[k].seg[s][0], rc[k].seg[s][1]);
    }
}

/* ---- sizes ---------------------------------------------------------------- */

/* Byte sizes around the thresholds: 0, 1, inline -1/+0/+1, the copy limit in
 * force and the default one -1/+0/+1, the chunk -1/+0/+1.  Element counts for
 * an element of `elem` bytes: the count of each threshold, one less, one
 * more (so for 1-byte elements exactly the byte sizes).  Returns how many. */
static inline int cn_counts(size_t elem, size_t *out, int with_chunk)
{
    size_t marks[4] = {CN_INLINE, cn_copy_max, CN_COPY_DEFAULT, cn_chunk};
    int n = 0;
    out[n++] = 0;
    out[n++] = 1;
    for (int m = 0; m < (with_chunk ? 4 : 3); m++) {
        size_t c = marks[m] / elem;
        for (int d = -1; d <= 1; d++) {
            if (c + (size_t)d + 1 == 0)
                continue;
            size_t v = c + (size_t)d;
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= out[j] == v;
            if (!dup)
                out[n++] = v;
        }
    }
    return n;
}

/* ---- a barrier checked through a counter in a shared file ---------------- */

static volatile int *cn_counter;   /* 1024 ints (slots) shared by the ranks of the node */
static char cn_counter_path[64];

/* Maps a counter file made by rank 0 of MPI_COMM_WORLD (point-to-point
 * only).  Returns 0 (and says so) if some rank could not map it. */
static inline int cn_counter_init(void)
{
    int fd = -1, ok;
    if (cn_rank == 0) {
        snprintf(cn_counter_path, sizeof cn_counter_path, "/tmp/coll_node-XXXXXX");
        fd = mkstemp(cn_counter_path);
        if (fd < 0 || ftruncate(fd, 4096) != 0)
            cn_counter_path[0] = '\0';
        for (int r = 1; r < cn_size; r++)
            MPI_Send(cn_counter_path, (int)sizeof cn_counter_path, MPI_CHAR, r, 77, MPI_COMM_WORLD);
    } else {
        MPI_Recv(cn_counter_path, (int)sizeof cn_counter_path, MPI_CHAR, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cn_counter_path[0])
            fd = open(cn_counter_path, O_RDWR);
    }
    if (fd >= 0) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED)
            cn_counter = p;
        close(fd);
    }
    /* everyone mapped it, or nobody uses it */
    int mine = cn_counter != NULL, all = mine;
    if (cn_rank == 0) {
        for (int r = 1; r < cn_size; r++) {
            int x;
            MPI_Recv(&x, 1, MPI_INT, r, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            all &= x;
        }
        for (int r = 1; r < cn_size; r++)
            MPI_Send(&all, 1, MPI_INT, r, 79, MPI_COMM_WORLD);
    } else {
        MPI_Send(&mine, 1, MPI_INT, 0, 78, MPI_COMM_WORLD);
        MPI_Recv(&all, 1, MPI_INT, 0, 79, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    ok = all;
    if (cn_rank == 0 && cn_counter_path[0])
        unlink(cn_counter_path);       /* every rank has opened it */
    if (!ok && cn_counter) {
        munmap((void *)cn_counter, 4096);
        cn_counter = NULL;
    }
    if (!ok && cn_rank == 0)
        printf("# barrier not checked through a shared file (%s could not be shared)\n", cn_counter_path);
    return ok;
}

static inline void cn_counter_free(void)
{
    if (cn_counter)
        munmap((void *)cn_counter, 4096);
    cn_counter = NULL;
}

#endif
