/*
 * waitsome: the multiple-completion functions MPI_Waitall, MPI_Waitany,
 * MPI_Waitsome, MPI_Testall, MPI_Testany, MPI_Testsome and
 * MPI_Request_get_status.
 *
 *  - arrays mixing real requests (receives and sends) and MPI_REQUEST_NULL
 *    entries: every real request is reported exactly once, with the right
 *    status, and set to MPI_REQUEST_NULL; null entries give empty statuses
 *    in Waitall/Testall;
 *  - arrays of only MPI_REQUEST_NULL (and count 0): Waitany/Testany give
 *    index MPI_UNDEFINED (Testany with flag true), Waitsome/Testsome
 *    outcount MPI_UNDEFINED, Waitall/Testall succeed with empty statuses;
 *  - MPI_STATUSES_IGNORE and MPI_STATUS_IGNORE;
 *  - nothing complete yet: Testany gives flag false and index
 *    MPI_UNDEFINED, Testsome outcount 0, Testall flag false,
 *    Request_get_status flag false;
 *  - MPI_Request_get_status does not free the request and gives the same
 *    status as the Wait that follows; on MPI_REQUEST_NULL it gives flag
 *    true and an empty status.
 *
 * Ranks are paired (0,1), (2,3), ...; an odd rank out pairs with itself.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 12            /* array length: real requests and null entries */
#define TAG_GO 99

static int peer;

/* Layout of a test array: entry i is a receive (tag 10+i), a send (tag
 * 10+i) or MPI_REQUEST_NULL. */
enum slot { SLOT_NULL, SLOT_RECV, SLOT_SEND };
static enum slot slots[N];
static int rbuf[N], sbuf[N];

static void plan(int variant)
{
    for (int i = 0; i < N; i++)
        slots[i] = (i + variant) % 3 == 0 ? SLOT_NULL : (i % 2 ? SLOT_RECV : SLOT_SEND);
}

/* Posts the array's requests; receives match the peer's sends of the same
 * slot. */
static void post(MPI_Request *req)
{
    for (int i = 0; i < N; i++) {
        if (slots[i] == SLOT_RECV) {
            rbuf[i] = -1;
            MPI_Irecv(&rbuf[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &req[i]);
        } else if (slots[i] == SLOT_SEND) {
            sbuf[i] = mtest_rank * 100 + i;
            MPI_Isend(&sbuf[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &req[i]);
        } else {
            req[i] = MPI_REQUEST_NULL;
        }
    }
}

/* The peer posts the mirror image: its sends go to our receives. */
static void mirror_plan(void)
{
    for (int i = 0; i < N; i++)
        if (slots[i] == SLOT_RECV)
            slots[i] = SLOT_SEND;
        else if (slots[i] == SLOT_SEND)
            slots[i] = SLOT_RECV;
}

static void check_slot(int i, const MPI_Status *st, const char *what)
{
    char w[160];
    snprintf(w, sizeof w, "%s, entry %d", what, i);
    if (slots[i] == SLOT_RECV) {
        if (st)
            mtest_check_status(st, peer, 10 + i, MPI_INT, 1, w);
        MTEST_CHECK(rbuf[i] == peer * 100 + i, "%s: received %d, expected %d", w, rbuf[i],
                    peer * 100 + i);
    } else if (slots[i] == SLOT_NULL && st) {
        mtest_check_empty_status(st, 0, w);
    }
}

/* Both ranks of a pair run the same sequence; the lower rank of a pair
 * uses the plan, the higher one its mirror, so the receives of one match
 * the sends of the other. */
static void setup(int variant)
{
    plan(variant);
    if (peer != mtest_rank && mtest_rank > peer)
        mirror_plan();
}

/* With oneself, the array's receives are fed and its sends received by
 * requests outside the array, posted first. */
static MPI_Request selfreq[N];
static int selfbuf[N];

static void self_feed(void)
{
    for (int i = 0; i < N; i++) {
        selfreq[i] = MPI_REQUEST_NULL;
        if (peer != mtest_rank)
            continue;
        if (slots[i] == SLOT_RECV) {
            selfbuf[i] = mtest_rank * 100 + i;
            MPI_Isend(&selfbuf[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &selfreq[i]);
        } else if (slots[i] == SLOT_SEND) {
            selfbuf[i] = -1;
            MPI_Irecv(&selfbuf[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &selfreq[i]);
        }
    }
}

static void self_drain(void)
{
    MPI_Waitall(N, selfreq, MPI_STATUSES_IGNORE);
    if (peer != mtest_rank)
        return;
    for (int i = 0; i < N; i++)
        if (slots[i] == SLOT_SEND)
            MTEST_CHECK(selfbuf[i] == mtest_rank * 100 + i, "self send slot %d carried %d", i,
                        selfbuf[i]);
}

static int nreal(MPI_Request *req)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        n += req[i] != MPI_REQUEST_NULL;
    return n;
}

static void test_waitall(int variant, int ignore)
{
    MPI_Request req[N];
    MPI_Status st[N];
    const char *what = ignore ? "Waitall(STATUSES_IGNORE)" : "Waitall";
    setup(variant);
    self_feed();
    post(req);
    for (int i = 0; i < N; i++)
        mtest_status_garbage(&st[i]);
    MTEST_RC(MPI_Waitall(N, req, ignore ? MPI_STATUSES_IGNORE : st));
    for (int i = 0; i < N; i++) {
        MTEST_CHECK(req[i] == MPI_REQUEST_NULL, "%s: entry %d not MPI_REQUEST_NULL", what, i);
        check_slot(i, ignore ? NULL : &st[i], what);
    }
    self_drain();
}

static void test_testall(int variant, int ignore)
{
    MPI_Request req[N];
    MPI_Status st[N];
    const char *what = ignore ? "Testall(STATUSES_IGNORE)" : "Testall";
    int flag = 0;
    setup(variant);
    self_feed();
    post(req);
    while (!flag) {
        for (int i = 0; i < N; i++)
            mtest_status_garbage(&st[i]);
        MTEST_RC(MPI_Testall(N, req, &flag, ignore ? MPI_STATUSES_IGNORE : st));
        if (!flag) {
            /* Testall completes nothing unless it completes everything */
            int live = 0;
            for (int i = 0; i < N; i++)
                live += req[i] != MPI_REQUEST_NULL;
            int expect = 0;
            for (int i = 0; i < N; i++)
                expect += slots[i] != SLOT_NULL;
            MTEST_CHECK(live == expect, "%s with flag false freed requests (%d of %d left)",
                        what, live, expect);
        }
    }
    for (int i = 0; i < N; i++) {
        MTEST_CHECK(req[i] == MPI_REQUEST_NULL, "%s: entry %d not MPI_REQUEST_NULL", what, i);
        check_slot(i, ignore ? NULL : &st[i], what);
    }
    self_drain();
}

static void test_any(int variant, int use_test, int ignore)
{
    MPI_Request req[N];
    MPI_Status st;
    int seen[N] = {0};
    char what[64];
    snprintf(what, sizeof what, "%s%s", use_test ? "Testany" : "Waitany",
             ignore ? "(STATUS_IGNORE)" : "");
    setup(variant);
    self_feed();
    post(req);
    int left = nreal(req);
    for (int guard = 0; guard < 10000000; guard++) {
        int idx = -5, flag = 1;
        mtest_status_garbage(&st);
        if (use_test)
            MTEST_RC(MPI_Testany(N, req, &idx, &flag, ignore ? MPI_STATUS_IGNORE : &st));
        else
            MTEST_RC(MPI_Waitany(N, req, &idx, ignore ? MPI_STATUS_IGNORE : &st));
        if (!flag) {
            MTEST_CHECK(idx == MPI_UNDEFINED, "%s with flag false: index %d", what, idx);
            continue;
        }
        if (idx == MPI_UNDEFINED) {
            MTEST_CHECK(left == 0, "%s: MPI_UNDEFINED with %d requests left", what, left);
            if (!ignore)
                mtest_check_empty_status(&st, 0, what);
            break;
        }
        if (!MTEST_CHECK(idx >= 0 && idx < N && slots[idx] != SLOT_NULL && !seen[idx],
                         "%s: bad or repeated index %d", what, idx))
            break;
        seen[idx] = 1;
        left--;
        MTEST_CHECK(req[idx] == MPI_REQUEST_NULL, "%s: completed entry %d not freed", what, idx);
        check_slot(idx, ignore ? NULL : &st, what);
    }
    self_drain();
}

static void test_some(int variant, int use_test, int ignore)
{
    MPI_Request req[N];
    MPI_Status st[N];
    int idx[N], seen[N] = {0};
    char what[64];
    snprintf(what, sizeof what, "%s%s", use_test ? "Testsome" : "Waitsome",
             ignore ? "(STATUSES_IGNORE)" : "");
    setup(variant);
    self_feed();
    post(req);
    int left = nreal(req);
    for (int guard = 0; guard < 10000000; guard++) {
        int out = -5;
        for (int i = 0; i < N; i++)
            mtest_status_garbage(&st[i]);
        if (use_test)
            MTEST_RC(MPI_Testsome(N, req, &out, idx, ignore ? MPI_STATUSES_IGNORE : st));
        else
            MTEST_RC(MPI_Waitsome(N, req, &out, idx, ignore ? MPI_STATUSES_IGNORE : st));
        if (out == MPI_UNDEFINED) {
            MTEST_CHECK(left == 0, "%s: MPI_UNDEFINED with %d requests left", what, left);
            break;
        }
        if (!MTEST_CHECK(out >= 0 && out <= left, "%s: outcount %d with %d left", what, out,
                         left))
            break;
        MTEST_CHECK(use_test || out > 0, "Waitsome returned outcount 0");
        for (int k = 0; k < out; k++) {
            int i = idx[k];
            if (!MTEST_CHECK(i >= 0 && i < N && slots[i] != SLOT_NULL && !seen[i],
                             "%s: bad or repeated index %d", what, i))
                continue;
            seen[i] = 1;
            left--;
            MTEST_CHECK(req[i] == MPI_REQUEST_NULL, "%s: completed entry %d not freed", what, i);
            check_slot(i, ignore ? NULL : &st[k], what);
        }
    }
    self_drain();
}

/* Arrays of only MPI_REQUEST_NULL, and empty arrays. */
static void test_all_null(void)
{
    MPI_Request req[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                          MPI_REQUEST_NULL};
    MPI_Status st[4], s1;
    int idx, flag, out, ind[4];

    for (int count = 0; count <= 4; count += 4) {
        char w[80];
        idx = -5;
        mtest_status_garbage(&s1);
        MTEST_RC(MPI_Waitany(count, req, &idx, &s1));
        MTEST_CHECK(idx == MPI_UNDEFINED, "Waitany(%d nulls) index %d", count, idx);
        snprintf(w, sizeof w, "Waitany of %d null requests", count);
        mtest_check_empty_status(&s1, 0, w);

        idx = -5;
        flag = 0;
        mtest_status_garbage(&s1);
        MTEST_RC(MPI_Testany(count, req, &idx, &flag, &s1));
        MTEST_CHECK(flag && idx == MPI_UNDEFINED, "Testany(%d nulls): flag %d index %d", count,
                    flag, idx);
        snprintf(w, sizeof w, "Testany of %d null requests", count);
        /* MPI-4.0 3.7.5: "empty status"; MPICH 4.0 leaves it alone */
        if (!MTEST_MPICH_DEVIATION)
            mtest_check_empty_status(&s1, 0, w);

        out = -5;
        MTEST_RC(MPI_Waitsome(count, req, &out, ind, st));
        MTEST_CHECK(out == MPI_UNDEFINED, "Waitsome(%d nulls) outcount %d", count, out);
        out = -5;
        MTEST_RC(MPI_Testsome(count, req, &out, ind, st));
        MTEST_CHECK(out == MPI_UNDEFINED, "Testsome(%d nulls) outcount %d", count, out);

        for (int i = 0; i < 4; i++)
            mtest_status_garbage(&st[i]);
        MTEST_RC(MPI_Waitall(count, req, st));
        for (int i = 0; i < count; i++) {
            snprintf(w, sizeof w, "Waitall of %d null requests, entry %d", count, i);
            mtest_check_empty_status(&st[i], 0, w);
        }
        flag = 0;
        for (int i = 0; i < 4; i++)
            mtest_status_garbage(&st[i]);
        MTEST_RC(MPI_Testall(count, req, &flag, st));
        MTEST_CHECK(flag, "Testall(%d nulls) flag 0", count);
        for (int i = 0; i < count; i++) {
            snprintf(w, sizeof w, "Testall of %d null requests, entry %d", count, i);
            mtest_check_empty_status(&st[i], 0, w);
        }
        MTEST_RC(MPI_Waitall(count, req, MPI_STATUSES_IGNORE));
        MTEST_RC(MPI_Waitany(count, req, &idx, MPI_STATUS_IGNORE));
    }

    /* single request functions on MPI_REQUEST_NULL */
    MPI_Request r = MPI_REQUEST_NULL;
    mtest_status_garbage(&s1);
    MTEST_RC(MPI_Wait(&r, &s1));
    mtest_check_empty_status(&s1, 0, "Wait(MPI_REQUEST_NULL)");
    flag = 0;
    mtest_status_garbage(&s1);
    MTEST_RC(MPI_Test(&r, &flag, &s1));
    MTEST_CHECK(flag, "Test(MPI_REQUEST_NULL) gives flag 0");
    mtest_check_empty_status(&s1, 0, "Test(MPI_REQUEST_NULL)");
    flag = 0;
    mtest_status_garbage(&s1);
    MTEST_RC(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &s1));
    MTEST_CHECK(flag, "Request_get_status(MPI_REQUEST_NULL) gives flag 0");
    mtest_check_empty_status(&s1, 0, "Request_get_status(MPI_REQUEST_NULL)");
}

/* Nothing can complete until the peer says go; then Request_get_status. */
static void test_nothing_yet(void)
{
    MPI_Request req[3];
    MPI_Status st[3], s1;
    int v[2] = {-1, -1}, idx, flag, out, ind[3];

    req[0] = MPI_REQUEST_NULL;
    MPI_Irecv(&v[0], 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(&v[1], 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &req[2]);

    idx = -5;
    flag = 1;
    MTEST_RC(MPI_Testany(3, req, &idx, &flag, &s1));
    MTEST_CHECK(!flag && idx == MPI_UNDEFINED, "Testany with nothing complete: flag %d index "
                "%d", flag, idx);
    out = -5;
    MTEST_RC(MPI_Testsome(3, req, &out, ind, st));
    MTEST_CHECK(out == 0, "Testsome with nothing complete: outcount %d", out);
    flag = 1;
    MTEST_RC(MPI_Testall(3, req, &flag, st));
    MTEST_CHECK(!flag, "Testall with nothing complete: flag %d", flag);
    flag = 1;
    MTEST_RC(MPI_Request_get_status(req[1], &flag, &s1));
    MTEST_CHECK(!flag, "Request_get_status with nothing complete: flag %d", flag);
    flag = 1;
    MTEST_RC(MPI_Test(&req[1], &flag, &s1));
    MTEST_CHECK(!flag && req[1] != MPI_REQUEST_NULL, "Test with nothing complete: flag %d",
                flag);

    /* everybody has tested: now the sends */
    MPI_Barrier(MPI_COMM_WORLD);
    int out1 = 5000 + mtest_rank, out2 = 6000 + mtest_rank;
    MPI_Request sr[2];
    MPI_Isend(&out1, 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &sr[0]);
    MPI_Isend(&out2, 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &sr[1]);

    flag = 0;
    while (!flag)
        MTEST_RC(MPI_Request_get_status(req[1], &flag, &s1));
    MTEST_CHECK(req[1] != MPI_REQUEST_NULL, "Request_get_status freed the request");
    mtest_check_status(&s1, peer, 50, MPI_INT, 1, "Request_get_status");
    MTEST_CHECK(v[0] == 5000 + peer, "after Request_get_status: received %d", v[0]);
    /* again: still there, same answer */
    flag = 0;
    MTEST_RC(MPI_Request_get_status(req[1], &flag, &s1));
    MTEST_CHECK(flag, "second Request_get_status gives flag 0");
    mtest_check_status(&s1, peer, 50, MPI_INT, 1, "second Request_get_status");
    /* the Wait gives the same status and frees it */
    MTEST_RC(MPI_Wait(&req[1], &s1));
    MTEST_CHECK(req[1] == MPI_REQUEST_NULL, "Wait after Request_get_status did not free");
    mtest_check_status(&s1, peer, 50, MPI_INT, 1, "Wait after Request_get_status");
    /* Request_get_status with MPI_STATUS_IGNORE */
    flag = 0;
    while (!flag)
        MTEST_RC(MPI_Request_get_status(req[2], &flag, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Wait(&req[2], MPI_STATUS_IGNORE));
    MTEST_CHECK(v[1] == 6000 + peer, "second receive got %d", v[1]);
    MTEST_RC(MPI_Waitall(2, sr, MPI_STATUSES_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    peer = mtest_rank ^ 1;
    if (peer >= mtest_size)
        peer = mtest_rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (int variant = 0; variant < 3; variant++) {
        for (int ignore = 0; ignore <= 1; ignore++) {
            test_waitall(variant, ignore);
            test_testall(variant, ignore);
            test_any(variant, 0, ignore);
            test_any(variant, 1, ignore);
            test_some(variant, 0, ignore);
            test_some(variant, 1, ignore);
        }
    }
    test_all_null();
    test_nothing_yet();
    return mtest_finalize();
}
