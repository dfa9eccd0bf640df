/*
 * coll_alltoall: MPI_Alltoall and MPI_Ialltoall.
 *   - block sizes 0, 1, 2, 6, 14, 100, 1000 ints and a large one (512 KiB
 *     per block at up to 4 ranks), blocking and nonblocking, MPI_IN_PLACE
 *     and not;
 *   - send and receive types mixed from int, a vector with gaps and a
 *     resized type with lb != 0: data exact, gaps untouched;
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world;
 *   - several Ialltoall outstanding at once with point-to-point traffic on
 *     the same communicator and tags, completed in reverse order with Test
 *     loops and with Waitall;
 *   - error classes: count, type, MPI_IN_PLACE as recvbuf, aliased
 *     buffers, MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_ALLTOALL algorithm (tests/mpi/testlist).
 */
#include "coll_move_types.h"

static int rank, size;

enum { BLOCKING, NONBLOCKING, IN_PLACE, MODES };
static const char *const mode_name[MODES] = {"blocking", "nonblocking", "in place"};

/* Block j of rank i's send buffer: ct_value(i, j, e). */
static void alltoall_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Alltoall %s -> %s, %zu ints, %s", cname, ct_name[sk], ct_name[rk], b,
             mode_name[mode]);
    size_t all = (size_t)p * b;
    int *sbuf = ct_alloc(sk, all), *rbuf = ct_alloc(rk, all), *want = ct_alloc(rk, all);
    for (int j = 0; j < p; j++) {
        ct_fill(sk, sbuf, (size_t)j * b, b, me, j);
        ct_fill(rk, want, (size_t)j * b, b, j, me);
    }
    const void *sb = sbuf;
    int scount = ct_count(sk, b);
    MPI_Datatype stype = ct_type[sk];
    if (mode == IN_PLACE) {
        for (int j = 0; j < p; j++)
            ct_fill(rk, rbuf, (size_t)j * b, b, me, j);
        sb = MPI_IN_PLACE;
        scount = -7;                      /* ignored */
        stype = MPI_DATATYPE_NULL;
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Ialltoall(sb, scount, stype, rbuf, ct_count(rk, b), ct_type[rk], comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Alltoall(sb, scount, stype, rbuf, ct_count(rk, b), ct_type[rk], comm));
    }
    ct_compare(rk, rbuf, want, all, what);
    free(sbuf);
    free(rbuf);
    free(want);
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
            for (int mode = 0; mode < MODES; mode++)
                alltoall_case(comm, cname, sk, rk, sizes[i], mode);
        }
}

static void test_outstanding(MPI_Comm comm, const char *cname)
{
    enum { N = 5, B = 17 };
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    size_t all = (size_t)p * B;
    for (int order = 0; order < 2; order++) {
        MPI_Request rq[N + 2];
        int *sbuf[N], *rbuf[N];
        int ptp_out = me * 10 + order, ptp_in = -1;
        for (int i = 0; i < N; i++) {
            sbuf[i] = ct_alloc(CT_INT, all);
            rbuf[i] = ct_alloc(CT_INT, all);
            for (int j = 0; j < p; j++)
                ct_fill(CT_INT, i == 3 ? rbuf[i] : sbuf[i], (size_t)j * B, B, me, 40 * i + j);
            MTEST_RC(MPI_Ialltoall(i == 3 ? MPI_IN_PLACE : sbuf[i], B, MPI_INT, rbuf[i], B, MPI_INT, comm, &rq[i]));
            if (i == 1) {
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
            int *want = ct_alloc(CT_INT, all);
            for (int j = 0; j < p; j++)
                ct_fill(CT_INT, want, (size_t)j * B, B, j, 40 * i + me);
            char what[96];
            snprintf(what, sizeof what, "%s: outstanding collective %d (order %d)", cname, i, order);
            ct_compare(CT_INT, rbuf[i], want, all, what);
            free(want);
            free(sbuf[i]);
            free(rbuf[i]);
        }
    }
}

static void test_errors(void)
{
    int v[4] = {0}, w[64];
    MPI_Request rq;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Alltoall(v, -1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "sendcount -1");
    mtest_check_class(MPI_Ialltoall(v, 1, MPI_INT, w, -1, MPI_INT, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
                      "recvcount -1");
    mtest_check_class(MPI_Alltoall(v, 1, MPI_DATATYPE_NULL, w, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "sendtype NULL");
    mtest_check_class(MPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "recvtype NULL");
    mtest_check_class(MPI_Alltoall(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                      "recvbuf MPI_IN_PLACE");
    mtest_check_class(MPI_Alltoall(w, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF), MPI_ERR_BUFFER,
                      "sendbuf == recvbuf");
    mtest_check_class(MPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Ialltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "NULL request");
    /* on an intercommunicator MPI_IN_PLACE is not allowed (tests/mpi/coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, w, 1, MPI_INT, inter), MPI_ERR_BUFFER,
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
    test_sizes(MPI_COMM_WORLD, "world", size <= 4 ? 131072 : 0);
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
