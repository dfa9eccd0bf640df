/*
 * probe: MPI_Probe / MPI_Iprobe (specific and wildcard source and tag),
 * then a receive of exactly the probed message with the count from the
 * probe status; matched probes (MPI_Mprobe / MPI_Improbe / MPI_Mrecv /
 * MPI_Imrecv): the matched message cannot be taken by a later receive that
 * would otherwise match it; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC.
 *
 * Ranks form a ring: each sends to rank+1 and receives from rank-1 (one
 * process: itself), so every rank is both a sender and a prober.  A last
 * part has every rank send to rank 0, which uses ANY_SOURCE matched probes.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)   /* large enough for a rendezvous protocol */

static int right, left;
static unsigned char *sbufs[8];
static MPI_Request sreqs[8];
static int nsreq;

/* Nonblocking send of message idx (n bytes, tag) to `right`. */
static void send_msg(int idx, size_t n, int tag, int dest)
{
    unsigned char *b = mtest_malloc(n);
    mtest_fill(b, n, mtest_rank, idx);
    sbufs[nsreq] = b;
    MPI_Isend(b, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &sreqs[nsreq++]);
}

static void finish_sends(void)
{
    MPI_Waitall(nsreq, sreqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < nsreq; i++)
        free(sbufs[i]);
    nsreq = 0;
}

/* Receives the message described by a probe status and checks it. */
static void recv_probed(const MPI_Status *pst, int idx, size_t n, const char *what)
{
    int count = -1;
    MPI_Get_count(pst, MPI_BYTE, &count);
    if (!MTEST_CHECK(count == (int)n, "%s: probe count %d, expected %zu", what, count, n))
        return;
    unsigned char *b = mtest_malloc(n + MTEST_GUARD);
    mtest_guard_set(b + n);
    MPI_Status st;
    MPI_Recv(b, count, MPI_BYTE, pst->MPI_SOURCE, pst->MPI_TAG, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, left, pst->MPI_TAG, MPI_BYTE, (int)n, what);
    mtest_check_data(b, n, left, idx, "%s", what);
    mtest_guard_check(b + n, what);
    free(b);
}

static void test_probe(void)
{
    MPI_Status st;
    int flag;

    /* three messages to the right neighbour: tags 1, 2, 3 */
    send_msg(1, 100, 1, right);
    send_msg(2, BIG + 7, 2, right);
    send_msg(3, 0, 3, right);

    /* specific source and tag: the second message */
    mtest_status_garbage(&st);
    MPI_Probe(left, 2, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, left, 2, MPI_BYTE, BIG + 7, "Probe(left, 2)");
    /* probing again finds the same message */
    mtest_status_garbage(&st);
    MPI_Probe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, left, 2, MPI_BYTE, BIG + 7, "Probe(ANY_SOURCE, 2) again");
    recv_probed(&st, 2, BIG + 7, "receive of probed tag 2");

    /* wildcards: the earliest remaining message is tag 1 */
    mtest_status_garbage(&st);
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, left, 1, MPI_BYTE, 100, "Probe(ANY, ANY)");
    recv_probed(&st, 1, 100, "receive of probed tag 1");

    /* Iprobe loop for tag 3 (0 bytes), with ANY_TAG */
    flag = 0;
    do {
        mtest_status_garbage(&st);
        MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    } while (!flag);
    mtest_check_status(&st, left, 3, MPI_BYTE, 0, "Iprobe(left, ANY_TAG)");
    recv_probed(&st, 3, 0, "receive of iprobed tag 3");

    /* typed counts from a probe: 11 ints = 44 bytes */
    int ints[11];
    for (int i = 0; i < 11; i++)
        ints[i] = mtest_rank * 1000 + i;
    MPI_Request r;
    MPI_Isend(ints, 11, MPI_INT, right, 4, MPI_COMM_WORLD, &r);
    MPI_Probe(left, 4, MPI_COMM_WORLD, &st);
    int c = -1;
    MPI_Get_count(&st, MPI_INT, &c);
    MTEST_CHECK(c == 11, "Probe: Get_count(MPI_INT) = %d, expected 11", c);
    MPI_Get_count(&st, MPI_SHORT, &c);
    MTEST_CHECK(c == 22, "Probe: Get_count(MPI_SHORT) = %d, expected 22", c);
    MPI_Get_count(&st, MPI_DOUBLE, &c);
    MTEST_CHECK(c == MPI_UNDEFINED, "Probe: Get_count(MPI_DOUBLE) of 44 bytes = %d, expected "
                "MPI_UNDEFINED (44 is not a multiple of 8)", c);
    int got[11];
    MPI_Recv(got, 11, MPI_INT, left, 4, MPI_COMM_WORLD, &st);
    for (int i = 0; i < 11; i++)
        MTEST_CHECK(got[i] == left * 1000 + i, "typed probe receive: element %d = %d", i,
                    got[i]);
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    /* nothing left with tag 99: Iprobe says so */
    MPI_Barrier(MPI_COMM_WORLD);
    flag = -1;
    MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, &st);
    MTEST_CHECK(flag == 0, "Iprobe for a tag never sent gives flag %d", flag);
    flag = -1;
    MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MTEST_CHECK(flag == 0, "Iprobe with nothing pending gives flag %d", flag);

    finish_sends();
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_mprobe(void)
{
    MPI_Status st;
    MPI_Message msg;
    MPI_Request rq;
    int flag;

    for (int big = 0; big <= 1; big++) {
        size_t n = big ? BIG + 3 : 48;
        int base = 100 + 10 * big;
        /* two messages with the same tag */
        send_msg(base + 0, n, 10, right);
        send_msg(base + 1, n, 10, right);

        mtest_status_garbage(&st);
        msg = MPI_MESSAGE_NULL;
        MPI_Mprobe(left, 10, MPI_COMM_WORLD, &msg, &st);
        MTEST_CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC,
                    "Mprobe returned no message handle");
        mtest_check_status(&st, left, 10, MPI_BYTE, (int)n, "Mprobe");

        /* this receive would match the first message, but that one is
         * taken: it must get the second */
        unsigned char *b1 = mtest_malloc(n), *b2 = mtest_malloc(n);
        mtest_poison(b1, n, left, base + 1);
        mtest_poison(b2, n, left, base + 0);
        MPI_Irecv(b1, (int)n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
        mtest_check_status(&st, left, 10, MPI_BYTE, (int)n, "Irecv after Mprobe");
        mtest_check_data(b1, n, left, base + 1, "Irecv after Mprobe (must get the second "
                         "message, %zu bytes)", n);

        mtest_status_garbage(&st);
        MPI_Mrecv(b2, (int)n, MPI_BYTE, &msg, &st);
        MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv did not set the message to "
                    "MPI_MESSAGE_NULL");
        mtest_check_status(&st, left, 10, MPI_BYTE, (int)n, "Mrecv");
        mtest_check_data(b2, n, left, base + 0, "Mrecv of the mprobed message (%zu bytes)", n);
        finish_sends();

        /* Improbe + Imrecv, with a blocking receive posted in between */
        send_msg(base + 2, n, 11, right);
        send_msg(base + 3, n, 11, right);
        flag = 0;
        msg = MPI_MESSAGE_NULL;
        while (!flag)
            MPI_Improbe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &flag, &msg, &st);
        mtest_check_status(&st, left, 11, MPI_BYTE, (int)n, "Improbe");
        mtest_poison(b1, n, left, base + 3);
        mtest_poison(b2, n, left, base + 2);
        MPI_Recv(b1, (int)n, MPI_BYTE, left, 11, MPI_COMM_WORLD, &st);
        mtest_check_data(b1, n, left, base + 3, "Recv after Improbe (%zu bytes)", n);
        MPI_Imrecv(b2, (int)n, MPI_BYTE, &msg, &rq);
        MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Imrecv did not set the message to "
                    "MPI_MESSAGE_NULL");
        MPI_Wait(&rq, &st);
        mtest_check_status(&st, left, 11, MPI_BYTE, (int)n, "Imrecv");
        mtest_check_data(b2, n, left, base + 2, "Imrecv of the improbed message (%zu bytes)",
                         n);
        finish_sends();
        free(b1);
        free(b2);
    }

    /* Improbe with nothing to match */
    MPI_Barrier(MPI_COMM_WORLD);
    flag = -1;
    msg = MPI_MESSAGE_NULL;
    MPI_Improbe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &msg, &st);
    MTEST_CHECK(flag == 0, "Improbe with nothing to match gives flag %d", flag);
    MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Improbe with no match changed the message handle");
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_proc_null(void)
{
    MPI_Status st;
    MPI_Message msg;
    MPI_Request rq;
    int flag, buf = 12345;

    mtest_status_garbage(&st);
    MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, "Probe(PROC_NULL)");

    mtest_status_garbage(&st);
    flag = 0;
    MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MTEST_CHECK(flag, "Iprobe(PROC_NULL) gives flag 0");
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, "Iprobe(PROC_NULL)");

    mtest_status_garbage(&st);
    msg = MPI_MESSAGE_NULL;
    MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &msg, &st);
    MTEST_CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(PROC_NULL) message is not "
                "MPI_MESSAGE_NO_PROC");
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, "Mprobe(PROC_NULL)");
    mtest_status_garbage(&st);
    MPI_Mrecv(&buf, 1, MPI_INT, &msg, &st);
    MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv(MPI_MESSAGE_NO_PROC) left message %#x",
                (unsigned)(uintptr_t)msg);
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT, 0, "Mrecv(NO_PROC)");
    MTEST_CHECK(buf == 12345, "Mrecv(NO_PROC) modified the buffer");

    mtest_status_garbage(&st);
    flag = 0;
    msg = MPI_MESSAGE_NULL;
    MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    MTEST_CHECK(flag, "Improbe(PROC_NULL) gives flag 0");
    MTEST_CHECK(msg == MPI_MESSAGE_NO_PROC, "Improbe(PROC_NULL) message is not "
                "MPI_MESSAGE_NO_PROC");
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, "Improbe(PROC_NULL)");
    MPI_Imrecv(&buf, 1, MPI_INT, &msg, &rq);
    MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Imrecv(MPI_MESSAGE_NO_PROC) did not set the message "
                "to MPI_MESSAGE_NULL");
    mtest_status_garbage(&st);
    MPI_Wait(&rq, &st);
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT, 0, "Imrecv(NO_PROC)");
    MTEST_CHECK(buf == 12345, "Imrecv(NO_PROC) modified the buffer");
}

/* Every rank sends two messages with tag 50 to rank 0 (and one with tag
 * 60); rank 0 uses ANY_SOURCE probes. */
static void test_any_source(void)
{
    const int size = mtest_size, me = mtest_rank;
    size_t n0 = 32 + me, n1 = 2000 + me;
    send_msg(500, n0, 50, 0);
    send_msg(501, n1, 50, 0);
    send_msg(502, 17, 60, 0);
    if (me == 0) {
        int *seen = calloc(size, sizeof(int));
        unsigned char *b = mtest_malloc(4096);
        /* Probe(ANY_SOURCE, tag 60) + Recv from the probed source */
        for (int k = 0; k < size; k++) {
            MPI_Status st;
            MPI_Probe(MPI_ANY_SOURCE, 60, MPI_COMM_WORLD, &st);
            int s = st.MPI_SOURCE;
            if (!MTEST_CHECK(s >= 0 && s < size && !(seen[s] & 1), "Probe(ANY_SOURCE): bad "
                             "or repeated source %d", s))
                break;
            seen[s] |= 1;
            mtest_check_status(&st, s, 60, MPI_BYTE, 17, "Probe(ANY_SOURCE, 60)");
            MPI_Recv(b, 4096, MPI_BYTE, s, 60, MPI_COMM_WORLD, &st);
            mtest_check_status(&st, s, 60, MPI_BYTE, 17, "Recv after Probe(ANY_SOURCE)");
            mtest_check_data(b, 17, s, 502, "Recv after Probe(ANY_SOURCE) from %d", s);
        }
        /* Mprobe(ANY_SOURCE, 50): always the first message of a source not
         * seen yet; a Recv from that source then gets its second message */
        for (int k = 0; k < size; k++) {
            MPI_Status st;
            MPI_Message msg;
            MPI_Mprobe(MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &msg, &st);
            int s = st.MPI_SOURCE;
            if (!MTEST_CHECK(s >= 0 && s < size && !(seen[s] & 2), "Mprobe(ANY_SOURCE): bad "
                             "or repeated source %d", s))
                break;
            seen[s] |= 2;
            mtest_check_status(&st, s, 50, MPI_BYTE, (int)(32 + s), "Mprobe(ANY_SOURCE, 50)");
            MPI_Recv(b, 4096, MPI_BYTE, s, 50, MPI_COMM_WORLD, &st);
            mtest_check_status(&st, s, 50, MPI_BYTE, (int)(2000 + s),
                               "Recv from the mprobed source");
            mtest_check_data(b, 2000 + s, s, 501, "second message from %d", s);
            MPI_Mrecv(b, 4096, MPI_BYTE, &msg, &st);
            mtest_check_status(&st, s, 50, MPI_BYTE, (int)(32 + s), "Mrecv(ANY_SOURCE)");
            mtest_check_data(b, 32 + s, s, 500, "mprobed first message from %d", s);
        }
        free(seen);
        free(b);
    }
    finish_sends();
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;

    test_probe();
    test_mprobe();
    test_proc_null();
    MPI_Barrier(MPI_COMM_WORLD);
    test_any_source();
    return mtest_finalize();
}
