/*
 * grequest: generalized requests (MPI_Grequest_start/_complete).
 *
 * Each request's callbacks log what they are called with, so the checks
 * can say exactly when and how often: query_fn only once the request is
 * complete, by the wait or test call that completes it (and by every
 * MPI_Request_get_status of a complete request), with a status it may fill
 * (also when the program passed MPI_STATUS_IGNORE); free_fn exactly once,
 * right after that query_fn, or at the later of MPI_Request_free and
 * MPI_Grequest_complete; cancel_fn at MPI_Cancel, told whether the request
 * was already complete; extra_state passed through unchanged.
 * Covered: Wait, Test (completed from inside a loop of Test), Waitall,
 * Testall, Waitany, Testany, Waitsome, Testsome, Request_get_status,
 * Request_free before and after completion, Cancel before and after
 * completion; Waitall/Waitsome mixing generalized requests with
 * Isend/Irecv around the ring; statuses written by query_fn (source, tag,
 * element count through MPI_Status_set_elements, cancelled flag through
 * MPI_Status_set_cancelled); errors returned by query_fn and free_fn come
 * back from Wait/Waitany/Request_free, and as MPI_ERR_IN_STATUS with the
 * error in MPI_ERROR of that request's status from Waitall/Testsome, other
 * statuses MPI_SUCCESS; MPI_Grequest_complete of MPI_REQUEST_NULL, of a
 * request twice, of a point-to-point request: MPI_ERR_REQUEST.
 */
#include "mtest.h"

#include <stdio.h>
#include <string.h>

typedef struct greq {
    int id;
    int query_rc, free_rc, cancel_rc;     /* what the callbacks return */
    int source, tag, elements;            /* what query_fn writes */
    int nquery, nfree, ncancel, cancel_complete;
    int cancelled;                        /* set by cancel_fn, reported by query_fn */
    MPI_Request handle;
} greq_t;

/* One log of every callback of the test, in order: "Q1 F1 C2(1) ..." */
static char cblog[4096];

static void log_event(char what, int id, int arg)
{
    size_t n = strlen(cblog);
    if (n + 16 < sizeof cblog)
        snprintf(cblog + n, sizeof cblog - n, arg >= 0 ? "%c%d(%d) " : "%c%d ", what, id, arg);
}

static int query_fn(void *extra, MPI_Status *st)
{
    greq_t *g = extra;
    g->nquery++;
    log_event('Q', g->id, -1);
    if (!st || st == MPI_STATUS_IGNORE) {
        mtest_fail("query_fn of request %d got status %p", g->id, (void *)st);
        return MPI_ERR_INTERN;
    }
    st->MPI_SOURCE = g->source;
    st->MPI_TAG = g->tag;
    MPI_Status_set_elements(st, MPI_INT, g->elements);
    MPI_Status_set_cancelled(st, g->cancelled);
    return g->query_rc;
}

static int free_fn(void *extra)
{
    greq_t *g = extra;
    g->nfree++;
    log_event('F', g->id, -1);
    if (g->nquery == 0 && g->free_rc == -1)
        mtest_fail("free_fn of request %d before its query_fn", g->id);
    return g->free_rc == -1 ? MPI_SUCCESS : g->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    greq_t *g = extra;
    g->ncancel++;
    g->cancel_complete = complete;
    g->cancelled = 1;
    log_event('C', g->id, complete);
    return g->cancel_rc;
}

static void start(greq_t *g, int id)
{
    memset(g, 0, sizeof *g);
    g->id = id;
    g->source = 100 + id;
    g->tag = 200 + id;
    g->elements = id + 1;
    g->free_rc = -1;                 /* -1: success, and free_fn checks the order */
    MTEST_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, &g->handle));
    MTEST_CHECK(g->handle != MPI_REQUEST_NULL, "Grequest_start gave MPI_REQUEST_NULL");
}

static void expect_calls(const greq_t *g, int q, int f, int c, const char *what)
{
    MTEST_CHECK(g->nquery == q && g->nfree == f && g->ncancel == c,
                "%s: request %d: query_fn %d times, free_fn %d, cancel_fn %d; want %d, %d, %d (log: %s)", what,
                g->id, g->nquery, g->nfree, g->ncancel, q, f, c, cblog);
}

static void expect_status(const MPI_Status *st, const greq_t *g, const char *what)
{
    int n = -1, flag = -1;
    MPI_Get_count(st, MPI_INT, &n);
    MPI_Test_cancelled(st, &flag);
    MTEST_CHECK(st->MPI_SOURCE == g->source && st->MPI_TAG == g->tag && n == g->elements && flag == g->cancelled,
                "%s: status of request %d: source %d tag %d count %d cancelled %d; want %d %d %d %d", what, g->id,
                st->MPI_SOURCE, st->MPI_TAG, n, flag, g->source, g->tag, g->elements, g->cancelled);
}

static void expect_log(const char *want, const char *what)
{
    MTEST_CHECK(strcmp(cblog, want) == 0, "%s: callbacks '%s', want '%s'", what, cblog, want);
    cblog[0] = 0;
}

static void test_wait_and_test(void)
{
    greq_t a;
    MPI_Status st;
    int flag = -1;
    cblog[0] = 0;
    start(&a, 1);
    MTEST_RC(MPI_Test(&a.handle, &flag, &st));
    MTEST_CHECK(flag == 0, "Test of an incomplete generalized request: flag %d", flag);
    MTEST_RC(MPI_Request_get_status(a.handle, &flag, &st));
    MTEST_CHECK(flag == 0, "Request_get_status of an incomplete one: flag %d", flag);
    expect_calls(&a, 0, 0, 0, "before completion");
    MTEST_RC(MPI_Grequest_complete(a.handle));
    expect_calls(&a, 0, 0, 0, "MPI_Grequest_complete alone");
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Wait(&a.handle, &st));
    expect_calls(&a, 1, 1, 0, "Wait");
    expect_status(&st, &a, "Wait");
    MTEST_CHECK(a.handle == MPI_REQUEST_NULL, "Wait left the handle 0x%x", (unsigned)a.handle);
    expect_log("Q1 F1 ", "Wait");

    /* completed from inside a loop of Test, status ignored */
    start(&a, 2);
    int i, done = 0;
    for (i = 0; i < 20 && !done; i++) {
        if (i == 7)
            MTEST_RC(MPI_Grequest_complete(a.handle));
        MTEST_RC(MPI_Test(&a.handle, &done, MPI_STATUS_IGNORE));
        if (!done && a.nquery + a.nfree)
            mtest_fail("callbacks ran in Test %d before completion", i);
    }
    MTEST_CHECK(done && i == 8, "Test loop: done %d after %d calls, want after 8", done, i);
    expect_calls(&a, 1, 1, 0, "Test loop");
    expect_log("Q2 F2 ", "Test loop");

    /* Request_get_status asks query_fn every time, frees nothing */
    start(&a, 3);
    MTEST_RC(MPI_Grequest_complete(a.handle));
    for (int k = 0; k < 3; k++) {
        mtest_status_garbage(&st);
        MTEST_RC(MPI_Request_get_status(a.handle, &flag, &st));
        MTEST_CHECK(flag == 1, "Request_get_status of a complete one: flag %d", flag);
        expect_status(&st, &a, "Request_get_status");
    }
    MTEST_RC(MPI_Request_get_status(a.handle, &flag, MPI_STATUS_IGNORE));
    expect_calls(&a, 4, 0, 0, "Request_get_status x4");
    MTEST_RC(MPI_Test(&a.handle, &flag, &st));
    MTEST_CHECK(flag == 1, "Test after Request_get_status: flag %d", flag);
    expect_calls(&a, 5, 1, 0, "Test after Request_get_status");
    expect_status(&st, &a, "Test");
    expect_log("Q3 Q3 Q3 Q3 Q3 F3 ", "Request_get_status");
}

static void test_free(void)
{
    greq_t a, b;
    cblog[0] = 0;
    /* freed first: free_fn waits for MPI_Grequest_complete; query_fn never runs */
    start(&a, 4);
    MPI_Request keep = a.handle;
    a.free_rc = MPI_SUCCESS;         /* no query_fn will come before it */
    MTEST_RC(MPI_Request_free(&a.handle));
    MTEST_CHECK(a.handle == MPI_REQUEST_NULL, "Request_free left the handle");
    if (!MTEST_MPICH_DEVIATION)     /* MPICH 4.0 calls free_fn at once */
        expect_calls(&a, 0, 0, 0, "Request_free of an incomplete one");
    MTEST_RC(MPI_Grequest_complete(keep));
    expect_calls(&a, 0, 1, 0, "Grequest_complete after Request_free");
    /* complete first: free_fn at Request_free */
    start(&b, 5);
    b.free_rc = MPI_SUCCESS;
    MTEST_RC(MPI_Grequest_complete(b.handle));
    expect_calls(&b, 0, 0, 0, "Grequest_complete");
    MTEST_RC(MPI_Request_free(&b.handle));
    expect_calls(&b, 0, 1, 0, "Request_free of a complete one");
    expect_log("F4 F5 ", "Request_free");
}

static void test_cancel(void)
{
    greq_t a;
    MPI_Status st;
    int flag = -1;
    cblog[0] = 0;
    start(&a, 6);
    MTEST_RC(MPI_Cancel(&a.handle));
    MTEST_CHECK(a.ncancel == 1 && a.cancel_complete == 0, "Cancel before completion: cancel_fn %d times, complete %d",
                a.ncancel, a.cancel_complete);
    MTEST_RC(MPI_Test(&a.handle, &flag, &st));
    MTEST_CHECK(flag == 0, "a cancelled generalized request completed without MPI_Grequest_complete");
    MTEST_RC(MPI_Grequest_complete(a.handle));
    MTEST_RC(MPI_Wait(&a.handle, &st));
    MTEST_RC(MPI_Test_cancelled(&st, &flag));
    MTEST_CHECK(flag == 1, "query_fn reported the request cancelled, Test_cancelled says %d", flag);
    expect_calls(&a, 1, 1, 1, "Cancel, complete, Wait");
    start(&a, 7);
    MTEST_RC(MPI_Grequest_complete(a.handle));
    MTEST_RC(MPI_Cancel(&a.handle));
    MTEST_CHECK(a.cancel_complete == 1, "Cancel after completion: complete %d", a.cancel_complete);
    MTEST_RC(MPI_Wait(&a.handle, MPI_STATUS_IGNORE));
    expect_calls(&a, 1, 1, 1, "complete, Cancel, Wait");
    expect_log("C6(0) Q6 F6 C7(1) Q7 F7 ", "Cancel");
}

/* Waitall/Testall/Waitsome/Testsome/Waitany/Testany on generalized
 * requests and a receive and a send around the ring. */
static void test_many(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    greq_t g[4];
    MPI_Request rq[6];
    MPI_Status st[6];
    int inbuf[4] = {0}, outbuf[4] = {1, 2, 3, 4}, flag = -1;
    cblog[0] = 0;
    for (int i = 0; i < 3; i++)
        start(&g[i], 10 + i);
    MTEST_RC(MPI_Irecv(inbuf, 4, MPI_INT, left, 9, MPI_COMM_WORLD, &rq[0]));
    rq[1] = g[0].handle;
    rq[2] = g[1].handle;
    MTEST_RC(MPI_Isend(outbuf, 4, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[3]));
    rq[4] = MPI_REQUEST_NULL;
    rq[5] = g[2].handle;
    MTEST_RC(MPI_Testall(6, rq, &flag, st));
    MTEST_CHECK(flag == 0, "Testall with incomplete generalized requests: flag %d", flag);
    for (int i = 0; i < 3; i++) {
        expect_calls(&g[i], 0, 0, 0, "Testall, incomplete");
        MTEST_RC(MPI_Grequest_complete(g[i].handle));
    }
    MTEST_RC(MPI_Waitall(6, rq, st));
    for (int i = 0; i < 3; i++)
        expect_calls(&g[i], 1, 1, 0, "Waitall");
    expect_status(&st[1], &g[0], "Waitall [1]");
    expect_status(&st[2], &g[1], "Waitall [2]");
    expect_status(&st[5], &g[2], "Waitall [5]");
    int n = -1;
    MPI_Get_count(&st[0], MPI_INT, &n);
    MTEST_CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 9 && n == 4 && inbuf[3] == 4,
                "Waitall: the receive's status source %d tag %d count %d", st[0].MPI_SOURCE, st[0].MPI_TAG, n);
    for (int i = 0; i < 6; i++)
        MTEST_CHECK(rq[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);

    /* Waitsome: two of three complete */
    for (int i = 0; i < 3; i++)
        start(&g[i], 20 + i);
    for (int i = 0; i < 3; i++)
        rq[i] = g[i].handle;
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    MTEST_RC(MPI_Grequest_complete(g[2].handle));
    int out = -1, idx[3] = {-1, -1, -1};
    MTEST_RC(MPI_Waitsome(3, rq, &out, idx, st));
    MTEST_CHECK(out == 2 && idx[0] == 0 && idx[1] == 2, "Waitsome: %d done, indices %d %d", out, idx[0], idx[1]);
    if (out == 2) {
        expect_status(&st[0], &g[0], "Waitsome [0]");
        expect_status(&st[1], &g[2], "Waitsome [1]");
    }
    expect_calls(&g[1], 0, 0, 0, "Waitsome, incomplete one");
    MTEST_RC(MPI_Testsome(3, rq, &out, idx, st));
    MTEST_CHECK(out == 0, "Testsome with nothing complete: outcount %d", out);
    int index = -1;
    MTEST_RC(MPI_Testany(3, rq, &index, &flag, &st[0]));
    MTEST_CHECK(flag == 0 && index == MPI_UNDEFINED, "Testany with nothing complete: flag %d index %d", flag, index);
    MTEST_RC(MPI_Grequest_complete(g[1].handle));
    MTEST_RC(MPI_Waitany(3, rq, &index, &st[0]));
    MTEST_CHECK(index == 1, "Waitany: index %d, want 1", index);
    expect_status(&st[0], &g[1], "Waitany");
    for (int i = 0; i < 3; i++)
        expect_calls(&g[i], 1, 1, 0, "Waitsome + Waitany");

    start(&g[3], 30);
    rq[0] = MPI_REQUEST_NULL;
    rq[1] = g[3].handle;
    MTEST_RC(MPI_Grequest_complete(g[3].handle));
    MTEST_RC(MPI_Testany(2, rq, &index, &flag, &st[0]));
    MTEST_CHECK(flag == 1 && index == 1, "Testany: flag %d index %d", flag, index);
    expect_status(&st[0], &g[3], "Testany");
    expect_calls(&g[3], 1, 1, 0, "Testany");
}

/* Errors returned by the callbacks. */
static void test_errors(void)
{
    greq_t g[3];
    MPI_Request rq[4];
    MPI_Status st[4];
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    int inbuf = 0, outbuf = 5;
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* Wait returns query_fn's error */
    start(&g[0], 40);
    g[0].query_rc = MPI_ERR_UNSUPPORTED_OPERATION;
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    mtest_check_class(MPI_Wait(&g[0].handle, &st[0]), MPI_ERR_UNSUPPORTED_OPERATION, "Wait, query_fn fails");
    expect_calls(&g[0], 1, 1, 0, "Wait with a failing query_fn");
    /* and free_fn's when query_fn succeeds */
    start(&g[0], 41);
    g[0].free_rc = MPI_ERR_NO_SPACE;
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    mtest_check_class(MPI_Wait(&g[0].handle, MPI_STATUS_IGNORE), MPI_ERR_NO_SPACE, "Wait, free_fn fails");
    expect_calls(&g[0], 1, 1, 0, "Wait with a failing free_fn");
    MTEST_CHECK(g[0].handle == MPI_REQUEST_NULL, "a failed Wait left the generalized request");

    /* Waitall: MPI_ERR_IN_STATUS, the error in that status only */
    start(&g[0], 42);
    start(&g[1], 43);
    g[1].query_rc = MPI_ERR_OTHER;
    MTEST_RC(MPI_Irecv(&inbuf, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &rq[0]));
    rq[1] = g[0].handle;
    rq[2] = g[1].handle;
    MTEST_RC(MPI_Isend(&outbuf, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &rq[3]));
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    MTEST_RC(MPI_Grequest_complete(g[1].handle));
    for (int i = 0; i < 4; i++)
        st[i].MPI_ERROR = -77;
    int rc = MPI_Waitall(4, rq, st);
    mtest_check_class(rc, MPI_ERR_IN_STATUS, "Waitall with a failing query_fn");
    int cls = -1;
    MPI_Error_class(st[2].MPI_ERROR, &cls);
    MTEST_CHECK(cls == MPI_ERR_OTHER, "Waitall: status of the failing request has error %d (class %d)",
                st[2].MPI_ERROR, cls);
    /* The others succeeded, or (MPICH 4.0 stops at the error) are MPI_ERR_PENDING and still active. */
    for (int i = 0; i < 4; i++) {
        if (i == 2)
            continue;
        int pending = st[i].MPI_ERROR == MPI_ERR_PENDING && rq[i] != MPI_REQUEST_NULL;
        MTEST_CHECK(pending || (st[i].MPI_ERROR == MPI_SUCCESS && rq[i] == MPI_REQUEST_NULL),
                    "Waitall: request %d: status error %d, handle 0x%x", i, st[i].MPI_ERROR, (unsigned)rq[i]);
        if (!MTEST_MPICH_DEVIATION)
            MTEST_CHECK(!pending, "Waitall left request %d pending", i);
        if (pending)
            MTEST_RC(MPI_Wait(&rq[i], &st[i]));
    }
    expect_status(&st[1], &g[0], "Waitall with an error [1]");
    expect_calls(&g[0], 1, 1, 0, "Waitall with an error");
    expect_calls(&g[1], 1, 1, 0, "Waitall with an error");
    MTEST_CHECK(inbuf == 5, "Waitall with an error: the receive got %d", inbuf);

    /* Testsome and Waitany */
    start(&g[0], 44);
    start(&g[1], 45);
    g[0].free_rc = MPI_ERR_IO;
    rq[0] = g[0].handle;
    rq[1] = g[1].handle;
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    MTEST_RC(MPI_Grequest_complete(g[1].handle));
    int out = -1, idx[2];
    rc = MPI_Testsome(2, rq, &out, idx, st);
    mtest_check_class(rc, MPI_ERR_IN_STATUS, "Testsome with a failing free_fn");
    MTEST_CHECK(out == 2, "Testsome: outcount %d", out);
    for (int i = 0; i < out && i < 2; i++) {
        MPI_Error_class(st[i].MPI_ERROR, &cls);
        /* MPICH 4.0 reports free_fn's error as MPI_ERR_OTHER */
        int want = idx[i] != 0 ? MPI_SUCCESS : MTEST_MPICH_DEVIATION ? MPI_ERR_OTHER : MPI_ERR_IO;
        MTEST_CHECK(cls == want, "Testsome: status %d (request %d) class %d, want %d", i, idx[i], cls, want);
    }
    start(&g[2], 46);
    g[2].query_rc = MPI_ERR_ACCESS;
    rq[0] = MPI_REQUEST_NULL;
    rq[1] = g[2].handle;
    MTEST_RC(MPI_Grequest_complete(g[2].handle));
    int index = -1;
    mtest_check_class(MPI_Waitany(2, rq, &index, &st[0]), MPI_ERR_ACCESS, "Waitany with a failing query_fn");
    MTEST_CHECK(index == 1, "Waitany with an error: index %d", index);

    /* Request_free and Cancel return their callback's error */
    start(&g[0], 47);
    g[0].free_rc = MPI_ERR_QUOTA;
    g[0].cancel_rc = MPI_ERR_PENDING;
    mtest_check_class(MPI_Cancel(&g[0].handle), MPI_ERR_PENDING, "Cancel with a failing cancel_fn");
    MTEST_RC(MPI_Grequest_complete(g[0].handle));
    mtest_check_class(MPI_Request_free(&g[0].handle), MPI_ERR_QUOTA, "Request_free with a failing free_fn");
    expect_calls(&g[0], 0, 1, 1, "Request_free with a failing free_fn");

    /* Grequest_complete of what is not an incomplete generalized request */
    mtest_check_class(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "Grequest_complete(REQUEST_NULL)");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 does not check these */
        start(&g[0], 48);
        MTEST_RC(MPI_Grequest_complete(g[0].handle));
        mtest_check_class(MPI_Grequest_complete(g[0].handle), MPI_ERR_REQUEST, "Grequest_complete twice");
        MTEST_RC(MPI_Wait(&g[0].handle, MPI_STATUS_IGNORE));
        MPI_Request r;
        MTEST_RC(MPI_Irecv(&inbuf, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r));
        mtest_check_class(MPI_Grequest_complete(r), MPI_ERR_REQUEST, "Grequest_complete of a receive");
        MTEST_RC(MPI_Send(&outbuf, 1, MPI_INT, right, 12, MPI_COMM_WORLD));
        MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(MPI_Grequest_complete(MPI_REQUEST_NULL), msg, &len);
        MTEST_CHECK(strstr(msg, "MPI_Grequest_complete") != NULL, "message does not name the call: '%s'", msg);
    }
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    test_wait_and_test();
    test_free();
    test_cancel();
    test_many();
    test_errors();
    return mtest_finalize();
}
