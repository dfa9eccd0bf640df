/*
 * coll_gather: MPI_Gather, MPI_Igather, MPI_Gatherv, MPI_Igatherv.
 *   - every root, block sizes 0, 1, 2, 6, 14, 100, 1000 ints and a large
 *     one (1 MiB per rank at up to 4 ranks), blocking and nonblocking, the
 *     root's block in place (MPI_IN_PLACE) and not;
 *   - send and receive types mixed from int, a vector with gaps and a
 *     resized type with lb != 0: data exact, gaps untouched; receive
 *     arguments are ignored away from the root;
 *   - gatherv with uneven counts, empty blocks and blocks placed in reverse
 *     order with holes between them;
 *   - on MPI_COMM_WORLD and on halves of it (other sizes, other roots);
 *   - several Igather/Igatherv outstanding at once with point-to-point
 *     traffic on the same communicator and tags, completed in reverse
 *     order with Test loops;
 *   - error classes: root, count, type, MPI_IN_PLACE where not allowed,
 *     MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_GATHER algorithm (tests/mpi/testlist).
 */
#include "coll_move_types.h"

static int rank, size;

enum { BLOCKING, NONBLOCKING, IN_PLACE, MODES };
static const char *const mode_name[MODES] = {"blocking", "nonblocking", "in place"};

static void gather_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int root, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Gather %s -> %s, %zu ints, root %d, %s", cname, ct_name[sk], ct_name[rk], b,
             root, mode_name[mode]);
    int *sbuf = ct_alloc(sk, b), *rbuf = NULL, *want = NULL;
    ct_fill(sk, sbuf, 0, b, me, 0);
    const void *sb = sbuf;
    if (me == root) {
        rbuf = ct_alloc(rk, (size_t)p * b);
        want = ct_alloc(rk, (size_t)p * b);
        for (int j = 0; j < p; j++)
            ct_fill(rk, want, (size_t)j * b, b, j, 0);
        if (mode == IN_PLACE) {
            ct_fill(rk, rbuf, (size_t)root * b, b, root, 0);
            sb = MPI_IN_PLACE;
        }
    }
    /* Away from the root the receive arguments are not significant. */
    void *rb = me == root ? rbuf : NULL;
    int rcount = me == root ? ct_count(rk, b) : -1;
    MPI_Datatype rtype = me == root ? ct_type[rk] : MPI_DATATYPE_NULL;
    /* In place, the root's send arguments are ignored: pass nonsense. */
    int scount = ct_count(sk, b);
    MPI_Datatype stype = ct_type[sk];
    if (sb == MPI_IN_PLACE) {
        scount = -7;
        stype = MPI_DATATYPE_NULL;
        /* MPICH 4.0 checks them anyway. */
        if (MTEST_MPICH_DEVIATION) {
            scount = rcount;
            stype = rtype;
        }
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Igather(sb, scount, stype, rb, rcount, rtype, root, comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Gather(sb, scount, stype, rb, rcount, rtype, root, comm));
    }
    if (me == root)
        ct_compare(rk, rbuf, want, (size_t)p * b, what);
    free(sbuf);
    free(rbuf);
    free(want);
}

/* Gatherv layout: rank j gives counts[j] ints (0 for every third rank from
 * the root), placed in reverse rank order with a one-element hole between
 * blocks; displs in elements of the receive type. Returns the ints spanned. */
static size_t v_layout(int p, int root, size_t b, int rk, int sk, int *counts, int *displs)
{
    int pos = 0;
    for (int j = p - 1; j >= 0; j--) {
        size_t n = (j - root + p) % p % 3 == 1 ? 0 : b + (size_t)(2 * j);
        if (sk == CT_VEC || rk == CT_VEC)
            n &= ~(size_t)1;
        counts[j] = (int)n;
        displs[j] = pos;
        pos += ct_count(rk, n) + 1;
    }
    return (size_t)pos * (size_t)ct_per[rk];
}

static void gatherv_case(MPI_Comm comm, const char *cname, int sk, int rk, size_t b, int root, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Gatherv %s -> %s, ~%zu ints, root %d, %s", cname, ct_name[sk], ct_name[rk], b,
             root, mode_name[mode]);
    int *counts = mtest_malloc(sizeof(int) * (size_t)p), *displs = mtest_malloc(sizeof(int) * (size_t)p);
    int *rcounts = mtest_malloc(sizeof(int) * (size_t)p);
    size_t total = v_layout(p, root, b, rk, sk, counts, displs);
    for (int j = 0; j < p; j++)
        rcounts[j] = ct_count(rk, (size_t)counts[j]);
    size_t mine = (size_t)counts[me];
    int *sbuf = ct_alloc(sk, mine), *rbuf = NULL, *want = NULL;
    ct_fill(sk, sbuf, 0, mine, me, 1);
    const void *sb = sbuf;
    if (me == root) {
        rbuf = ct_alloc(rk, total);
        want = ct_alloc(rk, total);
        for (int j = 0; j < p; j++)
            ct_fill(rk, want, (size_t)displs[j] * (size_t)ct_per[rk], (size_t)counts[j], j, 1);
        if (mode == IN_PLACE) {
            ct_fill(rk, rbuf, (size_t)displs[root] * (size_t)ct_per[rk], mine, root, 1);
            sb = MPI_IN_PLACE;
        }
    }
    int scount = ct_count(sk, mine);
    MPI_Datatype stype = ct_type[sk];
    if (sb == MPI_IN_PLACE) {
        scount = -7;
        stype = MPI_DATATYPE_NULL;
        if (MTEST_MPICH_DEVIATION) {    /* MPICH 4.0 checks them anyway */
            scount = rcounts[root];
            stype = ct_type[rk];
        }
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Igatherv(sb, scount, stype, rbuf, rcounts, displs, ct_type[rk], root, comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Gatherv(sb, scount, stype, rbuf, rcounts, displs, ct_type[rk], root, comm));
    }
    if (me == root)
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
                continue;        /* large blocks: one combination is enough */
            for (int root = 0; root < p; root++) {
                if (sizes[i] > 14 && root != 0 && root != p - 1)
                    continue;    /* every root for small blocks, two for the rest */
                for (int mode = 0; mode < MODES; mode++) {
                    gather_case(comm, cname, sk, rk, sizes[i], root, mode);
                    gatherv_case(comm, cname, sk, rk, sizes[i], root, mode);
                }
            }
        }
}

/* Several nonblocking gathers at once, point-to-point traffic with the
 * same tags on the same communicator in between, completed in reverse
 * order (Test loops) and all at once (Waitall). */
static void test_outstanding(MPI_Comm comm, const char *cname)
{
    enum { N = 5, B = 33 };
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int order = 0; order < 2; order++) {
        MPI_Request rq[N + 2];
        int *sbuf[N], *rbuf[N], *counts = mtest_malloc(sizeof(int) * (size_t)p),
            *displs = mtest_malloc(sizeof(int) * (size_t)p);
        for (int j = 0; j < p; j++) {
            counts[j] = B + j;
            displs[j] = (p - 1 - j) * (2 * B + p);
        }
        int ptp_out = me * 10 + order, ptp_in = -1;
        for (int i = 0; i < N; i++) {
            int root = (i * 3) % p;
            sbuf[i] = ct_alloc(CT_INT, (size_t)(B + me));
            ct_fill(CT_INT, sbuf[i], 0, (size_t)(B + me), me, 10 + i);
            rbuf[i] = ct_alloc(CT_INT, (size_t)p * (2 * B + p));
            if (i == N - 1)
                MTEST_RC(MPI_Igatherv(sbuf[i], B + me, MPI_INT, rbuf[i], counts, displs, MPI_INT, root, comm, &rq[i]));
            else
                MTEST_RC(MPI_Igather(sbuf[i], B, MPI_INT, rbuf[i], B, MPI_INT, root, comm, &rq[i]));
            if (i == 1) {
                /* tag 0 and the communicator of the collectives */
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
            int root = (i * 3) % p;
            if (me == root) {
                size_t total = (size_t)p * (2 * B + p);
                int *want = ct_alloc(CT_INT, total);
                for (int j = 0; j < p; j++)
                    if (i == N - 1)
                        ct_fill(CT_INT, want, (size_t)displs[j], (size_t)(B + j), j, 10 + i);
                    else
                        ct_fill(CT_INT, want, (size_t)j * B, B, j, 10 + i);
                char what[96];
                snprintf(what, sizeof what, "%s: outstanding collective %d (order %d)", cname, i, order);
                ct_compare(CT_INT, rbuf[i], want, total, what);
                free(want);
            }
            free(sbuf[i]);
            free(rbuf[i]);
        }
        free(counts);
        free(displs);
    }
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
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "root = size");
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "root -1");
    mtest_check_class(MPI_Igatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, size, MPI_COMM_WORLD, &rq), MPI_ERR_ROOT,
                      "Igatherv root = size");
    mtest_check_class(MPI_Gather(v, -1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT, "sendcount -1");
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, -1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT, "recvcount -1");
    mtest_check_class(MPI_Gather(v, 1, MPI_DATATYPE_NULL, w, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                      "sendtype NULL");
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                      "recvtype NULL");
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_BUFFER,
                      "recvbuf MPI_IN_PLACE at the root");
    int neg[1] = {-1};
    mtest_check_class(MPI_Gatherv(v, 1, MPI_INT, w, neg, zero, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_COUNT,
                      "recvcounts[0] -1");
    mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Igather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "NULL request");
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    mtest_check_class(MPI_Gather(v, 1, uncommitted, w, 2, MPI_INT, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                      "uncommitted sendtype");
    MPI_Type_free(&uncommitted);
    /* Every rank errs at once: MPI_IN_PLACE as sendbuf away from the root,
     * and as recvbuf at the root. (MPICH 4.0 does not check: it crashes.) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        int rc = MPI_Gather(rank ? MPI_IN_PLACE : v, 1, MPI_INT, rank ? w : MPI_IN_PLACE, 1, MPI_INT, 0,
                            MPI_COMM_WORLD);
        mtest_check_class(rc, MPI_ERR_BUFFER, "MPI_IN_PLACE in the wrong place (rank %d)", rank);
    }
    /* on an intercommunicator the root is MPI_ROOT, MPI_PROC_NULL or a remote rank (coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, 1000, inter), MPI_ERR_ROOT,
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
