/*
 * coll_allgather: MPI_Allgather, MPI_Iallgather, MPI_Allgatherv,
 * MPI_Iallgatherv.
 *   - block sizes 0, 1, 2, 6, 14, 100, 1000 ints and a large one (1 MiB
 *     per rank at up to 4 ranks), blocking and nonblocking, MPI_IN_PLACE
 *     and not;
 *   - send and receive types mixed from int, a vector with gaps and a
 *     resized type with lb != 0: data exact, gaps untouched;
 *   - allgatherv with uneven counts, empty blocks, blocks placed in
 *     reverse order with holes between them, and a single nonempty block;
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world
 *     (power-of-two and other sizes: recursive doubling falls back);
 *   - several Iallgather/Iallgatherv outstanding at once with
 *     point-to-point traffic on the same communicator and tags, completed
 *     in reverse order with Test loops and with Waitall;
 *   - error classes: count, type, MPI_IN_PLACE as recvbuf, aliased
 *     buffers, MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_ALLGATHER algorithm (tests/mpi/testlist).
 */
#include "coll_move_types.h"

static int rank, size;

enum { BLOCKING, NONBLOCKING, IN_PLACE, MODES };
static const char *const mode_name[MODES] = {"blocking", "nonblocking", "in place"};

static void allgather_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Allgather %s -> %s, %zu ints, %s", cname, ct_name[sk], ct_name[rk], b,
             mode_name[mode]);
    int *sbuf = ct_alloc(sk, b), *rbuf = ct_alloc(rk, (size_t)p * b), *want = ct_alloc(rk, (size_t)p * b);
    ct_fill(sk, sbuf, 0, b, me, 2);
    for (int j = 0; j < p; j++)
        ct_fill(rk, want, (size_t)j * b, b, j, 2);
    const void *sb = sbuf;
    int scount = ct_count(sk, b);
    MPI_Datatype stype = ct_type[sk];
    if (mode == IN_PLACE) {
        ct_fill(rk, rbuf, (size_t)me * b, b, me, 2);
        sb = MPI_IN_PLACE;
        scount = -7;                      /* ignored */
        stype = MPI_DATATYPE_NULL;
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Iallgather(sb, scount, stype, rbuf, ct_count(rk, b), ct_type[rk], comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Allgather(sb, scount, stype, rbuf, ct_count(rk, b), ct_type[rk], comm));
    }
    ct_compare(rk, rbuf, want, (size_t)p * b, what);
    free(sbuf);
    free(rbuf);
    free(want);
}

/* Allgatherv layout. shape 0: rank j has b + 2j ints but every third one
 * none; shape 1: only the last rank has data. Blocks in reverse rank order
 * with a one-element hole between them; displs in elements of the receive
 * type. Returns the ints spanned. */
static size_t v_layout(int p, int shape, size_t b, int sk, int rk, int *counts, int *displs)
{
    int pos = 0;
    for (int j = p - 1; j >= 0; j--) {
        size_t n = shape == 0 ? (j % 3 == 1 ? 0 : b + (size_t)(2 * j)) : (j == p - 1 ? b : 0);
        if (sk == CT_VEC || rk == CT_VEC)
            n &= ~(size_t)1;
        counts[j] = (int)n;
        displs[j] = pos;
        pos += ct_count(rk, n) + 1;
    }
    return (size_t)pos * (size_t)ct_per[rk];
}

static void allgatherv_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int shape, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Allgatherv %s -> %s, ~%zu ints, shape %d, %s", cname, ct_name[sk],
             ct_name[rk], b, shape, mode_name[mode]);
    int *counts = mtest_malloc(sizeof(int) * (size_t)p), *displs = mtest_malloc(sizeof(int) * (size_t)p);
    int *rcounts = mtest_malloc(sizeof(int) * (size_t)p);
    size_t total = v_layout(p, shape, b, sk, rk, counts, displs);
    for (int j = 0; j < p; j++)
        rcounts[j] = ct_count(rk, (size_t)counts[j]);
    size_t mine = (size_t)counts[me];
    int *sbuf = ct_alloc(sk, mine), *rbuf = ct_alloc(rk, total), *want = ct_alloc(rk, total);
    ct_fill(sk, sbuf, 0, mine, me, 3);
    for (int j = 0; j < p; j++)
        ct_fill(rk, want, (size_t)displs[j] * (size_t)ct_per[rk], (size_t)counts[j], j, 3);
    const void *sb = sbuf;
    int scount = ct_count(sk, mine);
    MPI_Datatype stype = ct_type[sk];
    if (mode == IN_PLACE) {
        ct_fill(rk, rbuf, (size_t)displs[me] * (size_t)ct_per[rk], mine, me, 3);
        sb = MPI_IN_PLACE;
        scount = -7;
        stype = MPI_DATATYPE_NULL;
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Iallgatherv(sb, scount, stype, rbuf, rcounts, displs, ct_type[rk], comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Allgatherv(sb, scount, stype, rbuf, rcounts, displs, ct_type[rk], comm));
    }
    ct_compare(rk, rbuf, want, total, what);
    free(sbuf);
    free(rbuf);
    free(want);
    free(counts);
    free(displs);
    free(rcounts);
}

static const int combos[][2] = {{CT_INT, CT_INT}, {CT_INT, CT_VEC}, {CT_VEC, CT_RES}, {CT_RES, CT_INT}};
#define NCOMBOS ((int)(sizeof combos / sizeof combos[0]))

static void test_sizes(MPI_Comm comm, const char *cname, size_t big)
{
    size_t sizes[] = {0, 1, 2, 6, 14, 100, 1000, big};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]) - (big ? 0 : 1);
    for (int c = 0; c < NCOMBOS; c++)
        for (int i = 0; i < nsizes; i++) {
            int sk = combos[c][0], rk = combos[c][1];
            if ((sizes[i] & 1) && (sk == CT_VEC || rk == CT_VEC))
                continue;
            if (sizes[i] == big && c != 0)
                continue;
            for (int mode = 0; mode < MODES; mode++) {
                allgather_case(comm, cname, sk, rk, sizes[i], mode);
                for (int shape = 0; shape < 2; shape++)
                    allgatherv_case(comm, cname, sk, rk, sizes[i], shape, mode);
            }
        }
}

static void test_outstanding(MPI_Comm comm, const char *cname)
{
    enum { N = 5, B = 21 };
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int *counts = mtest_malloc(sizeof(int) * (size_t)p), *displs = mtest_malloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; j++) {
        counts[j] = B + j;
        displs[j] = (p - 1 - j) * (2 * B + p);
    }
    size_t total = (size_t)p * (2 * B + p);
    for (int order = 0; order < 2; order++) {
        MPI_Request rq[N + 2];
        int *sbuf[N], *rbuf[N];
        int ptp_out = me * 10 + order, ptp_in = -1;
        for (int i = 0; i < N; i++) {
            sbuf[i] = ct_alloc(CT_INT, (size_t)(B + me));
            ct_fill(CT_INT, sbuf[i], 0, (size_t)(B + me), me, 30 + i);
            rbuf[i] = ct_alloc(CT_INT, total);
            if (i % 2)
                MTEST_RC(MPI_Iallgatherv(sbuf[i], B + me, MPI_INT, rbuf[i], counts, displs, MPI_INT, comm, &rq[i]));
            else
                MTEST_RC(MPI_Iallgather(sbuf[i], B, MPI_INT, rbuf[i], B, MPI_INT, comm, &rq[i]));
            if (i == 2) {
                MTEST_RC(MPI_Irecv(&ptp_in, 1, MPI_INT, (me - 1 + p) % p, 0, comm, &rq[N]));
                MTEST_RC(MPI_Isend(&ptp_out, 1, MPI_INT, (me + 1) % p, 0, comm, &rq[N + 1]));
            }
        }
        if (order == 0) {
            for (int i = N + 1; i >= 0; i--) {
                int flag = 0;
                while (!flag)
                    MTEST_RC(MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE));
            }
        } else {
            MTEST_RC(MPI_Waitall(N + 2, rq, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(ptp_in == ((me - 1 + p) % p) * 10 + order, "%s: point-to-point message among collectives: %d",
                    cname, ptp_in);
        for (int i = 0; i < N; i++) {
            int *want = ct_alloc(CT_INT, total);
            for (int j = 0; j < p; j++)
                if (i % 2)
                    ct_fill(CT_INT, want, (size_t)displs[j], (size_t)counts[j], j, 30 + i);
                else
                    ct_fill(CT_INT, want, (size_t)j * B, B, j, 30 + i);
            char what[96];
            snprintf(what, sizeof what, "%s: outstanding collective %d (order %d)", cname, i, order);
            ct_compare(CT_INT, rbuf[i], want, total, what);
            free(want);
            free(sbuf[i]);
            free(rbuf[i]);
        }
    }
    free(counts);
    free(displs);
}

static void test_errors(void)
{
    int v[4] = {0}, w[64], zero[64], neg[64];
    MPI_Request rq;
    for (int i = 0; i < 64; i++) {
        zero[i] = i;
        neg[i] = -1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Allgather(v, -1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "sendcount -1");
    mtest_check_class(MPI_Iallgather(v, 1, MPI_INT, w, -1, MPI_INT, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
                      "recvcount -1");
    mtest_check_class(MPI_Allgather(v, 1, MPI_DATATYPE_NULL, w, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "sendtype NULL");
    mtest_check_class(MPI_Allgather(v, 1, MPI_INT, w, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "recvtype NULL");
    mtest_check_class(MPI_Allgather(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                      "recvbuf MPI_IN_PLACE");
    mtest_check_class(MPI_Allgather(w, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF), MPI_ERR_BUFFER,
                      "sendbuf == recvbuf");
    mtest_check_class(MPI_Allgatherv(v, 1, MPI_INT, w, neg, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
                      "recvcounts negative");
    mtest_check_class(MPI_Allgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Iallgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "NULL request");
    mtest_check_class(MPI_Iallgatherv(v, 1, MPI_INT, w, zero, zero, MPI_INT, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "Iallgatherv NULL request");
    /* on an intercommunicator MPI_IN_PLACE is not allowed (tests/mpi/coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, w, 1, MPI_INT, inter), MPI_ERR_BUFFER,
                          "MPI_IN_PLACE on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ct_init();
    test_sizes(MPI_COMM_WORLD, "world", size <= 4 ? 262144 : 0);
    if (size > 1) {
        MPI_Comm rev;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
        test_sizes(rev, "reversed", 0);
        MPI_Comm_free(&rev);
    }
    if (size > 2) {
        MPI_Comm half;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        test_sizes(half, rank % 2 ? "odd half" : "even half", 0);
        test_outstanding(half, "half");
        MPI_Comm_free(&half);
    }
    test_outstanding(MPI_COMM_WORLD, "world");
    test_errors();
    ct_free();
    return mtest_finalize();
}
