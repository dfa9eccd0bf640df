/* MPI_Comm_free while operations on the communicator are still pending is
 * legal: the communicator lives on until they complete (MPI-4.1 7.4.3).
 * Each phase frees a fresh communicator right after starting operations on
 * it, then completes them: nonblocking point-to-point (small and large
 * messages, ANY_SOURCE), persistent requests, a matched probe's message
 * handle, and every kind of nonblocking collective. Data and statuses are
 * checked; under ASan a use of the freed communicator is an error. */
#include "mtest.h"
#include <stdlib.h>
#include <string.h>

#define ROUNDS 20

static void p2p_phase(int round)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, mtest_rank, &c);
    int n = mtest_size, right = (mtest_rank + 1) % n, left = (mtest_rank + n - 1) % n;
    size_t bytes = round % 2 ? (1u << 20) : 64;      /* rendezvous and eager */
    char *sbuf = malloc(bytes), *rbuf = malloc(bytes + MTEST_GUARD);
    mtest_fill(sbuf, bytes, mtest_rank, round);
    mtest_poison(rbuf, bytes, left, round);
    mtest_guard_set(rbuf + bytes);
    MPI_Request req[2];
    MPI_Irecv(rbuf, (int)bytes, MPI_BYTE, round % 3 ? left : MPI_ANY_SOURCE, 5, c, &req[0]);
    MPI_Isend(sbuf, (int)bytes, MPI_BYTE, right, 5, c, &req[1]);
    MPI_Comm_free(&c);
    (void)MTEST_CHECK(c == MPI_COMM_NULL, "c == MPI_COMM_NULL");
    MPI_Status st[2];
    MPI_Waitall(2, req, st);
    mtest_check_status(&st[0], left, 5, MPI_BYTE, (int)bytes, "receive on a freed communicator");
    mtest_check_data(rbuf, bytes, left, round, "round %d", round);
    mtest_guard_check(rbuf + bytes, "receive buffer");
    free(sbuf);
    free(rbuf);
}

static void persistent_phase(int round)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int n = mtest_size, right = (mtest_rank + 1) % n, left = (mtest_rank + n - 1) % n;
    int out = mtest_rank * 1000 + round, in = -1;
    MPI_Request req[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 9, c, &req[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 9, c, &req[1]);
    MPI_Comm_free(&c);
    for (int k = 0; k < 3; k++) {
        in = -1;
        MPI_Startall(2, req);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        (void)MTEST_CHECK(in == left * 1000 + round, "in == left * 1000 + round");
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
}

static void mprobe_phase(int round)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int n = mtest_size, right = (mtest_rank + 1) % n, left = (mtest_rank + n - 1) % n;
    int out = round, in = -1;
    MPI_Send(&out, 1, MPI_INT, right, 3, c);
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(left, 3, c, &msg, &st);
    MPI_Comm_free(&c);
    MPI_Mrecv(&in, 1, MPI_INT, &msg, &st);
    (void)MTEST_CHECK(in == round && st.MPI_SOURCE == left, "in == round && st.MPI_SOURCE == left");
}

static void coll_phase(int round)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, mtest_size - mtest_rank, &c);   /* reversed ranks */
    int n = mtest_size, me;
    MPI_Comm_rank(c, &me);
    int sum = -1, one = me + round, bval = me == 0 ? round * 7 : -1;
    int *all = malloc((size_t)n * sizeof(int)), *mine = malloc((size_t)n * sizeof(int));
    int *got = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        mine[i] = me * 100 + i;
    MPI_Request req[5];
    MPI_Ibarrier(c, &req[0]);
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c, &req[1]);
    MPI_Ibcast(&bval, 1, MPI_INT, 0, c, &req[2]);
    MPI_Iallgather(&one, 1, MPI_INT, all, 1, MPI_INT, c, &req[3]);
    MPI_Ialltoall(mine, 1, MPI_INT, got, 1, MPI_INT, c, &req[4]);
    MPI_Comm_free(&c);
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    (void)MTEST_CHECK(sum == n * (n - 1) / 2 + n * round, "sum == n * (n - 1) / 2 + n * round");
    (void)MTEST_CHECK(bval == round * 7, "bval == round * 7");
    for (int i = 0; i < n; i++) {
        (void)MTEST_CHECK(all[i] == i + round, "all[i] == i + round");
        (void)MTEST_CHECK(got[i] == i * 100 + me, "got[i] == i * 100 + me");
    }
    free(all);
    free(mine);
    free(got);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    for (int round = 0; round < ROUNDS; round++) {
        p2p_phase(round);
        persistent_phase(round);
        mprobe_phase(round);
        coll_phase(round);
    }
    /* The context ids of the freed communicators are free again: many more
     * communicators than there are ids can still be made. */
    for (int i = 0; i < 5000; i++) {
        MPI_Comm c;
        MPI_Request r;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Ibarrier(c, &r);
        MPI_Comm_free(&c);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return mtest_finalize();
}
