/*
 * f90_types: the datatypes of Fortran's parameterized and sized kinds, used
 * from C (no Fortran compiler needed), and MPI-4.1's
 * MPI_Type_get_value_index.
 *
 * MPI_Type_create_f90_integer/real/complex (MPI-4.0 19.1.9): the size the
 * smallest gfortran kind of that range (and precision) has on x86_64
 * (INTEGER 1/2/4/8/16 bytes, REAL 4/8/10-in-16/16, COMPLEX twice that);
 * one handle per (p, r), predefined (MPI_Type_free refuses it: MPI_ERR_TYPE)
 * and usable without a commit; the envelope MPI_COMBINER_F90_* with the
 * call's (p, r) or (r) as contents; MPI_UNDEFINED for p or r but not both;
 * MPI_ERR_ARG when no kind fits. The types carry data (a message around
 * the ring) and reduce (MPI_Reduce_local, MPI_Allreduce).
 *
 * Sized types: MPI_LOGICAL1/2/4/8/16, MPI_INTEGER16, MPI_REAL2,
 * MPI_COMPLEX4 have their size and extent; logicals take MPI_LAND/LOR/LXOR
 * and no arithmetic (MPI_ERR_OP), MPI_INTEGER16 every integer op but the
 * logical ones, across the ranks too.
 *
 * MPI_Type_get_value_index: the predefined pair type of each (value, index)
 * the standard lists, MPI_DATATYPE_NULL for other pairs, MPI_ERR_TYPE for
 * an invalid type.
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

__extension__ typedef __int128 i128;

static void expect_type(MPI_Datatype t, int size, const char *what)
{
    int s = -1;
    MPI_Aint lb = -1, extent = -1;
    MTEST_RC(MPI_Type_size(t, &s));
    MTEST_RC(MPI_Type_get_extent(t, &lb, &extent));
    MTEST_CHECK(s == size && lb == 0 && extent == size, "%s: size %d lb %ld extent %ld, want size %d", what, s,
                (long)lb, (long)extent, size);
}

static void expect_envelope(MPI_Datatype t, int combiner, int ni, const int *ints, const char *what)
{
    int n_i = -1, n_a = -1, n_d = -1, c = -1, got[2] = {-7, -7};
    MTEST_RC(MPI_Type_get_envelope(t, &n_i, &n_a, &n_d, &c));
    if (!MTEST_CHECK(c == combiner && n_i == ni && n_a == 0 && n_d == 0,
                     "%s: envelope combiner %d ints %d addresses %d types %d, want %d %d 0 0", what, c, n_i, n_a,
                     n_d, combiner, ni))
        return;
    MTEST_RC(MPI_Type_get_contents(t, 2, 0, 0, got, NULL, NULL));
    for (int i = 0; i < ni; i++)
        MTEST_CHECK(got[i] == ints[i], "%s: contents[%d] = %d, want %d", what, i, got[i], ints[i]);
}

static void f90_integers(void)
{
    static const struct { int r, size; } cases[] = {
        {0, 1}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4}, {9, 4}, {10, 8}, {18, 8}, {19, 16}, {38, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
        char what[64];
        snprintf(what, sizeof what, "Type_create_f90_integer(%d)", cases[i].r);
        if (MTEST_RC(MPI_Type_create_f90_integer(cases[i].r, &t)) != MPI_SUCCESS)
            continue;
        MTEST_RC(MPI_Type_create_f90_integer(cases[i].r, &again));
        MTEST_CHECK(t == again && t != MPI_DATATYPE_NULL, "%s: handles %#x and %#x", what, (unsigned)t,
                    (unsigned)again);
        expect_type(t, cases[i].size, what);
        expect_envelope(t, MPI_COMBINER_F90_INTEGER, 1, &cases[i].r, what);
    }
    MPI_Datatype t = MPI_DATATYPE_NULL;
    mtest_check_class(MPI_Type_create_f90_integer(39, &t), MPI_ERR_ARG, "f90_integer(39)");
    mtest_check_class(MPI_Type_create_f90_integer(MPI_UNDEFINED, &t), MPI_ERR_ARG, "f90_integer(MPI_UNDEFINED)");
    mtest_check_class(MPI_Type_create_f90_integer(4, NULL), MPI_ERR_ARG, "f90_integer with newtype NULL");

    /* predefined: cannot be freed, works without a commit, reduces as its kind */
    MTEST_RC(MPI_Type_create_f90_integer(9, &t));
    MPI_Datatype keep = t;
    mtest_check_class(MPI_Type_free(&t), MPI_ERR_TYPE, "Type_free of an f90 integer type");
    MTEST_CHECK(t == keep, "a refused Type_free changed the handle");
    int in[4] = {1, -2, 3, 100000}, inout[4] = {10, 20, -30, 100000};
    MTEST_RC(MPI_Reduce_local(in, inout, 4, t, MPI_SUM));
    MTEST_CHECK(inout[0] == 11 && inout[1] == 18 && inout[2] == -27 && inout[3] == 200000,
                "SUM on f90_integer(9): %d %d %d %d", inout[0], inout[1], inout[2], inout[3]);
    MTEST_RC(MPI_Reduce_local(in, inout, 4, t, MPI_MAX));
    MTEST_CHECK(inout[0] == 11 && inout[1] == 18 && inout[2] == 3, "MAX on f90_integer(9): %d %d %d", inout[0],
                inout[1], inout[2]);
    int sum = -1, one = mtest_rank + 1;
    MTEST_RC(MPI_Allreduce(&one, &sum, 1, t, MPI_SUM, MPI_COMM_WORLD));
    MTEST_CHECK(sum == mtest_size * (mtest_size + 1) / 2, "Allreduce SUM on f90_integer(9): %d", sum);
    mtest_check_class(MPI_Reduce_local(in, inout, 4, t, MPI_LAND), MPI_ERR_OP, "LAND on an f90 integer");

    /* INTEGER(16) through f90_integer(38) */
    MTEST_RC(MPI_Type_create_f90_integer(38, &t));
    i128 a[2] = {(i128)1 << 100, -5}, b[2] = {(i128)3 << 100, 7};
    MTEST_RC(MPI_Reduce_local(a, b, 2, t, MPI_SUM));
    MTEST_CHECK(b[0] == ((i128)4 << 100) && b[1] == 2, "SUM on f90_integer(38) wrong");
}

static void f90_reals(void)
{
    static const struct { int p, r, size, csize; } cases[] = {
        {6, MPI_UNDEFINED, 4, 8},   {MPI_UNDEFINED, 37, 4, 8},  {6, 37, 4, 8},   {7, MPI_UNDEFINED, 8, 16},
        {15, 307, 8, 16},           {MPI_UNDEFINED, 38, 8, 16}, {16, 0, 16, 32}, {MPI_UNDEFINED, 308, 16, 32},
        {18, 4931, 16, 32},         {19, MPI_UNDEFINED, 16, 32}, {33, 4931, 16, 32}, {0, 0, 4, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int pr[2] = {cases[i].p, cases[i].r};
        MPI_Datatype t = MPI_DATATYPE_NULL, c = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
        char what[80];
        snprintf(what, sizeof what, "Type_create_f90_real(%d, %d)", pr[0], pr[1]);
        if (MTEST_RC(MPI_Type_create_f90_real(pr[0], pr[1], &t)) == MPI_SUCCESS) {
            MTEST_RC(MPI_Type_create_f90_real(pr[0], pr[1], &again));
            MTEST_CHECK(t == again, "%s: two handles %#x %#x", what, (unsigned)t, (unsigned)again);
            expect_type(t, cases[i].size, what);
            expect_envelope(t, MPI_COMBINER_F90_REAL, 2, pr, what);
        }
        snprintf(what, sizeof what, "Type_create_f90_complex(%d, %d)", pr[0], pr[1]);
        if (MTEST_RC(MPI_Type_create_f90_complex(pr[0], pr[1], &c)) == MPI_SUCCESS) {
            MTEST_CHECK(c != t, "%s: the same handle as the real type", what);
            expect_type(c, cases[i].csize, what);
            expect_envelope(c, MPI_COMBINER_F90_COMPLEX, 2, pr, what);
        }
    }
    MPI_Datatype t;
    mtest_check_class(MPI_Type_create_f90_real(34, MPI_UNDEFINED, &t), MPI_ERR_ARG, "f90_real(34, -)");
    mtest_check_class(MPI_Type_create_f90_real(6, 4932, &t), MPI_ERR_ARG, "f90_real(6, 4932)");
    mtest_check_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG,
                      "f90_real(MPI_UNDEFINED, MPI_UNDEFINED)");
    mtest_check_class(MPI_Type_create_f90_complex(40, 10, &t), MPI_ERR_ARG, "f90_complex(40, 10)");

    /* a double precision message around the ring, summed and multiplied */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    MTEST_RC(MPI_Type_create_f90_real(15, 300, &t));
    double s[3] = {mtest_rank + 0.5, -1.25, 1e300}, r[3] = {0, 0, 0};
    MPI_Status st;
    MTEST_RC(MPI_Sendrecv(s, 3, t, right, 1, r, 3, t, left, 1, MPI_COMM_WORLD, &st));
    mtest_check_status(&st, left, 1, t, 3, "Sendrecv of f90_real(15, 300)");
    MTEST_CHECK(r[0] == left + 0.5 && r[1] == -1.25 && r[2] == 1e300, "f90 real data %g %g %g", r[0], r[1], r[2]);
    MTEST_RC(MPI_Reduce_local(s, r, 2, t, MPI_PROD));
    MTEST_CHECK(r[0] == (left + 0.5) * (mtest_rank + 0.5) && r[1] == 1.5625, "PROD on f90_real: %g %g", r[0], r[1]);

    /* a derived type of an f90 type: its typemap walks (external32, element counts) */
    MPI_Datatype three;
    MTEST_RC(MPI_Type_contiguous(3, t, &three));
    MTEST_RC(MPI_Type_commit(&three));
    unsigned char packed[24];
    MPI_Aint pos = 0, in = 0, size = 0;
    double back[3] = {0, 0, 0};
    MTEST_RC(MPI_Pack_external_size("external32", 1, three, &size));
    MTEST_RC(MPI_Pack_external("external32", s, 1, three, packed, sizeof packed, &pos));
    MTEST_RC(MPI_Unpack_external("external32", packed, pos, &in, back, 1, three));
    unsigned char native[8];
    memcpy(native, &s[0], 8);
    bool big_endian = true;
    for (int i = 0; i < 8; i++)
        big_endian = big_endian && packed[i] == native[7 - i];
    MTEST_CHECK(size == 24 && pos == 24 && in == 24 && big_endian,
                "external32 of 3 x f90_real(15, 300): size %ld, position %ld, first value %s big-endian", (long)size,
                (long)pos, big_endian ? "" : "not");
    MTEST_CHECK(memcmp(s, back, sizeof s) == 0, "external32 round trip of 3 x f90_real(15, 300) changed the data");
    int elements = -1;
    MTEST_RC(MPI_Status_set_elements(&st, three, 2));
    MTEST_RC(MPI_Get_elements(&st, t, &elements));
    MTEST_CHECK(elements == 2, "Get_elements of 2 f90 reals in a contiguous of them: %d", elements);
    MTEST_RC(MPI_Type_free(&three));
    MTEST_RC(MPI_Type_create_f90_complex(6, 30, &t));
    float z[2] = {1, 2}, w[2] = {3, 4};  /* (1+2i)(3+4i) = -5+10i */
    MTEST_RC(MPI_Reduce_local(z, w, 1, t, MPI_PROD));
    MTEST_CHECK(w[0] == -5 && w[1] == 10, "PROD on f90_complex(6, 30): %g%+gi", w[0], w[1]);
}

static void sized(void)
{
    expect_type(MPI_LOGICAL1, 1, "MPI_LOGICAL1");
    expect_type(MPI_LOGICAL2, 2, "MPI_LOGICAL2");
    expect_type(MPI_LOGICAL4, 4, "MPI_LOGICAL4");
    expect_type(MPI_LOGICAL8, 8, "MPI_LOGICAL8");
    expect_type(MPI_LOGICAL16, 16, "MPI_LOGICAL16");
    expect_type(MPI_INTEGER16, 16, "MPI_INTEGER16");
    expect_type(MPI_REAL2, 2, "MPI_REAL2");
    expect_type(MPI_COMPLEX4, 4, "MPI_COMPLEX4");
    int c = -1, n[3];
    MTEST_RC(MPI_Type_get_envelope(MPI_LOGICAL8, &n[0], &n[1], &n[2], &c));
    MTEST_CHECK(c == MPI_COMBINER_NAMED, "MPI_LOGICAL8 has combiner %d", c);
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    MTEST_RC(MPI_Type_get_name(MPI_LOGICAL16, name, &len));
    MTEST_CHECK(strcmp(name, "MPI_LOGICAL16") == 0, "MPI_LOGICAL16 is named '%s'", name);

    /* logicals: 0 is false, anything else true; results are 1 or 0 */
    int32_t l4a[4] = {0, 0, 7, -1}, l4b[4] = {0, 3, 0, 9};
    MTEST_RC(MPI_Reduce_local(l4a, l4b, 4, MPI_LOGICAL4, MPI_LOR));
    MTEST_CHECK(l4b[0] == 0 && l4b[1] == 1 && l4b[2] == 1 && l4b[3] == 1, "LOR on LOGICAL4: %d %d %d %d", l4b[0],
                l4b[1], l4b[2], l4b[3]);
    int64_t l8a[2] = {5, 0}, l8b[2] = {1, 0};
    MTEST_RC(MPI_Reduce_local(l8a, l8b, 2, MPI_LOGICAL8, MPI_LXOR));
    MTEST_CHECK(l8b[0] == 0 && l8b[1] == 0, "LXOR on LOGICAL8: %ld %ld", (long)l8b[0], (long)l8b[1]);
    i128 l16a[2] = {(i128)1 << 90, 1}, l16b[2] = {1, 0};
    MTEST_RC(MPI_Reduce_local(l16a, l16b, 2, MPI_LOGICAL16, MPI_LAND));
    MTEST_CHECK(l16b[0] == 1 && l16b[1] == 0, "LAND on LOGICAL16 wrong");
    mtest_check_class(MPI_Reduce_local(l4a, l4b, 4, MPI_LOGICAL4, MPI_SUM), MPI_ERR_OP, "SUM on MPI_LOGICAL4");
    mtest_check_class(MPI_Reduce_local(l4a, l4b, 4, MPI_LOGICAL2, MPI_MAX), MPI_ERR_OP, "MAX on MPI_LOGICAL2");

    /* every rank true for LAND, one rank true for LOR, across the job */
    int8_t mine[2] = {1, (int8_t)(mtest_rank == mtest_size - 1)}, all[2] = {-1, -1};
    MTEST_RC(MPI_Allreduce(mine, all, 2, MPI_LOGICAL1, MPI_LAND, MPI_COMM_WORLD));
    MTEST_CHECK(all[0] == 1 && all[1] == (mtest_size == 1), "Allreduce LAND on LOGICAL1: %d %d", all[0], all[1]);
    MTEST_RC(MPI_Allreduce(mine, all, 2, MPI_LOGICAL1, MPI_LOR, MPI_COMM_WORLD));
    MTEST_CHECK(all[0] == 1 && all[1] == 1, "Allreduce LOR on LOGICAL1: %d %d", all[0], all[1]);

    /* INTEGER16: 128-bit arithmetic, wrapping as the smaller integers do */
    i128 big = (i128)mtest_rank << 80, total = 0;
    MTEST_RC(MPI_Allreduce(&big, &total, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD));
    MTEST_CHECK(total == ((i128)(mtest_size * (mtest_size - 1) / 2) << 80), "Allreduce SUM on INTEGER16 wrong");
    i128 ia[3] = {-((i128)1 << 70), (i128)0xff << 64, 6}, ib[3] = {3, (i128)0x0f << 64, -7};
    MTEST_RC(MPI_Reduce_local(ia, ib, 3, MPI_INTEGER16, MPI_MIN));
    MTEST_CHECK(ib[0] == -((i128)1 << 70) && ib[1] == (i128)0x0f << 64 && ib[2] == -7, "MIN on INTEGER16 wrong");
    MTEST_RC(MPI_Reduce_local(ia, ib, 3, MPI_INTEGER16, MPI_BXOR));
    MTEST_CHECK(ib[1] == (i128)0xf0 << 64, "BXOR on INTEGER16 wrong");
    i128 pa = ((i128)1 << 64) + 1, pb = 3;
    MTEST_RC(MPI_Reduce_local(&pa, &pb, 1, MPI_INTEGER16, MPI_PROD));
    MTEST_CHECK(pb == ((i128)3 << 64) + 3, "PROD on INTEGER16 wrong");
    mtest_check_class(MPI_Reduce_local(ia, ib, 3, MPI_INTEGER16, MPI_LOR), MPI_ERR_OP, "LOR on MPI_INTEGER16");

    /* a mixed message around the ring */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    i128 sv = ((i128)mtest_rank << 100) | 77, rv = 0;
    MPI_Status st;
    MTEST_RC(MPI_Sendrecv(&sv, 1, MPI_INTEGER16, right, 2, &rv, 1, MPI_INTEGER16, left, 2, MPI_COMM_WORLD, &st));
    mtest_check_status(&st, left, 2, MPI_INTEGER16, 1, "Sendrecv of MPI_INTEGER16");
    MTEST_CHECK(rv == (((i128)left << 100) | 77), "INTEGER16 message wrong");
}

static void value_index(void)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL},
        {MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        MPI_Datatype got = (MPI_Datatype)0x12345;
        MTEST_RC(MPI_Type_get_value_index(pairs[i][0], pairs[i][1], &got));
        MTEST_CHECK(got == pairs[i][2], "Type_get_value_index(%#x, %#x) = %#x, want %#x", (unsigned)pairs[i][0],
                    (unsigned)pairs[i][1], (unsigned)got, (unsigned)pairs[i][2]);
    }
    /* the pair type found works with MAXLOC */
    MPI_Datatype p;
    MTEST_RC(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &p));
    struct { double v; int i; } mine = {(double)(mtest_rank % 2), mtest_rank}, best = {-1, -1};
    MTEST_RC(MPI_Allreduce(&mine, &best, 1, p, MPI_MAXLOC, MPI_COMM_WORLD));
    MTEST_CHECK(best.v == (mtest_size > 1 ? 1.0 : 0.0) && best.i == (mtest_size > 1 ? 1 : 0),
                "MAXLOC with the value-index type: (%g, %d)", best.v, best.i);
    mtest_check_class(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p), MPI_ERR_TYPE,
                      "Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT)");
    mtest_check_class(MPI_Type_get_value_index(MPI_FLOAT, (MPI_Datatype)0x4c0004ff, &p), MPI_ERR_TYPE,
                      "Type_get_value_index with an invalid index type");
    mtest_check_class(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG,
                      "Type_get_value_index with pair_type NULL");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    f90_integers();
    f90_reals();
    sized();
    value_index();
    return mtest_finalize();
}
