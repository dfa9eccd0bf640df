/*
 * pingpong: messages of every size from 0 bytes up to a maximum (default
 * 64 MiB, argv[1] overrides, e.g. "4M") between pairs of ranks, in both
 * directions, checked byte for byte, with status and MPI_Get_count.
 *
 * Ranks are paired (0,1), (2,3), ...; with an odd number of processes the
 * last rank talks to itself (MPI_Sendrecv, Irecv+Isend, Isend+Irecv).
 *
 * Variants for MPI_BYTE messages:
 *   0  blocking:      A Send, B Recv, B Send back, A Recv
 *   1  simultaneous:  both Irecv (buffer larger than the message), Isend, Waitall
 *   2  mixed:         A Isend + Irecv + Waitall, B Recv then Isend + Wait
 * Typed messages (MPI_INT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_DOUBLE_COMPLEX):
 * variants 0 and 1 with element counts, Get_count in elements and in bytes.
 */
#include "mtest.h"

#include <complex.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *sbuf, *rbuf;

/* idx of a message: unique per (variant, datatype, size index). */
static int msg_idx(int variant, int type, int si)
{
    return variant * 100000 + type * 1000 + si;
}

static int msg_tag(int variant, int si)
{
    return variant * 200 + si % 200;
}

/* Checks a received message of n bytes in rbuf, guard at rbuf + n. */
static void check_bytes(const MPI_Status *st, int src, int tag, size_t n, int idx,
                        const char *what)
{
    char w[160];
    snprintf(w, sizeof w, "%s: %zu bytes from %d", what, n, src);
    mtest_check_status(st, src, tag, MPI_BYTE, (int)n, w);
    mtest_check_data(rbuf, n, src, idx, "%s", w);
    mtest_guard_check(rbuf + n, w);
}

static void prep_recv(size_t n, int src, int idx)
{
    mtest_poison(rbuf, n, src, idx);
    mtest_guard_set(rbuf + n);
}

static void pair_bytes(int peer, int initiator, size_t n, int si)
{
    int me = mtest_rank;
    MPI_Status st, sts[2];
    MPI_Request req[2];

    /* variant 0: blocking ping-pong */
    int tag = msg_tag(0, si), idx = msg_idx(0, 0, si);
    if (initiator) {
        mtest_fill(sbuf, n, me, idx);
        MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        prep_recv(n, peer, idx);
        MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
        check_bytes(&st, peer, tag, n, idx, "blocking pong");
    } else {
        prep_recv(n, peer, idx);
        MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
        check_bytes(&st, peer, tag, n, idx, "blocking ping");
        mtest_fill(sbuf, n, me, idx);
        MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
    }

    /* variant 1: both directions at once, receive buffer larger than the
     * message (the guard lies inside the posted buffer) */
    tag = msg_tag(1, si);
    idx = msg_idx(1, 0, si);
    prep_recv(n, peer, idx);
    MPI_Irecv(rbuf, (int)n + MTEST_GUARD, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
    mtest_fill(sbuf, n, me, idx);
    MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    check_bytes(&sts[0], peer, tag, n, idx, "simultaneous exchange");
    MTEST_CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL,
                "Waitall did not set requests to MPI_REQUEST_NULL");

    /* variant 2: Isend + Irecv on one side, Recv then Isend on the other */
    tag = msg_tag(2, si);
    idx = msg_idx(2, 0, si);
    if (initiator) {
        mtest_fill(sbuf, n, me, idx);
        MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
        prep_recv(n, peer, idx);
        MPI_Irecv(rbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, sts);
        check_bytes(&sts[1], peer, tag, n, idx, "Isend/Irecv pong");
    } else {
        prep_recv(n, peer, idx);
        MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
        check_bytes(&st, peer, tag, n, idx, "Recv of Isend");
        mtest_fill(sbuf, n, me, idx);
        MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Wait(&req[0], &st);
        MTEST_CHECK(req[0] == MPI_REQUEST_NULL, "Wait did not free the request");
    }
}

static void self_bytes(size_t n, int si)
{
    int me = mtest_rank;
    MPI_Status st, sts[2];
    MPI_Request req[2];

    int tag = msg_tag(0, si), idx = msg_idx(0, 0, si);
    mtest_fill(sbuf, n, me, idx);
    prep_recv(n, me, idx);
    MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, me, tag, rbuf, (int)n, MPI_BYTE, me, tag,
                 MPI_COMM_WORLD, &st);
    check_bytes(&st, me, tag, n, idx, "Sendrecv with self");

    tag = msg_tag(1, si);
    idx = msg_idx(1, 0, si);
    mtest_fill(sbuf, n, me, idx);
    prep_recv(n, me, idx);
    MPI_Irecv(rbuf, (int)n + MTEST_GUARD, MPI_BYTE, me, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sbuf, (int)n, MPI_BYTE, me, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    check_bytes(&sts[0], me, tag, n, idx, "Irecv+Isend with self");

    tag = msg_tag(2, si);
    idx = msg_idx(2, 0, si);
    mtest_fill(sbuf, n, me, idx);
    prep_recv(n, me, idx);
    MPI_Isend(sbuf, (int)n, MPI_BYTE, me, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(rbuf, (int)n, MPI_BYTE, me, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    check_bytes(&sts[1], me, tag, n, idx, "Isend+Irecv with self");
}

struct typeinfo {
    MPI_Datatype type;
    const char *name;
    size_t size;   /* sizeof the C type */
    size_t sig;    /* significant bytes of one element */
};

static void check_typed(const struct typeinfo *ti, const MPI_Status *st, int src, int tag,
                        int count, int idx, const char *what)
{
    char w[160];
    snprintf(w, sizeof w, "%s: %d x %s from %d", what, count, ti->name, src);
    mtest_check_status(st, src, tag, ti->type, count, w);
    mtest_check_status(st, MTEST_DONTCARE, MTEST_DONTCARE, MPI_BYTE, (int)(count * ti->size), w);
    mtest_check_elems(rbuf, (size_t)count, ti->size, ti->sig, src, idx, w);
    mtest_guard_check(rbuf + count * ti->size, w);
}

static void typed(const struct typeinfo *ti, int ti_index, int peer, int initiator, int count,
                  int si)
{
    int me = mtest_rank;
    size_t n = (size_t)count * ti->size;
    MPI_Status st, sts[2];
    MPI_Request req[2];
    int tag = msg_tag(0, si), idx = msg_idx(0, ti_index + 1, si);

    if (peer == me) {
        mtest_fill(sbuf, n, me, idx);
        prep_recv(n, me, idx);
        MPI_Sendrecv(sbuf, count, ti->type, me, tag, rbuf, count, ti->type, me, tag,
                     MPI_COMM_WORLD, &st);
        check_typed(ti, &st, me, tag, count, idx, "typed Sendrecv with self");
        return;
    }
    if (initiator) {
        mtest_fill(sbuf, n, me, idx);
        MPI_Send(sbuf, count, ti->type, peer, tag, MPI_COMM_WORLD);
        prep_recv(n, peer, idx);
        MPI_Recv(rbuf, count, ti->type, peer, tag, MPI_COMM_WORLD, &st);
        check_typed(ti, &st, peer, tag, count, idx, "typed blocking pong");
    } else {
        prep_recv(n, peer, idx);
        MPI_Recv(rbuf, count, ti->type, peer, tag, MPI_COMM_WORLD, &st);
        check_typed(ti, &st, peer, tag, count, idx, "typed blocking ping");
        mtest_fill(sbuf, n, me, idx);
        MPI_Send(sbuf, count, ti->type, peer, tag, MPI_COMM_WORLD);
    }

    tag = msg_tag(1, si);
    idx = msg_idx(1, ti_index + 1, si);
    prep_recv(n, peer, idx);
    /* posted count one element larger than the message */
    MPI_Irecv(rbuf, count + 1, ti->type, peer, tag, MPI_COMM_WORLD, &req[0]);
    mtest_fill(sbuf, n, me, idx);
    MPI_Isend(sbuf, count, ti->type, peer, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    check_typed(ti, &sts[0], peer, tag, count, idx, "typed simultaneous exchange");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    size_t max = 64u << 20;
    if (argc > 1)
        max = mtest_parse_size(argv[1]);

    int me = mtest_rank;
    int peer = me ^ 1;
    if (peer >= mtest_size)
        peer = me;
    int initiator = me < peer;

    int nsizes;
    size_t *sizes = mtest_size_list(max, &nsizes);
    /* send and receive buffers: largest message + guard + one extra element */
    size_t cap = max + MTEST_GUARD + 64;
    sbuf = mtest_malloc(cap);
    rbuf = mtest_malloc(cap);

    double t0 = MPI_Wtime();
    for (int si = 0; si < nsizes; si++) {
        if (peer == me)
            self_bytes(sizes[si], si);
        else
            pair_bytes(peer, initiator, sizes[si], si);
    }
    double t1 = MPI_Wtime();

    const struct typeinfo types[] = {
        {MPI_INT, "MPI_INT", sizeof(int), sizeof(int)},
        {MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), sizeof(double)},
        /* x87 extended precision: 10 value bytes, the rest is padding that
         * an MPI library need not transfer */
        {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double),
         LDBL_MANT_DIG == 64 ? 10 : sizeof(long double)},
        {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(double _Complex),
         sizeof(double _Complex)},
    };
    static const int counts[] = {0, 1, 2, 3, 7, 64, 1000, 4097, 65537, 262147, 1048573};
    for (int t = 0; t < (int)(sizeof types / sizeof types[0]); t++) {
        int tsize = 0;
        MPI_Type_size(types[t].type, &tsize);
        MTEST_CHECK((size_t)tsize == types[t].size, "MPI_Type_size(%s) = %d, sizeof = %zu",
                    types[t].name, tsize, types[t].size);
        for (int c = 0; c < (int)(sizeof counts / sizeof counts[0]); c++) {
            if ((size_t)(counts[c] + 1) * types[t].size > max + 64)
                break;
            typed(&types[t], t, peer, initiator, counts[c], c);
        }
    }
    double t2 = MPI_Wtime();
    if (getenv("MTEST_VERBOSE"))
        printf("[rank %d] bytes %.2fs, typed %.2fs\n", me, t1 - t0, t2 - t1);

    free(sizes);
    free(sbuf);
    free(rbuf);
    return mtest_finalize();
}
