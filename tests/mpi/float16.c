/*
 * float16: the 16-bit floating-point types MPIX_C_FLOAT16 (C's _Float16),
 * MPI_REAL2 and MPI_COMPLEX4 (Fortran's REAL*2 and COMPLEX*4, IEEE half
 * precision) and MPIX_BFLOAT16 (the upper half of a float).
 *
 * Sizes and extents; messages around the ring; MPI_SUM, MPI_PROD, MPI_MIN,
 * MPI_MAX with MPI_Reduce_local against the same arithmetic done here, with
 * correct rounding (ties to even) where a result is not representable, and
 * NaN staying NaN; MPI_Allreduce across the ranks on values whose sums are
 * exact; complex products on MPI_COMPLEX4; no logical or bitwise ops
 * (MPI_ERR_OP); external32 is big-endian IEEE (MPI_Pack_external).
 *
 * The half-precision parts need a compiler with _Float16 (GCC 12 on x86_64
 * has it); without one they are skipped with a message, and the bfloat16
 * parts, which need no compiler support, still run.
 */
#include "mtest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* bfloat16 values by their bits: b(x) for a float x that bfloat16 holds */
static uint16_t bf(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16);
}

static float unbf(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static void sizes(void)
{
    static const struct { MPI_Datatype t; int size; const char *name; } types[] = {
        {MPIX_C_FLOAT16, 2, "MPIX_C_FLOAT16"}, {MPI_REAL2, 2, "MPI_REAL2"},
        {MPI_COMPLEX4, 4, "MPI_COMPLEX4"},     {MPIX_BFLOAT16, 2, "MPIX_BFLOAT16"},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        int s = -1;
        MPI_Aint lb = -1, ext = -1;
        MTEST_RC(MPI_Type_size(types[i].t, &s));
        MTEST_RC(MPI_Type_get_extent(types[i].t, &lb, &ext));
        MTEST_CHECK(s == types[i].size && lb == 0 && ext == types[i].size, "%s: size %d extent %ld", types[i].name,
                    s, (long)ext);
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MTEST_RC(MPI_Type_get_name(types[i].t, name, &len));
        MTEST_CHECK(strcmp(name, types[i].name) == 0, "%s is named '%s'", types[i].name, name);
    }
}

static void bfloat16(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    /* a message */
    uint16_t s[4] = {bf(1.5f), bf(-2.0f), bf((float)mtest_rank), bf(3.25f)}, r[4] = {0};
    MPI_Status st;
    MTEST_RC(MPI_Sendrecv(s, 4, MPIX_BFLOAT16, right, 3, r, 4, MPIX_BFLOAT16, left, 3, MPI_COMM_WORLD, &st));
    mtest_check_status(&st, left, 3, MPIX_BFLOAT16, 4, "Sendrecv of MPIX_BFLOAT16");
    MTEST_CHECK(unbf(r[2]) == (float)left && unbf(r[3]) == 3.25f, "bfloat16 message: %g %g", unbf(r[2]),
                unbf(r[3]));

    /* arithmetic, with the rounding of each result to bfloat16 */
    const float e8 = 1.0f / 256, e7 = 1.0f / 128, e6 = 1.0f / 64;
    uint16_t a[6] = {bf(1.5f), bf(1.0f), bf(1.0f), bf(-3.0f), bf(1.0f + e7), 0x7fc0 /* NaN */};
    uint16_t b[6] = {bf(2.25f), bf(e8), bf(3 * e8), bf(0.5f), bf(1.0f + e7), bf(1.0f)};
    /* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1; 1 + 3 * 2^-8 is
     * halfway between 1 + 2^-7 and 1 + 2^-6: even is 1 + 2^-6 */
    const float sum[6] = {3.75f, 1.0f, 1.0f + e6, -2.5f, 2.0f + 2 * e7};
    uint16_t x[6];
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 6, MPIX_BFLOAT16, MPI_SUM));
    for (int i = 0; i < 5; i++)
        MTEST_CHECK(unbf(x[i]) == sum[i], "bfloat16 SUM [%d]: %.9g, want %.9g", i, unbf(x[i]), sum[i]);
    MTEST_CHECK(isnan(unbf(x[5])), "bfloat16 SUM with NaN gave %g", unbf(x[5]));
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 6, MPIX_BFLOAT16, MPI_PROD));
    /* (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14: rounds to 1 + 2^-6 */
    MTEST_CHECK(unbf(x[0]) == 3.375f && unbf(x[3]) == -1.5f && unbf(x[4]) == 1.0f + e6,
                "bfloat16 PROD: %g %g %.9g", unbf(x[0]), unbf(x[3]), unbf(x[4]));
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 5, MPIX_BFLOAT16, MPI_MAX));
    MTEST_CHECK(x[0] == bf(2.25f) && x[1] == bf(1.0f) && x[3] == bf(0.5f), "bfloat16 MAX: %g %g %g", unbf(x[0]),
                unbf(x[1]), unbf(x[3]));
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 5, MPIX_BFLOAT16, MPI_MIN));
    MTEST_CHECK(x[0] == bf(1.5f) && x[1] == bf(e8) && x[3] == bf(-3.0f), "bfloat16 MIN: %g %g %g", unbf(x[0]),
                unbf(x[1]), unbf(x[3]));
    mtest_check_class(MPI_Reduce_local(a, x, 1, MPIX_BFLOAT16, MPI_BAND), MPI_ERR_OP, "BAND on MPIX_BFLOAT16");
    mtest_check_class(MPI_Reduce_local(a, x, 1, MPIX_BFLOAT16, MPI_LOR), MPI_ERR_OP, "LOR on MPIX_BFLOAT16");

    /* across the job: sum of 0.5 * (rank + 1), max of the ranks */
    uint16_t mine = bf(0.5f * (float)(mtest_rank + 1)), tot = 0;
    MTEST_RC(MPI_Allreduce(&mine, &tot, 1, MPIX_BFLOAT16, MPI_SUM, MPI_COMM_WORLD));
    MTEST_CHECK(unbf(tot) == 0.25f * (float)(mtest_size * (mtest_size + 1)), "Allreduce SUM of bfloat16: %g",
                unbf(tot));
    MTEST_RC(MPI_Allreduce(&mine, &tot, 1, MPIX_BFLOAT16, MPI_MAX, MPI_COMM_WORLD));
    MTEST_CHECK(unbf(tot) == 0.5f * (float)mtest_size, "Allreduce MAX of bfloat16: %g", unbf(tot));

    /* external32: the two bytes, big-endian */
    unsigned char packed[4] = {0};
    MPI_Aint pos = 0;
    uint16_t one = bf(1.0f);   /* 0x3f80 */
    MTEST_RC(MPI_Pack_external("external32", &one, 1, MPIX_BFLOAT16, packed, sizeof packed, &pos));
    MTEST_CHECK(pos == 2 && packed[0] == 0x3f && packed[1] == 0x80, "external32 of bfloat16 1.0: %ld bytes %02x %02x",
                (long)pos, packed[0], packed[1]);
}

#ifdef __FLT16_MAX__
typedef _Float16 half;

static void half_ops(MPI_Datatype t, const char *name)
{
    half a[6] = {1.5f16, -2.0f16, 1000.0f16, 1.0f16, 0.25f16, 65504.0f16};
    half b[6] = {0.25f16, 3.0f16, 0.5f16, 0.00048828125f16 /* 2^-11 */, -8.0f16, 65504.0f16};
    half x[6];
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 6, t, MPI_SUM));
    /* 1000.5 is exact (the spacing there is 0.5); 1 + 2^-11 is the tie between
     * 1 and 1 + 2^-10: even is 1; 65504 + 65504 overflows to infinity */
    MTEST_CHECK(x[0] == 1.75f16 && x[1] == 1.0f16 && x[2] == 1000.5f16 && x[3] == 1.0f16 && x[4] == -7.75f16 &&
                    isinf((float)x[5]),
                "%s SUM: %g %g %g %.9g %g %g", name, (double)x[0], (double)x[1], (double)x[2], (double)x[3],
                (double)x[4], (double)x[5]);
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 5, t, MPI_PROD));
    MTEST_CHECK(x[0] == 0.375f16 && x[1] == -6.0f16 && x[2] == 500.0f16 && x[4] == -2.0f16, "%s PROD: %g %g %g %g",
                name, (double)x[0], (double)x[1], (double)x[2], (double)x[4]);
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 5, t, MPI_MAX));
    MTEST_CHECK(x[0] == 1.5f16 && x[1] == 3.0f16 && x[2] == 1000.0f16 && x[4] == 0.25f16, "%s MAX: %g %g %g %g",
                name, (double)x[0], (double)x[1], (double)x[2], (double)x[4]);
    memcpy(x, b, sizeof x);
    MTEST_RC(MPI_Reduce_local(a, x, 5, t, MPI_MIN));
    MTEST_CHECK(x[0] == 0.25f16 && x[1] == -2.0f16 && x[3] == 0.00048828125f16 && x[4] == -8.0f16,
                "%s MIN: %g %g %g %g", name, (double)x[0], (double)x[1], (double)x[3], (double)x[4]);
    mtest_check_class(MPI_Reduce_local(a, x, 1, t, MPI_BXOR), MPI_ERR_OP, "BXOR on %s", name);
    mtest_check_class(MPI_Reduce_local(a, x, 1, t, MPI_LAND), MPI_ERR_OP, "LAND on %s", name);

    half mine = (half)(mtest_rank + 1) * 0.25f16, tot = 0;
    MTEST_RC(MPI_Allreduce(&mine, &tot, 1, t, MPI_SUM, MPI_COMM_WORLD));
    MTEST_CHECK((float)tot == 0.125f * (float)(mtest_size * (mtest_size + 1)), "%s Allreduce SUM: %g", name,
                (double)tot);
    MTEST_RC(MPI_Allreduce(&mine, &tot, 1, t, MPI_MIN, MPI_COMM_WORLD));
    MTEST_CHECK(tot == 0.25f16, "%s Allreduce MIN: %g", name, (double)tot);
}

static void halves(void)
{
    half_ops(MPIX_C_FLOAT16, "MPIX_C_FLOAT16");
    half_ops(MPI_REAL2, "MPI_REAL2");

    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    half s[3] = {(half)mtest_rank, -0.5f16, 3.0f16}, r[3] = {0};
    MPI_Status st;
    MTEST_RC(MPI_Sendrecv(s, 3, MPIX_C_FLOAT16, right, 4, r, 3, MPIX_C_FLOAT16, left, 4, MPI_COMM_WORLD, &st));
    mtest_check_status(&st, left, 4, MPIX_C_FLOAT16, 3, "Sendrecv of MPIX_C_FLOAT16");
    MTEST_CHECK(r[0] == (half)left && r[1] == -0.5f16 && r[2] == 3.0f16, "float16 message: %g %g %g", (double)r[0],
                (double)r[1], (double)r[2]);

    /* COMPLEX4: (1 + 2i)(3 - i) = 5 + 5i; sums per part */
    half z[4] = {1.0f16, 2.0f16, 0.5f16, 0.5f16}, w[4] = {3.0f16, -1.0f16, 0.25f16, -0.75f16};
    MTEST_RC(MPI_Reduce_local(z, w, 1, MPI_COMPLEX4, MPI_PROD));
    MTEST_CHECK(w[0] == 5.0f16 && w[1] == 5.0f16, "COMPLEX4 PROD: %g%+gi", (double)w[0], (double)w[1]);
    MTEST_RC(MPI_Reduce_local(z + 2, w + 2, 1, MPI_COMPLEX4, MPI_SUM));
    MTEST_CHECK(w[2] == 0.75f16 && w[3] == -0.25f16, "COMPLEX4 SUM: %g%+gi", (double)w[2], (double)w[3]);
    mtest_check_class(MPI_Reduce_local(z, w, 1, MPI_COMPLEX4, MPI_MAX), MPI_ERR_OP, "MAX on MPI_COMPLEX4");

    /* external32: IEEE binary16, big-endian */
    unsigned char packed[4] = {0};
    MPI_Aint pos = 0;
    half one = 1.0f16;   /* 0x3c00 */
    MTEST_RC(MPI_Pack_external("external32", &one, 1, MPIX_C_FLOAT16, packed, sizeof packed, &pos));
    MTEST_CHECK(pos == 2 && packed[0] == 0x3c && packed[1] == 0x00, "external32 of float16 1.0: %ld bytes %02x %02x",
                (long)pos, packed[0], packed[1]);
}
#endif

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    sizes();
    bfloat16();
#ifdef __FLT16_MAX__
    halves();
#else
    if (mtest_rank == 0)
        printf("float16: skipped the half-precision checks: this compiler has no _Float16 "
               "(the bfloat16 ones ran)\n");
#endif
    return mtest_finalize();
}
