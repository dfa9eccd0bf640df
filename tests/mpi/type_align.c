/*
 * type_align: a struct type built with MPI_Type_create_struct from a
 * predefined type and a char has the extent the C compiler gives the same
 * struct, in both orders ({char; T} and {T; char}): the padding comes from
 * each predefined type's C alignment (float _Complex aligns as float, long
 * double to 16, _Bool to 1, the pair types as their structs). The Fortran
 * types are checked against gfortran's layout on x86-64 (COMPLEX as two
 * REALs, REAL*16 as __float128, LOGICAL as a 4-byte INTEGER).
 */
#include "mtest.h"

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

typedef struct { float v; int i; } float_int_t;
typedef struct { double v; int i; } double_int_t;
typedef struct { long v; int i; } long_int_t;
typedef struct { short v; int i; } short_int_t;
typedef struct { long double v; int i; } long_double_int_t;
typedef struct { int a, b; } two_int_t;
typedef struct { float a, b; } two_float_t;
typedef struct { double a, b; } two_double_t;
typedef struct { __float128 re, im; } complex128_t;

/* Builds {char; T} and {T; char} from MPI type mt and checks both extents
 * against C's struct sizes. */
static void check(MPI_Datatype mt, const char *name, size_t lead_off, size_t lead_size, size_t trail_off,
                  size_t trail_size)
{
    int bl[2] = {1, 1};
    MPI_Aint lb, ext;
    MPI_Datatype t, types[2] = {MPI_CHAR, mt};
    MPI_Aint d[2] = {0, (MPI_Aint)lead_off};
    MTEST_RC(MPI_Type_create_struct(2, bl, d, types, &t));
    MTEST_RC(MPI_Type_get_extent(t, &lb, &ext));
    MTEST_CHECK(lb == 0 && (size_t)ext == lead_size, "{char; %s}: lb %ld extent %ld, C gives %zu", name, (long)lb,
                (long)ext, lead_size);
    MPI_Type_free(&t);
    types[0] = mt;
    types[1] = MPI_CHAR;
    d[1] = (MPI_Aint)trail_off;
    MTEST_RC(MPI_Type_create_struct(2, bl, d, types, &t));
    MTEST_RC(MPI_Type_get_extent(t, &lb, &ext));
    MTEST_CHECK(lb == 0 && (size_t)ext == trail_size, "{%s; char}: lb %ld extent %ld, C gives %zu", name, (long)lb,
                (long)ext, trail_size);
    MPI_Type_free(&t);
}

#define CHECK(MT, CT)                                                                                    \
    do {                                                                                                 \
        struct lead { char c; CT x; };                                                                   \
        struct trail { CT x; char c; };                                                                  \
        check(MT, #MT, offsetof(struct lead, x), sizeof(struct lead), offsetof(struct trail, c),          \
              sizeof(struct trail));                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    /* C types */
    CHECK(MPI_CHAR, char);
    CHECK(MPI_SIGNED_CHAR, signed char);
    CHECK(MPI_UNSIGNED_CHAR, unsigned char);
    CHECK(MPI_WCHAR, wchar_t);
    CHECK(MPI_SHORT, short);
    CHECK(MPI_UNSIGNED_SHORT, unsigned short);
    CHECK(MPI_INT, int);
    CHECK(MPI_UNSIGNED, unsigned);
    CHECK(MPI_LONG, long);
    CHECK(MPI_UNSIGNED_LONG, unsigned long);
    CHECK(MPI_LONG_LONG_INT, long long);
    CHECK(MPI_UNSIGNED_LONG_LONG, unsigned long long);
    CHECK(MPI_FLOAT, float);
    CHECK(MPI_DOUBLE, double);
    CHECK(MPI_LONG_DOUBLE, long double);
    CHECK(MPI_BYTE, unsigned char);
    CHECK(MPI_INT8_T, int8_t);
    CHECK(MPI_INT16_T, int16_t);
    CHECK(MPI_INT32_T, int32_t);
    CHECK(MPI_INT64_T, int64_t);
    CHECK(MPI_UINT8_T, uint8_t);
    CHECK(MPI_UINT16_T, uint16_t);
    CHECK(MPI_UINT32_T, uint32_t);
    CHECK(MPI_UINT64_T, uint64_t);
    CHECK(MPI_C_BOOL, _Bool);
    CHECK(MPI_C_FLOAT_COMPLEX, float _Complex);
    CHECK(MPI_C_COMPLEX, float _Complex);
    CHECK(MPI_C_DOUBLE_COMPLEX, double _Complex);
    CHECK(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex);
    CHECK(MPI_AINT, MPI_Aint);
    CHECK(MPI_OFFSET, MPI_Offset);
    CHECK(MPI_COUNT, MPI_Count);
    /* the C++ types, laid out as their C counterparts */
    CHECK(MPI_CXX_BOOL, _Bool);
    CHECK(MPI_CXX_FLOAT_COMPLEX, float _Complex);
    CHECK(MPI_CXX_DOUBLE_COMPLEX, double _Complex);
    CHECK(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex);
    /* the pair types */
    CHECK(MPI_FLOAT_INT, float_int_t);
    CHECK(MPI_DOUBLE_INT, double_int_t);
    CHECK(MPI_LONG_INT, long_int_t);
    CHECK(MPI_SHORT_INT, short_int_t);
    CHECK(MPI_LONG_DOUBLE_INT, long_double_int_t);
    CHECK(MPI_2INT, two_int_t);
    /* the Fortran types, as gfortran lays them out */
    CHECK(MPI_CHARACTER, char);
    CHECK(MPI_LOGICAL, int);
    CHECK(MPI_INTEGER, int);
    CHECK(MPI_REAL, float);
    CHECK(MPI_DOUBLE_PRECISION, double);
    CHECK(MPI_COMPLEX, float _Complex);
    CHECK(MPI_DOUBLE_COMPLEX, double _Complex);
    CHECK(MPI_INTEGER1, int8_t);
    CHECK(MPI_INTEGER2, int16_t);
    CHECK(MPI_INTEGER4, int32_t);
    CHECK(MPI_INTEGER8, int64_t);
    CHECK(MPI_REAL4, float);
    CHECK(MPI_REAL8, double);
    if (!MTEST_MPICH_DEVIATION) {     /* MPICH 4.0.2 aligns REAL*16 and COMPLEX*32 to 1 byte */
        CHECK(MPI_REAL16, __float128);
        CHECK(MPI_COMPLEX32, complex128_t);
    }
    CHECK(MPI_COMPLEX8, float _Complex);
    CHECK(MPI_COMPLEX16, double _Complex);
    CHECK(MPI_2INTEGER, two_int_t);
    CHECK(MPI_2REAL, two_float_t);
    CHECK(MPI_2DOUBLE_PRECISION, two_double_t);
    return mtest_finalize();
}
