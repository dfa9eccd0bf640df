/*
 * session_buffers.c - MPI-4.1's buffer of a session for buffered sends,
 * around a ring (every rank sends to rank+1, receives from rank-1; itself at
 * one process). No process buffer is attached anywhere, so a Bsend that
 * succeeds used the session's buffer (or a communicator's own).
 *
 *   attached   a communicator from the session's WORLD pset: Bsend fails
 *              with MPI_ERR_BUFFER before the session has a buffer and
 *              after it is detached, and succeeds with it; so do
 *              communicators derived from it (dup, split, and one made from
 *              its MPI_Comm_group), while MPI_COMM_WORLD (not of the session)
 *              still fails; a communicator's own buffer comes first (a
 *              too-small one fails a Bsend the session's buffer would hold);
 *              attach twice is MPI_ERR_BUFFER; detach returns the address and
 *              size attached, int and _c forms
 *   flush      Session_flush_buffer frees the buffer for the next message;
 *              Session_iflush_buffer is not complete while a large message
 *              waits for its receive, complete after, and at once when empty
 *   automatic  MPI_BUFFER_AUTOMATIC: many large Bsends before any receive;
 *              detach returns MPI_BUFFER_AUTOMATIC
 *   finalize   MPI_Session_finalize with a buffer still attached, and a
 *              communicator of the session freed after it
 *   errors     MPI_ERR_SESSION for MPI_SESSION_NULL and a finalized
 *              session; MPI_ERR_ARG, MPI_ERR_BUFFER for bad arguments, seen
 *              by the session's error handler
 */
#include "mtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL = 1000, NSMALL = 4, LARGE = 1 << 20, NLARGE = 6 };

static int right, left;

/* Bsend of message idx (len bytes) to the right; its return code. */
static int bsend_msg(MPI_Comm comm, size_t len, int idx, int tag)
{
    char *buf = mtest_malloc(len);
    mtest_fill(buf, len, mtest_rank, idx);
    int rc = MPI_Bsend(buf, (int)len, MPI_BYTE, right, tag, comm);
    memset(buf, 0, len);          /* the message is in the buffer: the send buffer is free */
    free(buf);
    return rc;
}

/* Receives message idx of len bytes from the left and checks it. */
static void recv_check(MPI_Comm comm, size_t len, int idx, int tag, const char *what)
{
    char *buf = mtest_malloc(len + MTEST_GUARD);
    mtest_poison(buf, len, left, idx);
    mtest_guard_set(buf + len);
    MPI_Status st;
    MTEST_RC(MPI_Recv(buf, (int)len, MPI_BYTE, left, tag, comm, &st));
    mtest_check_data(buf, len, left, idx, "%s", what);
    mtest_check_status(&st, left, tag, MPI_BYTE, (int)len, what);
    mtest_guard_check(buf + len, what);
    free(buf);
}

/* A Bsend on comm succeeds (the message is received and checked) or fails
 * with MPI_ERR_BUFFER. Every rank takes the same path, so a Bsend that
 * wrongly fails fails everywhere, and nobody waits for its message. */
static void bsend_ok(MPI_Comm comm, int idx, const char *what)
{
    if (MTEST_RC(bsend_msg(comm, SMALL, idx, 1)))
        recv_check(comm, SMALL, idx, 1, what);
}

static void bsend_fails(MPI_Comm comm, int idx, const char *what)
{
    mtest_check_class(bsend_msg(comm, SMALL, idx, 1), MPI_ERR_BUFFER, "%s", what);
}

/* A communicator of the session's WORLD pset. */
static MPI_Comm session_comm(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    MTEST_RC(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MTEST_RC(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Group_free(&g);
    return c;
}

static int handler_calls;
static MPI_Session handler_session;

static void on_session_error(MPI_Session *s, int *code, ...)
{
    (void)code;
    handler_calls++;
    handler_session = *s;
}

static void test_attached(void)
{
    MPI_Session s;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Comm c = session_comm(s, "org.dmpi.test.sbuf.a");
    bsend_fails(c, 0, "Bsend before the session has a buffer");

    int size = NSMALL * (SMALL + MPI_BSEND_OVERHEAD);
    char *buf = mtest_malloc((size_t)size);
    MTEST_RC(MPI_Session_attach_buffer(s, buf, size));
    mtest_check_class(MPI_Session_attach_buffer(s, buf, size), MPI_ERR_BUFFER, "Session_attach_buffer twice");

    /* NSMALL messages at once fill the buffer; each is received after */
    int sent = 0;
    while (sent < NSMALL && MTEST_RC(bsend_msg(c, SMALL, 10 + sent, 2)))
        sent++;
    for (int i = 0; i < sent; i++)
        recv_check(c, SMALL, 10 + i, 2, "Bsend on the session's communicator");

    /* communicators derived from c use the session's buffer; MPI_COMM_WORLD does not */
    MPI_Comm d, sp, fromgroup;
    MPI_Group cg;
    MTEST_RC(MPI_Comm_dup(c, &d));
    MTEST_RC(MPI_Comm_split(c, 0, mtest_rank, &sp));
    MTEST_RC(MPI_Comm_group(c, &cg));
    MTEST_RC(MPI_Comm_create_from_group(cg, "org.dmpi.test.sbuf.g", MPI_INFO_NULL, MPI_ERRORS_RETURN, &fromgroup));
    MPI_Group_free(&cg);
    bsend_ok(d, 20, "Bsend on a dup of the session's communicator");
    bsend_ok(sp, 21, "Bsend on a split of the session's communicator");
    bsend_ok(fromgroup, 22, "Bsend on a communicator from the group of the session's communicator");
    bsend_fails(MPI_COMM_WORLD, 23, "Bsend on MPI_COMM_WORLD, not of the session");

    /* a communicator's own buffer comes before the session's */
    char tiny[64];
    void *addr;
    int got;
    MTEST_RC(MPI_Comm_attach_buffer(d, tiny, (int)sizeof tiny));
    bsend_fails(d, 24, "Bsend on a dup with a too-small buffer of its own");
    bsend_ok(c, 25, "Bsend on the session's communicator beside it");
    MTEST_RC(MPI_Comm_detach_buffer(d, &addr, &got));
    bsend_ok(d, 26, "Bsend on the dup once its own buffer is gone");
    MPI_Comm_free(&d);
    MPI_Comm_free(&sp);
    MPI_Comm_free(&fromgroup);

    /* detach returns what was attached; then nothing serves the communicator */
    addr = NULL;
    got = -1;
    MTEST_RC(MPI_Session_detach_buffer(s, &addr, &got));
    MTEST_CHECK(addr == buf && got == size, "Session_detach_buffer: %p, %d; attached %p, %d", addr,
                got, (void *)buf, size);
    bsend_fails(c, 30, "Bsend after the session's buffer was detached");

    MPI_Count big = (MPI_Count)size, gotc = -1;
    MTEST_RC(MPI_Session_attach_buffer_c(s, buf, big));
    bsend_ok(c, 31, "Bsend with a buffer of Session_attach_buffer_c");
    addr = NULL;
    MTEST_RC(MPI_Session_detach_buffer_c(s, &addr, &gotc));
    MTEST_CHECK(addr == buf && gotc == big, "Session_detach_buffer_c: %p, %lld; attached %p, %lld", addr,
                (long long)gotc, (void *)buf, (long long)big);
    MPI_Comm_free(&c);
    MTEST_RC(MPI_Session_finalize(&s));
    free(buf);
}

/* Messages this large go by rendezvous: they leave the buffer only once received. */
static int must_wait(void)
{
    const char *path = getenv("DMPI_SHM_PATH");
    return mtest_size > 1 && !(path && strcmp(path, "eager") == 0);
}

static void test_flush(void)
{
    MPI_Session s;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Comm c = session_comm(s, "org.dmpi.test.sbuf.f");
    int size = LARGE + MPI_BSEND_OVERHEAD;          /* room for one message */
    char *buf = mtest_malloc((size_t)size), *rbuf = mtest_malloc(LARGE);
    MTEST_RC(MPI_Session_attach_buffer(s, buf, size));

    /* flush: the receive is posted, the flush waits, and the room is free again */
    for (int round = 0; round < 2; round++) {
        MPI_Request recv;
        MTEST_RC(MPI_Irecv(rbuf, LARGE, MPI_BYTE, left, 3, c, &recv));
        if (!MTEST_RC(bsend_msg(c, LARGE, 40 + round, 3))) {
            MPI_Cancel(&recv);
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
            break;
        }
        MTEST_RC(MPI_Session_flush_buffer(s));
        MTEST_RC(MPI_Wait(&recv, MPI_STATUS_IGNORE));
        mtest_check_data(rbuf, LARGE, left, 40 + round, "Session_flush_buffer round %d", round);
    }

    /* iflush: not complete while the message waits for its receive */
    MPI_Request flush;
    int done = 1;
    int sent = MTEST_RC(bsend_msg(c, LARGE, 50, 4));
    MTEST_RC(MPI_Session_iflush_buffer(s, &flush));
    for (int i = 0; i < 20; i++)
        MTEST_RC(MPI_Test(&flush, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(!done || !must_wait(), "Session_iflush_buffer complete before the message was received");
    MPI_Barrier(MPI_COMM_WORLD);
    if (sent)
        recv_check(c, LARGE, 50, 4, "message of Session_iflush_buffer");
    MPI_Status st;
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Wait(&flush, &st));
    mtest_check_empty_status(&st, 1, "Session_iflush_buffer status");
    MTEST_CHECK(flush == MPI_REQUEST_NULL, "Wait left the flush request");

    /* nothing in the buffer: complete at once */
    MTEST_RC(MPI_Session_iflush_buffer(s, &flush));
    MTEST_RC(MPI_Test(&flush, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(done, "Session_iflush_buffer of an empty buffer not complete");
    MTEST_RC(MPI_Session_flush_buffer(s));

    void *addr;
    int got;
    MTEST_RC(MPI_Session_detach_buffer(s, &addr, &got));
    MTEST_CHECK(addr == buf && got == size, "Session_detach_buffer after flushes: %p, %d", addr, got);
    /* no buffer: flushes have nothing to wait for */
    MTEST_RC(MPI_Session_flush_buffer(s));
    MTEST_RC(MPI_Session_iflush_buffer(s, &flush));
    MTEST_RC(MPI_Wait(&flush, MPI_STATUS_IGNORE));
    MPI_Comm_free(&c);
    MTEST_RC(MPI_Session_finalize(&s));
    free(buf);
    free(rbuf);
}

static void test_automatic(void)
{
    MPI_Session s;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Comm c = session_comm(s, "org.dmpi.test.sbuf.auto");
    bsend_fails(c, 60, "Bsend before the automatic buffer");
    MTEST_RC(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    int sent = 0;
    while (sent < NLARGE && MTEST_RC(bsend_msg(c, LARGE, 61 + sent, 5)))
        sent++;
    for (int i = 0; i < sent; i++)
        recv_check(c, LARGE, 61 + i, 5, "large Bsend with the session's automatic buffer");
    MTEST_RC(MPI_Session_flush_buffer(s));
    void *addr = NULL;
    MPI_Count got;
    MTEST_RC(MPI_Session_detach_buffer_c(s, &addr, &got));
    MTEST_CHECK(addr == MPI_BUFFER_AUTOMATIC, "Session_detach_buffer_c of an automatic buffer gave %p", addr);

    /* finalize with a buffer still attached; the communicator goes after the session */
    MTEST_RC(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    if (MTEST_RC(bsend_msg(c, LARGE, 70, 6)))
        recv_check(c, LARGE, 70, 6, "Bsend before Session_finalize");
    MTEST_RC(MPI_Session_finalize(&s));
    MTEST_CHECK(s == MPI_SESSION_NULL, "Session_finalize left 0x%x", (unsigned)s);
    MTEST_RC(MPI_Comm_free(&c));
}

static void test_errors(void)
{
    MPI_Session s, gone;
    char buf[256];
    void *addr;
    int n;
    MPI_Count nc;
    MPI_Request r;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &gone));
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Session finalized = gone;
    MTEST_RC(MPI_Session_finalize(&gone));

    /* no session: MPI_COMM_WORLD's handler (MPI_ERRORS_RETURN here) */
    MPI_Session bads[2] = {MPI_SESSION_NULL, finalized};
    for (int i = 0; i < 2; i++) {
        MPI_Session b = bads[i];
        const char *what = i ? "a finalized session" : "MPI_SESSION_NULL";
        mtest_check_class(MPI_Session_attach_buffer(b, buf, 16), MPI_ERR_SESSION, "attach_buffer(%s)", what);
        mtest_check_class(MPI_Session_attach_buffer_c(b, buf, 16), MPI_ERR_SESSION, "attach_buffer_c(%s)", what);
        mtest_check_class(MPI_Session_detach_buffer(b, &addr, &n), MPI_ERR_SESSION, "detach_buffer(%s)", what);
        mtest_check_class(MPI_Session_detach_buffer_c(b, &addr, &nc), MPI_ERR_SESSION, "detach_buffer_c(%s)",
                          what);
        mtest_check_class(MPI_Session_flush_buffer(b), MPI_ERR_SESSION, "flush_buffer(%s)", what);
        mtest_check_class(MPI_Session_iflush_buffer(b, &r), MPI_ERR_SESSION, "iflush_buffer(%s)", what);
    }

    /* bad arguments: the session's handler sees them */
    MPI_Errhandler mine;
    MTEST_RC(MPI_Session_create_errhandler(on_session_error, &mine));
    MTEST_RC(MPI_Session_set_errhandler(s, mine));
    mtest_check_class(MPI_Session_attach_buffer(s, buf, -1), MPI_ERR_ARG, "attach_buffer size -1");
    mtest_check_class(MPI_Session_attach_buffer_c(s, NULL, 16), MPI_ERR_BUFFER, "attach_buffer_c(NULL, 16)");
    mtest_check_class(MPI_Session_detach_buffer(s, NULL, &n), MPI_ERR_ARG, "detach_buffer(NULL address)");
    mtest_check_class(MPI_Session_detach_buffer_c(s, &addr, NULL), MPI_ERR_ARG, "detach_buffer_c(NULL size)");
    mtest_check_class(MPI_Session_iflush_buffer(s, NULL), MPI_ERR_ARG, "iflush_buffer(NULL)");
    MTEST_RC(MPI_Session_attach_buffer(s, buf, (int)sizeof buf));
    mtest_check_class(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER, "attach twice");
    MTEST_CHECK(handler_calls == 6 && handler_session == s, "session handler: %d calls (want 6), session 0x%x",
                handler_calls, (unsigned)handler_session);
    MTEST_RC(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&mine);
    MTEST_RC(MPI_Session_detach_buffer(s, &addr, &n));
    MTEST_CHECK(addr == buf && n == (int)sizeof buf, "detach after the errors: %p, %d", addr, n);
    MTEST_RC(MPI_Session_finalize(&s));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;
    test_attached();
    test_flush();
    test_automatic();
    test_errors();
    return mtest_finalize();
}
