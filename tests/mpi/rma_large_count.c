/*
 * rma_large_count.c - the one-sided _c forms (MPI_Count counts, MPI_Aint
 * disp_unit), every rank against its right neighbour (itself at one process):
 *
 *   windows   Win_create_c, Win_allocate_c, Win_allocate_shared_c with
 *             disp_units 1, 4, 8 and 2^32 (MPI_Aint only); Win_shared_query_c
 *             reports size and disp_unit; the int Win_shared_query of a
 *             disp_unit beyond INT_MAX fails with MPI_ERR_VALUE_TOO_LARGE
 *   moves     Put_c, Get_c, Rput_c, Rget_c of a few thousand bytes, also with
 *             a vector target type; data checked byte for byte
 *   atomics   Accumulate_c (SUM), Raccumulate_c, Get_accumulate_c,
 *             Rget_accumulate_c: values and fetched values checked
 *   errors    negative MPI_Count counts: MPI_ERR_COUNT
 *   big       (argument "big", at least 2 processes) counts above INT_MAX:
 *             rank 0 Put_c, Accumulate_c and Get_c 2^31 + 4099 bytes to and
 *             from rank 1's window; every byte checked. Needs about 4.3 GB.
 */
#include "mtest.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, right, left;

static void check_query(MPI_Win win, int rank, MPI_Aint size, MPI_Aint du, const char *what)
{
    MPI_Aint qsize = -1, qdu = -1;
    void *p = NULL;
    MTEST_RC(MPI_Win_shared_query_c(win, rank, &qsize, &qdu, &p));
    MTEST_CHECK(qsize == size && qdu == du, "%s: Win_shared_query_c(%d) gives size %ld disp_unit %ld, expected %ld %ld",
                what, rank, (long)qsize, (long)qdu, (long)size, (long)du);
}

static void test_windows(void)
{
    /* a shared window with disp_unit 8; each rank's part 64 * (rank + 1) bytes */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int nme, nnp;
    MPI_Comm_rank(node, &nme);
    MPI_Comm_size(node, &nnp);
    MPI_Win win;
    long *mine = NULL;
    MTEST_RC(MPI_Win_allocate_shared_c((MPI_Aint)64 * (nme + 1), 8, MPI_INFO_NULL, node, &mine, &win));
    for (int r = 0; r < nnp; r++)
        check_query(win, r, (MPI_Aint)64 * (r + 1), 8, "allocate_shared_c");
    MPI_Aint qsize;
    int idu = 0;
    void *p;
    MTEST_RC(MPI_Win_shared_query(win, 0, &qsize, &idu, &p));
    MTEST_CHECK(idu == 8, "Win_shared_query: disp_unit %d, expected 8", idu);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);

    /* Win_create_c with a disp_unit beyond an int */
    char buf[16];
    MPI_Aint big_du = (MPI_Aint)1 << 32;
    MTEST_RC(MPI_Win_create_c(buf, sizeof buf, big_du, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    check_query(win, me, sizeof buf, big_du, "create_c");
    int rc = MPI_Win_shared_query(win, me, &qsize, &idu, &p);
    mtest_check_class(rc, MPI_ERR_VALUE_TOO_LARGE, "int Win_shared_query of disp_unit 2^32");
    int *attr = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag);
    MTEST_CHECK(flag && attr && *attr == INT_MAX, "MPI_WIN_DISP_UNIT of disp_unit 2^32: %d", attr ? *attr : -1);
    /* target_disp 0 works whatever the unit */
    memset(buf, 0, sizeof buf);
    char v[16];
    for (int i = 0; i < 16; i++)
        v[i] = (char)(me * 16 + i);
    MPI_Win_fence(0, win);
    MTEST_RC(MPI_Put_c(v, 16, MPI_CHAR, right, 0, 16, MPI_CHAR, win));
    MPI_Win_fence(0, win);
    int bad = 0;
    for (int i = 0; i < 16; i++)
        bad += buf[i] != (char)(left * 16 + i);
    MTEST_CHECK(bad == 0, "Put_c through a window of disp_unit 2^32: %d bytes wrong", bad);
    MPI_Win_free(&win);
}

static void test_moves(void)
{
    enum { N = 3000 };
    const MPI_Aint du = 4;
    unsigned char *wbuf, *obuf = mtest_malloc(N), *gbuf = mtest_malloc(N + MTEST_GUARD);
    MPI_Win win;
    MTEST_RC(MPI_Win_allocate_c(2 * N + 64, du, MPI_INFO_NULL, MPI_COMM_WORLD, &wbuf, &win));
    MPI_Aint qdu = 0, qsize;
    void *qp;
    MTEST_RC(MPI_Win_shared_query_c(win, me, &qsize, &qdu, &qp));   /* any flavor answers for itself */
    MTEST_CHECK(qdu == du, "Win_allocate_c: disp_unit %ld, expected %ld", (long)qdu, (long)du);
    memset(wbuf, 0, 2 * N + 64);
    mtest_fill(obuf, N, me, 1);

    /* Put_c at displacement 4 units, fence */
    MPI_Win_fence(0, win);
    MTEST_RC(MPI_Put_c(obuf, N, MPI_BYTE, right, 4, N, MPI_BYTE, win));
    MPI_Win_fence(0, win);
    mtest_check_data(wbuf + 16, N, left, 1, "Put_c into the window");

    /* Get_c it back from the neighbour's window, and Rget_c, under a lock */
    mtest_poison(gbuf, N, me, 1);
    mtest_guard_set(gbuf + N);
    MTEST_RC(MPI_Get_c(gbuf, N, MPI_BYTE, right, 4, N, MPI_BYTE, win));
    MPI_Win_fence(0, win);
    mtest_check_data(gbuf, N, me, 1, "Get_c of what this rank put");
    mtest_guard_check(gbuf + N, "Get_c guard");

    MPI_Request req;
    mtest_fill(obuf, N, me, 2);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MTEST_RC(MPI_Rput_c(obuf, N, MPI_BYTE, right, 4 + N / 4, N, MPI_BYTE, win, &req));
    MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    mtest_poison(gbuf, N, me, 2);
    MTEST_RC(MPI_Rget_c(gbuf, N, MPI_BYTE, right, 4 + N / 4, N, MPI_BYTE, win, &req));
    MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Win_unlock(right, win);
    mtest_check_data(gbuf, N, me, 2, "Rput_c then Rget_c");

    /* a vector target: 100 blocks of 3 ints, stride 5 */
    MPI_Datatype vec;
    MPI_Type_vector(100, 3, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int ints[300];
    for (int i = 0; i < 300; i++)
        ints[i] = me * 1000 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    memset(wbuf, 0xff, 2 * N + 64);
    MPI_Win_fence(0, win);
    MTEST_RC(MPI_Put_c(ints, 300, MPI_INT, right, 0, 1, vec, win));
    MPI_Win_fence(0, win);
    int *w = (int *)wbuf, bad = 0;
    for (int b = 0; b < 100; b++)
        for (int j = 0; j < 5; j++)
            bad += j < 3 ? w[b * 5 + j] != left * 1000 + b * 3 + j : w[b * 5 + j] != -1;
    MTEST_CHECK(bad == 0, "Put_c into a vector target: %d ints wrong", bad);
    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    free(obuf);
    free(gbuf);
}

static void test_atomics(void)
{
    enum { N = 500 };
    long long *wbuf, add[N], res[N];
    MPI_Win win;
    MTEST_RC(MPI_Win_allocate_c(N * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &wbuf, &win));
    for (int i = 0; i < N; i++) {
        wbuf[i] = 1000000LL * me + i;
        add[i] = 7 + i;
    }
    MPI_Win_fence(0, win);
    MTEST_RC(MPI_Accumulate_c(add, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG, MPI_SUM, win));
    MPI_Win_fence(0, win);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += wbuf[i] != 1000000LL * me + i + 7 + i;
    MTEST_CHECK(bad == 0, "Accumulate_c SUM: %d wrong (wbuf0 %lld)", bad, wbuf[0]);
    MPI_Win_fence(0, win);           /* every rank has checked before the next accumulate lands */

    MTEST_RC(MPI_Get_accumulate_c(add, N, MPI_LONG_LONG, res, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG, MPI_SUM,
                                  win));
    MPI_Win_fence(0, win);
    bad = 0;
    for (int i = 0; i < N; i++) {
        bad += res[i] != 1000000LL * right + i + 7 + i;
        bad += wbuf[i] != 1000000LL * me + i + 2 * (7 + i);
    }
    MTEST_CHECK(bad == 0, "Get_accumulate_c SUM: %d wrong (res0 %lld wbuf0 %lld)", bad, res[0], wbuf[0]);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Request req;
    MPI_Win_lock_all(0, win);
    MTEST_RC(MPI_Raccumulate_c(add, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG, MPI_SUM, win, &req));
    MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MTEST_RC(MPI_Rget_accumulate_c(NULL, 0, MPI_LONG_LONG, res, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG,
                                   MPI_NO_OP, win, &req));
    MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Win_unlock_all(win);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += res[i] != 1000000LL * right + i + 3 * (7 + i);
    MTEST_CHECK(bad == 0, "Raccumulate_c then Rget_accumulate_c NO_OP: %d wrong", bad);

    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    int rc = MPI_Put_c(add, -1, MPI_LONG_LONG, right, 0, 1, MPI_LONG_LONG, win);
    mtest_check_class(rc, MPI_ERR_COUNT, "Put_c with origin_count -1");
    rc = MPI_Accumulate_c(add, 1, MPI_LONG_LONG, right, 0, -5, MPI_LONG_LONG, MPI_SUM, win);
    mtest_check_class(rc, MPI_ERR_COUNT, "Accumulate_c with target_count -5");
    rc = MPI_Get_accumulate_c(add, 1, MPI_LONG_LONG, res, -((MPI_Count)1 << 40), MPI_LONG_LONG, right, 0, 1,
                              MPI_LONG_LONG, MPI_SUM, win);
    mtest_check_class(rc, MPI_ERR_COUNT, "Get_accumulate_c with result_count -2^40");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

/* Counts above INT_MAX: rank 0 against rank 1's window. */
static void test_big(void)
{
    const MPI_Count n = ((MPI_Count)1 << 31) + 4099;
    unsigned char *wbuf = NULL, *obuf = NULL;
    MPI_Win win;
    MPI_Aint size = me == 1 ? (MPI_Aint)n : 0;
    MTEST_RC(MPI_Win_allocate_c(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbuf, &win));
    if (me == 0) {
        obuf = mtest_malloc((size_t)n);
        for (MPI_Count i = 0; i < n; i++)
            obuf[i] = (unsigned char)(i * 7 + (i >> 20));
    }
    MPI_Win_fence(0, win);
    if (me == 0)
        MTEST_RC(MPI_Put_c(obuf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
    MPI_Win_fence(0, win);
    if (me == 0)
        MTEST_RC(MPI_Accumulate_c(obuf, n, MPI_UINT8_T, 1, 0, n, MPI_UINT8_T, MPI_SUM, win));
    MPI_Win_fence(0, win);
    if (me == 1) {
        size_t bad = 0;
        for (MPI_Count i = 0; i < n; i++)
            bad += wbuf[i] != (unsigned char)(2 * (unsigned char)(i * 7 + (i >> 20)));
        MTEST_CHECK(bad == 0, "big Put_c + Accumulate_c: %zu of %lld bytes wrong", bad, (long long)n);
    }
    MPI_Win_fence(0, win);
    if (me == 0) {
        memset(obuf, 0, (size_t)n);
        MTEST_RC(MPI_Get_c(obuf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
    }
    MPI_Win_fence(0, win);
    if (me == 0) {
        size_t bad = 0;
        for (MPI_Count i = 0; i < n; i++)
            bad += obuf[i] != (unsigned char)(2 * (unsigned char)(i * 7 + (i >> 20)));
        MTEST_CHECK(bad == 0, "big Get_c: %zu of %lld bytes wrong", bad, (long long)n);
        free(obuf);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    np = mtest_size;
    right = (me + 1) % np;
    left = (me + np - 1) % np;
    test_windows();
    test_moves();
    test_atomics();
    if (argc > 1 && strcmp(argv[1], "big") == 0 && np >= 2)
        test_big();
    return mtest_finalize();
}
