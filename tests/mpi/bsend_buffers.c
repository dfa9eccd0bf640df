/*
 * bsend_buffers.c - MPI-4.1's buffers of buffered sends, around a ring
 * (every rank sends to rank+1, receives from rank-1; itself at one process):
 *
 *   comm       a communicator's own buffer serves its Bsends; the process's
 *              serves the others (a process buffer too small for a message
 *              makes a Bsend on a communicator without a buffer fail with
 *              MPI_ERR_BUFFER while the communicator with one succeeds)
 *   attach     attaching twice: MPI_ERR_BUFFER; detach returns what was
 *              attached, and NULL / 0 when nothing was; the _c forms
 *   automatic  MPI_BUFFER_AUTOMATIC for the process and for a communicator:
 *              many large Bsends before any receive; detach returns
 *              MPI_BUFFER_AUTOMATIC
 *   flush      Comm_flush_buffer / Buffer_flush free the buffer for the next
 *              message; Comm_iflush_buffer / Buffer_iflush are not complete
 *              while a large message is not received, and complete after
 *   persistent Bsend_init on a communicator with a buffer
 */
#include "mtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int right, left;

/* Receives message idx of len bytes from left and checks it. */
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

static void bsend_msg(MPI_Comm comm, size_t len, int idx, int tag)
{
    char *buf = mtest_malloc(len);
    mtest_fill(buf, len, mtest_rank, idx);
    MTEST_RC(MPI_Bsend(buf, (int)len, MPI_BYTE, right, tag, comm));
    memset(buf, 0, len);          /* the message is in the buffer: the send buffer is free */
    free(buf);
}

static void test_comm_buffer(void)
{
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Comm_set_errhandler(b, MPI_ERRORS_RETURN);
    enum { LEN = 5000 };
    int size = 3 * (LEN + MPI_BSEND_OVERHEAD);
    char *cbuf = mtest_malloc((size_t)size), *pbuf = mtest_malloc(100 + MPI_BSEND_OVERHEAD);
    MTEST_RC(MPI_Comm_attach_buffer(a, cbuf, size));
    MTEST_RC(MPI_Buffer_attach(pbuf, 100 + MPI_BSEND_OVERHEAD));
    /* a's buffer holds three messages of LEN; the process's none */
    for (int i = 0; i < 3; i++)
        bsend_msg(a, LEN, 100 + i, 1);
    char *tmp = mtest_malloc(LEN);
    int rc = MPI_Bsend(tmp, LEN, MPI_BYTE, right, 1, b);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Bsend of %d bytes on a communicator without a buffer, process buffer "
                      "of 100", LEN);
    bsend_msg(b, 50, 103, 2);   /* fits in the process's buffer */
    free(tmp);
    for (int i = 0; i < 3; i++)
        recv_check(a, LEN, 100 + i, 1, "message through the communicator's buffer");
    recv_check(b, 50, 103, 2, "message through the process's buffer");

    /* attach twice, detach */
    MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
    rc = MPI_Comm_attach_buffer(a, cbuf, size);
    mtest_check_class(rc, MPI_ERR_BUFFER, "second MPI_Comm_attach_buffer");
    void *addr = NULL;
    int dsize = 0;
    MTEST_RC(MPI_Comm_detach_buffer(a, &addr, &dsize));
    MTEST_CHECK(addr == cbuf && dsize == size, "Comm_detach_buffer: %p %d, attached %p %d", addr, dsize,
                (void *)cbuf, size);
    MTEST_RC(MPI_Comm_detach_buffer(a, &addr, &dsize));
    MTEST_CHECK(addr == NULL && dsize == 0, "Comm_detach_buffer with nothing attached: %p %d", addr, dsize);
    MPI_Count csize = -1;
    MTEST_RC(MPI_Comm_attach_buffer_c(a, cbuf, (MPI_Count)size - 8));
    MTEST_RC(MPI_Comm_detach_buffer_c(a, &addr, &csize));
    MTEST_CHECK(addr == cbuf && csize == size - 8, "Comm_detach_buffer_c: %p %lld", addr, (long long)csize);
    rc = MPI_Comm_attach_buffer(a, cbuf, -1);
    mtest_check_class(rc, MPI_ERR_ARG, "Comm_attach_buffer with size -1");
    MTEST_RC(MPI_Buffer_detach(&addr, &dsize));
    MTEST_CHECK(addr == pbuf && dsize == 100 + MPI_BSEND_OVERHEAD, "Buffer_detach: %p %d", addr, dsize);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    free(cbuf);
    free(pbuf);
}

static void test_automatic(void)
{
    enum { N = 20, LEN = 100000 };
    MPI_Comm a;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MTEST_RC(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    MTEST_RC(MPI_Comm_attach_buffer_c(a, MPI_BUFFER_AUTOMATIC, 0));
    for (int i = 0; i < N; i++) {
        bsend_msg(MPI_COMM_WORLD, LEN, 200 + i, 3);
        bsend_msg(a, LEN + i, 300 + i, 4);
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* every message sits in a buffer before any receive */
    for (int i = 0; i < N; i++) {
        recv_check(MPI_COMM_WORLD, LEN, 200 + i, 3, "automatic process buffer");
        recv_check(a, LEN + i, 300 + i, 4, "automatic communicator buffer");
    }
    void *addr = NULL;
    int size = -1;
    MPI_Count csize = -1;
    MTEST_RC(MPI_Buffer_detach(&addr, &size));
    MTEST_CHECK(addr == MPI_BUFFER_AUTOMATIC, "Buffer_detach of an automatic buffer: %p", addr);
    addr = NULL;
    MTEST_RC(MPI_Comm_detach_buffer_c(a, &addr, &csize));
    MTEST_CHECK(addr == MPI_BUFFER_AUTOMATIC, "Comm_detach_buffer_c of an automatic buffer: %p", addr);
    MPI_Comm_free(&a);
}

/* Whether a message of 1 MiB to the right neighbour can leave the buffer only
 * once received (rendezvous). Not to oneself, where it is delivered at once,
 * nor when dmpi is told to send everything eagerly (DMPI_SHM_PATH=eager). */
static int must_wait(void)
{
    const char *path = getenv("DMPI_SHM_PATH");
    return mtest_size > 1 && !(path && strcmp(path, "eager") == 0);
}

/* Messages this large go by rendezvous: they leave the buffer only once received. */
static void test_flush(void)
{
    enum { LEN = 1 << 20 };
    MPI_Comm a;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
    int size = LEN + MPI_BSEND_OVERHEAD;          /* room for one message */
    char *cbuf = mtest_malloc((size_t)size), *pbuf = mtest_malloc((size_t)size);
    char *rbuf = mtest_malloc(LEN);
    MTEST_RC(MPI_Comm_attach_buffer(a, cbuf, size));
    MTEST_RC(MPI_Buffer_attach(pbuf, size));
    MPI_Request flush, recv;
    for (int round = 0; round < 2; round++) {
        /* the receive is posted before the flush waits */
        MTEST_RC(MPI_Irecv(rbuf, LEN, MPI_BYTE, left, 5, a, &recv));
        bsend_msg(a, LEN, 400 + round, 5);
        MTEST_RC(MPI_Comm_flush_buffer(a));       /* so the next one fits */
        MTEST_RC(MPI_Wait(&recv, MPI_STATUS_IGNORE));
        mtest_check_data(rbuf, LEN, left, 400 + round, "Comm_flush_buffer round %d", round);
    }
    MTEST_RC(MPI_Irecv(rbuf, LEN, MPI_BYTE, left, 6, MPI_COMM_WORLD, &recv));
    bsend_msg(MPI_COMM_WORLD, LEN, 410, 6);
    MTEST_RC(MPI_Buffer_flush());
    MTEST_RC(MPI_Wait(&recv, MPI_STATUS_IGNORE));
    mtest_check_data(rbuf, LEN, left, 410, "Buffer_flush");

    /* iflush: not complete while the message waits for its receive */
    bsend_msg(a, LEN, 420, 7);
    MTEST_RC(MPI_Comm_iflush_buffer(a, &flush));
    int done = 1;
    for (int i = 0; i < 20; i++)
        MTEST_RC(MPI_Test(&flush, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(!done || !must_wait(), "Comm_iflush_buffer complete before the message was received");
    MPI_Barrier(MPI_COMM_WORLD);
    recv_check(a, LEN, 420, 7, "message of Comm_iflush_buffer");
    MPI_Status st;
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Wait(&flush, &st));
    mtest_check_empty_status(&st, 1, "Comm_iflush_buffer status");
    MTEST_CHECK(flush == MPI_REQUEST_NULL, "Wait left the flush request");

    bsend_msg(MPI_COMM_WORLD, LEN, 430, 8);
    MTEST_RC(MPI_Buffer_iflush(&flush));
    MTEST_RC(MPI_Test(&flush, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(!done || !must_wait(), "Buffer_iflush complete before the message was received");
    MPI_Barrier(MPI_COMM_WORLD);
    recv_check(MPI_COMM_WORLD, LEN, 430, 8, "message of Buffer_iflush");
    MTEST_RC(MPI_Wait(&flush, MPI_STATUS_IGNORE));

    /* nothing in the buffer: complete at once */
    MTEST_RC(MPI_Buffer_iflush(&flush));
    MTEST_RC(MPI_Test(&flush, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(done, "Buffer_iflush of an empty buffer not complete");
    MTEST_RC(MPI_Comm_iflush_buffer(MPI_COMM_WORLD, &flush));   /* no buffer attached to it */
    MTEST_RC(MPI_Wait(&flush, MPI_STATUS_IGNORE));

    /* persistent buffered send on a with its buffer */
    MPI_Request p;
    char *sbuf = mtest_malloc(LEN);
    MTEST_RC(MPI_Bsend_init(sbuf, LEN, MPI_BYTE, right, 9, a, &p));
    for (int round = 0; round < 2; round++) {
        mtest_fill(sbuf, LEN, mtest_rank, 440 + round);
        MTEST_RC(MPI_Irecv(rbuf, LEN, MPI_BYTE, left, 9, a, &recv));
        MTEST_RC(MPI_Start(&p));
        MTEST_RC(MPI_Wait(&p, MPI_STATUS_IGNORE));
        MTEST_RC(MPI_Comm_flush_buffer(a));
        MTEST_RC(MPI_Wait(&recv, MPI_STATUS_IGNORE));
        mtest_check_data(rbuf, LEN, left, 440 + round, "Bsend_init round %d", round);
    }
    MPI_Request_free(&p);
    void *addr;
    int dsize;
    MTEST_RC(MPI_Buffer_detach(&addr, &dsize));
    MPI_Comm_free(&a);          /* with its buffer still attached: the buffer goes with it */
    free(cbuf);
    free(pbuf);
    free(rbuf);
    free(sbuf);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;
    test_comm_buffer();
    test_automatic();
    test_flush();
    return mtest_finalize();
}
