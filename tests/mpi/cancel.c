/*
 * cancel: cancellation of receives (send cancellation is not tested).
 *
 *  - a posted receive that never matches: MPI_Cancel, then MPI_Wait / a
 *    MPI_Test loop completes it, MPI_Test_cancelled is true, and a message
 *    sent afterwards goes to the next receive, intact;
 *  - a receive that already completed (seen with MPI_Request_get_status):
 *    MPI_Cancel has no effect, MPI_Test_cancelled is false, data intact;
 *  - a race (message already sent, receive cancelled right after posting):
 *    either the cancel or the receive succeeds, never both nor neither;
 *  - a started persistent receive: cancelled, then restarted and used;
 *  - many cancelled receives interleaved with real ones.
 *
 * Ranks are paired (0,1), (2,3), ...; an odd rank out pairs with itself.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static int peer;
static unsigned char *sbuf[64];
static MPI_Request sreq[64];
static int nsend;

static void send_to_peer(size_t n, int tag, int idx)
{
    unsigned char *b = mtest_malloc(n);
    mtest_fill(b, n, mtest_rank, idx);
    sbuf[nsend] = b;
    MPI_Isend(b, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sreq[nsend++]);
}

static void finish_sends(void)
{
    MPI_Waitall(nsend, sreq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < nsend; i++)
        free(sbuf[i]);
    nsend = 0;
    MPI_Barrier(MPI_COMM_WORLD);
}

static int cancelled(const MPI_Status *st)
{
    int flag = -1;
    MPI_Test_cancelled(st, &flag);
    return flag;
}

/* A receive that never matches, cancelled; the next message is intact. */
static void never_matching(int use_test, int wildcard, size_t n)
{
    const char *how = use_test ? "Test loop" : "Wait";
    unsigned char *b = mtest_malloc(n + MTEST_GUARD);
    MPI_Request r;
    MPI_Status st;

    mtest_poison(b, n, peer, 1);
    mtest_guard_set(b + n);
    if (wildcard)
        MPI_Irecv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    else
        MPI_Irecv(b, (int)n, MPI_BYTE, peer, 999, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    mtest_status_garbage(&st);
    if (use_test) {
        int flag = 0;
        while (!flag)
            MPI_Test(&r, &flag, &st);
    } else {
        MPI_Wait(&r, &st);
    }
    MTEST_CHECK(r == MPI_REQUEST_NULL, "cancelled receive (%s): request not freed", how);
    MTEST_CHECK(cancelled(&st) == 1, "cancelled %s receive (%s): Test_cancelled gives %d",
                wildcard ? "ANY/ANY" : "specific", how, cancelled(&st));

    /* everybody has cancelled: now a real message */
    MPI_Barrier(MPI_COMM_WORLD);
    send_to_peer(n, 5, 2);
    mtest_poison(b, n, peer, 2);
    MPI_Recv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, peer, 5, MPI_BYTE, (int)n, "receive after a cancelled receive");
    mtest_check_data(b, n, peer, 2, "message after a cancelled receive (%zu bytes)", n);
    mtest_guard_check(b + n, "message after a cancelled receive");
    finish_sends();
    free(b);
}

/* The receive completed before MPI_Cancel: no effect. */
static void already_complete(size_t n)
{
    unsigned char *b = mtest_malloc(n);
    MPI_Request r;
    MPI_Status st;
    int flag = 0;

    mtest_poison(b, n, peer, 3);
    MPI_Irecv(b, (int)n, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &r);
    send_to_peer(n, 6, 3);
    while (!flag)
        MPI_Request_get_status(r, &flag, &st);
    MTEST_CHECK(r != MPI_REQUEST_NULL, "Request_get_status freed the request");
    MPI_Cancel(&r);
    mtest_status_garbage(&st);
    MPI_Wait(&r, &st);
    MTEST_CHECK(cancelled(&st) == 0, "cancel of a completed receive (%zu bytes): "
                "Test_cancelled gives %d", n, cancelled(&st));
    mtest_check_status(&st, peer, 6, MPI_BYTE, (int)n, "cancel of a completed receive");
    mtest_check_data(b, n, peer, 3, "cancel of a completed receive (%zu bytes)", n);
    finish_sends();
    free(b);
}

/* The message is (probably) there already; cancel right after posting. */
static void race(size_t n)
{
    unsigned char *b = mtest_malloc(n);
    MPI_Request r;
    MPI_Status st;

    send_to_peer(n, 8, 4);
    MPI_Barrier(MPI_COMM_WORLD);
    mtest_poison(b, n, peer, 4);
    MPI_Irecv(b, (int)n, MPI_BYTE, peer, 8, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    mtest_status_garbage(&st);
    MPI_Wait(&r, &st);
    int c = cancelled(&st);
    MTEST_CHECK(c == 0 || c == 1, "Test_cancelled gives %d", c);
    if (c) {
        /* the message is still there for another receive */
        mtest_poison(b, n, peer, 4);
        MPI_Recv(b, (int)n, MPI_BYTE, peer, 8, MPI_COMM_WORLD, &st);
    }
    mtest_check_status(&st, peer, 8, MPI_BYTE, (int)n, c ? "receive after a successful cancel"
                       : "receive that won against cancel");
    mtest_check_data(b, n, peer, 4, "cancel race (%zu bytes, cancelled %d)", n, c);
    finish_sends();
    free(b);
}

static void persistent(void)
{
    int v = -1;
    MPI_Request r;
    MPI_Status st;

    MPI_Recv_init(&v, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r);
    for (int round = 0; round < 3; round++) {
        MPI_Start(&r);
        MPI_Cancel(&r);
        mtest_status_garbage(&st);
        MPI_Wait(&r, &st);
        MTEST_CHECK(r != MPI_REQUEST_NULL, "Wait freed a persistent request");
        MTEST_CHECK(cancelled(&st) == 1, "cancelled persistent receive: Test_cancelled %d",
                    cancelled(&st));
    }
    /* the inactive request can be started again and receive */
    MPI_Start(&r);
    MPI_Barrier(MPI_COMM_WORLD);
    int out = 7000 + mtest_rank;
    MPI_Request sr;
    MPI_Isend(&out, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &sr);
    MPI_Wait(&r, &st);
    MTEST_CHECK(cancelled(&st) == 0, "restarted persistent receive reports cancelled");
    mtest_check_status(&st, peer, 7, MPI_INT, 1, "restarted persistent receive");
    MTEST_CHECK(v == 7000 + peer, "restarted persistent receive got %d", v);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    MTEST_CHECK(r == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 50 real receives (tag 1) with 50 never-matching ones (tag 998) in
 * between; the latter are cancelled, the former get the messages in order. */
static void interleaved(void)
{
    enum { N = 50 };
    int vals[N];
    int dummy[N];
    MPI_Request r[2 * N];
    MPI_Status st[2 * N];

    for (int k = 0; k < N; k++) {
        vals[k] = -1;
        MPI_Irecv(&vals[k], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[2 * k]);
        MPI_Irecv(&dummy[k], 1, MPI_INT, MPI_ANY_SOURCE, 998, MPI_COMM_WORLD, &r[2 * k + 1]);
    }
    for (int k = 0; k < N; k += 2)
        MPI_Cancel(&r[2 * k + 1]);
    int out[N];
    MPI_Request sr[N];
    for (int k = 0; k < N; k++) {
        out[k] = mtest_rank * 1000 + k;
        MPI_Isend(&out[k], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &sr[k]);
    }
    for (int k = 1; k < N; k += 2)
        MPI_Cancel(&r[2 * k + 1]);
    MPI_Waitall(2 * N, r, st);
    for (int k = 0; k < N; k++) {
        MTEST_CHECK(cancelled(&st[2 * k]) == 0, "real receive %d reports cancelled", k);
        mtest_check_status(&st[2 * k], peer, 1, MPI_INT, 1, "real receive among cancelled");
        MTEST_CHECK(vals[k] == peer * 1000 + k, "real receive %d got %d, expected %d", k,
                    vals[k], peer * 1000 + k);
        MTEST_CHECK(cancelled(&st[2 * k + 1]) == 1, "dummy receive %d not cancelled", k);
    }
    MPI_Waitall(N, sr, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    peer = mtest_rank ^ 1;
    if (peer >= mtest_size)
        peer = mtest_rank;
    MPI_Barrier(MPI_COMM_WORLD);

    for (int use_test = 0; use_test <= 1; use_test++)
        for (int wildcard = 0; wildcard <= 1; wildcard++) {
            never_matching(use_test, wildcard, 40);
            never_matching(use_test, wildcard, BIG);
        }
    already_complete(0);
    already_complete(100);
    already_complete(BIG);
    race(16);
    race(BIG);
    persistent();
    interleaved();
    return mtest_finalize();
}
