/*
 * selfmsg: messages from a rank to itself, on MPI_COMM_WORLD and on
 * MPI_COMM_SELF, at all sizes up to a maximum (default 8 MiB, argv[1]
 * overrides):
 *  - MPI_Isend, then MPI_Recv, then MPI_Wait;
 *  - MPI_Irecv, then a blocking MPI_Send, then MPI_Wait;
 *  - MPI_Sendrecv and MPI_Sendrecv_replace with oneself;
 *  - MPI_Issend, then MPI_Recv (the synchronous send completes after);
 *  - MPI_Probe of a message to oneself;
 *  - many small Isends to oneself, received in order, with MPI_ANY_SOURCE
 *    (the status names the rank itself).
 * Every rank does this independently of the others.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *sbuf, *rbuf;

static void check(const MPI_Status *st, int src, int tag, size_t n, int idx, const char *what,
                  MPI_Comm comm)
{
    char w[160];
    snprintf(w, sizeof w, "%s, %zu bytes, %s", what, n,
             comm == MPI_COMM_SELF ? "COMM_SELF" : "COMM_WORLD");
    mtest_check_status(st, src, tag, MPI_BYTE, (int)n, w);
    /* the pattern is keyed by the world rank of the sender */
    mtest_check_data(rbuf, n, mtest_rank, idx, "%s", w);
    mtest_guard_check(rbuf + n, w);
}

static void prep(size_t n, int idx)
{
    mtest_fill(sbuf, n, mtest_rank, idx);
    mtest_poison(rbuf, n, mtest_rank, idx);
    mtest_guard_set(rbuf + n);
}

static void one_size(MPI_Comm comm, size_t n, int si)
{
    int me;
    MPI_Comm_rank(comm, &me);
    MPI_Status st;
    MPI_Request r;
    int idx = si * 10;

    prep(n, idx);
    MPI_Isend(sbuf, (int)n, MPI_BYTE, me, 1, comm, &r);
    MPI_Recv(rbuf, (int)n, MPI_BYTE, me, 1, comm, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check(&st, me, 1, n, idx, "Isend then Recv", comm);

    prep(n, ++idx);
    MPI_Irecv(rbuf, (int)n, MPI_BYTE, me, 2, comm, &r);
    MPI_Send(sbuf, (int)n, MPI_BYTE, me, 2, comm);
    MPI_Wait(&r, &st);
    check(&st, me, 2, n, idx, "Irecv then Send", comm);

    prep(n, ++idx);
    MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, me, 3, rbuf, (int)n, MPI_BYTE, me, 3, comm, &st);
    check(&st, me, 3, n, idx, "Sendrecv", comm);

    prep(n, ++idx);
    memcpy(rbuf, sbuf, n);
    MPI_Sendrecv_replace(rbuf, (int)n, MPI_BYTE, me, 4, me, 4, comm, &st);
    check(&st, me, 4, n, idx, "Sendrecv_replace", comm);

    prep(n, ++idx);
    MPI_Issend(sbuf, (int)n, MPI_BYTE, me, 5, comm, &r);
    MPI_Probe(MPI_ANY_SOURCE, 5, comm, &st);
    mtest_check_status(&st, me, 5, MPI_BYTE, (int)n, "Probe of a message to oneself");
    MPI_Recv(rbuf, (int)n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check(&st, me, 5, n, idx, "Issend then Recv(ANY_SOURCE, ANY_TAG)", comm);
}

static void many_small(MPI_Comm comm)
{
    enum { N = 200 };
    int me;
    MPI_Comm_rank(comm, &me);
    int out[N], in[N];
    MPI_Request r[N];
    MPI_Status st;
    for (int i = 0; i < N; i++) {
        out[i] = 1000 * mtest_rank + i;
        MPI_Isend(&out[i], 1, MPI_INT, me, i % 3, comm, &r[i]);
    }
    for (int i = 0; i < N; i++) {
        in[i] = -1;
        MPI_Recv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
        mtest_check_status(&st, me, i % 3, MPI_INT, 1, "many small messages to oneself");
        MTEST_CHECK(in[i] == 1000 * mtest_rank + i, "message %d to oneself carried %d", i,
                    in[i]);
    }
    MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    size_t max = 8u << 20;
    if (argc > 1)
        max = mtest_parse_size(argv[1]);
    int nsizes;
    size_t *sizes = mtest_size_list(max, &nsizes);
    sbuf = mtest_malloc(max + MTEST_GUARD);
    rbuf = mtest_malloc(max + MTEST_GUARD);

    int selfsize = -1, selfrank = -1;
    MPI_Comm_size(MPI_COMM_SELF, &selfsize);
    MPI_Comm_rank(MPI_COMM_SELF, &selfrank);
    MTEST_CHECK(selfsize == 1 && selfrank == 0, "MPI_COMM_SELF: size %d rank %d", selfsize,
                selfrank);

    for (int si = 0; si < nsizes; si++) {
        one_size(MPI_COMM_WORLD, sizes[si], si);
        one_size(MPI_COMM_SELF, sizes[si], si);
    }
    many_small(MPI_COMM_WORLD);
    many_small(MPI_COMM_SELF);

    free(sizes);
    free(sbuf);
    free(rbuf);
    return mtest_finalize();
}
