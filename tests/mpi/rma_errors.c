/*
 * rma_errors: error classes of one-sided calls under MPI_ERRORS_RETURN set
 * on the window, and the window still usable after each error (a fence
 * epoch with a Put to the right neighbour, checked, follows every case).
 *   - access outside the target's window (self and neighbour; Put, Get,
 *     Accumulate; a displacement past the end, a count that runs over, a
 *     target type whose extent runs over): MPI_ERR_RMA_RANGE, at the
 *     operation or at the call that closes the epoch (the standard lets
 *     either report it), never at neither;
 *   - Put/Get/Accumulate outside any epoch, Win_unlock without Win_lock,
 *     Win_unlock_all without Win_lock_all, Win_complete without
 *     Win_start, Win_wait and Win_test without Win_post, a second
 *     Win_lock of the same target, Win_lock inside lock_all, Win_flush*
 *     and Win_sync outside a passive-target epoch, Rput in a fence epoch:
 *     MPI_ERR_RMA_SYNC;
 *   - an invalid lock type: MPI_ERR_LOCKTYPE; assertion bits that are no
 *     assertion in Win_lock, Win_lock_all, Win_fence, Win_post,
 *     Win_start: MPI_ERR_ASSERT;
 *   - target rank = size and negative in Put, Get, Win_lock, Win_flush:
 *     MPI_ERR_RANK; a negative displacement: MPI_ERR_DISP;
 *   - a user-defined op in Accumulate, Get_accumulate, Fetch_and_op, and
 *     MPI_BAND on doubles: MPI_ERR_OP; different basic types on the origin
 *     and target side of Accumulate, a struct of int and double as the
 *     target type, Compare_and_swap on doubles: MPI_ERR_TYPE;
 *   - Win_free of MPI_WIN_NULL, Put on MPI_WIN_NULL: MPI_ERR_WIN;
 *   - Win_attach/Win_detach on a window that is not dynamic:
 *     MPI_ERR_RMA_FLAVOR; Win_shared_query on a dynamic window:
 *     MPI_ERR_RMA_FLAVOR (MPI-4.0 allows it on Win_create and Win_allocate
 *     windows: success, with size 0 or the segment itself);
 *   - Win_set_errhandler with an error handler made for communicators:
 *     MPI_ERR_ARG.
 * Every failed expectation is printed with the call and the class
 * expected, so that a run under another MPI lists the errors it misses.
 */
#include "rma_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS 64                      /* window bytes */
#define PAD 1024                   /* backing memory on either side: an MPI that
                                    * misses a range error writes there */

static MPI_Win win;                /* Win_create of WS bytes inside backing */
static unsigned char *backing;     /* PAD + WS + PAD bytes */
static int me, np, right, left;
static int usable_round;

/* Collective: a fence epoch in which every rank puts 8 bytes to its right
 * neighbour; the left neighbour's bytes must arrive. */
static void check_usable(const char *after)
{
    usable_round++;
    unsigned char src[8], want[8];
    rma_fill(src, 8, rma_seed(me, right, usable_round));
    rma_fill(want, 8, rma_seed(left, me, usable_round));
    int rc1 = MPI_Win_fence(0, win);
    int rc2 = MPI_Put(src, 8, MPI_BYTE, right, 8, 8, MPI_BYTE, win);
    int rc3 = MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (!MTEST_CHECK(rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS && rc3 == MPI_SUCCESS,
                     "after %s: a correct fence epoch failed (classes %s, %s, %s)", after,
                     rma_class_name(rma_class_of(rc1)), rma_class_name(rma_class_of(rc2)),
                     rma_class_name(rma_class_of(rc3))))
        return;
    rma_compare(backing + PAD + 8, want, 8, "after %s: the Put of a correct epoch", after);
}

/* ---- out of range ----------------------------------------------------------------- */

/* rc_op from the operation, rc_sync from the call that closed its epoch:
 * one of them must be MPI_ERR_RMA_RANGE, the other MPI_SUCCESS (or both
 * the error). */
static void expect_range(int rc_op, int rc_sync, const char *what)
{
    int c1 = rma_class_of(rc_op), c2 = rma_class_of(rc_sync);
    if (c1 == MPI_ERR_RMA_RANGE && (c2 == MPI_SUCCESS || c2 == MPI_ERR_RMA_RANGE))
        return;
    if (c1 == MPI_SUCCESS && c2 == MPI_ERR_RMA_RANGE)
        return;
    mtest_fail("%s: expected MPI_ERR_RMA_RANGE at the operation or at the end of the epoch; the "
               "operation returned %s, the synchronisation %s", what, rma_class_name(c1),
               rma_class_name(c2));
}

static void test_range(void)
{
    unsigned char buf[256];
    memset(buf, 1, sizeof buf);
    int targets[2] = {me, right};
    MPI_Datatype wide;
    MPI_Type_vector(2, 1, 100, MPI_INT, &wide);     /* extent 404 bytes */
    MPI_Type_commit(&wide);
    for (int k = 0; k < (np > 1 ? 2 : 1); k++) {
        int t = targets[k];
        const char *who = k == 0 ? "myself" : "my neighbour";
        char what[160];
        int rc, rs;

        /* fence epochs */
        MTEST_RC(MPI_Win_fence(0, win));
        rc = MPI_Put(buf, 8, MPI_BYTE, t, WS, 8, MPI_BYTE, win);
        rs = MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        snprintf(what, sizeof what, "Put at displacement %d of a %d-byte window of %s (fence)", WS,
                 WS, who);
        expect_range(rc, rs, what);
        check_usable(what);

        MTEST_RC(MPI_Win_fence(0, win));
        rc = MPI_Get(buf, 16, MPI_BYTE, t, WS - 8, 16, MPI_BYTE, win);
        rs = MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        snprintf(what, sizeof what, "Get of 16 bytes at displacement %d of %s (fence)", WS - 8, who);
        expect_range(rc, rs, what);
        check_usable(what);

        /* lock epochs */
        MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        rc = MPI_Accumulate(buf, 4, MPI_INT, t, WS - 8, 4, MPI_INT, MPI_SUM, win);
        rs = MPI_Win_unlock(t, win);
        snprintf(what, sizeof what, "Accumulate of 16 bytes at displacement %d of %s (lock)",
                 WS - 8, who);
        expect_range(rc, rs, what);
        MPI_Barrier(MPI_COMM_WORLD);
        check_usable(what);

        MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        rc = MPI_Put(buf, 2, MPI_INT, t, 0, 1, wide, win);
        rs = MPI_Win_unlock(t, win);
        snprintf(what, sizeof what, "Put with a target type of extent 404 into the %d-byte window "
                 "of %s (lock)", WS, who);
        expect_range(rc, rs, what);
        MPI_Barrier(MPI_COMM_WORLD);
        check_usable(what);

        MTEST_RC(MPI_Win_lock_all(0, win));
        rc = MPI_Put(buf, 1, MPI_BYTE, t, WS + 500, 1, MPI_BYTE, win);
        rs = MPI_Win_flush(t, win);
        int ru = MPI_Win_unlock_all(win);
        snprintf(what, sizeof what, "Put at displacement %d of %s (lock_all, flush)", WS + 500,
                 who);
        expect_range(rc, rs == MPI_SUCCESS ? ru : rs, what);
        MPI_Barrier(MPI_COMM_WORLD);
        check_usable(what);
    }
    MPI_Type_free(&wide);
}

/* ---- synchronisation errors --------------------------------------------------------- */

static void test_sync(void)
{
    int v = 5, res;
    MPI_Request rq;
    MPI_Group g;
    MPI_Win_get_group(win, &g);

    rma_check_class(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
                    "Put outside any epoch");
    rma_check_class(MPI_Get(&res, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
                    "Get outside any epoch");
    rma_check_class(MPI_Accumulate(&v, 1, MPI_INT, me, 0, 1, MPI_INT, MPI_SUM, win),
                    MPI_ERR_RMA_SYNC, "Accumulate outside any epoch");
    rma_check_class(MPI_Fetch_and_op(&v, &res, MPI_INT, me, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC,
                    "Fetch_and_op outside any epoch");
    check_usable("operations outside any epoch");

    rma_check_class(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC, "Win_unlock without Win_lock");
    rma_check_class(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC,
                    "Win_unlock_all without Win_lock_all");
    check_usable("Win_unlock without a lock");

    rma_check_class(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "Win_complete without Win_start");
    check_usable("Win_complete without Win_start");
    rma_check_class(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "Win_wait without Win_post");
    int flag = -1;
    rma_check_class(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC, "Win_test without Win_post");
    check_usable("Win_wait without Win_post");

    /* a second lock of the same target */
    MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    int rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    rma_check_class(rc, MPI_ERR_RMA_SYNC, "a second Win_lock of the same target");
    MTEST_RC(MPI_Put(&v, 1, MPI_INT, right, 4, 1, MPI_INT, win));
    MTEST_RC(MPI_Win_unlock(right, win));
    if (rc == MPI_SUCCESS)          /* taken twice: give it back twice */
        MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    check_usable("a second Win_lock");

    /* Win_lock inside lock_all */
    MTEST_RC(MPI_Win_lock_all(0, win));
    rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    rma_check_class(rc, MPI_ERR_RMA_SYNC, "Win_lock inside a lock_all epoch");
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_usable("Win_lock inside lock_all");

    /* flush and sync outside passive-target epochs */
    rma_check_class(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC, "Win_flush outside an epoch");
    rma_check_class(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC, "Win_flush_all outside an epoch");
    rma_check_class(MPI_Win_flush_local(right, win), MPI_ERR_RMA_SYNC,
                    "Win_flush_local outside an epoch");
    rma_check_class(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC,
                    "Win_flush_local_all outside an epoch");
    rma_check_class(MPI_Win_sync(win), MPI_ERR_RMA_SYNC, "Win_sync outside an epoch");
    /* ... and inside a fence epoch */
    MTEST_RC(MPI_Win_fence(0, win));
    rma_check_class(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC, "Win_flush in a fence epoch");
    rq = MPI_REQUEST_NULL;
    rc = MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq);
    rma_check_class(rc, MPI_ERR_RMA_SYNC, "Rput in a fence epoch");
    if (rc == MPI_SUCCESS && rq != MPI_REQUEST_NULL)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    check_usable("flush and sync outside passive epochs");
    MPI_Group_free(&g);
}

/* ---- arguments ---------------------------------------------------------------------------- */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void test_args(void)
{
    int v = 3, res = 0, rc;
    const int bad_assert = 0x40000000;

    /* lock types and assertions */
    rc = MPI_Win_lock(987654, right, 0, win);
    rma_check_class(rc, MPI_ERR_LOCKTYPE, "Win_lock with lock type 987654");
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    rc = MPI_Win_lock(MPI_LOCK_SHARED, right, bad_assert, win);
    rma_check_class(rc, MPI_ERR_ASSERT, "Win_lock with assert 0x%x", bad_assert);
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    rc = MPI_Win_lock_all(bad_assert, win);
    rma_check_class(rc, MPI_ERR_ASSERT, "Win_lock_all with assert 0x%x", bad_assert);
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    check_usable("bad lock types and lock assertions");
    rc = MPI_Win_fence(bad_assert, win);     /* the same on every rank */
    rma_check_class(rc, MPI_ERR_ASSERT, "Win_fence with assert 0x%x", bad_assert);
    check_usable("Win_fence with a bad assert");
    {
        MPI_Group g;
        MPI_Win_get_group(win, &g);
        rc = MPI_Win_post(g, bad_assert, win);
        rma_check_class(rc, MPI_ERR_ASSERT, "Win_post with assert 0x%x", bad_assert);
        int rc2 = MPI_Win_start(g, bad_assert, win);
        rma_check_class(rc2, MPI_ERR_ASSERT, "Win_start with assert 0x%x", bad_assert);
        /* what was opened anyway must be matched and closed (every rank
         * got the same results) */
        if (rc == MPI_SUCCESS && rc2 != MPI_SUCCESS)
            MPI_Win_start(g, 0, win);
        if (rc != MPI_SUCCESS && rc2 == MPI_SUCCESS)
            MPI_Win_post(g, 0, win);
        if (rc == MPI_SUCCESS || rc2 == MPI_SUCCESS) {
            MPI_Win_complete(win);
            MPI_Win_wait(win);
        }
        MPI_Group_free(&g);
        MPI_Barrier(MPI_COMM_WORLD);
        check_usable("Win_post/Win_start with a bad assert");
    }

    /* ranks */
    MTEST_RC(MPI_Win_fence(0, win));
    rma_check_class(MPI_Put(&v, 1, MPI_INT, np, 0, 1, MPI_INT, win), MPI_ERR_RANK,
                    "Put to rank %d of %d", np, np);
    rma_check_class(MPI_Get(&res, 1, MPI_INT, -7, 0, 1, MPI_INT, win), MPI_ERR_RANK,
                    "Get from rank -7");
    rma_check_class(MPI_Accumulate(&v, 1, MPI_INT, np + 5, 0, 1, MPI_INT, MPI_SUM, win),
                    MPI_ERR_RANK, "Accumulate to rank %d", np + 5);
    MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    check_usable("invalid ranks in operations");
    rc = MPI_Win_lock(MPI_LOCK_SHARED, np, 0, win);
    rma_check_class(rc, MPI_ERR_RANK, "Win_lock of rank %d", np);
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(np, win);
    MTEST_RC(MPI_Win_lock_all(0, win));
    rma_check_class(MPI_Win_flush(np, win), MPI_ERR_RANK, "Win_flush of rank %d", np);
    rma_check_class(MPI_Win_flush_local(-5, win), MPI_ERR_RANK, "Win_flush_local of rank -5");
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_usable("invalid ranks in synchronisation");

    /* a negative displacement */
    MTEST_RC(MPI_Win_fence(0, win));
    rma_check_class(MPI_Put(&v, 1, MPI_INT, me, -1, 1, MPI_INT, win), MPI_ERR_DISP,
                    "Put at displacement -1");
    rma_check_class(MPI_Get(&res, 1, MPI_INT, right, -8, 1, MPI_INT, win), MPI_ERR_DISP,
                    "Get at displacement -8");
    MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    check_usable("negative displacements");

    /* ops and types */
    MPI_Op uop;
    MPI_Op_create(user_sum, 1, &uop);
    double d = 1.5, dres;
    MPI_Datatype mixed;
    {
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct(2, bl, dp, ty, &mixed);
        MPI_Type_commit(&mixed);
    }
    MTEST_RC(MPI_Win_lock_all(0, win));
    rma_check_class(MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, uop, win), MPI_ERR_OP,
                    "Accumulate with a user-defined op");
    rma_check_class(MPI_Get_accumulate(&v, 1, MPI_INT, &res, 1, MPI_INT, right, 0, 1, MPI_INT, uop,
                                       win), MPI_ERR_OP, "Get_accumulate with a user-defined op");
    rma_check_class(MPI_Fetch_and_op(&v, &res, MPI_INT, right, 0, uop, win), MPI_ERR_OP,
                    "Fetch_and_op with a user-defined op");
    /* MPICH 4.0 does not detect it, and the target never completes the
     * operation (the epoch hangs), so it is not tried there */
    if (!MTEST_MPICH_DEVIATION)
        rma_check_class(MPI_Accumulate(&d, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, MPI_BAND, win),
                        MPI_ERR_OP, "Accumulate MPI_BAND on doubles");
    rma_check_class(MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_FLOAT, MPI_SUM, win),
                    MPI_ERR_TYPE, "Accumulate from MPI_INT into MPI_FLOAT");
    /* MPICH 4.0 does not detect it and then aborts in an assertion at the
     * target, so it is not tried there */
    if (!MTEST_MPICH_DEVIATION) {
        unsigned char two[16];
        memset(two, 0, sizeof two);
        rma_check_class(MPI_Accumulate(two, 1, mixed, right, 0, 1, mixed, MPI_SUM, win),
                        MPI_ERR_TYPE, "Accumulate into a struct of int and double");
    }
    rma_check_class(MPI_Compare_and_swap(&d, &d, &dres, MPI_DOUBLE, right, 0, win), MPI_ERR_TYPE,
                    "Compare_and_swap on MPI_DOUBLE");
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_usable("bad ops and types in accumulates");
    MPI_Type_free(&mixed);
    MPI_Op_free(&uop);
}

/* ---- handles, flavors, error handlers ----------------------------------------------------- */

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

static void test_handles(void)
{
    int v = 1;
    MPI_Win nw = MPI_WIN_NULL;
    rma_check_class(MPI_Win_free(&nw), MPI_ERR_WIN, "Win_free of MPI_WIN_NULL");
    rma_check_class(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN,
                    "Put on MPI_WIN_NULL");
    rma_check_class(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN, "Win_fence on MPI_WIN_NULL");

    /* attach and detach need a dynamic window */
    unsigned char extra[32];
    rma_check_class(MPI_Win_attach(win, extra, sizeof extra), MPI_ERR_RMA_FLAVOR,
                    "Win_attach on a Win_create window");
    rma_check_class(MPI_Win_detach(win, backing + PAD), MPI_ERR_RMA_FLAVOR,
                    "Win_detach on a Win_create window");
    void *amem;
    MPI_Win aw;
    MTEST_RC(MPI_Win_allocate(WS, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &aw));
    MPI_Win_set_errhandler(aw, MPI_ERRORS_RETURN);
    rma_check_class(MPI_Win_attach(aw, extra, sizeof extra), MPI_ERR_RMA_FLAVOR,
                    "Win_attach on a Win_allocate window");
    /* MPI-4.0: shared_query on Win_create/Win_allocate windows is
     * allowed; size 0 if the memory cannot be loaded from here */
    MPI_Aint sz = -1;
    int du = -1;
    void *qb = NULL;
    int rc = MPI_Win_shared_query(aw, me, &sz, &du, &qb);
    if (rma_check_class(rc, MPI_SUCCESS, "Win_shared_query on a Win_allocate window"))
        MTEST_CHECK(sz == 0 || (sz == WS && qb == amem && du == 1), "Win_shared_query of my own "
                    "Win_allocate segment: size %ld, unit %d, base %p (mine: %p)", (long)sz, du, qb,
                    amem);
    rc = MPI_Win_shared_query(win, right, &sz, &du, &qb);
    rma_check_class(rc, MPI_SUCCESS, "Win_shared_query on a Win_create window");
    MTEST_RC(MPI_Win_free(&aw));

    MPI_Win dw;
    MTEST_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw));
    MPI_Win_set_errhandler(dw, MPI_ERRORS_RETURN);
    rma_check_class(MPI_Win_shared_query(dw, me, &sz, &du, &qb), MPI_ERR_RMA_FLAVOR,
                    "Win_shared_query on a dynamic window");
    /* the dynamic window itself still works */
    MTEST_RC(MPI_Win_attach(dw, extra, sizeof extra));
    MTEST_RC(MPI_Win_detach(dw, extra));
    MTEST_RC(MPI_Win_free(&dw));

    /* a communicator's error handler is not a window's */
    MPI_Errhandler ceh;
    MTEST_RC(MPI_Comm_create_errhandler(comm_handler, &ceh));
    rma_check_class(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG,
                    "Win_set_errhandler with a communicator's error handler");
    MPI_Errhandler_free(&ceh);
    MPI_Errhandler cur;
    MTEST_RC(MPI_Win_get_errhandler(win, &cur));
    MTEST_CHECK(cur == MPI_ERRORS_RETURN, "the window's error handler changed after a failed "
                "Win_set_errhandler");
    MPI_Errhandler_free(&cur);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    check_usable("handle and flavor errors");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    np = mtest_size;
    right = (me + 1) % np;
    left = (me - 1 + np) % np;
    /* errors without a window (MPI_WIN_NULL) go to MPI_COMM_SELF's handler
     * (MPI-4.0; MPI_COMM_WORLD's before) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    backing = mtest_malloc(PAD + WS + PAD);
    memset(backing, 0, PAD + WS + PAD);
    MTEST_RC(MPI_Win_create(backing + PAD, WS, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MTEST_RC(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    check_usable("creating the window");
    test_range();
    test_sync();
    test_args();
    test_handles();
    MTEST_RC(MPI_Win_free(&win));
    free(backing);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mtest_finalize();
}
