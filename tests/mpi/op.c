/*
 * op: reduction operations through MPI_Reduce_local and user ops.
 *   - predefined ops on C and Fortran integer, floating (long double too),
 *     complex, bool and byte types, MINLOC/MAXLOC with ties, a vector type
 *     (gaps untouched), a long array;
 *   - ops not defined on a type give MPI_ERR_OP; bad count, type, op and
 *     buffers (MPI_IN_PLACE, NULL) give their classes;
 *   - MPI_Op_create (commutative and not), MPI_Op_commutative, MPI_Op_free
 *     (sets MPI_OP_NULL; predefined ops and MPI_OP_NULL are MPI_ERR_OP);
 *   - a non-commutative user op (2x2 matrix product) called as
 *     fn(in, inout, &len, &datatype): each rank's matrix goes to rank 0,
 *     which folds them from the highest rank down with Reduce_local(lower,
 *     acc), the order collectives use; the product proves in op inout.
 */
#include "mtest.h"

#include <complex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void test_predefined(void)
{
    int a[4] = {1, 2, 3, -4}, b[4] = {10, 20, 30, 40};
    MTEST_RC(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM));
    MTEST_CHECK(b[0] == 11 && b[1] == 22 && b[2] == 33 && b[3] == 36, "SUM int: %d %d %d %d", b[0], b[1], b[2], b[3]);

    double x[3] = {1.5, -2, 7}, y[3] = {1, 3, 7};
    MTEST_RC(MPI_Reduce_local(x, y, 3, MPI_DOUBLE, MPI_MAX));
    MTEST_CHECK(y[0] == 1.5 && y[1] == 3 && y[2] == 7, "MAX double: %g %g %g", y[0], y[1], y[2]);

    unsigned short us[2] = {65535, 300}, ut[2] = {2, 300};
    MTEST_RC(MPI_Reduce_local(us, ut, 2, MPI_UNSIGNED_SHORT, MPI_PROD));
    MTEST_CHECK(ut[0] == 65534 && ut[1] == (unsigned short)90000, "PROD unsigned short wraps: %u %u", ut[0], ut[1]);

    int8_t i8[2] = {-100, 5}, j8[2] = {100, -6};
    MTEST_RC(MPI_Reduce_local(i8, j8, 2, MPI_INT8_T, MPI_MIN));
    MTEST_CHECK(j8[0] == -100 && j8[1] == -6, "MIN int8: %d %d", j8[0], j8[1]);

    int la[3] = {2, 0, 0}, lb[3] = {-5, 3, 0};
    MTEST_RC(MPI_Reduce_local(la, lb, 3, MPI_INT, MPI_LAND));
    MTEST_CHECK(lb[0] == 1 && lb[1] == 0 && lb[2] == 0, "LAND int: %d %d %d", lb[0], lb[1], lb[2]);

    bool ba[4] = {true, true, false, false}, bb[4] = {true, false, true, false};
    MTEST_RC(MPI_Reduce_local(ba, bb, 4, MPI_C_BOOL, MPI_LXOR));
    MTEST_CHECK(!bb[0] && bb[1] && bb[2] && !bb[3], "LXOR bool: %d %d %d %d", bb[0], bb[1], bb[2], bb[3]);

    unsigned char by[2] = {0xf0, 0x0f}, bz[2] = {0xff, 0x0f};
    MTEST_RC(MPI_Reduce_local(by, bz, 2, MPI_BYTE, MPI_BXOR));
    MTEST_CHECK(bz[0] == 0x0f && bz[1] == 0, "BXOR byte: %x %x", bz[0], bz[1]);

    long long ia[2] = {1LL << 40, 3}, ib[2] = {1LL << 41, 12};
    MTEST_RC(MPI_Reduce_local(ia, ib, 2, MPI_LONG_LONG, MPI_BOR));
    MTEST_CHECK(ib[0] == (3LL << 40) && ib[1] == 15, "BOR long long");

    int fa[2] = {6, 7}, fb[2] = {7, 7};
    MTEST_RC(MPI_Reduce_local(fa, fb, 2, MPI_INTEGER, MPI_SUM));
    MTEST_CHECK(fb[0] == 13 && fb[1] == 14, "SUM INTEGER: %d %d", fb[0], fb[1]);

    long double ld[1] = {1e300L}, le[1] = {1e300L};
    MTEST_RC(MPI_Reduce_local(ld, le, 1, MPI_LONG_DOUBLE, MPI_PROD));
    MTEST_CHECK(le[0] == 1e600L, "PROD long double keeps its range");

    double complex ca[1] = {1 + 2 * I}, cb[1] = {3 - 1 * I};
    MTEST_RC(MPI_Reduce_local(ca, cb, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    MTEST_CHECK(creal(cb[0]) == 5 && cimag(cb[0]) == 5, "PROD complex: %g%+gi", creal(cb[0]), cimag(cb[0]));
    float complex fc[1] = {1 + 1 * I}, fd[1] = {2 - 3 * I};
    MTEST_RC(MPI_Reduce_local(fc, fd, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM));
    MTEST_CHECK(crealf(fd[0]) == 3 && cimagf(fd[0]) == -2, "SUM float complex");

    /* MINLOC/MAXLOC: the winner's index; equal values keep the smaller index */
    struct { double v; int i; } da[4] = {{1, 5}, {2, 3}, {3, 0}, {4, 4}}, db[4] = {{1, 2}, {2, 7}, {1, 9}, {4, 1}};
    typeof(db) dc;
    memcpy(dc, db, sizeof db);
    MTEST_RC(MPI_Reduce_local(da, db, 4, MPI_DOUBLE_INT, MPI_MINLOC));
    MTEST_CHECK(db[0].v == 1 && db[0].i == 2 && db[1].v == 2 && db[1].i == 3 && db[2].v == 1 && db[2].i == 9 &&
                    db[3].v == 4 && db[3].i == 1,
                "MINLOC double_int: (%g,%d) (%g,%d) (%g,%d) (%g,%d)", db[0].v, db[0].i, db[1].v, db[1].i, db[2].v,
                db[2].i, db[3].v, db[3].i);
    MTEST_RC(MPI_Reduce_local(da, dc, 4, MPI_DOUBLE_INT, MPI_MAXLOC));
    MTEST_CHECK(dc[0].i == 2 && dc[1].i == 3 && dc[2].v == 3 && dc[2].i == 0 && dc[3].i == 1, "MAXLOC double_int");
    int p2[4] = {5, 8, 5, 1}, q2[4] = {5, 3, 6, 0};
    MTEST_RC(MPI_Reduce_local(p2, q2, 2, MPI_2INT, MPI_MAXLOC));
    MTEST_CHECK(q2[0] == 5 && q2[1] == 3 && q2[2] == 6 && q2[3] == 0, "MAXLOC 2int");
    struct { long double v; int i; } lp[1] = {{-1, 3}}, lq[1] = {{-1, 8}};
    MTEST_RC(MPI_Reduce_local(lp, lq, 1, MPI_LONG_DOUBLE_INT, MPI_MINLOC));
    MTEST_CHECK(lq[0].v == -1 && lq[0].i == 3, "MINLOC long_double_int tie");

    /* many elements: the vector loops and their tails */
    int n = 1001;
    long *u = mtest_malloc(n * sizeof *u), *v = mtest_malloc(n * sizeof *v);
    for (int i = 0; i < n; i++)
        u[i] = i * 3 - 500, v[i] = 7 - i;
    MTEST_RC(MPI_Reduce_local(u, v, n, MPI_LONG, MPI_SUM));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += v[i] != 2L * i - 493;
    MTEST_CHECK(bad == 0, "SUM long over %d elements: %d wrong", n, bad);
    free(u);
    free(v);

    /* count 0 touches nothing */
    int z = 42;
    MTEST_RC(MPI_Reduce_local(a, &z, 0, MPI_INT, MPI_SUM));
    MTEST_CHECK(z == 42, "count 0 changed inoutbuf");
}

/* A vector type: the op applies to the data, not to the gaps. */
static void test_derived(void)
{
    MPI_Datatype vec;
    MTEST_RC(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    MTEST_RC(MPI_Type_commit(&vec));
    int in[2 * 14], io[2 * 14];          /* extent = (2 * 4 + 2) ints = 10; two elements span 20 */
    for (int i = 0; i < 28; i++)
        in[i] = i, io[i] = 1000 + i;
    /* MPICH 4.0 refuses MPI_SUM on this vector of ints (MPI_ERR_OP); a type
     * made of one predefined type reduces as that type. */
    if (!MTEST_MPICH_DEVIATION) {
        MTEST_RC(MPI_Reduce_local(in, io, 2, vec, MPI_SUM));
        int bad = 0;
        for (int i = 0; i < 28; i++) {
            int r = i % 10;
            bool data = i < 20 && (r % 4) < 2;
            bad += io[i] != (data ? 1000 + 2 * i : 1000 + i);
        }
        MTEST_CHECK(bad == 0, "SUM on vector(3, 2, 4, MPI_INT): %d ints wrong", bad);
    }
    int rc = MPI_Reduce_local(in, io, 1, vec, MPI_MINLOC);
    mtest_check_class(rc, MPI_ERR_OP, "MINLOC on a vector of int");
    MTEST_RC(MPI_Type_free(&vec));

    /* an uncommitted type is MPI_ERR_TYPE (MPICH says MPI_ERR_OP, as above) */
    MPI_Datatype raw;
    MTEST_RC(MPI_Type_contiguous(2, MPI_INT, &raw));
    rc = MPI_Reduce_local(in, io, 1, raw, MPI_SUM);
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(rc, MPI_ERR_TYPE, "Reduce_local with an uncommitted type");
    MTEST_RC(MPI_Type_free(&raw));
}

static void test_errors(void)
{
    int a[4] = {0}, b[4] = {0};
    float f[2] = {1, 2}, g[2] = {1, 2};
    bool c[2] = {true, false}, d[2] = {true, true};
    double complex z[1] = {1}, w[1] = {2};
    int rc;
    rc = MPI_Reduce_local(c, d, 2, MPI_C_BOOL, MPI_SUM);
    mtest_check_class(rc, MPI_ERR_OP, "SUM on MPI_C_BOOL");
    MTEST_CHECK(d[0] && d[1], "a refused op changed inoutbuf");
    rc = MPI_Reduce_local(f, g, 2, MPI_FLOAT, MPI_BAND);
    mtest_check_class(rc, MPI_ERR_OP, "BAND on MPI_FLOAT");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 aborts here (assertion in oplor.c) */
        rc = MPI_Reduce_local(f, g, 2, MPI_FLOAT, MPI_LOR);
        mtest_check_class(rc, MPI_ERR_OP, "LOR on MPI_FLOAT");
    }
    rc = MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MINLOC);
    mtest_check_class(rc, MPI_ERR_OP, "MINLOC on MPI_INT");
    rc = MPI_Reduce_local(z, w, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX);
    mtest_check_class(rc, MPI_ERR_OP, "MAX on MPI_C_DOUBLE_COMPLEX");
    rc = MPI_Reduce_local(a, b, 2, MPI_DOUBLE_INT, MPI_SUM);
    mtest_check_class(rc, MPI_ERR_OP, "SUM on MPI_DOUBLE_INT");
    rc = MPI_Reduce_local(a, b, 4, MPI_BYTE, MPI_SUM);
    mtest_check_class(rc, MPI_ERR_OP, "SUM on MPI_BYTE");
    rc = MPI_Reduce_local(a, b, 2, MPI_INT, MPI_OP_NULL);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_OP_NULL");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 calls through a NULL pointer here */
        rc = MPI_Reduce_local(a, b, 2, MPI_INT, (MPI_Op)0x5800007f);
        mtest_check_class(rc, MPI_ERR_OP, "a garbage op handle");
    }
    /* MPI_REPLACE and MPI_NO_OP are for the accumulate functions only (MPI-4 12.3.4) */
    rc = MPI_Reduce_local(a, b, 2, MPI_INT, MPI_REPLACE);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_REPLACE in Reduce_local");
    rc = MPI_Reduce_local(a, b, 2, MPI_INT, MPI_NO_OP);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_NO_OP in Reduce_local");
    rc = MPI_Reduce_local(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM);
    mtest_check_class(rc, MPI_ERR_BUFFER, "MPI_IN_PLACE as inbuf");
    rc = MPI_Reduce_local(a, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM);
    mtest_check_class(rc, MPI_ERR_BUFFER, "MPI_IN_PLACE as inoutbuf");
    /* MPICH 4.0 checks neither the count nor NULL buffers (it crashes), and
     * calls MPI_DATATYPE_NULL an MPI_ERR_OP */
    if (!MTEST_MPICH_DEVIATION) {
        rc = MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM);
        mtest_check_class(rc, MPI_ERR_COUNT, "negative count");
        rc = MPI_Reduce_local(NULL, b, 2, MPI_INT, MPI_SUM);
        mtest_check_class(rc, MPI_ERR_BUFFER, "NULL inbuf");
        rc = MPI_Reduce_local(a, NULL, 2, MPI_INT, MPI_SUM);
        mtest_check_class(rc, MPI_ERR_BUFFER, "NULL inoutbuf");
        rc = MPI_Reduce_local(a, b, 2, MPI_DATATYPE_NULL, MPI_SUM);
        mtest_check_class(rc, MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    }
    /* MPI_CHAR reduces as a signed 8-bit integer (an extension, as in MPICH
     * and Open MPI: MPI-4 6.9.2 counts it as text); MPI_WCHAR takes no op */
    char s[2] = {-3, 'a'}, t[2] = {5, 'b'};
    MTEST_RC(MPI_Reduce_local(s, t, 2, MPI_CHAR, MPI_MAX));
    MTEST_CHECK(t[0] == 5 && t[1] == 'b', "MAX on MPI_CHAR: %d %d", t[0], t[1]);
    int wa[1] = {'a'}, wb[1] = {'b'};
    rc = MPI_Reduce_local(wa, wb, 1, MPI_WCHAR, MPI_MAX);
    mtest_check_class(rc, MPI_ERR_OP, "MAX on MPI_WCHAR");
}

/* ---- user ops ------------------------------------------------------------ */

static int calls;
static MPI_Datatype seen_type;
static int seen_len;

/* 2x2 integer matrices (4 ints, row-major) as a contiguous type: inout = in * inout. */
static void matmul(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    calls++;
    seen_type = *dt;
    seen_len = *len;
    const int *a = invec;
    int *b = inoutvec;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                    a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof r);
    }
}

static void matmul_ref(const int *a, int *b)
{
    int r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
    memcpy(b, r, sizeof r);
}

static void my_max_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *dt)
{
    calls++;
    seen_type = *dt;
    seen_len = (int)*len;
    for (MPI_Count i = 0; i < *len; i++)
        if (((int *)invec)[i] > ((int *)inoutvec)[i])
            ((int *)inoutvec)[i] = ((int *)invec)[i];
}

static void rank_matrix(int r, int m[4])
{
    m[0] = 1, m[1] = r + 1, m[2] = r % 3 - 1, m[3] = 2;   /* no two ranks' matrices commute */
}

static void test_user_ops(void)
{
    MPI_Datatype mat;
    MPI_Op op, opc;
    int commute = -1;
    MTEST_RC(MPI_Type_contiguous(4, MPI_INT, &mat));
    MTEST_RC(MPI_Type_commit(&mat));
    MTEST_RC(MPI_Op_create(matmul, 0, &op));
    MTEST_RC(MPI_Op_commutative(op, &commute));
    MTEST_CHECK(commute == 0, "matmul op commutative = %d, want 0", commute);
    MTEST_RC(MPI_Op_create_c(my_max_c, 1, &opc));
    MTEST_RC(MPI_Op_commutative(opc, &commute));
    MTEST_CHECK(commute == 1, "max op commutative = %d, want 1", commute);
    MTEST_RC(MPI_Op_commutative(MPI_SUM, &commute));
    MTEST_CHECK(commute == 1, "MPI_SUM commutative = %d, want 1", commute);
    MTEST_RC(MPI_Op_commutative(MPI_MINLOC, &commute));
    MTEST_CHECK(commute == 1, "MPI_MINLOC commutative = %d, want 1", commute);
    MTEST_RC(MPI_Op_commutative(MPI_REPLACE, &commute));   /* a op b = b */
    MTEST_CHECK(commute == 0, "MPI_REPLACE commutative = %d, want 0", commute);

    /* called with (in, inout, &len, &datatype): the user's type, count 2 */
    int a[8] = {1, 2, 3, 4, 0, 1, 1, 0}, b[8] = {5, 6, 7, 8, 2, 0, 0, 3};
    int want[8];
    memcpy(want, b, sizeof b);
    matmul_ref(a, want);
    matmul_ref(a + 4, want + 4);
    calls = 0;
    MTEST_RC(MPI_Reduce_local(a, b, 2, mat, op));
    MTEST_CHECK(calls == 1 && seen_len == 2 && seen_type == mat, "user fn: %d calls, len %d, type ok %d", calls,
                seen_len, seen_type == mat);
    MTEST_CHECK(memcmp(b, want, sizeof b) == 0, "Reduce_local(in, inout) = in * inout: got [%d %d %d %d]", b[0], b[1],
                b[2], b[3]);
    int c[3] = {4, 9, -1}, d[3] = {5, 2, -3};
    MTEST_RC(MPI_Reduce_local(c, d, 3, MPI_INT, opc));
    MTEST_CHECK(d[0] == 5 && d[1] == 9 && d[2] == -1 && seen_len == 3 && seen_type == MPI_INT,
                "MPI_Op_create_c op: %d %d %d", d[0], d[1], d[2]);

    /* rank 0 folds every rank's matrix, highest rank first: acc = m(r) * acc */
    int m[4];
    rank_matrix(rank, m);
    if (rank != 0) {
        MTEST_RC(MPI_Send(m, 1, mat, 0, 7, MPI_COMM_WORLD));
    } else {
        int *all = mtest_malloc(4 * sizeof(int) * size);
        memcpy(all, m, sizeof m);
        for (int r = 1; r < size; r++)
            MTEST_RC(MPI_Recv(all + 4 * r, 1, mat, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int acc[4], ref[4];
        memcpy(acc, all + 4 * (size - 1), sizeof acc);
        memcpy(ref, acc, sizeof ref);
        for (int r = size - 2; r >= 0; r--) {
            MTEST_RC(MPI_Reduce_local(all + 4 * r, acc, 1, mat, op));
            matmul_ref(all + 4 * r, ref);
        }
        MTEST_CHECK(memcmp(acc, ref, sizeof acc) == 0, "product over %d ranks: [%d %d %d %d] want [%d %d %d %d]", size,
                    acc[0], acc[1], acc[2], acc[3], ref[0], ref[1], ref[2], ref[3]);
        free(all);
    }

    /* free: the handle becomes MPI_OP_NULL; predefined ops and MPI_OP_NULL are errors */
    MPI_Op old = op;
    MTEST_RC(MPI_Op_free(&op));
    MTEST_CHECK(op == MPI_OP_NULL, "MPI_Op_free left 0x%x, want MPI_OP_NULL", (unsigned)op);
    int rc = MPI_Op_free(&op);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_Op_free(MPI_OP_NULL)");
    MPI_Op sum = MPI_SUM;
    rc = MPI_Op_free(&sum);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_Op_free(MPI_SUM)");
    MTEST_CHECK(sum == MPI_SUM, "a refused MPI_Op_free changed the handle");
    rc = MPI_Op_commutative(MPI_OP_NULL, &commute);
    mtest_check_class(rc, MPI_ERR_OP, "MPI_Op_commutative(MPI_OP_NULL)");
    rc = MPI_Reduce_local(a, b, 1, mat, old);
    if (!MTEST_MPICH_DEVIATION)   /* MPICH 4.0 does not notice a freed op here */
        mtest_check_class(rc, MPI_ERR_OP, "Reduce_local with a freed op");
    MTEST_RC(MPI_Op_free(&opc));
    MTEST_RC(MPI_Type_free(&mat));

    /* many create/free cycles: handles are reused, nothing leaks */
    for (int i = 0; i < 1000; i++) {
        MPI_Op t;
        MTEST_RC(MPI_Op_create(matmul, i & 1, &t));
        MTEST_RC(MPI_Op_free(&t));
    }
    /* an op left alive is freed by MPI_Finalize */
    MPI_Op leak;
    MTEST_RC(MPI_Op_create(matmul, 1, &leak));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* errors of calls without a communicator go to MPI_COMM_WORLD's handler
     * here (MPI-4: MPI_COMM_SELF's): return them from both */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_predefined();
    test_derived();
    test_errors();
    test_user_ops();
    return mtest_finalize();
}
