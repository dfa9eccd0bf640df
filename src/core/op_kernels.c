/* The loops of the predefined reduction ops, one per (op, C type), made by
 * macros, and the table that says which MPI type uses which loop. A NULL
 * entry is a pair the MPI standard does not define (MPI-4 section 6.9.2):
 *
 *   MPI_MAX, MPI_MIN       C integer, Fortran integer, floating point, multi-language
 *   MPI_SUM, MPI_PROD      C integer, Fortran integer, floating point, complex, multi-language
 *   MPI_LAND, LOR, LXOR    C integer, logical (and multi-language: extension)
 *   MPI_BAND, BOR, BXOR    C integer, Fortran integer, byte, multi-language
 *   MPI_MINLOC, MAXLOC     the pair types
 *
 * C integer = MPI_SIGNED_CHAR, UNSIGNED_CHAR, SHORT ... UNSIGNED_LONG_LONG and
 * the fixed-width INTn_T/UINTn_T; Fortran integer = MPI_INTEGER,
 * INTEGER1/2/4/8/16; multi-language = MPI_AINT, MPI_OFFSET, MPI_COUNT; logical =
 * MPI_LOGICAL, LOGICAL1/2/4/8/16, MPI_C_BOOL, MPI_CXX_BOOL; floating point includes
 * the 16-bit MPI_REAL2, MPIX_C_FLOAT16 and MPIX_BFLOAT16 (see below), and
 * MPI_LONG_DOUBLE (x87 80-bit) and MPI_REAL16 (gfortran's REAL*16 is IEEE
 * quad: __float128).
 *
 * Two extensions, both also in MPICH and Open MPI, because programs use
 * them: MPI_CHAR (text in the standard) reduces as a C integer, signed 8-bit
 * as char is on x86-64; the multi-language types, 64-bit integers, take the
 * logical ops too, so they have every op of a C integer. Nothing else is
 * widened: MPI_WCHAR and MPI_CHARACTER take no op, Fortran integers and
 * floating types no logical op (MPICH accepts some of these).
 *
 * Every loop is elementwise over restrict pointers, so the compiler turns it
 * into vector code. Integers add and multiply in unsigned arithmetic (wraps
 * as MPI implementations do, and is not undefined behaviour); logical ops
 * give 1 or 0.
 *
 * Checked with GCC 12 (-fopt-info-vec-optimized, and per function from
 * -fdump-tree-vect-details), 108 loop functions in all:
 *   -O3 -march=native (AVX-512 machine without AVX512-FP16): 78 vectorised,
 *     every loop but the 30 on long double, __float128, _Float16 and 128-bit
 *     integers (no vector unit for them) and LONG_DOUBLE_INT; 64-bit integer
 *     products use vpmullq; bfloat16 goes through float vectors;
 *   -O3 for plain x86-64 (SSE2): 68; also not the 64-bit integer PROD, MAX,
 *     MIN, LAND, LOR, LXOR and the LONG_INT pairs (SSE2 has no 64-bit
 *     multiply or compare).
 * At the library's usual -O2, GCC 12 vectorises only loops whose trip count
 * it knows, so this file asks for GCC's -O3 loop vectoriser itself (the
 * pragma below); with it the -O2 build gets the same 68 loops as -O3.
 */
#include "core/op.h"
#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-loop-vectorize", "vect-cost-model=dynamic")
#endif

#define KERNEL(name, T, EXPR)                                                \
    static void name(const void *restrict in_, void *restrict inout_, size_t n) \
    {                                                                        \
        const T *restrict a = in_;                                           \
        T *restrict b = inout_;                                              \
        for (size_t i = 0; i < n; i++)                                       \
            b[i] = (EXPR);                                                   \
    }

/* The integer ops. SUM, PROD and the bitwise and logical ops give the same
 * bits for signed and unsigned types of one size, so they exist once per
 * size (on the unsigned type, W = the type the product is formed in, at
 * least unsigned int so that no promotion to int can overflow). */
#define INT_OPS(S, U, W)                                                     \
    KERNEL(sum_##S, U, (U)((W)a[i] + (W)b[i]))                               \
    KERNEL(prod_##S, U, (U)((W)a[i] * (W)b[i]))                              \
    KERNEL(band_##S, U, (U)(a[i] & b[i]))                                    \
    KERNEL(bor_##S, U, (U)(a[i] | b[i]))                                     \
    KERNEL(bxor_##S, U, (U)(a[i] ^ b[i]))                                    \
    KERNEL(land_##S, U, (U)((a[i] != 0) & (b[i] != 0)))                      \
    KERNEL(lor_##S, U, (U)((a[i] != 0) | (b[i] != 0)))                       \
    KERNEL(lxor_##S, U, (U)((a[i] != 0) ^ (b[i] != 0)))

INT_OPS(8, uint8_t, unsigned)
INT_OPS(16, uint16_t, unsigned)
INT_OPS(32, uint32_t, unsigned)
INT_OPS(64, uint64_t, uint64_t)
__extension__ typedef unsigned __int128 u128_t;   /* MPI_INTEGER16, MPI_LOGICAL16 */
__extension__ typedef __int128 i128_t;
INT_OPS(128, u128_t, u128_t)

/* MAX and MIN: per type, signedness matters. in wins only when strictly
 * larger (smaller), which for floats is also what the SSE max/min do. */
#define ORDER_OPS(N, T)                                                      \
    KERNEL(max_##N, T, a[i] > b[i] ? a[i] : b[i])                            \
    KERNEL(min_##N, T, a[i] < b[i] ? a[i] : b[i])

ORDER_OPS(i8, int8_t)
ORDER_OPS(u8, uint8_t)
ORDER_OPS(i16, int16_t)
ORDER_OPS(u16, uint16_t)
ORDER_OPS(i32, int32_t)
ORDER_OPS(u32, uint32_t)
ORDER_OPS(i64, int64_t)
ORDER_OPS(u64, uint64_t)
ORDER_OPS(i128, i128_t)

/* Floating point: MAX, MIN, SUM, PROD; complex: SUM (the sum of 2n reals)
 * and PROD, written out on (re, im) so that it vectorises (C's complex `*`
 * calls a library function for the Annex G infinity rules). */
#define FLOAT_OPS(N, T)                                                      \
    ORDER_OPS(N, T)                                                          \
    KERNEL(sum_##N, T, a[i] + b[i])                                          \
    KERNEL(prod_##N, T, a[i] * b[i])                                         \
    static void csum_##N(const void *restrict in, void *restrict inout, size_t n) \
    {                                                                        \
        sum_##N(in, inout, 2 * n);                                           \
    }                                                                        \
    static void cprod_##N(const void *restrict in_, void *restrict inout_, size_t n) \
    {                                                                        \
        const T *restrict a = in_;                                           \
        T *restrict b = inout_;                                              \
        for (size_t i = 0; i < n; i++) {                                     \
            T ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1]; \
            b[2 * i] = ar * br - ai * bi;                                    \
            b[2 * i + 1] = ar * bi + ai * br;                                \
        }                                                                    \
    }

FLOAT_OPS(f32, float)
FLOAT_OPS(f64, double)
FLOAT_OPS(f80, long double)
#ifdef __SIZEOF_FLOAT128__
FLOAT_OPS(f128, __float128)
#define HAVE_F128 1
#endif

/* IEEE half precision (MPIX_C_FLOAT16, MPI_REAL2, MPI_COMPLEX4) where the
 * compiler has _Float16: GCC computes in float and rounds once to half,
 * which is the correctly rounded result (float has more than 2 * 11 + 2
 * bits). Without _Float16 these types take no op. */
#ifdef __FLT16_MAX__
FLOAT_OPS(f16, _Float16)
#define HAVE_F16 1
#endif

/* bfloat16 (MPIX_BFLOAT16) is the upper half of a float: widened exactly,
 * combined in float, rounded to nearest even (NaN stays NaN). As for half
 * precision, one rounding in float and one to bfloat16 give the correctly
 * rounded result. MAX and MIN keep the winning operand's bits. */
static inline float bf16_wide(uint16_t h)
{
    union { uint32_t u; float f; } v = {.u = (uint32_t)h << 16};
    return v.f;
}
static inline uint16_t bf16_round(float f)
{
    union { float f; uint32_t u; } v = {.f = f};
    if ((v.u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((v.u >> 16) | 0x40u);      /* quiet NaN */
    return (uint16_t)((v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16);
}
KERNEL(sum_bf16, uint16_t, bf16_round(bf16_wide(a[i]) + bf16_wide(b[i])))
KERNEL(prod_bf16, uint16_t, bf16_round(bf16_wide(a[i]) * bf16_wide(b[i])))
KERNEL(max_bf16, uint16_t, bf16_wide(a[i]) > bf16_wide(b[i]) ? a[i] : b[i])
KERNEL(min_bf16, uint16_t, bf16_wide(a[i]) < bf16_wide(b[i]) ? a[i] : b[i])

/* MINLOC and MAXLOC on (value, index) pairs laid out as the C struct. The
 * standard's rule: the smaller (larger) value wins with its index; on equal
 * values both ops keep the smaller index. */
#define LOC_OPS(N, VT, IT)                                                   \
    typedef struct { VT v; IT i; } pair_##N##_t;                             \
    static void minloc_##N(const void *restrict in_, void *restrict inout_, size_t n) \
    {                                                                        \
        const pair_##N##_t *restrict a = in_;                                \
        pair_##N##_t *restrict b = inout_;                                   \
        for (size_t k = 0; k < n; k++) {                                     \
            VT av = a[k].v, bv = b[k].v;                                     \
            IT ai = a[k].i, bi = b[k].i;                                     \
            int take = (av < bv) | ((av == bv) & (ai < bi));                 \
            b[k].v = take ? av : bv;                                         \
            b[k].i = take ? ai : bi;                                         \
        }                                                                    \
    }                                                                        \
    static void maxloc_##N(const void *restrict in_, void *restrict inout_, size_t n) \
    {                                                                        \
        const pair_##N##_t *restrict a = in_;                                \
        pair_##N##_t *restrict b = inout_;                                   \
        for (size_t k = 0; k < n; k++) {                                     \
            VT av = a[k].v, bv = b[k].v;                                     \
            IT ai = a[k].i, bi = b[k].i;                                     \
            int take = (av > bv) | ((av == bv) & (ai < bi));                 \
            b[k].v = take ? av : bv;                                         \
            b[k].i = take ? ai : bi;                                         \
        }                                                                    \
    }

LOC_OPS(float_int, float, int)
LOC_OPS(double_int, double, int)
LOC_OPS(long_int, long, int)
LOC_OPS(short_int, short, int)
LOC_OPS(long_double_int, long double, int)
LOC_OPS(2int, int, int)
LOC_OPS(2real, float, float)
LOC_OPS(2double, double, double)

/* ---- which loop each MPI type uses ------------------------------------ */

/* Rows are indexed by the low byte of a builtin type's handle; the pair
 * types with padding (direct handles 0x8c000000 | i) follow at PAIR_ROW + i. */
#define PAIR_ROW 0x4d
#define NROWS (PAIR_ROW + 5)
#define NOPS (DMPI_OP_MAXLOC + 1)

typedef dmpi_op_kernel_fn *row_t[NOPS];

#define C_INT(S, N)                                                          \
    {[DMPI_OP_MAX] = max_##N, [DMPI_OP_MIN] = min_##N, [DMPI_OP_SUM] = sum_##S,  \
     [DMPI_OP_PROD] = prod_##S, [DMPI_OP_LAND] = land_##S, [DMPI_OP_BAND] = band_##S, \
     [DMPI_OP_LOR] = lor_##S, [DMPI_OP_BOR] = bor_##S, [DMPI_OP_LXOR] = lxor_##S, \
     [DMPI_OP_BXOR] = bxor_##S}
/* Fortran integers: no logical ops. */
#define F_INT(S, N)                                                          \
    {[DMPI_OP_MAX] = max_##N, [DMPI_OP_MIN] = min_##N, [DMPI_OP_SUM] = sum_##S,  \
     [DMPI_OP_PROD] = prod_##S, [DMPI_OP_BAND] = band_##S, [DMPI_OP_BOR] = bor_##S, \
     [DMPI_OP_BXOR] = bxor_##S}
#define LOGICAL(S) {[DMPI_OP_LAND] = land_##S, [DMPI_OP_LOR] = lor_##S, [DMPI_OP_LXOR] = lxor_##S}
#define BYTE {[DMPI_OP_BAND] = band_8, [DMPI_OP_BOR] = bor_8, [DMPI_OP_BXOR] = bxor_8}
#define REAL(N)                                                              \
    {[DMPI_OP_MAX] = max_##N, [DMPI_OP_MIN] = min_##N, [DMPI_OP_SUM] = sum_##N, [DMPI_OP_PROD] = prod_##N}
#define COMPLEX(N) {[DMPI_OP_SUM] = csum_##N, [DMPI_OP_PROD] = cprod_##N}
#define LOC(N) {[DMPI_OP_MINLOC] = minloc_##N, [DMPI_OP_MAXLOC] = maxloc_##N}

static const row_t rows[NROWS] = {
    [0x01] = C_INT(8, i8),                  /* MPI_CHAR: an extension, see above */
    [0x02] = C_INT(8, u8),                  /* MPI_UNSIGNED_CHAR */
    [0x03] = C_INT(16, i16),                /* MPI_SHORT */
    [0x04] = C_INT(16, u16),                /* MPI_UNSIGNED_SHORT */
    [0x05] = C_INT(32, i32),                /* MPI_INT */
    [0x06] = C_INT(32, u32),                /* MPI_UNSIGNED */
    [0x07] = C_INT(64, i64),                /* MPI_LONG */
    [0x08] = C_INT(64, u64),                /* MPI_UNSIGNED_LONG */
    [0x09] = C_INT(64, i64),                /* MPI_LONG_LONG_INT */
    [0x0a] = REAL(f32),                     /* MPI_FLOAT */
    [0x0b] = REAL(f64),                     /* MPI_DOUBLE */
    [0x0c] = REAL(f80),                     /* MPI_LONG_DOUBLE */
    [0x0d] = BYTE,                          /* MPI_BYTE */
    [0x16] = LOC(2int),                     /* MPI_2INT */
    [0x18] = C_INT(8, i8),                  /* MPI_SIGNED_CHAR */
    [0x19] = C_INT(64, u64),                /* MPI_UNSIGNED_LONG_LONG */
    [0x1b] = F_INT(32, i32),                /* MPI_INTEGER */
    [0x1c] = REAL(f32),                     /* MPI_REAL */
    [0x1d] = LOGICAL(32),                   /* MPI_LOGICAL */
    [0x1e] = COMPLEX(f32),                  /* MPI_COMPLEX */
    [0x1f] = REAL(f64),                     /* MPI_DOUBLE_PRECISION */
    [0x20] = LOC(2int),                     /* MPI_2INTEGER */
    [0x21] = LOC(2real),                    /* MPI_2REAL */
    [0x22] = COMPLEX(f64),                  /* MPI_DOUBLE_COMPLEX */
    [0x23] = LOC(2double),                  /* MPI_2DOUBLE_PRECISION */
#ifdef HAVE_F16
    [0x26] = REAL(f16),                     /* MPI_REAL2 */
#endif
    [0x27] = REAL(f32),                     /* MPI_REAL4 */
    [0x28] = COMPLEX(f32),                  /* MPI_COMPLEX8 */
    [0x29] = REAL(f64),                     /* MPI_REAL8 */
    [0x2a] = COMPLEX(f64),                  /* MPI_COMPLEX16 */
#ifdef HAVE_F128
    [0x2b] = REAL(f128),                    /* MPI_REAL16 */
    [0x2c] = COMPLEX(f128),                 /* MPI_COMPLEX32 */
#endif
    [0x2d] = F_INT(8, i8),                  /* MPI_INTEGER1 */
#ifdef HAVE_F16
    [0x2e] = COMPLEX(f16),                  /* MPI_COMPLEX4 */
#endif
    [0x2f] = F_INT(16, i16),                /* MPI_INTEGER2 */
    [0x30] = F_INT(32, i32),                /* MPI_INTEGER4 */
    [0x31] = F_INT(64, i64),                /* MPI_INTEGER8 */
    [0x32] = F_INT(128, i128),              /* MPI_INTEGER16 */
    [0x33] = LOGICAL(8),                    /* MPI_CXX_BOOL */
    [0x34] = COMPLEX(f32),                  /* MPI_CXX_FLOAT_COMPLEX */
    [0x35] = COMPLEX(f64),                  /* MPI_CXX_DOUBLE_COMPLEX */
    [0x36] = COMPLEX(f80),                  /* MPI_CXX_LONG_DOUBLE_COMPLEX */
    [0x37] = C_INT(8, i8),                  /* MPI_INT8_T */
    [0x38] = C_INT(16, i16),                /* MPI_INT16_T */
    [0x39] = C_INT(32, i32),                /* MPI_INT32_T */
    [0x3a] = C_INT(64, i64),                /* MPI_INT64_T */
    [0x3b] = C_INT(8, u8),                  /* MPI_UINT8_T */
    [0x3c] = C_INT(16, u16),                /* MPI_UINT16_T */
    [0x3d] = C_INT(32, u32),                /* MPI_UINT32_T */
    [0x3e] = C_INT(64, u64),                /* MPI_UINT64_T */
    [0x3f] = LOGICAL(8),                    /* MPI_C_BOOL */
    [0x40] = COMPLEX(f32),                  /* MPI_C_FLOAT_COMPLEX */
    [0x41] = COMPLEX(f64),                  /* MPI_C_DOUBLE_COMPLEX */
    [0x42] = COMPLEX(f80),                  /* MPI_C_LONG_DOUBLE_COMPLEX */
    [0x43] = C_INT(64, i64),                /* MPI_AINT */
    [0x44] = C_INT(64, i64),                /* MPI_OFFSET */
    [0x45] = C_INT(64, i64),                /* MPI_COUNT */
#ifdef HAVE_F16
    [0x46] = REAL(f16),                     /* MPIX_C_FLOAT16 */
#endif
    [0x47] = LOGICAL(8),                    /* MPI_LOGICAL1 */
    [0x48] = LOGICAL(16),                   /* MPI_LOGICAL2 */
    [0x49] = LOGICAL(32),                   /* MPI_LOGICAL4 */
    [0x4a] = LOGICAL(64),                   /* MPI_LOGICAL8 */
    [0x4b] = LOGICAL(128),                  /* MPI_LOGICAL16 */
    [0x4c] = REAL(bf16),                    /* MPIX_BFLOAT16 */
    [PAIR_ROW + 0] = LOC(float_int),        /* MPI_FLOAT_INT */
    [PAIR_ROW + 1] = LOC(double_int),       /* MPI_DOUBLE_INT */
    [PAIR_ROW + 2] = LOC(long_int),         /* MPI_LONG_INT */
    [PAIR_ROW + 3] = LOC(short_int),        /* MPI_SHORT_INT */
    [PAIR_ROW + 4] = LOC(long_double_int),  /* MPI_LONG_DOUBLE_INT */
};
_Static_assert(PAIR_ROW == DMPI_BUILTIN_TYPES, "pair rows follow the builtin types");

/* The C layouts the rows assume for the MPICH ABI on x86_64 (LP64, 4-byte
 * Fortran INTEGER/LOGICAL/REAL, 1-byte bools). */
_Static_assert(sizeof(long) == 8 && sizeof(long long) == 8 && sizeof(short) == 2 && sizeof(int) == 4,
               "LP64 integer sizes");
_Static_assert((char)-1 < 0, "MPI_CHAR reduces as signed char");
_Static_assert(sizeof(_Bool) == 1 && sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
               "bool and multi-language sizes");

dmpi_op_kernel_fn *dmpi_op_kernel(int kind, MPI_Datatype basic)
{
    unsigned u = (unsigned)basic, row;
    if (kind < 1 || kind >= NOPS)
        return NULL;
    if ((u & 0xffff0000u) == 0x4c000000u && (u & 0xff) < DMPI_BUILTIN_TYPES)
        row = u & 0xff;
    else if (u >= 0x8c000000u && u < 0x8c000000u + (NROWS - PAIR_ROW))
        row = PAIR_ROW + (u - 0x8c000000u);
    else
        return NULL;
    return rows[row][kind];
}
