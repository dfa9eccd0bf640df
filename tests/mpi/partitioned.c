/*
 * partitioned.c - partitioned point-to-point (MPI-4.0 chapter 4) around a ring:
 * every rank sends to rank+1 and receives from rank-1 (itself at one process).
 *
 *   equal      8 x 1000 ints, partitions marked ready in a scrambled order,
 *              Parrived polled per partition, 3 starts with fresh data
 *   unequal    sender 6 x 10 doubles, receiver 4 x 15; sender 3 x 1000 bytes,
 *              receiver 5 x 600; and a noncontiguous receive type whose
 *              elements straddle the sender's partitions (staged pieces)
 *   range/list Pready_range and Pready_list
 *   arrival    Parrived is false before the sender marks anything ready,
 *              true for exactly the partitions marked so far
 *   large      4 partitions of 256 KiB (rendezvous)
 *   order      two sends with one tag pair in init order; two tags inited
 *              in opposite orders on the two sides
 *   threads    under MPI_THREAD_MULTIPLE, 4 threads mark partitions ready
 *   inter      over an intercommunicator between the two halves of the ranks
 *   misc       Startall, Test, Request_get_status, Request_free (also of
 *              requests never started), MPI_PROC_NULL
 *   errors     classes of Pready on an inactive request, out of range,
 *              twice, Parrived on a send, wildcards, negative partitions
 */
#include "mtest.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int right, left;

/* A permutation of 0..n-1 that is far from in order. */
static void scramble(int *p, int n, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mtest_rand_range(&seed, 0, (size_t)i);
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Bytes [off, off + n) of buf hold those of the pattern of (sender, idx). */
static void check_range(const void *buf, size_t off, size_t n, int sender, int idx, const char *what)
{
    const unsigned char *b = buf;
    size_t bad = 0;
    for (size_t i = off; i < off + n; i++)
        bad += b[i] != mtest_pattern_byte(sender, idx, i);
    MTEST_CHECK(bad == 0, "%s: %zu of bytes %zu..%zu wrong", what, bad, off, off + n);
}

static void test_equal(void)
{
    enum { P = 8, C = 1000 };
    size_t bytes = (size_t)P * C * sizeof(int);
    int *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes + MTEST_GUARD);
    MPI_Request sreq, rreq;
    MTEST_RC(MPI_Precv_init(rbuf, P, C, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
    MTEST_RC(MPI_Psend_init(sbuf, P, C, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
    for (int round = 0; round < 3; round++) {
        mtest_fill(sbuf, bytes, mtest_rank, 10 + round);
        mtest_poison(rbuf, bytes, left, 10 + round);
        mtest_guard_set((char *)rbuf + bytes);
        MTEST_RC(MPI_Start(&rreq));
        MTEST_RC(MPI_Start(&sreq));
        int order[P];
        scramble(order, P, (uint64_t)(round * 31 + mtest_rank + 1));
        for (int i = 0; i < P; i++)
            MTEST_RC(MPI_Pready(order[i], sreq));
        int seen[P] = {0}, left_to_see = P;
        while (left_to_see > 0) {
            for (int i = 0; i < P; i++) {
                int flag = 0;
                if (seen[i])
                    continue;
                MTEST_RC(MPI_Parrived(rreq, i, &flag));
                if (flag) {
                    seen[i] = 1;
                    left_to_see--;
                    /* An arrived partition is in place before the request completes. */
                    check_range(rbuf, (size_t)i * C * sizeof(int), C * sizeof(int), left, 10 + round,
                                "equal: an arrived partition");
                }
            }
        }
        MPI_Status st;
        MTEST_RC(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MTEST_RC(MPI_Wait(&rreq, &st));
        mtest_check_status(&st, left, 7, MPI_INT, P * C, "equal: receive status");
        mtest_check_data(rbuf, bytes, left, 10 + round, "equal: round %d", round);
        mtest_guard_check((char *)rbuf + bytes, "equal: guard");
    }
    MTEST_RC(MPI_Request_free(&sreq));
    MTEST_RC(MPI_Request_free(&rreq));
    MTEST_CHECK(sreq == MPI_REQUEST_NULL && rreq == MPI_REQUEST_NULL, "Request_free leaves MPI_REQUEST_NULL");
    free(sbuf);
    free(rbuf);
}

/* Sender sp x sc elements of stype, receiver rp x rc of rtype; the data of
 * both is the same stream of bytes (stype and rtype contiguous here). */
static void unequal_case(int sp, int sc, int rp, int rc, MPI_Datatype type, size_t esize, int idx)
{
    size_t bytes = (size_t)sp * sc * esize;
    char *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes + MTEST_GUARD);
    MPI_Request req[2];
    mtest_fill(sbuf, bytes, mtest_rank, idx);
    mtest_poison(rbuf, bytes, left, idx);
    mtest_guard_set(rbuf + bytes);
    MTEST_RC(MPI_Psend_init(sbuf, sp, sc, type, right, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MTEST_RC(MPI_Precv_init(rbuf, rp, rc, type, left, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    MTEST_RC(MPI_Startall(2, req));
    for (int i = sp - 1; i >= 0; i--)
        MTEST_RC(MPI_Pready(i, req[0]));
    MPI_Status st[2];
    MTEST_RC(MPI_Waitall(2, req, st));
    mtest_check_data(rbuf, bytes, left, idx, "unequal %dx%d -> %dx%d", sp, sc, rp, rc);
    mtest_check_status(&st[1], left, 11, type, rp * rc, "unequal: status");
    mtest_guard_check(rbuf + bytes, "unequal: guard");
    MTEST_RC(MPI_Request_free(&req[0]));
    MTEST_RC(MPI_Request_free(&req[1]));
    free(sbuf);
    free(rbuf);
}

/* Sender: 6 partitions of 4 ints. Receiver: 2 partitions of 2 elements of
 * a vector (2 blocks of 3 ints, stride 4): 24 ints either way, and the
 * receiver's elements start and end inside the sender's partitions. */
static void test_noncontig(void)
{
    int sbuf[24], rbuf[2 * 2 * 8];
    MPI_Datatype vec;
    MPI_Type_vector(2, 3, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 24; i++)
        sbuf[i] = 1000 * mtest_rank + i;
    for (int i = 0; i < 32; i++)
        rbuf[i] = -1;
    MPI_Request req[2];
    MTEST_RC(MPI_Precv_init(rbuf, 2, 2, vec, left, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    MTEST_RC(MPI_Psend_init(sbuf, 6, 4, MPI_INT, right, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    for (int round = 0; round < 2; round++) {
        MTEST_RC(MPI_Startall(2, req));
        int order[6] = {3, 0, 5, 1, 4, 2};
        for (int i = 0; i < 6; i++)
            MTEST_RC(MPI_Pready(order[i], req[0]));
        int flag = 0;
        while (!flag)
            MTEST_RC(MPI_Parrived(req[1], 1, &flag));
        MTEST_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        /* vector element e (8 ints of extent, 7 as extent ... ) holds ints at 0,1,2,4,5,6 of its span */
        int k = 0, bad = 0;
        for (int e = 0; e < 4; e++) {
            int base = e * 7;                  /* extent of the vector: (2-1)*4 + 3 = 7 ints */
            int offs[6] = {0, 1, 2, 4, 5, 6};
            for (int j = 0; j < 6; j++, k++)
                if (rbuf[base + offs[j]] != 1000 * left + k)
                    bad++;
        }
        MTEST_CHECK(bad == 0, "noncontiguous receive: %d ints wrong in round %d", bad, round);
        MTEST_CHECK(rbuf[3] == -1 && rbuf[28] == -1, "noncontiguous receive wrote into a gap");
    }
    MTEST_RC(MPI_Request_free(&req[0]));
    MTEST_RC(MPI_Request_free(&req[1]));
    MPI_Type_free(&vec);
}

static void test_range_list(void)
{
    enum { P = 10, C = 33 };
    size_t bytes = (size_t)P * C;
    char *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes);
    MPI_Request req[2];
    MTEST_RC(MPI_Psend_init(sbuf, P, C, MPI_BYTE, right, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MTEST_RC(MPI_Precv_init(rbuf, P, C, MPI_BYTE, left, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    for (int round = 0; round < 2; round++) {
        mtest_fill(sbuf, bytes, mtest_rank, 30 + round);
        mtest_poison(rbuf, bytes, left, 30 + round);
        MTEST_RC(MPI_Start(&req[1]));
        MTEST_RC(MPI_Start(&req[0]));
        int list[4] = {9, 2, 7, 0};
        MTEST_RC(MPI_Pready_list(4, list, req[0]));
        MTEST_RC(MPI_Pready_range(3, 6, req[0]));
        MTEST_RC(MPI_Pready_list(0, NULL, req[0]));
        int rest[2] = {8, 1};
        MTEST_RC(MPI_Pready_list(2, rest, req[0]));
        MTEST_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        mtest_check_data(rbuf, bytes, left, 30 + round, "Pready_range/list round %d", round);
    }
    MTEST_RC(MPI_Request_free(&req[0]));
    MTEST_RC(MPI_Request_free(&req[1]));
    free(sbuf);
    free(rbuf);
}

/* Parrived is false until the sender marks the partition, true after. */
static void test_arrival(void)
{
    enum { P = 4, C = 64 };
    long sbuf[P * C], rbuf[P * C];
    MPI_Request s, r;
    for (int i = 0; i < P * C; i++) {
        sbuf[i] = mtest_rank * 100000L + i;
        rbuf[i] = -1;
    }
    MTEST_RC(MPI_Psend_init(sbuf, P, C, MPI_LONG, right, 14, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    MTEST_RC(MPI_Precv_init(rbuf, P, C, MPI_LONG, left, 14, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    int flag = 0;
    MTEST_RC(MPI_Parrived(r, 0, &flag));
    MTEST_CHECK(flag == 1, "Parrived on an inactive request: flag %d, expected 1", flag);
    flag = 0;
    MTEST_RC(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
    MTEST_CHECK(flag == 1, "Parrived on MPI_REQUEST_NULL: flag %d, expected 1", flag);
    MTEST_RC(MPI_Start(&r));
    MTEST_RC(MPI_Start(&s));
    for (int i = 0; i < P; i++) {
        flag = 1;
        MTEST_RC(MPI_Parrived(r, i, &flag));
        MTEST_CHECK(flag == 0, "Parrived(%d) true before the sender marked anything ready", i);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_Pready(2, s));
    MPI_Barrier(MPI_COMM_WORLD);     /* partition 2 is on its way; 0, 1, 3 are not */
    flag = 0;
    while (!flag)
        MTEST_RC(MPI_Parrived(r, 2, &flag));
    MTEST_CHECK(rbuf[2 * C] == left * 100000L + 2 * C, "partition 2 arrived but its data is not in place");
    for (int i = 0; i < P; i++) {
        if (i == 2)
            continue;
        MTEST_RC(MPI_Parrived(r, i, &flag));
        MTEST_CHECK(flag == 0, "Parrived(%d) true, but only partition 2 was marked ready", i);
    }
    int done = 1;
    MTEST_RC(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(!done, "partitioned receive complete with 3 partitions not sent");
    MTEST_RC(MPI_Request_get_status(r, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(!done, "Request_get_status: complete with 3 partitions not sent");
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_Pready_range(0, 1, s));
    MTEST_RC(MPI_Pready(3, s));
    done = 0;
    while (!done)
        MTEST_RC(MPI_Request_get_status(r, &done, MPI_STATUS_IGNORE));
    for (int i = 0; i < P; i++) {
        MTEST_RC(MPI_Parrived(r, i, &flag));
        MTEST_CHECK(flag == 1, "Parrived(%d) false after the receive completed", i);
    }
    done = 0;
    while (!done)
        MTEST_RC(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
    MTEST_CHECK(r != MPI_REQUEST_NULL, "Test set a persistent request to MPI_REQUEST_NULL");
    MTEST_RC(MPI_Wait(&s, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < P * C; i++)
        bad += rbuf[i] != left * 100000L + i;
    MTEST_CHECK(bad == 0, "arrival: %d longs wrong", bad);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void test_large(void)
{
    enum { P = 4 };
    size_t part = 256 * 1024, bytes = P * part;
    char *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes);
    mtest_fill(sbuf, bytes, mtest_rank, 40);
    mtest_poison(rbuf, bytes, left, 40);
    MPI_Request req[2];
    MTEST_RC(MPI_Psend_init(sbuf, P, (MPI_Count)part, MPI_BYTE, right, 15, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MTEST_RC(MPI_Precv_init(rbuf, 2, (MPI_Count)(2 * part), MPI_BYTE, left, 15, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &req[1]));
    MTEST_RC(MPI_Startall(2, req));
    MTEST_RC(MPI_Pready(3, req[0]));
    MTEST_RC(MPI_Pready(1, req[0]));
    MTEST_RC(MPI_Pready(2, req[0]));
    MTEST_RC(MPI_Pready(0, req[0]));
    MTEST_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    mtest_check_data(rbuf, bytes, left, 40, "large partitions");
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    free(sbuf);
    free(rbuf);
}

/* Init order decides matching; start order does not. */
static void test_order(void)
{
    int a[4], b[4], c[4], d[4], ra[4], rb[4], rc[4], rd[4];
    for (int i = 0; i < 4; i++) {
        a[i] = 100 + i + mtest_rank * 1000;
        b[i] = 200 + i + mtest_rank * 1000;
        c[i] = 300 + i + mtest_rank * 1000;
        d[i] = 400 + i + mtest_rank * 1000;
    }
    MPI_Request s[4], r[4];
    MTEST_RC(MPI_Psend_init(a, 2, 2, MPI_INT, right, 20, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
    MTEST_RC(MPI_Psend_init(b, 2, 2, MPI_INT, right, 20, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
    MTEST_RC(MPI_Psend_init(c, 1, 4, MPI_INT, right, 21, MPI_COMM_WORLD, MPI_INFO_NULL, &s[2]));
    MTEST_RC(MPI_Psend_init(d, 4, 1, MPI_INT, right, 22, MPI_COMM_WORLD, MPI_INFO_NULL, &s[3]));
    MTEST_RC(MPI_Precv_init(rd, 2, 2, MPI_INT, left, 22, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
    MTEST_RC(MPI_Precv_init(rc, 4, 1, MPI_INT, left, 21, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
    MTEST_RC(MPI_Precv_init(ra, 4, 1, MPI_INT, left, 20, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    MTEST_RC(MPI_Precv_init(rb, 1, 4, MPI_INT, left, 20, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    /* start the second of each pair first */
    int sorder[4] = {1, 3, 0, 2}, rorder[4] = {1, 2, 3, 0};
    for (int i = 0; i < 4; i++)
        MTEST_RC(MPI_Start(&r[rorder[i]]));
    int nparts[4] = {2, 2, 1, 4};
    for (int i = 0; i < 4; i++) {
        MTEST_RC(MPI_Start(&s[sorder[i]]));
        MTEST_RC(MPI_Pready_range(0, nparts[sorder[i]] - 1, s[sorder[i]]));
    }
    MTEST_RC(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    MTEST_RC(MPI_Waitall(4, s, MPI_STATUSES_IGNORE));
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        int base = left * 1000;
        bad += ra[i] != base + 100 + i;
        bad += rb[i] != base + 200 + i;
        bad += rc[i] != base + 300 + i;
        bad += rd[i] != base + 400 + i;
    }
    MTEST_CHECK(bad == 0, "init-order matching: %d ints wrong", bad);
    for (int i = 0; i < 4; i++) {
        MPI_Request_free(&s[i]);
        MPI_Request_free(&r[i]);
    }
}

struct thr {
    MPI_Request req;
    int first, step, n;
};

static void *ready_thread(void *arg)
{
    struct thr *t = arg;
    for (int i = t->first; i < t->n; i += t->step)
        MTEST_RC(MPI_Pready(i, t->req));
    return NULL;
}

static void test_threads(int provided)
{
    if (provided < MPI_THREAD_MULTIPLE)
        return;
    enum { P = 64, C = 50, T = 4 };
    size_t bytes = (size_t)P * C * sizeof(double);
    double *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes);
    MPI_Request req[2];
    MTEST_RC(MPI_Psend_init(sbuf, P, C, MPI_DOUBLE, right, 16, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MTEST_RC(MPI_Precv_init(rbuf, P, C, MPI_DOUBLE, left, 16, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    for (int round = 0; round < 2; round++) {
        mtest_fill(sbuf, bytes, mtest_rank, 50 + round);
        mtest_poison(rbuf, bytes, left, 50 + round);
        MTEST_RC(MPI_Startall(2, req));
        pthread_t th[T];
        struct thr args[T];
        for (int t = 0; t < T; t++) {
            args[t] = (struct thr){req[0], t, T, P};
            pthread_create(&th[t], NULL, ready_thread, &args[t]);
        }
        for (int t = 0; t < T; t++)
            pthread_join(th[t], NULL);
        MTEST_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        mtest_check_data(rbuf, bytes, left, 50 + round, "threads round %d", round);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    free(sbuf);
    free(rbuf);
}

static void test_proc_null(void)
{
    int buf[6] = {1, 2, 3, 4, 5, 6};
    MPI_Request s, r;
    MPI_Status st;
    MTEST_RC(MPI_Psend_init(buf, 3, 2, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    MTEST_RC(MPI_Precv_init(buf, 3, 2, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MTEST_RC(MPI_Start(&s));
    MTEST_RC(MPI_Start(&r));
    MTEST_RC(MPI_Pready_range(0, 2, s));
    int flag = 0;
    MTEST_RC(MPI_Parrived(r, 1, &flag));
    MTEST_CHECK(flag == 1, "Parrived from MPI_PROC_NULL is false");
    MTEST_RC(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Wait(&r, &st));
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT, 0, "receive from MPI_PROC_NULL");
    MTEST_CHECK(buf[0] == 1 && buf[5] == 6, "MPI_PROC_NULL wrote the buffer");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void test_errors(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int buf[4] = {0}, rbuf[4];
    MPI_Request s, r, bad;
    int rc = MPI_Precv_init(rbuf, 2, 2, MPI_INT, MPI_ANY_SOURCE, 1, comm, MPI_INFO_NULL, &bad);
    mtest_check_class(rc, MPI_ERR_RANK, "Precv_init from MPI_ANY_SOURCE");
    rc = MPI_Precv_init(rbuf, 2, 2, MPI_INT, left, MPI_ANY_TAG, comm, MPI_INFO_NULL, &bad);
    mtest_check_class(rc, MPI_ERR_TAG, "Precv_init with MPI_ANY_TAG");
    rc = MPI_Psend_init(buf, -1, 2, MPI_INT, right, 1, comm, MPI_INFO_NULL, &bad);
    mtest_check_class(rc, MPI_ERR_ARG, "Psend_init with -1 partitions");
    rc = MPI_Psend_init(buf, 2, -2, MPI_INT, right, 1, comm, MPI_INFO_NULL, &bad);
    mtest_check_class(rc, MPI_ERR_COUNT, "Psend_init with count -2");
    rc = MPI_Psend_init(buf, 2, 2, MPI_INT, mtest_size, 1, comm, MPI_INFO_NULL, &bad);
    mtest_check_class(rc, MPI_ERR_RANK, "Psend_init to a rank beyond the communicator");

    MTEST_RC(MPI_Psend_init(buf, 2, 2, MPI_INT, right, 1, comm, MPI_INFO_NULL, &s));
    MTEST_RC(MPI_Precv_init(rbuf, 2, 2, MPI_INT, left, 1, comm, MPI_INFO_NULL, &r));
    rc = MPI_Pready(0, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready on an inactive request");
    MTEST_RC(MPI_Start(&s));
    MTEST_RC(MPI_Start(&r));
    rc = MPI_Pready(2, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready of partition 2 of 2");
    rc = MPI_Pready(-1, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready of partition -1");
    rc = MPI_Pready_range(1, 0, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready_range(1, 0)");
    int list[1] = {5};
    rc = MPI_Pready_list(1, list, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready_list with partition 5 of 2");
    int flag;
    rc = MPI_Parrived(s, 0, &flag);
    mtest_check_class(rc, MPI_ERR_REQUEST, "Parrived on a send request");
    rc = MPI_Pready(0, r);
    mtest_check_class(rc, MPI_ERR_REQUEST, "Pready on a receive request");
    rc = MPI_Parrived(r, 2, &flag);
    mtest_check_class(rc, MPI_ERR_ARG, "Parrived of partition 2 of 2");
    rc = MPI_Start(&s);
    mtest_check_class(rc, MPI_ERR_REQUEST, "Start of an active partitioned request");
    MTEST_RC(MPI_Pready(0, s));
    rc = MPI_Pready(0, s);
    mtest_check_class(rc, MPI_ERR_ARG, "Pready twice in one round");
    MTEST_RC(MPI_Pready(1, s));
    MTEST_RC(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MTEST_CHECK(rbuf[0] == 0 && rbuf[3] == 0, "errors: data of the good round");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Comm_free(&comm);
}

/* Rank i of the lower half and rank i of the upper half exchange both
 * ways over an intercommunicator (a rank without a partner sits out). */
static void test_inter(void)
{
    if (mtest_size < 2)
        return;
    int half = mtest_size / 2, low = mtest_rank < half;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, mtest_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 99, &inter);
    int lrank, rsize;
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    if (lrank < rsize) {
        enum { P = 5, C = 300 };
        size_t bytes = (size_t)P * C * sizeof(short);
        short *sbuf = mtest_malloc(bytes), *rbuf = mtest_malloc(bytes);
        MPI_Request req[2];
        MTEST_RC(MPI_Psend_init(sbuf, P, C, MPI_SHORT, lrank, 3, inter, MPI_INFO_NULL, &req[0]));
        MTEST_RC(MPI_Precv_init(rbuf, 3, P * C / 3, MPI_SHORT, lrank, 3, inter, MPI_INFO_NULL, &req[1]));
        int partner = low ? half + lrank : lrank;
        for (int round = 0; round < 2; round++) {
            mtest_fill(sbuf, bytes, mtest_rank, 60 + round);
            mtest_poison(rbuf, bytes, partner, 60 + round);
            MTEST_RC(MPI_Startall(2, req));
            for (int i = P - 1; i >= 0; i -= 2)
                MTEST_RC(MPI_Pready(i, req[0]));
            for (int i = P - 2; i >= 0; i -= 2)
                MTEST_RC(MPI_Pready(i, req[0]));
            MPI_Status st[2];
            MTEST_RC(MPI_Waitall(2, req, st));
            mtest_check_data(rbuf, bytes, partner, 60 + round, "intercommunicator round %d", round);
            mtest_check_status(&st[1], lrank, 3, MPI_SHORT, P * C, "intercommunicator receive");
        }
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
        free(sbuf);
        free(rbuf);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* Requests freed without ever being started still pair, in init order:
 * the next pair with the same tag gets the right data. (Freeing an active
 * partitioned request is erroneous, so it is not tried.) */
static void test_free_unstarted(void)
{
    int a[8], b[8], ra[8], rb[8];
    for (int i = 0; i < 8; i++) {
        a[i] = mtest_rank * 10 + i;
        b[i] = mtest_rank * 10 + 100 + i;
        ra[i] = rb[i] = -1;
    }
    MPI_Request sa, sb, qa, qb;
    MTEST_RC(MPI_Psend_init(a, 4, 2, MPI_INT, right, 17, MPI_COMM_WORLD, MPI_INFO_NULL, &sa));
    MTEST_RC(MPI_Psend_init(b, 4, 2, MPI_INT, right, 17, MPI_COMM_WORLD, MPI_INFO_NULL, &sb));
    MTEST_RC(MPI_Precv_init(ra, 2, 4, MPI_INT, left, 17, MPI_COMM_WORLD, MPI_INFO_NULL, &qa));
    MTEST_RC(MPI_Precv_init(rb, 2, 4, MPI_INT, left, 17, MPI_COMM_WORLD, MPI_INFO_NULL, &qb));
    MTEST_RC(MPI_Request_free(&sa));
    MTEST_RC(MPI_Request_free(&qa));
    MTEST_RC(MPI_Start(&sb));
    MTEST_RC(MPI_Start(&qb));
    MTEST_RC(MPI_Pready_range(0, 3, sb));
    MTEST_RC(MPI_Wait(&qb, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Wait(&sb, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 8; i++)
        bad += rb[i] != left * 10 + 100 + i || ra[i] != -1;
    MTEST_CHECK(bad == 0, "after freeing an unstarted pair: %d ints wrong", bad);
    MPI_Request_free(&sb);
    MPI_Request_free(&qb);
}

/* Empty partitions (count 0) still arrive only once the sender marks them
 * ready: Parrived is false after Start, true after Pready, at every round. */
static void test_empty(void)
{
    for (int np = 1; np <= 3; np++) {
        int sbuf = 7, rbuf = -1;
        MPI_Request s, r;
        MTEST_RC(MPI_Psend_init(&sbuf, np, 0, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
        MTEST_RC(MPI_Precv_init(&rbuf, np, 0, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        for (int round = 0; round < 3; round++) {
            MPI_Barrier(MPI_COMM_WORLD);
            MTEST_RC(MPI_Start(&r));
            for (int i = 0; i < np; i++) {
                int flag = -1;
                MTEST_RC(MPI_Parrived(r, i, &flag));
                MTEST_CHECK(flag == 0, "empty partition %d of %d arrived before the sender started (round %d)", i,
                            np, round);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            MTEST_RC(MPI_Start(&s));
            for (int i = 0; i < np; i++)
                MTEST_RC(MPI_Pready(i, s));
            for (int i = 0; i < np; i++) {
                int flag = 0;
                while (!flag)
                    MTEST_RC(MPI_Parrived(r, i, &flag));
            }
            MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
            MTEST_RC(MPI_Wait(&s, MPI_STATUS_IGNORE));
            MTEST_CHECK(rbuf == -1, "an empty partitioned receive wrote %d into its buffer", rbuf);
        }
        MTEST_RC(MPI_Request_free(&s));
        MTEST_RC(MPI_Request_free(&r));
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    mtest_start();
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;
    test_equal();
    unequal_case(6, 10, 4, 15, MPI_DOUBLE, sizeof(double), 20);
    unequal_case(3, 1000, 5, 600, MPI_BYTE, 1, 21);
    unequal_case(1, 12, 12, 1, MPI_INT, sizeof(int), 22);
    test_noncontig();
    test_range_list();
    test_empty();
    test_arrival();
    test_large();
    test_order();
    test_threads(provided);
    test_proc_null();
    test_inter();
    test_free_unstarted();
    test_errors();
    MPI_Barrier(MPI_COMM_WORLD);
    return mtest_finalize();
}
