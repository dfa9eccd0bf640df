/*
 * coll_ops.h - ops, values and expected results shared by the tests of the
 * reducing collectives (coll_reduce, coll_allreduce, coll_reduce_scatter,
 * coll_scan).
 *
 * A "case" is a datatype, an op and the value every rank contributes to
 * element i. The expected reduction over ranks lo .. hi-1 is folded here in
 * rank order with MPI_Reduce_local(acc, x), which computes x = acc op x, the
 * order the standard defines; so a non-commutative op (2x2 matrix product)
 * proves that a collective combined in rank order. Sums of doubles use
 * integer values, so every order gives the same bits.
 */
#ifndef COLL_OPS_H
#define COLL_OPS_H

#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned m[4];               /* row-major 2x2, arithmetic mod 2^32 */
} mat2_t;

typedef struct {
    double v;
    int i;
} dint_t;

/* inout = in * inout: not commutative. */
static void mat2_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const mat2_t *a = in;
    mat2_t *b = inout;
    for (int k = 0; k < *len; k++) {
        mat2_t x = a[k], y = b[k];
        b[k].m[0] = x.m[0] * y.m[0] + x.m[1] * y.m[2];
        b[k].m[1] = x.m[0] * y.m[1] + x.m[1] * y.m[3];
        b[k].m[2] = x.m[2] * y.m[0] + x.m[3] * y.m[2];
        b[k].m[3] = x.m[2] * y.m[1] + x.m[3] * y.m[3];
    }
}

/* inout += in on ints: a commutative user op. */
static void isum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++)
        ((int *)inout)[k] += ((const int *)in)[k];
}

enum { C_INT_SUM, C_DOUBLE_SUM, C_LL_SUM, C_INT_MAX, C_DOUBLE_MIN, C_MAXLOC, C_BAND, C_MAT, C_USER_SUM, NCASES };

typedef struct {
    const char *name;
    MPI_Datatype type;
    MPI_Op op;
    size_t size;                 /* bytes per element in memory */
    size_t sig;                  /* bytes that hold data (no padding) */
    int commutative;
} rcase_t;

static rcase_t cases[NCASES];
static MPI_Datatype mat2_type;
static MPI_Op mat2_op, isum_op;

static inline void ops_init(void)
{
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat2_type);
    MPI_Type_commit(&mat2_type);
    MPI_Op_create(mat2_fn, 0, &mat2_op);
    MPI_Op_create(isum_fn, 1, &isum_op);
    rcase_t c[NCASES] = {
        {"SUM int", MPI_INT, MPI_SUM, sizeof(int), sizeof(int), 1},
        {"SUM double", MPI_DOUBLE, MPI_SUM, sizeof(double), sizeof(double), 1},
        {"SUM long long", MPI_LONG_LONG, MPI_SUM, sizeof(long long), sizeof(long long), 1},
        {"MAX int", MPI_INT, MPI_MAX, sizeof(int), sizeof(int), 1},
        {"MIN double", MPI_DOUBLE, MPI_MIN, sizeof(double), sizeof(double), 1},
        {"MAXLOC double_int", MPI_DOUBLE_INT, MPI_MAXLOC, sizeof(dint_t), sizeof(double) + sizeof(int), 1},
        {"BAND int", MPI_INT, MPI_BAND, sizeof(int), sizeof(int), 1},
        {"matrix product (user, non-commutative)", mat2_type, mat2_op, sizeof(mat2_t), sizeof(mat2_t), 0},
        {"int sum (user, commutative)", MPI_INT, isum_op, sizeof(int), sizeof(int), 1},
    };
    memcpy(cases, c, sizeof c);
}

static inline void ops_free(void)
{
    MPI_Op_free(&mat2_op);
    MPI_Op_free(&isum_op);
    MPI_Type_free(&mat2_type);
}

/* Rank r's contribution to element i, with a seed that varies per call. */
static inline void case_value(int k, void *elem, int r, size_t i, int seed)
{
    long v = (long)(i % 1000) + seed;
    switch (k) {
    case C_INT_SUM:
        *(int *)elem = (int)((r + 1) * (v + 1) - 300);
        break;
    case C_DOUBLE_SUM:
        *(double *)elem = (double)((r + 1) * (v % 97 + 1)) - 300.0;
        break;
    case C_LL_SUM:
        *(long long *)elem = ((long long)(r + 1) << 33) + v;
        break;
    case C_INT_MAX:
        *(int *)elem = (int)((r * 7919 + v * 31) % 1009) - 500;
        break;
    case C_DOUBLE_MIN:
        *(double *)elem = ((r * 104729 + v * 17) % 1013) / 8.0 - 60;
        break;
    case C_MAXLOC: {         /* few distinct values: ties pick the lowest rank */
        dint_t d = {(double)((r * 5 + v) % 4), r};
        memcpy(elem, &d, sizeof d);
        break;
    }
    case C_BAND:
        *(int *)elem = ~(1 << ((r + v) % 31)) ^ (int)((v & 1) << 30);
        break;
    case C_MAT: {
        mat2_t m = {{(unsigned)(r + 1 + v % 5), 1u + (unsigned)r, 1u, (unsigned)((v + r) % 3)}};
        memcpy(elem, &m, sizeof m);
        break;
    }
    default:
        *(int *)elem = (int)(r * 3 + v);
        break;
    }
}

static inline void *case_alloc(int k, size_t count)
{
    void *p = mtest_malloc(count * cases[k].size + 1);
    memset(p, 0, count * cases[k].size + 1);
    return p;
}

/* buf[first .. first+count) = rank r's contribution. */
static inline void case_fill(int k, void *buf, int r, size_t first, size_t count, int seed)
{
    for (size_t i = 0; i < count; i++)
        case_value(k, (char *)buf + i * cases[k].size, r, first + i, seed);
}

/* out[0 .. count) = reduction of elements first .. first+count over ranks
 * lo .. hi-1 (hi > lo), folded in rank order. */
static inline void case_expect(int k, void *out, int lo, int hi, size_t first, size_t count, int seed)
{
    void *x = case_alloc(k, count);
    case_fill(k, out, lo, first, count, seed);
    for (int r = lo + 1; r < hi; r++) {
        case_fill(k, x, r, first, count, seed);
        MPI_Reduce_local(out, x, (int)count, cases[k].type, cases[k].op);    /* x = out op x */
        memcpy(out, x, count * cases[k].size);
    }
    free(x);
}

/* Compares the data bytes of count elements; reports the first difference. */
static inline int case_check(int k, const void *got, const void *want, size_t count, const char *what)
{
    size_t sz = cases[k].size;
    for (size_t i = 0; i < count; i++)
        if (memcmp((const char *)got + i * sz, (const char *)want + i * sz, cases[k].sig)) {
            mtest_fail("%s, %s: element %zu of %zu differs", what, cases[k].name, i, count);
            return 0;
        }
    return 1;
}

/* Every rank of comm holds the same `bytes` bytes at buf (checked at rank
 * 0 of comm with point-to-point messages). */
static inline int same_everywhere(MPI_Comm comm, const void *buf, size_t bytes, const char *what)
{
    int r, p, ok = 1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    if (r != 0) {
        MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 4321, comm);
        return 1;
    }
    char *other = mtest_malloc(bytes + 1);
    for (int i = 1; i < p; i++) {
        MPI_Recv(other, (int)bytes, MPI_BYTE, i, 4321, comm, MPI_STATUS_IGNORE);
        if (memcmp(other, buf, bytes) && ok) {
            mtest_fail("%s: rank %d's result differs from rank 0's", what, i);
            ok = 0;
        }
    }
    free(other);
    return ok;
}

/* Derived layouts of ints, reduced with layout_op (a user sum) and with
 * MPI_SUM (a dmpi extension: MPICH 4.0 refuses predefined ops on derived
 * types). An element is 2 ints: "vector" has a one-int gap inside,
 * "resized" puts its data 8 bytes into a 20-byte extent with lb 4. Gaps
 * hold GAP. */
#define GAP 0x5a5a5a5a
typedef struct {
    const char *name;
    MPI_Datatype type;
    MPI_Aint extent, off[2];
} layout_t;

static layout_t layouts[2];

static inline int *layout_int(const layout_t *L, void *buf, size_t e, int j)
{
    return (int *)((char *)buf + (size_t)L->extent * e + L->off[j]);
}

/* inout += in on the ints of a layout: a user op on a derived type, which
 * receives the layout itself (len elements of *dt). */
static void layout_sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const layout_t *L = layouts[0].type == *dt ? &layouts[0] : &layouts[1];
    for (int e = 0; e < *len; e++)
        for (int j = 0; j < 2; j++)
            *layout_int(L, inout, (size_t)e, j) += *layout_int(L, in, (size_t)e, j);
}

static MPI_Op layout_op;

static inline void layouts_init(void)
{
    MPI_Datatype v, h;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    int bl = 2;
    MPI_Aint disp = 8;
    MPI_Type_create_hindexed_block(1, bl, &disp, MPI_INT, &h);
    MPI_Datatype r;
    MPI_Type_create_resized(h, 4, 20, &r);
    MPI_Type_free(&h);
    MPI_Type_commit(&r);
    layouts[0] = (layout_t){"vector with a gap", v, 12, {0, 8}};
    layouts[1] = (layout_t){"resized, lb 4, data at 8", r, 20, {8, 12}};
    MPI_Op_create(layout_sum_fn, 1, &layout_op);
}

static inline void layouts_free(void)
{
    MPI_Op_free(&layout_op);
    MPI_Type_free(&layouts[0].type);
    MPI_Type_free(&layouts[1].type);
}

/* A buffer of count elements of layout L: ints (of element e, j = 0, 1)
 * from val(e * 2 + j), gaps GAP. */
static inline int *layout_alloc(const layout_t *L, size_t count)
{
    size_t bytes = count * (size_t)L->extent + 32;
    int *p = mtest_malloc(bytes);
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        p[i] = GAP;
    return p;
}

/* Checks data against want[2*count] and that every gap still holds GAP. */
static inline int layout_check(const layout_t *L, int *buf, size_t count, const int *want, const char *what)
{
    size_t bytes = count * (size_t)L->extent + 32;
    char *isdata = calloc(bytes / sizeof(int) + 1, 1);
    for (size_t e = 0; e < count; e++)
        for (int j = 0; j < 2; j++) {
            int *x = layout_int(L, buf, e, j);
            isdata[(size_t)(x - buf)] = 1;
            if (*x != want[2 * e + j]) {
                mtest_fail("%s, %s: int %d of element %zu is %d, expected %d", what, L->name, j, e, *x,
                           want[2 * e + j]);
                free(isdata);
                return 0;
            }
        }
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        if (!isdata[i] && buf[i] != GAP) {
            mtest_fail("%s, %s: gap int %zu overwritten", what, L->name, i);
            free(isdata);
            return 0;
        }
    free(isdata);
    return 1;
}

#endif
