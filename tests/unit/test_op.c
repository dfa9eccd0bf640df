/* Reduction ops (core/op.c, core/op_kernels.c), in process:
 *   - every predefined op on every predefined type: allowed exactly where
 *     MPI-4 section 6.9.2 allows it and in dmpi's two extensions, MPI_CHAR
 *     as a C integer and logical ops on the multi-language types (the table
 *     below is written from these, not from the library), then equal to a
 *     scalar reference loop, for counts 0, 1, 3, 17 and 1000 (vector tails)
 *     at two alignments;
 *     integer values cover the full range (wrapping sums and products), with
 *     many zeros for the logical ops; MINLOC/MAXLOC pairs with many ties;
 *   - every disallowed pair gives MPI_ERR_OP naming op and type and leaves
 *     inout alone; MPI_REPLACE copies in, MPI_NO_OP keeps inout, on any type;
 *   - handles: dmpi_op_get of valid and invalid handles, commutativity;
 *   - derived types: contiguous (with a displacement), vector, vector of
 *     padded pairs and long vectors (the packed path in several steps): data
 *     combined, gaps untouched; a mixed struct gives MPI_ERR_OP except for
 *     MPI_REPLACE, MPI_NO_OP and user ops;
 *   - user ops: called with (in, inout, &len, &datatype), the non-commutative
 *     result proves the order (in op inout), the MPI_Count form, free. */
#include "core/op.h"
#include "unit.h"
#include <complex.h>

enum { G_NONE, G_CINT, G_FINT, G_MULTI, G_FLOAT, G_COMPLEX, G_LOGICAL, G_BYTE, G_PAIR };
enum {
    R_SINT, R_UINT, R_FLT, R_DBL, R_LDBL, R_F128, R_CFLT, R_CDBL, R_CLDBL, R_CF128,
    R_P_FI, R_P_DI, R_P_LI, R_P_SI, R_P_LDI, R_P_II, R_P_FF, R_P_DD
};

typedef struct tt {
    MPI_Datatype h;
    const char *name;
    int group, rep;
    size_t ext;                  /* bytes from one element to the next in C */
} tt_t;

#define T(h, g, r, e) {h, #h, g, r, e}
static const tt_t types[] = {
    T(MPI_WCHAR, G_NONE, R_UINT, 4), T(MPI_PACKED, G_NONE, R_UINT, 1),
    T(MPI_CHARACTER, G_NONE, R_UINT, 1), T(MPI_LB, G_NONE, R_UINT, 0), T(MPI_UB, G_NONE, R_UINT, 0),
    T(MPI_CHAR, G_CINT, R_SINT, 1),   /* an extension: text in the standard */
    T(MPI_SIGNED_CHAR, G_CINT, R_SINT, 1), T(MPI_UNSIGNED_CHAR, G_CINT, R_UINT, 1),
    T(MPI_SHORT, G_CINT, R_SINT, 2), T(MPI_UNSIGNED_SHORT, G_CINT, R_UINT, 2), T(MPI_INT, G_CINT, R_SINT, 4),
    T(MPI_UNSIGNED, G_CINT, R_UINT, 4), T(MPI_LONG, G_CINT, R_SINT, 8), T(MPI_UNSIGNED_LONG, G_CINT, R_UINT, 8),
    T(MPI_LONG_LONG, G_CINT, R_SINT, 8), T(MPI_UNSIGNED_LONG_LONG, G_CINT, R_UINT, 8),
    T(MPI_INT8_T, G_CINT, R_SINT, 1), T(MPI_INT16_T, G_CINT, R_SINT, 2), T(MPI_INT32_T, G_CINT, R_SINT, 4),
    T(MPI_INT64_T, G_CINT, R_SINT, 8), T(MPI_UINT8_T, G_CINT, R_UINT, 1), T(MPI_UINT16_T, G_CINT, R_UINT, 2),
    T(MPI_UINT32_T, G_CINT, R_UINT, 4), T(MPI_UINT64_T, G_CINT, R_UINT, 8),
    T(MPI_INTEGER, G_FINT, R_SINT, 4), T(MPI_INTEGER1, G_FINT, R_SINT, 1), T(MPI_INTEGER2, G_FINT, R_SINT, 2),
    T(MPI_INTEGER4, G_FINT, R_SINT, 4), T(MPI_INTEGER8, G_FINT, R_SINT, 8),
    T(MPI_AINT, G_MULTI, R_SINT, 8), T(MPI_OFFSET, G_MULTI, R_SINT, 8), T(MPI_COUNT, G_MULTI, R_SINT, 8),
    T(MPI_FLOAT, G_FLOAT, R_FLT, 4), T(MPI_DOUBLE, G_FLOAT, R_DBL, 8), T(MPI_LONG_DOUBLE, G_FLOAT, R_LDBL, 16),
    T(MPI_REAL, G_FLOAT, R_FLT, 4), T(MPI_DOUBLE_PRECISION, G_FLOAT, R_DBL, 8), T(MPI_REAL4, G_FLOAT, R_FLT, 4),
    T(MPI_REAL8, G_FLOAT, R_DBL, 8), T(MPI_REAL16, G_FLOAT, R_F128, 16),
    T(MPI_C_FLOAT_COMPLEX, G_COMPLEX, R_CFLT, 8), T(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, R_CDBL, 16),
    T(MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX, R_CLDBL, 32), T(MPI_CXX_FLOAT_COMPLEX, G_COMPLEX, R_CFLT, 8),
    T(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, R_CDBL, 16), T(MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX, R_CLDBL, 32),
    T(MPI_COMPLEX, G_COMPLEX, R_CFLT, 8), T(MPI_DOUBLE_COMPLEX, G_COMPLEX, R_CDBL, 16),
    T(MPI_COMPLEX8, G_COMPLEX, R_CFLT, 8), T(MPI_COMPLEX16, G_COMPLEX, R_CDBL, 16),
    T(MPI_COMPLEX32, G_COMPLEX, R_CF128, 32),
    T(MPI_C_BOOL, G_LOGICAL, R_UINT, 1), T(MPI_CXX_BOOL, G_LOGICAL, R_UINT, 1), T(MPI_LOGICAL, G_LOGICAL, R_SINT, 4),
    T(MPI_BYTE, G_BYTE, R_UINT, 1),
    T(MPI_FLOAT_INT, G_PAIR, R_P_FI, 8), T(MPI_DOUBLE_INT, G_PAIR, R_P_DI, 16), T(MPI_LONG_INT, G_PAIR, R_P_LI, 16),
    T(MPI_SHORT_INT, G_PAIR, R_P_SI, 8), T(MPI_LONG_DOUBLE_INT, G_PAIR, R_P_LDI, 32), T(MPI_2INT, G_PAIR, R_P_II, 8),
    T(MPI_2INTEGER, G_PAIR, R_P_II, 8), T(MPI_2REAL, G_PAIR, R_P_FF, 8), T(MPI_2DOUBLE_PRECISION, G_PAIR, R_P_DD, 16),
};
#define NTYPES (sizeof types / sizeof types[0])

static const struct { MPI_Op h; const char *name; int kind; } ops[] = {
    {MPI_MAX, "MPI_MAX", DMPI_OP_MAX},       {MPI_MIN, "MPI_MIN", DMPI_OP_MIN},
    {MPI_SUM, "MPI_SUM", DMPI_OP_SUM},       {MPI_PROD, "MPI_PROD", DMPI_OP_PROD},
    {MPI_LAND, "MPI_LAND", DMPI_OP_LAND},    {MPI_BAND, "MPI_BAND", DMPI_OP_BAND},
    {MPI_LOR, "MPI_LOR", DMPI_OP_LOR},       {MPI_BOR, "MPI_BOR", DMPI_OP_BOR},
    {MPI_LXOR, "MPI_LXOR", DMPI_OP_LXOR},    {MPI_BXOR, "MPI_BXOR", DMPI_OP_BXOR},
    {MPI_MINLOC, "MPI_MINLOC", DMPI_OP_MINLOC}, {MPI_MAXLOC, "MPI_MAXLOC", DMPI_OP_MAXLOC},
    {MPI_REPLACE, "MPI_REPLACE", DMPI_OP_REPLACE}, {MPI_NO_OP, "MPI_NO_OP", DMPI_OP_NO_OP},
};
#define NOPS (sizeof ops / sizeof ops[0])

/* MPI-4 section 6.9.2 (and 6.9.4 for MINLOC/MAXLOC, 12.3.4 for REPLACE/NO_OP). */
static bool allowed(int kind, int g)
{
    switch (kind) {
    case DMPI_OP_MAX: case DMPI_OP_MIN:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_FLOAT;
    case DMPI_OP_SUM: case DMPI_OP_PROD:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_FLOAT || g == G_COMPLEX;
    case DMPI_OP_LAND: case DMPI_OP_LOR: case DMPI_OP_LXOR:
        return g == G_CINT || g == G_LOGICAL || g == G_MULTI;   /* multi-language: an extension */
    case DMPI_OP_BAND: case DMPI_OP_BOR: case DMPI_OP_BXOR:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_BYTE;
    case DMPI_OP_MINLOC: case DMPI_OP_MAXLOC:
        return g == G_PAIR;
    default:
        return true;
    }
}

/* The bytes of one element that hold data, as (offset, length) ranges: an
 * x87 long double holds 10 of its 16 bytes, pairs have padding. */
static int data_ranges(const tt_t *t, size_t r[2][2])
{
    switch (t->rep) {
    case R_LDBL: r[0][0] = 0, r[0][1] = 10; return 1;
    case R_CLDBL: r[0][0] = 0, r[0][1] = 10, r[1][0] = 16, r[1][1] = 10; return 2;
    case R_P_DI: case R_P_LI: r[0][0] = 0, r[0][1] = 8, r[1][0] = 8, r[1][1] = 4; return 2;
    case R_P_SI: r[0][0] = 0, r[0][1] = 2, r[1][0] = 4, r[1][1] = 4; return 2;
    case R_P_LDI: r[0][0] = 0, r[0][1] = 10, r[1][0] = 16, r[1][1] = 4; return 2;
    default: r[0][0] = 0, r[0][1] = t->ext; return 1;
    }
}

static bool same_data(const tt_t *t, const unsigned char *x, const unsigned char *y)
{
    size_t r[2][2];
    int n = data_ranges(t, r);
    for (int i = 0; i < n; i++)
        if (memcmp(x + r[i][0], y + r[i][0], r[i][1]))
            return false;
    return true;
}

static void copy_data(const tt_t *t, const unsigned char *from, unsigned char *to)
{
    size_t r[2][2];
    int n = data_ranges(t, r);
    for (int i = 0; i < n; i++)
        memcpy(to + r[i][0], from + r[i][0], r[i][1]);
}

/* ---- values ---------------------------------------------------------- */

static void fill_elem(const tt_t *t, unsigned char *p, uint64_t *s)
{
    uint64_t x = unit_rand(s);
    int small = (int)(x % 17) - 8, small2 = (int)((x >> 8) % 17) - 8;
    int tie = (int)(x % 4) - 1, idx = (int)((x >> 16) % 8);
#define PUT(T, v) do { T v_ = (T)(v); memcpy(p, &v_, sizeof v_); } while (0)
#define PUT2(T, v, off, w) do { T v_ = (T)(v); memcpy(p, &v_, sizeof v_); memcpy(p + (off), &(w), sizeof(w)); } while (0)
    switch (t->rep) {
    case R_SINT: case R_UINT:
        if (t->group == G_LOGICAL)
            x = (x >> 32) % 3 != 0;           /* 0 or 1: the only values a bool may hold */
        else if ((x >> 40) % 4 == 0)
            x = 0;                            /* zeros for the logical ops */
        memcpy(p, &x, t->ext);
        break;
    case R_FLT: PUT(float, small); break;
    case R_DBL: PUT(double, small); break;
    case R_LDBL: memset(p, 0, 16); PUT(long double, small); break;
    case R_F128: PUT(__float128, small); break;
    case R_CFLT: PUT(float complex, small + small2 * I); break;
    case R_CDBL: PUT(double complex, small + small2 * I); break;
    case R_CLDBL: memset(p, 0, 32); PUT(long double complex, small + small2 * I); break;
    case R_CF128: { __float128 v[2] = {small, small2}; memcpy(p, v, sizeof v); break; }
    case R_P_FI: PUT2(float, tie, 4, idx); break;
    case R_P_DI: PUT2(double, tie, 8, idx); break;
    case R_P_LI: PUT2(long, tie, 8, idx); break;
    case R_P_SI: PUT2(short, tie, 4, idx); break;
    case R_P_LDI: memset(p, 0, 32); PUT2(long double, tie, 16, idx); break;
    case R_P_II: PUT2(int, tie, 4, idx); break;
    case R_P_FF: { float f = (float)idx; PUT2(float, tie, 4, f); break; }
    case R_P_DD: { double f = (double)idx; PUT2(double, tie, 8, f); break; }
    }
#undef PUT
#undef PUT2
}

/* ---- the reference: one element, b = a op b, written plainly ---------- */

static void ref_int(int op, bool sgn, size_t size, const unsigned char *a, unsigned char *b)
{
    uint64_t x = 0, y = 0, r = 0;
    memcpy(&x, a, size);
    memcpy(&y, b, size);
    int sh = 64 - 8 * (int)size;
    int64_t sx = (int64_t)(x << sh) >> sh, sy = (int64_t)(y << sh) >> sh;
    switch (op) {
    case DMPI_OP_MAX: r = sgn ? (sx > sy ? x : y) : (x > y ? x : y); break;
    case DMPI_OP_MIN: r = sgn ? (sx < sy ? x : y) : (x < y ? x : y); break;
    case DMPI_OP_SUM: r = x + y; break;
    case DMPI_OP_PROD: r = x * y; break;
    case DMPI_OP_LAND: r = x && y; break;
    case DMPI_OP_LOR: r = x || y; break;
    case DMPI_OP_LXOR: r = !x != !y; break;
    case DMPI_OP_BAND: r = x & y; break;
    case DMPI_OP_BOR: r = x | y; break;
    case DMPI_OP_BXOR: r = x ^ y; break;
    }
    memcpy(b, &r, size);
}

#define REF_REAL(T)                                                           \
    do {                                                                      \
        T x, y, r = 0;                                                        \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        if (op == DMPI_OP_MAX) r = x < y ? y : x;                             \
        if (op == DMPI_OP_MIN) r = y < x ? y : x;                             \
        if (op == DMPI_OP_SUM) r = x + y;                                     \
        if (op == DMPI_OP_PROD) r = x * y;                                    \
        memcpy(b, &r, sizeof r);                                              \
    } while (0)

#define REF_COMPLEX(T)                                                        \
    do {                                                                      \
        T x, y, r = 0;                                                        \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        r = op == DMPI_OP_SUM ? x + y : x * y;                                \
        memcpy(b, &r, sizeof r);                                              \
    } while (0)

/* MINLOC: the smaller value wins with its index; equal values keep the
 * smaller index. MAXLOC the same with the larger value. */
#define REF_LOC(VT, IT, ioff)                                                 \
    do {                                                                      \
        VT av, bv;                                                            \
        IT ai, bi;                                                            \
        memcpy(&av, a, sizeof av);                                            \
        memcpy(&bv, b, sizeof bv);                                            \
        memcpy(&ai, a + (ioff), sizeof ai);                                   \
        memcpy(&bi, b + (ioff), sizeof bi);                                   \
        if (av == bv) {                                                       \
            if (ai < bi)                                                      \
                memcpy(b + (ioff), &ai, sizeof ai);                           \
        } else if (op == DMPI_OP_MINLOC ? av < bv : av > bv) {                \
            memcpy(b, &av, sizeof av);                                        \
            memcpy(b + (ioff), &ai, sizeof ai);                               \
        }                                                                     \
    } while (0)

static void ref_elem(int op, const tt_t *t, const unsigned char *a, unsigned char *b)
{
    if (op == DMPI_OP_NO_OP)
        return;
    if (op == DMPI_OP_REPLACE) {
        copy_data(t, a, b);
        return;
    }
    switch (t->rep) {
    case R_SINT: ref_int(op, true, t->ext, a, b); break;
    case R_UINT: ref_int(op, false, t->ext, a, b); break;
    case R_FLT: REF_REAL(float); break;
    case R_DBL: REF_REAL(double); break;
    case R_LDBL: REF_REAL(long double); break;
    case R_F128: REF_REAL(__float128); break;
    case R_CFLT: REF_COMPLEX(float complex); break;
    case R_CDBL: REF_COMPLEX(double complex); break;
    case R_CLDBL: REF_COMPLEX(long double complex); break;
    case R_CF128: {
        __float128 x[2], y[2], r[2];
        memcpy(x, a, sizeof x);
        memcpy(y, b, sizeof y);
        if (op == DMPI_OP_SUM) {
            r[0] = x[0] + y[0], r[1] = x[1] + y[1];
        } else {
            r[0] = x[0] * y[0] - x[1] * y[1], r[1] = x[0] * y[1] + x[1] * y[0];
        }
        memcpy(b, r, sizeof r);
        break;
    }
    case R_P_FI: REF_LOC(float, int, 4); break;
    case R_P_DI: REF_LOC(double, int, 8); break;
    case R_P_LI: REF_LOC(long, int, 8); break;
    case R_P_SI: REF_LOC(short, int, 4); break;
    case R_P_LDI: REF_LOC(long double, int, 16); break;
    case R_P_II: REF_LOC(int, int, 4); break;
    case R_P_FF: REF_LOC(float, float, 4); break;
    case R_P_DD: REF_LOC(double, double, 8); break;
    }
}

/* ---- every op on every predefined type ---------------------------------- */

static bool names_both(int code, const char *op, const char *type)
{
    const char *s = dmpi_err_string_of(code);
    return s && strstr(s, op) && strstr(s, type);
}

static void test_predefined(void)
{
    static const size_t counts[] = {0, 1, 3, 17, 1000};
    uint64_t seed = 0x1234567;
    int wrong_valid = 0, wrong_data = 0, wrong_err = 0, applied = 0, refused = 0;
    for (size_t ti = 0; ti < NTYPES; ti++) {
        const tt_t *t = &types[ti];
        dmpi_dtype_t *dt = dmpi_dtype_get(t->h);
        CHECK(dt && dt->size <= t->ext && (MPI_Aint)t->ext == dt->extent, "%s: library type matches", t->name);
        if (!dt || (MPI_Aint)t->ext != dt->extent)
            continue;
        for (size_t oi = 0; oi < NOPS; oi++) {
            dmpi_op_t *op = dmpi_op_get(ops[oi].h);
            bool ok = allowed(ops[oi].kind, t->group);
            if (dmpi_op_valid_for(op, dt) != ok)
                NOTE(wrong_valid, "%s on %s: valid_for says %d", ops[oi].name, t->name, !ok);
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
                for (size_t shift = 0; shift < 2; shift++) {
                    size_t n = counts[ci], bytes = (n + shift) * t->ext;
                    unsigned char *in = malloc(bytes + 1), *io = malloc(bytes + 1), *want = malloc(bytes + 1);
                    for (size_t e = 0; e < n + shift; e++) {
                        fill_elem(t, in + e * t->ext, &seed);
                        fill_elem(t, io + e * t->ext, &seed);
                    }
                    memcpy(want, io, bytes);
                    for (size_t e = shift; e < n + shift; e++)
                        if (ok)
                            ref_elem(ops[oi].kind, t, in + e * t->ext, want + e * t->ext);
                    int err = dmpi_op_apply(op, in + shift * t->ext, io + shift * t->ext, n, dt);
                    if (ok) {
                        applied++;
                        if (err != MPI_SUCCESS)
                            NOTE(wrong_err, "%s on %s count %zu: error %d", ops[oi].name, t->name, n, err);
                    } else {
                        refused++;
                        if (dmpi_err_class_of(err) != MPI_ERR_OP || !names_both(err, ops[oi].name, t->name))
                            NOTE(wrong_err, "%s on %s: got %d (%s), want MPI_ERR_OP naming both", ops[oi].name,
                                 t->name, err, err ? dmpi_err_string_of(err) : "success");
                    }
                    for (size_t e = 0; e < n + shift; e++)
                        if (!same_data(t, io + e * t->ext, want + e * t->ext)) {
                            NOTE(wrong_data, "%s on %s count %zu shift %zu: element %zu differs", ops[oi].name,
                                 t->name, n, shift, e);
                            break;
                        }
                    free(in);
                    free(io);
                    free(want);
                }
        }
    }
    CHECK(wrong_valid == 0, "dmpi_op_valid_for follows the standard's table (%d wrong)", wrong_valid);
    CHECK(wrong_err == 0, "allowed pairs succeed, others give MPI_ERR_OP naming op and type (%d wrong)", wrong_err);
    CHECK(wrong_data == 0, "results equal the reference loop (%d wrong)", wrong_data);
    CHECK(applied > 2000 && refused > 2000, "both kinds exercised: %d applied, %d refused", applied, refused);
}

/* A few values worked by hand, so that the reference itself is checked. */
static void test_by_hand(void)
{
    int a[3] = {5, -7, 0}, b[3] = {3, -2, 0};
    dmpi_op_apply(dmpi_op_get(MPI_MAX), a, b, 3, dmpi_dtype_get(MPI_INT));
    CHECK(b[0] == 5 && b[1] == -2 && b[2] == 0, "MAX int: %d %d %d", b[0], b[1], b[2]);
    unsigned char u[2] = {200, 255}, v[2] = {100, 2};
    dmpi_op_apply(dmpi_op_get(MPI_SUM), u, v, 2, dmpi_dtype_get(MPI_UNSIGNED_CHAR));
    CHECK(v[0] == 44 && v[1] == 1, "SUM unsigned char wraps: %d %d", v[0], v[1]);
    signed char sc[1] = {-128}, sd[1] = {127};
    dmpi_op_apply(dmpi_op_get(MPI_MIN), sc, sd, 1, dmpi_dtype_get(MPI_SIGNED_CHAR));
    CHECK(sd[0] == -128, "MIN signed char is signed: %d", sd[0]);
    struct { float v; int i; } p[3] = {{1, 4}, {2, 9}, {3, 1}}, q[3] = {{1, 2}, {2, 3}, {2, 7}};
    dmpi_op_apply(dmpi_op_get(MPI_MINLOC), p, q, 3, dmpi_dtype_get(MPI_FLOAT_INT));
    CHECK(q[0].v == 1 && q[0].i == 2 && q[1].v == 2 && q[1].i == 3 && q[2].v == 2 && q[2].i == 7,
          "MINLOC: ties keep the smaller index");
    struct { long double v; int i; } lp[2] = {{1.5L, 4}, {7.25L, 8}}, lq[2] = {{1.5L, 6}, {2, 3}};
    dmpi_op_apply(dmpi_op_get(MPI_MAXLOC), lp, lq, 2, dmpi_dtype_get(MPI_LONG_DOUBLE_INT));
    CHECK(lq[0].v == 1.5L && lq[0].i == 4 && lq[1].v == 7.25L && lq[1].i == 8, "MAXLOC long double: tie, win");
    double complex c[1] = {1 + 2 * I}, d[1] = {3 - 1 * I};
    dmpi_op_apply(dmpi_op_get(MPI_PROD), c, d, 1, dmpi_dtype_get(MPI_C_DOUBLE_COMPLEX));
    CHECK(creal(d[0]) == 5 && cimag(d[0]) == 5, "PROD complex: %g%+gi", creal(d[0]), cimag(d[0]));
    bool x[3] = {true, true, false}, y[3] = {true, false, false};
    dmpi_op_apply(dmpi_op_get(MPI_LXOR), x, y, 3, dmpi_dtype_get(MPI_C_BOOL));
    CHECK(!y[0] && y[1] && !y[2], "LXOR bool");
    long double la[1] = {1e300L}, lb[1] = {1e300L};
    dmpi_op_apply(dmpi_op_get(MPI_PROD), la, lb, 1, dmpi_dtype_get(MPI_LONG_DOUBLE));
    CHECK(lb[0] == 1e600L, "PROD long double keeps the x87 range");
    int land[2] = {2, 0}, land2[2] = {-5, 3};
    dmpi_op_apply(dmpi_op_get(MPI_LAND), land, land2, 2, dmpi_dtype_get(MPI_INT));
    CHECK(land2[0] == 1 && land2[1] == 0, "LAND int gives 1 and 0: %d %d", land2[0], land2[1]);
}

static void test_handles(void)
{
    for (size_t i = 0; i < NOPS; i++) {
        dmpi_op_t *op = dmpi_op_get(ops[i].h);
        CHECK(op && op->handle == ops[i].h && op->kind == ops[i].kind && !strcmp(op->name, ops[i].name),
              "%s found", ops[i].name);
        bool comm = ops[i].kind != DMPI_OP_REPLACE && ops[i].kind != DMPI_OP_NO_OP;
        CHECK(op && dmpi_op_commutative(op) == comm, "%s commutative = %d", ops[i].name, comm);
    }
    /* the check of reductions: REPLACE and NO_OP are for accumulate only */
    dmpi_dtype_t *i32 = dmpi_dtype_get(MPI_INT), *cb = dmpi_dtype_get(MPI_C_BOOL);
    CHECK(dmpi_op_check_reduce("MPI_X", dmpi_op_get(MPI_SUM), i32) == MPI_SUCCESS, "check_reduce: SUM on int");
    int err = dmpi_op_check_reduce("MPI_X", dmpi_op_get(MPI_REPLACE), i32);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_OP && names_both(err, "MPI_X", "MPI_REPLACE"),
          "check_reduce: MPI_REPLACE refused: %s", dmpi_err_string_of(err));
    err = dmpi_op_check_reduce("MPI_X", dmpi_op_get(MPI_NO_OP), i32);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_OP, "check_reduce: MPI_NO_OP refused");
    err = dmpi_op_check_reduce("MPI_Allreduce", dmpi_op_get(MPI_PROD), cb);
    const char *msg = dmpi_err_string_of(err);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_OP && msg && strstr(msg, "MPI_Allreduce") && strstr(msg, "MPI_PROD") &&
              strstr(msg, "MPI_C_BOOL"),
          "check_reduce: PROD on bool names call, op and type: %s", msg ? msg : "");
    CHECK(dmpi_op_valid_for(dmpi_op_get(MPI_REPLACE), cb) && dmpi_op_valid_for(dmpi_op_get(MPI_NO_OP), cb),
          "apply takes REPLACE and NO_OP on any type");

    static const MPI_Op bad[] = {MPI_OP_NULL, 0x58000000, 0x5800000f, 0x58000101, 0x98000000, 0x98000005,
                                 (MPI_Op)MPI_COMM_WORLD, (MPI_Op)MPI_INT, 0, -1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(dmpi_op_get(bad[i]) == NULL, "0x%x is not an op", (unsigned)bad[i]);
}

/* ---- derived types ------------------------------------------------------- */

static dmpi_dtype_t *make(int combiner, int nints, const int *ints, int naints, const MPI_Aint *aints, int ntypes,
                          const MPI_Datatype *tys)
{
    dmpi_dtype_t *dt = NULL;
    int err = dmpi_dtype_create(combiner, nints, ints, naints, aints, ntypes, tys, &dt);
    CHECK(err == MPI_SUCCESS && dt, "created a type of combiner %d", combiner);
    return err == MPI_SUCCESS ? dt : NULL;
}

static const tt_t *tt_of(MPI_Datatype h)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (types[i].h == h)
            return &types[i];
    return NULL;
}

/* Applies op to count elements of dt whose data are the basic elements at
 * offs[0..nper) within each element; everything else must stay as it was. */
static void check_derived(const char *what, dmpi_dtype_t *dt, size_t count, MPI_Datatype basic, const size_t *offs,
                          size_t nper, MPI_Op oph, int want_err)
{
    const tt_t *t = tt_of(basic);
    size_t bytes = (size_t)dt->lb + count * (size_t)dt->extent + 64;
    unsigned char *in = malloc(bytes), *io = malloc(bytes), *want = malloc(bytes);
    uint64_t seed = 99;
    for (size_t i = 0; i < bytes; i++)
        in[i] = (unsigned char)unit_rand(&seed), io[i] = (unsigned char)unit_rand(&seed);
    for (size_t e = 0; e < count; e++)
        for (size_t k = 0; k < nper; k++) {
            size_t off = e * (size_t)dt->extent + offs[k];
            fill_elem(t, in + off, &seed);
            fill_elem(t, io + off, &seed);
        }
    memcpy(want, io, bytes);
    dmpi_op_t *op = dmpi_op_get(oph);
    if (!want_err)
        for (size_t e = 0; e < count; e++)
            for (size_t k = 0; k < nper; k++) {
                size_t off = e * (size_t)dt->extent + offs[k];
                ref_elem(op->kind, t, in + off, want + off);
            }
    int err = dmpi_op_apply(op, in, io, count, dt);
    CHECK(dmpi_err_class_of(err) == want_err, "%s: %s gives class %d, want %d (%s)", what, op->name,
          dmpi_err_class_of(err), want_err, err ? dmpi_err_string_of(err) : "");
    CHECK(memcmp(io, want, bytes) == 0, "%s: %s result, gaps untouched", what, op->name);
    free(in);
    free(io);
    free(want);
}

static void test_derived(void)
{
    /* contiguous: 4 doubles, the plain path */
    int four = 4;
    MPI_Datatype d = MPI_DOUBLE;
    dmpi_dtype_t *c4 = make(MPI_COMBINER_CONTIGUOUS, 1, &four, 0, NULL, 1, &d);
    size_t o4[4] = {0, 8, 16, 24};
    if (c4) {
        CHECK(c4->contig && c4->basic == MPI_DOUBLE, "contiguous(4, double) is contiguous, of doubles");
        check_derived("contiguous(4, MPI_DOUBLE)", c4, 50, MPI_DOUBLE, o4, 4, MPI_MAX, 0);
        check_derived("contiguous(4, MPI_DOUBLE)", c4, 50, MPI_DOUBLE, o4, 4, MPI_BAND, MPI_ERR_OP);
        dmpi_dtype_release(c4);
    }
    /* a struct with one block at displacement 16: contiguous data at true_lb */
    int sints[2] = {1, 3};
    MPI_Aint sdisp = 16;
    dmpi_dtype_t *st = make(MPI_COMBINER_STRUCT, 2, sints, 1, &sdisp, 1, &d);
    size_t o3[3] = {16, 24, 32};
    if (st) {
        check_derived("struct{16: 3 doubles}", st, 7, MPI_DOUBLE, o3, 3, MPI_SUM, 0);
        check_derived("struct{16: 3 doubles}", st, 7, MPI_DOUBLE, o3, 3, MPI_REPLACE, 0);
        dmpi_dtype_release(st);
    }
    /* vector(3, 2, 5) of int: gaps between the blocks */
    int vints[3] = {3, 2, 5};
    MPI_Datatype i32 = MPI_INT;
    dmpi_dtype_t *v = make(MPI_COMBINER_VECTOR, 3, vints, 0, NULL, 1, &i32);
    size_t ov[6] = {0, 4, 20, 24, 40, 44};
    if (v) {
        CHECK(!v->contig && v->basic == MPI_INT, "vector of int: noncontiguous, of ints");
        static const MPI_Op vops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_LXOR, MPI_BOR, MPI_REPLACE, MPI_NO_OP};
        for (size_t i = 0; i < sizeof vops / sizeof vops[0]; i++)
            for (size_t n = 0; n < 400; n = n * 3 + 1)
                check_derived("vector(3, 2, 5, MPI_INT)", v, n, MPI_INT, ov, 6, vops[i], 0);
        check_derived("vector(3, 2, 5, MPI_INT)", v, 5, MPI_INT, ov, 6, MPI_MAXLOC, MPI_ERR_OP);
        dmpi_dtype_release(v);
    }
    /* a long vector of shorts: 700 elements, more than one packing step */
    int lints[3] = {700, 1, 2};
    MPI_Datatype s16 = MPI_SHORT;
    dmpi_dtype_t *lv = make(MPI_COMBINER_VECTOR, 3, lints, 0, NULL, 1, &s16);
    if (lv) {
        size_t *ol = malloc(700 * sizeof *ol);
        for (size_t i = 0; i < 700; i++)
            ol[i] = 4 * i;
        check_derived("vector(700, 1, 2, MPI_SHORT)", lv, 3, MPI_SHORT, ol, 700, MPI_BXOR, 0);
        check_derived("vector(700, 1, 2, MPI_SHORT)", lv, 3, MPI_SHORT, ol, 700, MPI_MAX, 0);
        free(ol);
        dmpi_dtype_release(lv);
    }
    /* vector(2, 1, 2) of the padded DOUBLE_INT and LONG_DOUBLE_INT pairs,
     * and of FLOAT_INT (no padding): MINLOC/MAXLOC through the packed path,
     * 300 elements = 600 pairs, more than one step */
    static const MPI_Datatype pairs[] = {MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT, MPI_SHORT_INT, MPI_FLOAT_INT};
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        int pints[3] = {2, 1, 2};
        dmpi_dtype_t *pv = make(MPI_COMBINER_VECTOR, 3, pints, 0, NULL, 1, &pairs[p]);
        const tt_t *t = tt_of(pairs[p]);
        size_t op2[2] = {0, 2 * t->ext};
        char what[64];
        snprintf(what, sizeof what, "vector(2, 1, 2, %s)", t->name);
        if (pv) {
            CHECK(pv->basic == pairs[p], "%s is made of %s", what, t->name);
            check_derived(what, pv, 300, pairs[p], op2, 2, MPI_MINLOC, 0);
            check_derived(what, pv, 300, pairs[p], op2, 2, MPI_MAXLOC, 0);
            check_derived(what, pv, 300, pairs[p], op2, 2, MPI_REPLACE, 0);
            dmpi_dtype_release(pv);
        }
    }
    /* vector of C bool: SUM is refused, naming the basic type */
    int bints[3] = {2, 1, 3};
    MPI_Datatype cb = MPI_C_BOOL;
    dmpi_dtype_t *bv = make(MPI_COMBINER_VECTOR, 3, bints, 0, NULL, 1, &cb);
    if (bv) {
        int err = dmpi_op_apply(dmpi_op_get(MPI_SUM), "ab", (char[]){0, 0, 0, 0}, 1, bv);
        CHECK(dmpi_err_class_of(err) == MPI_ERR_OP && names_both(err, "MPI_SUM", "MPI_C_BOOL"),
              "SUM on a vector of bool: %s", dmpi_err_string_of(err));
        CHECK(!dmpi_op_valid_for(dmpi_op_get(MPI_SUM), bv) && dmpi_op_valid_for(dmpi_op_get(MPI_LOR), bv),
              "valid_for on a vector of bool");
        dmpi_dtype_release(bv);
    }
    /* a mixed struct {int at 0, double at 8}: only REPLACE, NO_OP, user ops */
    int mints[3] = {2, 1, 1};
    MPI_Aint mdisp[2] = {0, 8};
    MPI_Datatype mtys[2] = {MPI_INT, MPI_DOUBLE};
    dmpi_dtype_t *mx = make(MPI_COMBINER_STRUCT, 3, mints, 2, mdisp, 2, mtys);
    if (mx) {
        CHECK(mx->basic == MPI_DATATYPE_NULL, "struct{int, double} is mixed");
        static const MPI_Op mops[] = {MPI_SUM, MPI_MAX, MPI_BAND, MPI_LOR, MPI_MINLOC};
        for (size_t i = 0; i < sizeof mops / sizeof mops[0]; i++) {
            char a[32] = {0}, b[32] = {0};
            int err = dmpi_op_apply(dmpi_op_get(mops[i]), a, b, 2, mx);
            const char *s = dmpi_err_string_of(err);
            CHECK(dmpi_err_class_of(err) == MPI_ERR_OP && s && strstr(s, "mixes"), "mixed struct refuses op %d: %s",
                  (int)i, s ? s : "");
        }
        /* REPLACE copies the 4 + 8 data bytes of each element, not the gap */
        unsigned char in[32], io[32];
        memset(in, 0xaa, sizeof in);
        memset(io, 0x55, sizeof io);
        CHECK(dmpi_op_apply(dmpi_op_get(MPI_REPLACE), in, io, 2, mx) == MPI_SUCCESS, "REPLACE on a mixed struct");
        bool ok = true;
        for (int i = 0; i < 32; i++) {
            int r = i % 16;
            bool data = r < 4 || r >= 8;
            ok &= io[i] == (data ? 0xaa : 0x55);
        }
        CHECK(ok, "REPLACE on a mixed struct copies the data and leaves the gaps");
        memset(io, 0x55, sizeof io);
        CHECK(dmpi_op_apply(dmpi_op_get(MPI_NO_OP), in, io, 2, mx) == MPI_SUCCESS && io[0] == 0x55 && io[8] == 0x55,
              "NO_OP on a mixed struct");
        dmpi_dtype_release(mx);
    }
}

/* ---- user ops -------------------------------------------------------------- */

static int calls;
static MPI_Datatype seen_type;
static long seen_len;

/* Not commutative: inout = 10 * in + inout, so the result shows the order. */
static void shift_add(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    calls++;
    seen_type = *dt;
    seen_len = *len;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

static void shift_add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    calls++;
    seen_type = *dt;
    seen_len = (long)*len;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

static void test_user(void)
{
    MPI_Op h = MPI_OP_NULL, hc = MPI_OP_NULL, h2 = MPI_OP_NULL;
    CHECK(dmpi_op_create(shift_add, NULL, false, &h) == MPI_SUCCESS, "create a user op");
    CHECK(((unsigned)h & 0xfc000000u) == 0x98000000u, "user op handle 0x%x is direct", (unsigned)h);
    dmpi_op_t *op = dmpi_op_get(h);
    CHECK(op && op->kind == DMPI_OP_USER && !dmpi_op_commutative(op), "the user op is found, not commutative");
    CHECK(dmpi_op_create(NULL, shift_add_c, true, &hc) == MPI_SUCCESS && hc != h, "create a large-count op");
    dmpi_op_t *opc = dmpi_op_get(hc);
    CHECK(opc && dmpi_op_commutative(opc), "commutative flag kept");
    if (!op || !opc)
        return;
    CHECK(dmpi_op_valid_for(op, dmpi_dtype_get(MPI_C_BOOL)), "user ops take any type");

    int a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
    calls = 0;
    CHECK(dmpi_op_apply(op, a, b, 3, dmpi_dtype_get(MPI_INT)) == MPI_SUCCESS, "apply the user op");
    CHECK(b[0] == 14 && b[1] == 25 && b[2] == 36, "in op inout, in MPI's order: %d %d %d", b[0], b[1], b[2]);
    CHECK(calls == 1 && seen_len == 3 && seen_type == MPI_INT, "one call, len 3, MPI_INT (%d, %ld, 0x%x)", calls,
          seen_len, (unsigned)seen_type);
    calls = 0;
    CHECK(dmpi_op_apply(op, a, b, 0, dmpi_dtype_get(MPI_INT)) == MPI_SUCCESS && calls == 0, "count 0: no call");
    CHECK(dmpi_op_apply(opc, a, b, 2, dmpi_dtype_get(MPI_INT)) == MPI_SUCCESS && b[0] == 24 && b[1] == 45 &&
              b[2] == 36 && seen_len == 2,
          "large-count user op");

    /* a derived type: the user function gets the user's handle and buffer */
    int two = 2;
    MPI_Datatype i32 = MPI_INT;
    dmpi_dtype_t *c2 = make(MPI_COMBINER_CONTIGUOUS, 1, &two, 0, NULL, 1, &i32);
    if (c2) {
        int x[4] = {1, 1, 1, 1}, y[4] = {2, 2, 2, 2};
        seen_type = MPI_DATATYPE_NULL;
        dmpi_op_apply(op, x, y, 2, c2);
        CHECK(seen_type == c2->handle && seen_len == 2, "derived type handle passed to the user function");
        dmpi_dtype_release(c2);
    }

    dmpi_op_free(op);
    CHECK(dmpi_op_get(h) == NULL, "a freed op is gone");
    CHECK(dmpi_op_create(shift_add, NULL, true, &h2) == MPI_SUCCESS && dmpi_op_get(h2), "create after free");
    dmpi_op_finalize();
    CHECK(dmpi_op_get(hc) == NULL && dmpi_op_get(h2) == NULL, "finalize frees every user op");
    CHECK(dmpi_op_get(MPI_SUM) != NULL, "predefined ops survive finalize");
}

int main(void)
{
    unit_watchdog(60);
    dmpi_dtype_init();
    RUN(test_handles);
    RUN(test_by_hand);
    RUN(test_predefined);
    RUN(test_derived);
    RUN(test_user);
    return unit_summary("op");
}
