/*
 * coll_scatter: MPI_Scatter, MPI_Iscatter, MPI_Scatterv, MPI_Iscatterv.
 *   - every root, block sizes 0, 1, 2, 6, 14, 100, 1000 ints and a large
 *     one (1 MiB per rank at up to 4 ranks), blocking and nonblocking, the
 *     root's block left in place (MPI_IN_PLACE as its recvbuf) and not;
 *   - send and receive types mixed from int, a vector with gaps and a
 *     resized type with lb != 0: data exact, gaps untouched; the send
 *     arguments are ignored away from the root;
 *   - scatterv with uneven counts, empty blocks and blocks taken from the
 *     send buffer in reverse order with holes between them;
 *   - on MPI_COMM_WORLD and on halves of it;
 *   - several Iscatter/Iscatterv outstanding at once with point-to-point
 *     traffic on the same communicator and tags, completed in reverse
 *     order with Test loops and with Waitall;
 *   - error classes: root, count, type, MPI_IN_PLACE where not allowed,
 *     MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_SCATTER algorithm (tests/mpi/testlist).
 */
#include "coll_move_types.h"

static int rank, size;

enum { BLOCKING, NONBLOCKING, IN_PLACE, MODES };
static const char *const mode_name[MODES] = {"blocking", "nonblocking", "in place"};

/* The root's block stays in its send buffer: check that it is unchanged. */
static void scatter_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int root, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Scatter %s -> %s, %zu ints, root %d, %s", cname, ct_name[sk], ct_name[rk], b,
             root, mode_name[mode]);
    int *sbuf = NULL, *rbuf = ct_alloc(rk, b), *want = ct_alloc(rk, b);
    ct_fill(rk, want, 0, b, root, me);
    void *rb = rbuf;
    int rcount = ct_count(rk, b);
    MPI_Datatype rtype = ct_type[rk];
    if (me == root) {
        sbuf = ct_alloc(sk, (size_t)p * b);
        for (int j = 0; j < p; j++)
            ct_fill(sk, sbuf, (size_t)j * b, b, root, j);
        if (mode == IN_PLACE) {
            rb = MPI_IN_PLACE;
            /* the root's receive arguments are ignored: nonsense (MPICH
             * 4.0 checks them anyway) */
            rcount = MTEST_MPICH_DEVIATION ? ct_count(sk, b) : -7;
            rtype = MTEST_MPICH_DEVIATION ? ct_type[sk] : MPI_DATATYPE_NULL;
        }
    }
    /* Away from the root the send arguments are not significant. */
    int scount = me == root ? ct_count(sk, b) : -1;
    MPI_Datatype stype = me == root ? ct_type[sk] : MPI_DATATYPE_NULL;
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Iscatter(sbuf, scount, stype, rb, rcount, rtype, root, comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Scatter(sbuf, scount, stype, rb, rcount, rtype, root, comm));
    }
    if (rb != MPI_IN_PLACE)
        ct_compare(rk, rbuf, want, b, what);
    if (me == root) {
        int *orig = ct_alloc(sk, (size_t)p * b);
        for (int j = 0; j < p; j++)
            ct_fill(sk, orig, (size_t)j * b, b, root, j);
        ct_compare(sk, sbuf, orig, (size_t)p * b, what);
        free(orig);
    }
    free(sbuf);
    free(rbuf);
    free(want);
}

/* Scatterv layout: rank j gets counts[j] ints (0 for every third rank from
 * the root), taken in reverse rank order with a one-element hole between
 * blocks; displs in elements of the send type. Returns the ints spanned. */
static size_t v_layout(int p, int root, size_t b, int sk, int rk, int *counts, int *displs)
{
    int pos = 0;
    for (int j = p - 1; j >= 0; j--) {
        size_t n = (j - root + p) % p % 3 == 1 ? 0 : b + (size_t)(2 * j);
        if (sk == CT_VEC || rk == CT_VEC)
            n &= ~(size_t)1;
        counts[j] = (int)n;
        displs[j] = pos;
        pos += ct_count(sk, n) + 1;
    }
    return (size_t)pos * (size_t)ct_per[sk];
}

static void scatterv_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int root, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Scatterv %s -> %s, ~%zu ints, root %d, %s", cname, ct_name[sk], ct_name[rk],
             b, root, mode_name[mode]);
    int *counts = mtest_malloc(sizeof(int) * (size_t)p), *displs = mtest_malloc(sizeof(int) * (size_t)p);
    int *scounts = mtest_malloc(sizeof(int) * (size_t)p);
    size_t total = v_layout(p, root, b, sk, rk, counts, displs);
    for (int j = 0; j < p; j++)
        scounts[j] = ct_count(sk, (size_t)counts[j]);
    size_t mine = (size_t)counts[me];
    int *sbuf = NULL, *rbuf = ct_alloc(rk, mine), *want = ct_alloc(rk, mine);
    ct_fill(rk, want, 0, mine, root, me);
    void *rb = rbuf;
    int rcount = ct_count(rk, mine);
    MPI_Datatype rtype = ct_type[rk];
    if (me == root) {
        sbuf = ct_alloc(sk, total);
        for (int j = 0; j < p; j++)
            ct_fill(sk, sbuf, (size_t)displs[j] * (size_t)ct_per[sk], (size_t)counts[j], root, j);
        if (mode == IN_PLACE) {
            rb = MPI_IN_PLACE;
            rcount = MTEST_MPICH_DEVIATION ? scounts[root] : -7;    /* ignored; MPICH 4.0 checks */
            rtype = MTEST_MPICH_DEVIATION ? ct_type[sk] : MPI_DATATYPE_NULL;
        }
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Iscatterv(sbuf, scounts, displs, ct_type[sk], rb, rcount, rtype, root, comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Scatterv(sbuf, scounts, displs, ct_type[sk], rb, rcount, rtype, root, comm));
    }
    if (rb != MPI_IN_PLACE)
        ct_compare(rk, rbuf, want, mine, what);
    free(sbuf);
    free(rbuf);
    free(want);
    free(counts);
    free(displs);
    free(scounts);
}

static const int combos[][2] = {{CT_INT, CT_INT}, {CT_INT, CT_VEC}, {CT_VEC, CT_RES}, {CT_RES, CT_INT}};
#define NCOMBOS ((int)(sizeof combos / sizeof combos[0]))

static void test_sizes(MPI_Comm comm, const char *cname, size_t big)
{
    int p;
    MPI_Comm_size(comm, &p);
    size_t sizes[] = {0, 1, 2, 6, 14, 100, 1000, big};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]) - (big ? 0 : 1);
    for (int c = 0; c < NCOMBOS; c++)
        for (int i = 0; i < nsizes; i++) {
            int sk = combos[c][0], rk = combos[c][1];
            if ((sizes[i] & 1) && (sk == CT_VEC || rk == CT_VEC))
                continue;
            if (sizes[i] == big && c != 0)
                continue;
            for (int root = 0; root < p; root++) {
                if (sizes[i] > 14 && root != 0 && root != p - 1)
                    continue;
                for (int mode = 0; mode < MODES; mode++) {
                    scatter_case(comm, cname, sk, rk, sizes[i], root, mode);
                    scatterv_case(comm, cname, sk, rk, sizes[i], root, mode);
                }
            }
        }
}

static void test_outstanding(MPI_Comm comm, const char *cname)
{
    enum { N = 5, B = 33 };
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
            int root = (i * 3 + 1) % p;
            sbuf[i] = ct_alloc(CT_INT, total);
            for (int j = 0; j < p; j++)
                if (i == N - 1)
                    ct_fill(CT_INT, sbuf[i], (size_t)displs[j], (size_t)counts[j], root, 20 + i + j);
                else
                    ct_fill(CT_INT, sbuf[i], (size_t)j * B, B, root, 20 + i + j);
            rbuf[i] = ct_alloc(CT_INT, total);
            if (i == N - 1)
                MTEST_RC(MPI_Iscatterv(sbuf[i], counts, displs, MPI_INT, rbuf[i], B + me, MPI_INT, root, comm,
                                       &rq[i]));
            else
                MTEST_RC(MPI_Iscatter(sbuf[i], B, MPI_INT, rbuf[i], B, MPI_INT, root, comm, &rq[i]));
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
            int root = (i * 3 + 1) % p;
            size_t n = i == N - 1 ? (size_t)(B + me) : B;
            int *want = ct_alloc(CT_INT, total);
            ct_fill(CT_INT, want, 0, n, root, 20 + i + me);
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
    int v[4] = {0}, w[64], one[64], zero[64];
    MPI_Request rq;
    for (int i = 0; i < 64; i++) {
        one[i] = 1;
        zero[i] = i;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "root = size");
    mtest_check_class(MPI_Iscatterv(v, one, zero, MPI_INT, w, 1, MPI_INT, -2, MPI_COMM_WORLD, &rq), MPI_ERR_ROOT,
                      "Iscatterv root -2");
    mtest_check_class(MPI_Scatter(v, -1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT, "sendcount -1");
    mtest_check_class(MPI_Scatter(v, 1, MPI_INT, w, -1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT, "recvcount -1");
    mtest_check_class(MPI_Scatter(v, 1, MPI_DATATYPE_NULL, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                      "sendtype NULL");
    mtest_check_class(MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                      "recvtype NULL");
    mtest_check_class(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_BUFFER,
                      "sendbuf MPI_IN_PLACE at the root");
    int neg[1] = {-1};
    mtest_check_class(MPI_Scatterv(v, neg, zero, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT,
                      "sendcounts[0] -1");
    mtest_check_class(MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Iscatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "NULL request");
    /* Every rank errs at once: MPI_IN_PLACE as recvbuf away from the root,
     * and as sendbuf at the root. (MPICH 4.0 does not check: it crashes.) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        int rc = MPI_Scatter(rank ? v : MPI_IN_PLACE, 1, MPI_INT, rank ? MPI_IN_PLACE : w, 1, MPI_INT, 0,
                             MPI_COMM_WORLD);
        mtest_check_class(rc, MPI_ERR_BUFFER, "MPI_IN_PLACE in the wrong place (rank %d)", rank);
    }
    /* on an intercommunicator the root is MPI_ROOT, MPI_PROC_NULL or a remote rank (coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, 1000, inter), MPI_ERR_ROOT,
                          "root 1000 on an intercommunicator");
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
    if (size > 2) {
        MPI_Comm half;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
        test_sizes(half, rank % 2 ? "odd half" : "even half", 0);
        test_outstanding(half, "half");
        MPI_Comm_free(&half);
    }
    test_outstanding(MPI_COMM_WORLD, "world");
    test_errors();
    ct_free();
    return mtest_finalize();
}
