/*
 * truncate: a message longer than the receive buffer.
 *
 * With MPI_ERRORS_RETURN on MPI_COMM_WORLD, for a small (100 B), a medium
 * (64 KiB) and a large (8 MiB) message received into a buffer half its
 * size:
 *  - MPI_Recv returns an error of class MPI_ERR_TRUNCATE, the status has
 *    the right MPI_SOURCE and MPI_TAG;
 *  - MPI_Irecv + MPI_Wait: MPI_Wait returns MPI_ERR_TRUNCATE;
 *  - MPI_Irecv in an MPI_Waitall with a good receive: MPI_ERR_IN_STATUS,
 *    the bad status's MPI_ERROR has class MPI_ERR_TRUNCATE, the good one's
 *    MPI_SUCCESS (or MPI_ERR_PENDING, then it completes later);
 *  - MPI_Waitany returns MPI_ERR_TRUNCATE for the bad one, MPI_Waitsome
 *    MPI_ERR_IN_STATUS;
 *  - nothing is written behind the receive buffer;
 *  - the next messages from the same sender, same tag, arrive intact.
 *
 * Ranks are paired (0,1), (2,3), ...; each sends to the other in turn; an
 * odd rank out pairs with itself.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 7

static const size_t sizes[] = {100, 65536, 8 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static int peer;

enum how { BY_RECV, BY_WAIT, BY_WAITALL, BY_WAITANY, BY_WAITSOME, NHOW };
static const char *how_name[] = {"Recv", "Irecv+Wait", "Irecv+Waitall", "Irecv+Waitany",
                                 "Irecv+Waitsome"};

/* Sender side: the too-long message, then two good ones. */
static void sender(size_t n, int idx, MPI_Request *r, unsigned char **bufs)
{
    for (int k = 0; k < 3; k++) {
        size_t len = k == 0 ? n : n / 2 - k;
        bufs[k] = mtest_malloc(len);
        mtest_fill(bufs[k], len, mtest_rank, idx + k);
        MPI_Isend(bufs[k], (int)len, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &r[k]);
    }
}

static void receiver(enum how how, size_t n, int idx)
{
    const size_t cap = n / 2;
    unsigned char *b = mtest_malloc(cap + MTEST_GUARD);
    unsigned char *g = mtest_malloc(cap + MTEST_GUARD);
    MPI_Status st, sts[2];
    MPI_Request r[2];
    int rc;
    char what[120];
    snprintf(what, sizeof what, "%s: %zu bytes into %zu", how_name[how], n, cap);

    mtest_guard_set(b + cap);
    mtest_status_garbage(&st);
    switch (how) {
    case BY_RECV:
        rc = MPI_Recv(b, (int)cap, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
        mtest_check_class(rc, MPI_ERR_TRUNCATE, "%s", what);
        mtest_check_status(&st, peer, TAG, MPI_BYTE, MTEST_DONTCARE, what);
        break;
    case BY_WAIT:
        MTEST_RC(MPI_Irecv(b, (int)cap, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &r[0]));
        rc = MPI_Wait(&r[0], &st);
        mtest_check_class(rc, MPI_ERR_TRUNCATE, "%s", what);
        mtest_check_status(&st, peer, TAG, MPI_BYTE, MTEST_DONTCARE, what);
        MTEST_CHECK(r[0] == MPI_REQUEST_NULL, "%s: failed request not freed", what);
        break;
    case BY_WAITALL:
    case BY_WAITANY:
    case BY_WAITSOME:
        /* r[0]: the truncated one; r[1]: the next message, big enough */
        MTEST_RC(MPI_Irecv(b, (int)cap, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &r[0]));
        mtest_poison(g, cap - 1, peer, idx + 1);
        mtest_guard_set(g + cap);
        MTEST_RC(MPI_Irecv(g, (int)cap, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &r[1]));
        mtest_status_garbage(&sts[0]);
        mtest_status_garbage(&sts[1]);
        if (how == BY_WAITALL) {
            rc = MPI_Waitall(2, r, sts);
            mtest_check_class(rc, MPI_ERR_IN_STATUS, "%s", what);
            mtest_check_class(sts[0].MPI_ERROR, MPI_ERR_TRUNCATE, "%s: status.MPI_ERROR", what);
            mtest_check_status(&sts[0], peer, TAG, MPI_BYTE, MTEST_DONTCARE, what);
            if (sts[1].MPI_ERROR == MPI_ERR_PENDING) {
                rc = MPI_Wait(&r[1], &sts[1]);
                MTEST_RC(rc);
            } else {
                MTEST_CHECK(sts[1].MPI_ERROR == MPI_SUCCESS, "%s: good receive's MPI_ERROR "
                            "%d", what, sts[1].MPI_ERROR);
            }
        } else if (how == BY_WAITANY) {
            int done[2] = {0, 0};
            for (int k = 0; k < 2; k++) {
                int i = -1;
                rc = MPI_Waitany(2, r, &i, &st);
                if (!MTEST_CHECK(i == 0 || i == 1, "%s: index %d", what, i))
                    break;
                done[i] = 1;
                if (i == 0) {
                    mtest_check_class(rc, MPI_ERR_TRUNCATE, "%s", what);
                    mtest_check_status(&st, peer, TAG, MPI_BYTE, MTEST_DONTCARE, what);
                } else {
                    MTEST_RC(rc);
                    sts[1] = st;
                }
            }
            MTEST_CHECK(done[0] && done[1], "%s: not both completed", what);
        } else {
            int got = 0, idxs[2], out;
            while (got < 2) {
                rc = MPI_Waitsome(2, r, &out, idxs, sts + 0);
                if (!MTEST_CHECK(out >= 1 && out <= 2, "%s: outcount %d", what, out))
                    break;
                int bad = 0;
                for (int k = 0; k < out; k++) {
                    if (idxs[k] == 0) {
                        bad = 1;
                        mtest_check_class(sts[k].MPI_ERROR, MPI_ERR_TRUNCATE,
                                          "%s: status.MPI_ERROR", what);
                        mtest_check_status(&sts[k], peer, TAG, MPI_BYTE, MTEST_DONTCARE, what);
                    } else {
                        MTEST_CHECK(rc == MPI_SUCCESS || sts[k].MPI_ERROR == MPI_SUCCESS,
                                    "%s: good receive's MPI_ERROR %d", what, sts[k].MPI_ERROR);
                        MTEST_CHECK(idxs[k] == 1, "%s: index %d", what, idxs[k]);
                        st = sts[k];
                    }
                }
                if (bad)
                    mtest_check_class(rc, MPI_ERR_IN_STATUS, "%s", what);
                else
                    MTEST_RC(rc);
                got += out;
            }
            sts[1] = st;
        }
        mtest_check_status(&sts[1], peer, TAG, MPI_BYTE, (int)(cap - 1), what);
        mtest_check_data(g, cap - 1, peer, idx + 1, "%s: message after the truncated one",
                         what);
        mtest_guard_check(g + cap, what);
        break;
    default:
        break;
    }
    mtest_guard_check(b + cap, what);

    /* the remaining good message(s) */
    for (int k = how >= BY_WAITALL ? 2 : 1; k < 3; k++) {
        size_t len = n / 2 - k;
        mtest_poison(g, len, peer, idx + k);
        mtest_guard_set(g + len);
        rc = MPI_Recv(g, (int)cap, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st);
        MTEST_RC(rc);
        mtest_check_status(&st, peer, TAG, MPI_BYTE, (int)len, what);
        mtest_check_data(g, len, peer, idx + k, "%s: message %d after the truncated one", what,
                         k);
        mtest_guard_check(g + len, what);
    }
    free(b);
    free(g);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int me = mtest_rank;
    peer = me ^ 1;
    if (peer >= mtest_size)
        peer = me;

    for (int how = 0; how < NHOW; how++) {
        for (int s = 0; s < NSIZES; s++) {
            int idx = 100 * how + 10 * s;
            /* two turns: the lower rank sends first, then the higher */
            for (int turn = 0; turn < 2; turn++) {
                int i_send = (turn == 0) == (me <= peer);
                MPI_Request r[3];
                unsigned char *bufs[3];
                if (peer == me) {
                    if (turn == 1)
                        continue;
                    sender(sizes[s], idx, r, bufs);
                    receiver(how, sizes[s], idx);
                } else if (i_send) {
                    sender(sizes[s], idx, r, bufs);
                } else {
                    receiver(how, sizes[s], idx);
                }
                if (peer == me || i_send) {
                    /* the sender sees no error for the truncated message
                     * (MPI does not define one; accept either) */
                    MPI_Status sst[3];
                    int rc = MPI_Waitall(3, r, sst);
                    if (rc != MPI_SUCCESS)
                        MTEST_CHECK(rc == MPI_ERR_IN_STATUS, "sender's Waitall returned %d",
                                    rc);
                    for (int k = 0; k < 3; k++)
                        free(bufs[k]);
                }
            }
        }
    }
    return mtest_finalize();
}
