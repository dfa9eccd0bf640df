/*
 * op_types: every predefined datatype against every predefined reduction op
 * (MAX MIN SUM PROD LAND BAND LOR BOR LXOR BXOR MINLOC MAXLOC), count 3,
 * through MPI_Allreduce on a communicator with MPI_ERRORS_RETURN and through
 * MPI_Reduce_local:
 *   - a cell the table below accepts returns MPI_SUCCESS and the right
 *     values: integers (C, Fortran, MPI_CHAR, AINT/OFFSET/COUNT, fixed
 *     width, byte) and bools/logicals compared byte for byte with a result
 *     computed here (negative values, bits that differ per rank, zero and
 *     non-zero mixes; sums and products wrap); floating point and complex
 *     with small exactly representable values; the pair types field by field
 *     (ties keep the smaller index);
 *   - any other cell is an error of class MPI_ERR_OP and leaves the receive
 *     buffer alone.
 * Allreduce folds the values of ranks 0 .. size-1, Reduce_local those of
 * rank and rank + 1.
 */
#include "mtest.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define COUNT 3
#define MAXSZ 32   /* the largest element: a complex of two __float128 */

enum { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, NOPS };
static const struct {
    MPI_Op op;
    const char *name;
} ops[NOPS] = {
    {MPI_MAX, "MPI_MAX"},   {MPI_MIN, "MPI_MIN"},   {MPI_SUM, "MPI_SUM"},       {MPI_PROD, "MPI_PROD"},
    {MPI_LAND, "MPI_LAND"}, {MPI_BAND, "MPI_BAND"}, {MPI_LOR, "MPI_LOR"},       {MPI_BOR, "MPI_BOR"},
    {MPI_LXOR, "MPI_LXOR"}, {MPI_BXOR, "MPI_BXOR"}, {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
};

#define B(o) (1u << (o))
#define ORDER (B(MAX) | B(MIN))
#define ARITH (B(SUM) | B(PROD))
#define LOGIC (B(LAND) | B(LOR) | B(LXOR))
#define BITS (B(BAND) | B(BOR) | B(BXOR))

/* The groups of MPI-4.1 section 6.9.2 and the ops defined on each. */
#define C_INTEGER (ORDER | ARITH | LOGIC | BITS)
#define F_INTEGER (ORDER | ARITH | BITS)
#define FLOATING (ORDER | ARITH)
#define COMPLEX ARITH
#define LOGICAL LOGIC
#define BYTE BITS
#define PAIR (B(MINLOC) | B(MAXLOC))
#define NONE 0u
/* Extensions, as in MPICH and Open MPI: MPI_CHAR reduces as a C integer
 * (signed char on x86-64), and the multi-language types AINT/OFFSET/COUNT
 * take the logical ops besides MAX, MIN, SUM, PROD and the bitwise ops. */
#define CHAR_EXT C_INTEGER
#define MULTI_LANG (ORDER | ARITH | BITS | LOGIC)

/* How the test lays out, fills and checks the elements of a type. */
enum layout {
    L_NONE,                                   /* no op defined: no values */
    L_INT, L_BOOL,                            /* size bytes; bool: 0 or 1 */
    L_F32, L_F64, L_F80, L_F128,              /* float .. __float128 */
    L_C32, L_C64, L_C80, L_C128,              /* (re, im) of those */
    L_FLOAT_INT, L_DOUBLE_INT, L_LONG_INT, L_SHORT_INT, L_LDOUBLE_INT, L_2INT, L_2FLOAT, L_2DOUBLE,
};

struct type {
    MPI_Datatype dt;
    const char *name;
    unsigned ok;      /* ops that must work */
    unsigned mpich;   /* ops where MPICH 4.0.2 differs: not run under MPICH */
    enum layout lay;
    int size;         /* L_INT, L_BOOL: bytes per element */
    int sgn;          /* L_INT: signed */
};

/*
 * Where MPICH 4.0.2 (Debian, ch4:ucx) differs from this table; dmpi keeps
 * the standard in all of these:
 *   - MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE with MPI_LAND, MPI_LOR:
 *     Allreduce accepts them and then aborts in its kernel at 2 or more
 *     processes (assertion in oplor.c / opland.c); Reduce_local says
 *     MPI_ERR_OP; with MPI_LXOR both accept;
 *   - MPI_REAL, MPI_DOUBLE_PRECISION, MPI_REAL4/8/16 with LAND, LOR, LXOR:
 *     accepted;
 *   - MPI_INTEGER, MPI_INTEGER1/2/4/8 with LAND, LOR, LXOR: accepted;
 *   - MPI_CHARACTER with all ten of MAX .. BXOR: accepted;
 *   - MPI_COMPLEX32 with SUM, PROD: refused (dmpi has __float128).
 * and where it accepts a cell but gives other values (mpich_values_differ):
 *   - MAX and MIN on the unsigned types compare as signed (0 > 0xfb in
 *     MPI_UNSIGNED_CHAR; pmodels/mpich#6083);
 *   - MPI_REAL16 is reduced as x87 long double, not as gfortran's REAL*16
 *     (IEEE quad).
 * MPI_INTEGER16 is MPI_DATATYPE_NULL here (not available); MPI_LONG_LONG
 * and MPI_C_COMPLEX are other names of MPI_LONG_LONG_INT and
 * MPI_C_FLOAT_COMPLEX; MPI_LB and MPI_UB are gone since MPI-3.0.
 */
#define SGN_CHAR (CHAR_MIN < 0)
static const struct type types[] = {
    /* C integer */
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", C_INTEGER, 0, L_INT, 1, 1},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", C_INTEGER, 0, L_INT, 1, 0},
    {MPI_SHORT, "MPI_SHORT", C_INTEGER, 0, L_INT, 2, 1},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", C_INTEGER, 0, L_INT, 2, 0},
    {MPI_INT, "MPI_INT", C_INTEGER, 0, L_INT, 4, 1},
    {MPI_UNSIGNED, "MPI_UNSIGNED", C_INTEGER, 0, L_INT, 4, 0},
    {MPI_LONG, "MPI_LONG", C_INTEGER, 0, L_INT, 8, 1},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", C_INTEGER, 0, L_INT, 8, 0},
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", C_INTEGER, 0, L_INT, 8, 1},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", C_INTEGER, 0, L_INT, 8, 0},
    {MPI_INT8_T, "MPI_INT8_T", C_INTEGER, 0, L_INT, 1, 1},
    {MPI_INT16_T, "MPI_INT16_T", C_INTEGER, 0, L_INT, 2, 1},
    {MPI_INT32_T, "MPI_INT32_T", C_INTEGER, 0, L_INT, 4, 1},
    {MPI_INT64_T, "MPI_INT64_T", C_INTEGER, 0, L_INT, 8, 1},
    {MPI_UINT8_T, "MPI_UINT8_T", C_INTEGER, 0, L_INT, 1, 0},
    {MPI_UINT16_T, "MPI_UINT16_T", C_INTEGER, 0, L_INT, 2, 0},
    {MPI_UINT32_T, "MPI_UINT32_T", C_INTEGER, 0, L_INT, 4, 0},
    {MPI_UINT64_T, "MPI_UINT64_T", C_INTEGER, 0, L_INT, 8, 0},
    /* text: MPI_CHAR as an integer is an extension; wide and Fortran
     * characters take no op */
    {MPI_CHAR, "MPI_CHAR", CHAR_EXT, 0, L_INT, 1, SGN_CHAR},
    {MPI_WCHAR, "MPI_WCHAR", NONE, 0, L_NONE, 0, 0},
    {MPI_CHARACTER, "MPI_CHARACTER", NONE, ORDER | ARITH | LOGIC | BITS, L_NONE, 0, 0},
    /* multi-language */
    {MPI_AINT, "MPI_AINT", MULTI_LANG, 0, L_INT, 8, 1},
    {MPI_OFFSET, "MPI_OFFSET", MULTI_LANG, 0, L_INT, 8, 1},
    {MPI_COUNT, "MPI_COUNT", MULTI_LANG, 0, L_INT, 8, 1},
    /* Fortran integer */
    {MPI_INTEGER, "MPI_INTEGER", F_INTEGER, LOGIC, L_INT, 4, 1},
    {MPI_INTEGER1, "MPI_INTEGER1", F_INTEGER, LOGIC, L_INT, 1, 1},
    {MPI_INTEGER2, "MPI_INTEGER2", F_INTEGER, LOGIC, L_INT, 2, 1},
    {MPI_INTEGER4, "MPI_INTEGER4", F_INTEGER, LOGIC, L_INT, 4, 1},
    {MPI_INTEGER8, "MPI_INTEGER8", F_INTEGER, LOGIC, L_INT, 8, 1},
    /* floating point */
    {MPI_FLOAT, "MPI_FLOAT", FLOATING, LOGIC, L_F32, 0, 0},
    {MPI_DOUBLE, "MPI_DOUBLE", FLOATING, LOGIC, L_F64, 0, 0},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", FLOATING, LOGIC, L_F80, 0, 0},
    {MPI_REAL, "MPI_REAL", FLOATING, LOGIC, L_F32, 0, 0},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", FLOATING, LOGIC, L_F64, 0, 0},
    {MPI_REAL4, "MPI_REAL4", FLOATING, LOGIC, L_F32, 0, 0},
    {MPI_REAL8, "MPI_REAL8", FLOATING, LOGIC, L_F64, 0, 0},
    {MPI_REAL16, "MPI_REAL16", FLOATING, LOGIC, L_F128, 0, 0},
    /* logical */
    {MPI_C_BOOL, "MPI_C_BOOL", LOGICAL, 0, L_BOOL, 1, 0},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", LOGICAL, 0, L_BOOL, 1, 0},
    {MPI_LOGICAL, "MPI_LOGICAL", LOGICAL, 0, L_BOOL, 4, 0},
    /* complex */
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", COMPLEX, 0, L_C32, 0, 0},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", COMPLEX, 0, L_C64, 0, 0},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", COMPLEX, 0, L_C80, 0, 0},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", COMPLEX, 0, L_C32, 0, 0},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", COMPLEX, 0, L_C64, 0, 0},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", COMPLEX, 0, L_C80, 0, 0},
    {MPI_COMPLEX, "MPI_COMPLEX", COMPLEX, 0, L_C32, 0, 0},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", COMPLEX, 0, L_C64, 0, 0},
    {MPI_COMPLEX8, "MPI_COMPLEX8", COMPLEX, 0, L_C32, 0, 0},
    {MPI_COMPLEX16, "MPI_COMPLEX16", COMPLEX, 0, L_C64, 0, 0},
    {MPI_COMPLEX32, "MPI_COMPLEX32", COMPLEX, ARITH, L_C128, 0, 0},
    /* byte */
    {MPI_BYTE, "MPI_BYTE", BYTE, 0, L_INT, 1, 0},
    {MPI_PACKED, "MPI_PACKED", NONE, 0, L_NONE, 0, 0},
    /* pairs for MINLOC and MAXLOC */
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", PAIR, 0, L_FLOAT_INT, 0, 0},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", PAIR, 0, L_DOUBLE_INT, 0, 0},
    {MPI_LONG_INT, "MPI_LONG_INT", PAIR, 0, L_LONG_INT, 0, 0},
    {MPI_SHORT_INT, "MPI_SHORT_INT", PAIR, 0, L_SHORT_INT, 0, 0},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", PAIR, 0, L_LDOUBLE_INT, 0, 0},
    {MPI_2INT, "MPI_2INT", PAIR, 0, L_2INT, 0, 0},
    {MPI_2INTEGER, "MPI_2INTEGER", PAIR, 0, L_2INT, 0, 0},
    {MPI_2REAL, "MPI_2REAL", PAIR, 0, L_2FLOAT, 0, 0},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", PAIR, 0, L_2DOUBLE, 0, 0},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static int rank, size;
static MPI_Comm comm;

/* ---- integers and bools ------------------------------------------------ */

/* Element k of rank r: k = 0 is zero on odd ranks and negative on even
 * ones; k = 1 is never zero, with bits 0 and 7 set on every rank and one of
 * bits 1-6 and higher bits that differ per rank; k = 2 is zero on ranks 0
 * and 1 only (so LOR gives 0 at 1 or 2 processes). */
static uint64_t ival(int r, int k)
{
    switch (k) {
    case 0: return r % 2 ? 0 : (uint64_t)-(int64_t)(37 * r + 5);
    case 1: return 0x81u | (2u << (r % 6)) | (uint64_t)(r + 1) << 9 | (uint64_t)(r % 3) << 33;
    default: return r < 2 ? 0 : r % 2 ? (uint64_t)-(int64_t)(3 * r) : (uint64_t)(5 * r + 1);
    }
}

static uint64_t trunc_to(uint64_t v, int bytes)
{
    return bytes == 8 ? v : v & ((UINT64_C(1) << 8 * bytes) - 1);
}

static int64_t sext(uint64_t v, int bytes)
{
    int sh = 64 - 8 * bytes;
    return (int64_t)(v << sh) >> sh;   /* arithmetic shift: GCC and Clang */
}

/* One step of op on two elements of t, in 64-bit wrapping arithmetic. */
static uint64_t int_op(const struct type *t, int op, uint64_t a, uint64_t b)
{
    int n = t->size;
    a = trunc_to(a, n), b = trunc_to(b, n);
    int less = t->sgn ? sext(a, n) < sext(b, n) : a < b;
    switch (op) {
    case MAX: return less ? b : a;
    case MIN: return less ? a : b;
    case SUM: return trunc_to(a + b, n);
    case PROD: return trunc_to(a * b, n);
    case LAND: return a && b;
    case LOR: return a || b;
    case LXOR: return !a != !b;
    case BAND: return a & b;
    case BOR: return a | b;
    default: return a ^ b;
    }
}

static void int_store(void *buf, int k, int bytes, uint64_t v)
{
    memcpy((char *)buf + (size_t)k * bytes, &v, bytes);   /* x86-64: little-endian */
}

/* ---- floating point and complex: small values, every result exact ----- */

/* k = 0: -(r+1)/2; k = 1: 2 on odd ranks, -1.5 on even ones; k = 2:
 * (r+1)/4. Products over 7 ranks need at most 13 bits of mantissa. */
static double fval(int r, int k)
{
    return k == 0 ? -(r + 1) * 0.5 : k == 1 ? (r % 2 ? 2.0 : -1.5) : (r + 1) * 0.25;
}

/* Gaussian integers with |re| <= 3, |im| <= 2, im != 0: products over 7
 * ranks stay below 2^13. */
static double cre(int r, int k) { return r % 3 - 1 + k; }
static double cim(int r, int k) { return (r % 2 ? 1 : -1) * (1 + k % 2); }

#define REAL_FNS(N, T)                                                       \
    static void fill_##N(void *buf, int r)                                   \
    {                                                                        \
        T *p = buf;                                                          \
        for (int k = 0; k < COUNT; k++)                                      \
            p[k] = (T)fval(r, k);                                            \
    }                                                                        \
    static void want_##N(void *buf, int op, const int *rk, int nr)           \
    {                                                                        \
        T *p = buf;                                                          \
        for (int k = 0; k < COUNT; k++) {                                    \
            T acc = (T)fval(rk[0], k);                                       \
            for (int j = 1; j < nr; j++) {                                   \
                T x = (T)fval(rk[j], k);                                     \
                acc = op == MAX ? (x > acc ? x : acc) : op == MIN ? (x < acc ? x : acc) \
                    : op == SUM ? acc + x : acc * x;                         \
            }                                                                \
            p[k] = acc;                                                      \
        }                                                                    \
    }                                                                        \
    static int same_##N(const void *a, const void *b)                        \
    {                                                                        \
        const T *x = a, *y = b;                                              \
        for (int k = 0; k < COUNT; k++)                                      \
            if (x[k] != y[k])                                                \
                return 0;                                                    \
        return 1;                                                            \
    }                                                                        \
    static void cfill_##N(void *buf, int r)                                  \
    {                                                                        \
        T *p = buf;                                                          \
        for (int k = 0; k < COUNT; k++)                                      \
            p[2 * k] = (T)cre(r, k), p[2 * k + 1] = (T)cim(r, k);            \
    }                                                                        \
    static void cwant_##N(void *buf, int op, const int *rk, int nr)          \
    {                                                                        \
        T *p = buf;                                                          \
        for (int k = 0; k < COUNT; k++) {                                    \
            T re = (T)cre(rk[0], k), im = (T)cim(rk[0], k);                  \
            for (int j = 1; j < nr; j++) {                                   \
                T xr = (T)cre(rk[j], k), xi = (T)cim(rk[j], k);              \
                if (op == SUM) {                                             \
                    re += xr, im += xi;                                      \
                } else {                                                     \
                    T nre = re * xr - im * xi;                               \
                    im = re * xi + im * xr, re = nre;                        \
                }                                                            \
            }                                                                \
            p[2 * k] = re, p[2 * k + 1] = im;                                \
        }                                                                    \
    }                                                                        \
    static int csame_##N(const void *a, const void *b)                       \
    {                                                                        \
        const T *x = a, *y = b;                                              \
        for (int k = 0; k < 2 * COUNT; k++)                                  \
            if (x[k] != y[k])                                                \
                return 0;                                                    \
        return 1;                                                            \
    }

REAL_FNS(f32, float)
REAL_FNS(f64, double)
REAL_FNS(f80, long double)
REAL_FNS(f128, __float128)

/* ---- pairs: values -1 .. 2 (many ties), index = rank ------------------- */

static int pval(int r, int k) { return (r * 5 + k * 3) % 4 - 1; }

#define PAIR_FNS(N, VT, IT)                                                  \
    typedef struct { VT v; IT i; } N##_t;                                    \
    static void fill_##N(void *buf, int r)                                   \
    {                                                                        \
        N##_t *p = buf;                                                      \
        memset(buf, 0, COUNT * sizeof *p);                                   \
        for (int k = 0; k < COUNT; k++)                                      \
            p[k].v = (VT)pval(r, k), p[k].i = (IT)r;                         \
    }                                                                        \
    static void want_##N(void *buf, int op, const int *rk, int nr)           \
    {                                                                        \
        N##_t *p = buf;                                                      \
        for (int k = 0; k < COUNT; k++) {                                    \
            int v = pval(rk[0], k), i = rk[0];                               \
            for (int j = 1; j < nr; j++) {                                   \
                int x = pval(rk[j], k);                                      \
                if ((op == MINLOC ? x < v : x > v) || (x == v && rk[j] < i)) \
                    v = x, i = rk[j];                                        \
            }                                                                \
            p[k].v = (VT)v, p[k].i = (IT)i;                                  \
        }                                                                    \
    }                                                                        \
    static int same_##N(const void *a, const void *b)                        \
    {                                                                        \
        const N##_t *x = a, *y = b;                                          \
        for (int k = 0; k < COUNT; k++)                                      \
            if (x[k].v != y[k].v || x[k].i != y[k].i)                        \
                return 0;                                                    \
        return 1;                                                            \
    }

PAIR_FNS(float_int, float, int)
PAIR_FNS(double_int, double, int)
PAIR_FNS(long_int, long, int)
PAIR_FNS(short_int, short, int)
PAIR_FNS(ldouble_int, long double, int)
PAIR_FNS(two_int, int, int)
PAIR_FNS(two_float, float, float)
PAIR_FNS(two_double, double, double)

static const struct {
    size_t elem;
    void (*fill)(void *, int);
    void (*want)(void *, int, const int *, int);
    int (*same)(const void *, const void *);
} fns[] = {
    [L_F32] = {sizeof(float), fill_f32, want_f32, same_f32},
    [L_F64] = {sizeof(double), fill_f64, want_f64, same_f64},
    [L_F80] = {sizeof(long double), fill_f80, want_f80, same_f80},
    [L_F128] = {sizeof(__float128), fill_f128, want_f128, same_f128},
    [L_C32] = {2 * sizeof(float), cfill_f32, cwant_f32, csame_f32},
    [L_C64] = {2 * sizeof(double), cfill_f64, cwant_f64, csame_f64},
    [L_C80] = {2 * sizeof(long double), cfill_f80, cwant_f80, csame_f80},
    [L_C128] = {2 * sizeof(__float128), cfill_f128, cwant_f128, csame_f128},
    [L_FLOAT_INT] = {sizeof(float_int_t), fill_float_int, want_float_int, same_float_int},
    [L_DOUBLE_INT] = {sizeof(double_int_t), fill_double_int, want_double_int, same_double_int},
    [L_LONG_INT] = {sizeof(long_int_t), fill_long_int, want_long_int, same_long_int},
    [L_SHORT_INT] = {sizeof(short_int_t), fill_short_int, want_short_int, same_short_int},
    [L_LDOUBLE_INT] = {sizeof(ldouble_int_t), fill_ldouble_int, want_ldouble_int, same_ldouble_int},
    [L_2INT] = {sizeof(two_int_t), fill_two_int, want_two_int, same_two_int},
    [L_2FLOAT] = {sizeof(two_float_t), fill_two_float, want_two_float, same_two_float},
    [L_2DOUBLE] = {sizeof(two_double_t), fill_two_double, want_two_double, same_two_double},
};

/* ---- one layer over all layouts ---------------------------------------- */

static size_t elem_size(const struct type *t)
{
    return t->lay == L_INT || t->lay == L_BOOL ? (size_t)t->size : t->lay == L_NONE ? 8 : fns[t->lay].elem;
}

static void fill(const struct type *t, void *buf, int r)
{
    if (t->lay == L_INT || t->lay == L_BOOL) {
        for (int k = 0; k < COUNT; k++) {
            uint64_t v = ival(r, k);
            int_store(buf, k, t->size, t->lay == L_BOOL ? v != 0 : v);
        }
    } else if (t->lay == L_NONE) {
        for (int k = 0; k < COUNT * 8; k++)
            ((unsigned char *)buf)[k] = (unsigned char)(r * 16 + k);
    } else {
        fns[t->lay].fill(buf, r);
    }
}

/* The result of op over the values of ranks rk[0 .. nr-1]. */
static void want(const struct type *t, int op, void *buf, const int *rk, int nr)
{
    if (t->lay == L_INT || t->lay == L_BOOL) {
        for (int k = 0; k < COUNT; k++) {
            uint64_t acc = ival(rk[0], k);
            if (t->lay == L_BOOL)
                acc = acc != 0;
            for (int j = 1; j < nr; j++) {
                uint64_t x = ival(rk[j], k);
                acc = int_op(t, op, acc, t->lay == L_BOOL ? x != 0 : x);
            }
            int_store(buf, k, t->size, acc);
        }
    } else {
        fns[t->lay].want(buf, op, rk, nr);
    }
}

static int same(const struct type *t, const void *got, const void *exp)
{
    if (t->lay == L_INT || t->lay == L_BOOL)
        return memcmp(got, exp, COUNT * (size_t)t->size) == 0;
    return fns[t->lay].same(got, exp);
}

/* The bytes of buf, a space between elements. */
static void hex(char *s, size_t n, const void *buf, size_t len, size_t elem)
{
    const unsigned char *b = buf;
    size_t at = 0;
    s[0] = 0;
    for (size_t i = 0; i < len && at + 4 < n; i++)
        at += (size_t)snprintf(s + at, n - at, "%s%02x", i && i % elem == 0 ? " " : "", b[i]);
}

/* ---- the cells --------------------------------------------------------- */

/* Results MPICH 4.0.2 gets wrong (listed above the table). */
static int mpich_values_differ(const struct type *t, int op)
{
    return MTEST_MPICH_DEVIATION &&
           ((t->lay == L_INT && !t->sgn && (op == MAX || op == MIN)) || t->lay == L_F128);
}

static void report_values(const struct type *t, int op, const char *call, const void *got, const void *exp)
{
    char g[3 * COUNT * MAXSZ + 8], w[3 * COUNT * MAXSZ + 8];
    size_t len = COUNT * elem_size(t);
    hex(g, sizeof g, got, len, elem_size(t));
    hex(w, sizeof w, exp, len, elem_size(t));
    mtest_fail("%s(%s, %s) at rank %d of %d: wrong result\n  got  %s\n  want %s", call, ops[op].name, t->name,
               rank, size, g, w);
}

static void check_rc(const struct type *t, int op, const char *call, int rc)
{
    if (t->ok & B(op)) {
        if (rc != MPI_SUCCESS) {
            char s[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, s, &len);
            mtest_fail("%s(%s, %s) at rank %d: rc %d, expected MPI_SUCCESS: %s", call, ops[op].name, t->name, rank,
                       rc, s);
        }
    } else {
        mtest_check_class(rc, MPI_ERR_OP, "%s(%s, %s) at rank %d", call, ops[op].name, t->name, rank);
    }
}

static void run_cell(const struct type *t, int op)
{
    _Alignas(32) unsigned char in[COUNT * MAXSZ], out[COUNT * MAXSZ], exp[COUNT * MAXSZ], poison[COUNT * MAXSZ];
    size_t len = COUNT * elem_size(t);
    int accepted = (t->ok & B(op)) != 0;

    /* Allreduce: ranks 0 .. size-1 */
    fill(t, in, rank);
    memset(out, 0xa5, sizeof out);
    memcpy(poison, out, sizeof out);
    int rc = MPI_Allreduce(in, out, COUNT, t->dt, ops[op].op, comm);
    check_rc(t, op, "MPI_Allreduce", rc);
    int values = accepted && rc == MPI_SUCCESS && !mpich_values_differ(t, op);
    if (values) {
        int rk[size];
        for (int r = 0; r < size; r++)
            rk[r] = r;
        want(t, op, exp, rk, size);
        if (!same(t, out, exp))
            report_values(t, op, "MPI_Allreduce", out, exp);
    } else if (!accepted && rc != MPI_SUCCESS) {
        MTEST_CHECK(memcmp(out, poison, len) == 0, "MPI_Allreduce(%s, %s) at rank %d: refused, but wrote recvbuf",
                    ops[op].name, t->name, rank);
    }

    /* Reduce_local: inout = in op inout with the values of rank, rank + 1 */
    int rk2[2] = {rank, rank + 1};
    fill(t, in, rank);
    fill(t, out, rank + 1);
    memcpy(poison, out, sizeof out);
    rc = MPI_Reduce_local(in, out, COUNT, t->dt, ops[op].op);
    check_rc(t, op, "MPI_Reduce_local", rc);
    values = accepted && rc == MPI_SUCCESS && !mpich_values_differ(t, op);
    if (values) {
        want(t, op, exp, rk2, 2);
        if (!same(t, out, exp))
            report_values(t, op, "MPI_Reduce_local", out, exp);
    } else if (!accepted && rc != MPI_SUCCESS) {
        MTEST_CHECK(memcmp(out, poison, len) == 0, "MPI_Reduce_local(%s, %s) at rank %d: refused, but wrote inoutbuf",
                    ops[op].name, t->name, rank);
    }
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MTEST_RC(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    /* Reduce_local has no communicator: its errors go to MPI_COMM_WORLD's
     * handler here (MPI-4: MPI_COMM_SELF's), so both return them */
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    for (int i = 0; i < NTYPES; i++) {
        const struct type *t = &types[i];
        /* the layout the test assumes is the type's */
        MPI_Aint lb, extent;
        if (t->lay != L_NONE && MTEST_RC(MPI_Type_get_extent(t->dt, &lb, &extent)))
            MTEST_CHECK(lb == 0 && (size_t)extent == elem_size(t), "%s: lb %ld extent %ld, the test assumes 0 and %zu",
                        t->name, (long)lb, (long)extent, elem_size(t));
        for (int op = 0; op < NOPS; op++) {
            if (MTEST_MPICH_DEVIATION && (t->mpich & B(op)))
                continue;   /* see the list above the table */
            run_cell(t, op);
        }
    }
    MTEST_RC(MPI_Comm_free(&comm));
    return mtest_finalize();
}
