/*
 * modes: ready and buffered send modes.
 *
 *  - MPI_Rsend / MPI_Irsend: the receiver posts its receive, then confirms
 *    with a message; only then does the sender send in ready mode.
 *  - MPI_Bsend / MPI_Ibsend with MPI_Buffer_attach / MPI_Buffer_detach:
 *    buffered sends complete locally (the sender finishes all of them and
 *    sends a "done" message that the receiver gets first); detach returns
 *    the buffer's address and size and waits until the buffered messages
 *    are gone (the buffer is overwritten right after detach, and the data
 *    must still arrive intact).
 *  - MPI_ERR_BUFFER (with MPI_ERRORS_RETURN) for a buffered send that does
 *    not fit in the attached buffer, and with no buffer attached.
 *
 * Ranks are paired (0,1), (2,3), ...; an odd rank out pairs with itself.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DATA 1
#define TAG_READY 2
#define TAG_DONE 3

static const size_t sizes[] = {0, 1, 100, 4096, 65536 + 5, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static int peer;

/* One direction of a ready-mode send: sender == me sends to peer. */
static void ready(int sender, size_t n, int idx, int nonblocking)
{
    const int me = mtest_rank;
    unsigned char *b = mtest_malloc(n + MTEST_GUARD);
    MPI_Request r;
    MPI_Status st;
    int word = 0;
    const char *what = nonblocking ? "Irsend" : "Rsend";

    if (peer == me) {
        mtest_fill(b, n, me, idx);
        unsigned char *rb = mtest_malloc(n);
        mtest_poison(rb, n, me, idx);
        MPI_Irecv(rb, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &r);
        if (nonblocking) {
            MPI_Request sr;
            MPI_Irsend(b, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &sr);
            MPI_Wait(&sr, MPI_STATUS_IGNORE);
        } else {
            MPI_Rsend(b, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD);
        }
        MPI_Wait(&r, &st);
        mtest_check_status(&st, me, TAG_DATA, MPI_BYTE, (int)n, what);
        mtest_check_data(rb, n, me, idx, "%s to self of %zu bytes", what, n);
        free(rb);
    } else if (sender) {
        mtest_fill(b, n, me, idx);
        MPI_Recv(&word, 1, MPI_INT, peer, TAG_READY, MPI_COMM_WORLD, &st);
        MTEST_CHECK(word == 99, "ready word %d", word);
        if (nonblocking) {
            MPI_Irsend(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
        } else {
            MPI_Rsend(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        }
    } else {
        mtest_poison(b, n, peer, idx);
        mtest_guard_set(b + n);
        MPI_Irecv(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r);
        word = 99;
        MPI_Send(&word, 1, MPI_INT, peer, TAG_READY, MPI_COMM_WORLD);
        MPI_Wait(&r, &st);
        mtest_check_status(&st, peer, TAG_DATA, MPI_BYTE, (int)n, what);
        mtest_check_data(b, n, peer, idx, "%s of %zu bytes", what, n);
        mtest_guard_check(b + n, what);
    }
    free(b);
}

/* Buffered sends of all sizes, then "done"; the receiver takes "done"
 * first, which it can only get if the buffered sends completed locally. */
static void buffered(int sender, int nonblocking, int round)
{
    const int me = mtest_rank;
    const char *what = nonblocking ? "Ibsend" : "Bsend";
    size_t total = 0;
    for (int s = 0; s < NSIZES; s++)
        total += sizes[s] + MPI_BSEND_OVERHEAD;
    int bsize = (int)total + 1000;
    void *buf = NULL;
    int word = 4711;
    MPI_Request done_req = MPI_REQUEST_NULL;

    if (sender) {
        buf = mtest_malloc(bsize);
        MPI_Buffer_attach(buf, bsize);
        unsigned char *data = mtest_malloc(sizes[NSIZES - 1]);
        MPI_Request r;
        for (int s = 0; s < NSIZES; s++) {
            /* the user buffer is overwritten right after every call:
             * buffered sends must have taken their copy */
            mtest_fill(data, sizes[s], me, round * 100 + s);
            if (nonblocking) {
                MPI_Ibsend(data, (int)sizes[s], MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            } else {
                MPI_Bsend(data, (int)sizes[s], MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
            }
            memset(data, 0x3c, sizes[s]);
        }
        free(data);
        MPI_Isend(&word, 1, MPI_INT, peer, TAG_DONE, MPI_COMM_WORLD, &done_req);
    }
    /* detach before the receiver posts anything (not for messages to
     * oneself: those may stay in the buffer until they are received) */
    if (sender && peer != me) {
        void *p = NULL;
        int psize = -1;
        MPI_Wait(&done_req, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&p, &psize);
        MTEST_CHECK(p == buf && psize == bsize, "%s: Buffer_detach returned %p/%d, attached "
                    "%p/%d", what, p, psize, buf, bsize);
        /* detach waited for the buffered messages: the buffer is ours */
        memset(buf, 0x5a, bsize);
        free(buf);
    }
    if (peer == me || !sender) {
        MPI_Status st;
        int in = 0;
        MPI_Recv(&in, 1, MPI_INT, peer, TAG_DONE, MPI_COMM_WORLD, &st);
        MTEST_CHECK(in == 4711, "%s: done word %d", what, in);
        unsigned char *b = mtest_malloc(sizes[NSIZES - 1]);
        for (int s = 0; s < NSIZES; s++) {
            mtest_poison(b, sizes[s], peer, round * 100 + s);
            MPI_Recv(b, (int)sizes[s], MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &st);
            mtest_check_status(&st, peer, TAG_DATA, MPI_BYTE, (int)sizes[s], what);
            mtest_check_data(b, sizes[s], peer, round * 100 + s, "%s of %zu bytes", what,
                             sizes[s]);
        }
        free(b);
    }
    if (peer == me) {
        void *p = NULL;
        int psize = -1;
        MPI_Wait(&done_req, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&p, &psize);
        MTEST_CHECK(p == buf && psize == bsize, "%s: Buffer_detach returned %p/%d, attached "
                    "%p/%d", what, p, psize, buf, bsize);
        free(buf);
    }
}

/* Detach must wait for a large buffered message the receiver takes late. */
static void detach_waits(int sender)
{
    const int me = mtest_rank;
    const size_t n = 1 << 20;
    if (peer == me)
        return;
    if (sender) {
        int bsize = (int)n + MPI_BSEND_OVERHEAD;
        unsigned char *buf = mtest_malloc(bsize), *data = mtest_malloc(n);
        MPI_Buffer_attach(buf, bsize);
        mtest_fill(data, n, me, 500);
        MPI_Bsend(data, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        memset(data, 0, n);
        void *p;
        int psize;
        MPI_Buffer_detach(&p, &psize);
        memset(buf, 0x77, bsize);
        MTEST_CHECK(p == buf && psize == bsize, "Buffer_detach returned %p/%d", p, psize);
        free(buf);
        free(data);
    } else {
        unsigned char *b = mtest_malloc(n);
        MPI_Status st;
        mtest_sleep_ms(100);
        MPI_Recv(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &st);
        mtest_check_data(b, n, peer, 500, "Bsend of 1 MiB received after the sender "
                         "detached and overwrote the buffer");
        free(b);
    }
}

static void buffer_errors(void)
{
    const int me = mtest_rank;
    char data[1000];
    int rc;
    MPI_Request r;

    memset(data, 1, sizeof data);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* no buffer attached */
    rc = MPI_Bsend(data, 100, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Bsend with no buffer attached");

    /* attached buffer too small for the message */
    int bsize = 100 + MPI_BSEND_OVERHEAD;
    void *buf = mtest_malloc(bsize);
    MPI_Buffer_attach(buf, bsize);
    rc = MPI_Bsend(data, 1000, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Bsend of 1000 bytes with a %d-byte buffer", bsize);
    rc = MPI_Ibsend(data, 1000, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &r);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Ibsend of 1000 bytes with a %d-byte buffer", bsize);
    if (rc == MPI_SUCCESS)
        MPI_Wait(&r, MPI_STATUS_IGNORE);

    /* a message that fits still works */
    rc = MPI_Bsend(data, 100, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD);
    MTEST_CHECK(rc == MPI_SUCCESS, "Bsend of 100 bytes into a %d-byte buffer failed (%d)",
                bsize, rc);
    char in[100];
    MPI_Status st;
    MPI_Recv(in, 100, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, me, TAG_DATA, MPI_BYTE, 100, "Bsend to self");
    void *p;
    int psize;
    MPI_Buffer_detach(&p, &psize);
    MTEST_CHECK(p == buf && psize == bsize, "Buffer_detach returned %p/%d", p, psize);
    free(buf);

    /* nothing left over: a failed buffered send sent nothing */
    int flag = 1;
    MPI_Iprobe(me, TAG_DATA, MPI_COMM_WORLD, &flag, &st);
    MTEST_CHECK(!flag, "a failed Bsend left a message behind");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const int me = mtest_rank;
    peer = me ^ 1;
    if (peer >= mtest_size)
        peer = me;
    int low = me <= peer;

    for (int nb = 0; nb <= 1; nb++)
        for (int s = 0; s < NSIZES; s++) {
            ready(low, sizes[s], 10 * s + nb, nb);
            ready(!low, sizes[s], 10 * s + nb + 5, nb);
        }
    for (int nb = 0; nb <= 1; nb++) {
        buffered(low, nb, 2 * nb);
        MPI_Barrier(MPI_COMM_WORLD);
        if (peer != me) {
            buffered(!low, nb, 2 * nb + 1);
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    detach_waits(low);
    detach_waits(!low);
    MPI_Barrier(MPI_COMM_WORLD);
    buffer_errors();
    return mtest_finalize();
}
