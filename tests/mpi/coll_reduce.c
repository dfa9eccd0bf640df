/*
 * coll_reduce: MPI_Reduce and MPI_Ireduce.
 *   - SUM on int, double, long long; MAX, MIN; MAXLOC on MPI_DOUBLE_INT
 *     (ties pick the lowest rank); BAND; a non-commutative user op (2x2
 *     matrix product: the result proves rank order, for every root) and a
 *     commutative user op; counts 0, 1, 3, size, 7, 100, 1013 and a large
 *     one (a few MiB at up to 4 ranks); several roots; MPI_IN_PLACE at the
 *     root and not; results checked exactly; the receive buffer of the
 *     other ranks is never written;
 *   - derived types (a vector with a gap, a resized type with lb != 0):
 *     data exact, gaps untouched;
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world;
 *   - several Ireduce to different roots outstanding at once, mixed with
 *     point-to-point traffic on the same communicator and tags, completed
 *     in reverse order and with Test loops;
 *   - error classes: root, op, op not defined on the type, count, aliased
 *     buffers at the root, MPI_IN_PLACE away from the root, NULL request.
 * Run it with each DMPI_COLL_REDUCE algorithm (tests/mpi/testlist).
 */
#include "coll_ops.h"

static int rank, size;

static void check_one(MPI_Comm comm, int k, size_t n, int root, int inplace, int seed, const char *cname)
{
    int r, p;
    char what[160];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Reduce count %zu to %d%s", cname, n, root, inplace ? " in place" : "");
    inplace = inplace && r == root;
    void *sbuf = case_alloc(k, n), *rbuf = case_alloc(k, n), *want = case_alloc(k, n);
    case_fill(k, inplace ? rbuf : sbuf, r, 0, n, seed);
    if (r != root)
        memset(rbuf, 0x77, n * cases[k].size);
    MTEST_RC(MPI_Reduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int)n, cases[k].type, cases[k].op, root, comm));
    if (r == root) {
        case_expect(k, want, 0, p, 0, n, seed);
        case_check(k, rbuf, want, n, what);
    } else {
        for (size_t i = 0; i < n * cases[k].size; i++)
            if (((unsigned char *)rbuf)[i] != 0x77) {
                mtest_fail("%s: recvbuf of rank %d written", what, r);
                break;
            }
    }
    free(sbuf);
    free(rbuf);
    free(want);
}

static void test_cases(MPI_Comm comm, const char *cname, size_t big)
{
    int p;
    MPI_Comm_size(comm, &p);
    size_t counts[] = {0, 1, 3, (size_t)p, 7, 100, 1013, big};
    int nc = sizeof counts / sizeof counts[0];
    int roots[] = {0, p - 1, p / 2, 1 % p};
    for (int k = 0; k < NCASES; k++)
        for (int c = 0; c < nc; c++) {
            if (c == nc - 1 && k != C_INT_SUM && k != C_MAT && k != C_DOUBLE_SUM)
                continue;        /* the large count: a few cases are enough */
            for (int ri = 0; ri < 4; ri++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    /* MPICH 4.0 crashes on MPI_IN_PLACE at a root other than
                     * 0 above 2 KiB (its reduce_scatter_gather) */
                    if (MTEST_MPICH_DEVIATION && inplace && roots[ri] != 0 && counts[c] * cases[k].size > 2048)
                        continue;
                    check_one(comm, k, counts[c], roots[ri], inplace, k * 13 + c + ri, cname);
                }
        }
}

static void test_layouts(MPI_Comm comm)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    size_t counts[] = {0, 1, 5, 1000};
    MPI_Op ops[2] = {layout_op, MPI_SUM};
    int nops = MTEST_MPICH_DEVIATION ? 1 : 2;   /* MPICH 4.0: no predefined ops on derived types */
    for (int o = 0; o < nops; o++)
        for (int l = 0; l < 2; l++)
            for (size_t c = 0; c < 4; c++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    const layout_t *L = &layouts[l];
                    size_t n = counts[c];
                    int root = (int)(c + (size_t)l) % p, me_in_place = inplace && r == root;
                    if (MTEST_MPICH_DEVIATION && inplace && root != 0 && n * 8 > 2048)
                        continue;        /* the MPICH 4.0 crash of test_cases */
                    int *sbuf = layout_alloc(L, n), *rbuf = layout_alloc(L, n), *want = mtest_malloc(8 * n + 8);
                    int *in = me_in_place ? rbuf : sbuf;
                    for (size_t e = 0; e < n; e++)
                        for (int j = 0; j < 2; j++) {
                            *layout_int(L, in, e, j) = (int)(e * 2 + (size_t)j) * (r + 1);
                            want[2 * e + j] = (int)(e * 2 + (size_t)j) * p * (p + 1) / 2;
                        }
                    MTEST_RC(MPI_Reduce(me_in_place ? MPI_IN_PLACE : sbuf, rbuf, (int)n, L->type, ops[o], root, comm));
                    if (r == root)
                        layout_check(L, rbuf, n, want, inplace ? "Reduce in place" : "Reduce");
                    free(sbuf);
                    free(rbuf);
                    free(want);
                }
}

/* Ireduce to several roots at once, with user messages on the same tags. */
static void test_nonblocking(MPI_Comm comm, size_t n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int ks[4] = {C_MAT, C_INT_SUM, C_MAXLOC, C_USER_SUM};
    for (int pass = 0; pass < 2; pass++) {
        void *sb[4], *rb[4];
        MPI_Request rq[7];
        int out[2] = {r + 100 * pass, r + 100 * pass + 1}, in[2] = {-1, -1};
        int right = (r + 1) % p, left = (r - 1 + p) % p;
        MTEST_RC(MPI_Irecv(&in[0], 1, MPI_INT, left, 0, comm, &rq[4]));
        for (int i = 0; i < 4; i++) {
            sb[i] = case_alloc(ks[i], n);
            rb[i] = case_alloc(ks[i], n);
            case_fill(ks[i], sb[i], r, 0, n, 50 + i + pass);
            MTEST_RC(MPI_Ireduce(sb[i], rb[i], (int)n, cases[ks[i]].type, cases[ks[i]].op, (i + pass) % p, comm,
                                 &rq[i]));
            if (i == 1)
                MTEST_RC(MPI_Isend(&out[0], 1, MPI_INT, right, 0, comm, &rq[5]));
        }
        MTEST_RC(MPI_Irecv(&in[1], 1, MPI_INT, left, 0, comm, &rq[6]));
        MTEST_RC(MPI_Send(&out[1], 1, MPI_INT, right, 0, comm));
        if (pass == 0) {
            for (int i = 6; i >= 0; i--)
                MTEST_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(7, rq, &done, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(in[0] == left + 100 * pass && in[1] == left + 100 * pass + 1,
                    "user messages around Ireduce: got %d %d", in[0], in[1]);
        for (int i = 0; i < 4; i++) {
            if (r == (i + pass) % p) {
                void *want = case_alloc(ks[i], n);
                case_expect(ks[i], want, 0, p, 0, n, 50 + i + pass);
                case_check(ks[i], rb[i], want, n, pass ? "Ireduce (Testall)" : "Ireduce (Wait in reverse)");
                free(want);
            }
            free(sb[i]);
            free(rb[i]);
        }
    }
}

static void test_errors(void)
{
    MPI_Comm comm;
    MPI_Request rq;
    int a[4] = {0}, b[4] = {0};
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size, comm), MPI_ERR_ROOT, "root == size");
    mtest_check_class(MPI_Ireduce(a, b, 1, MPI_INT, MPI_SUM, -2, comm, &rq), MPI_ERR_ROOT, "root -2");
    mtest_check_class(MPI_Reduce(a, b, 1, MPI_INT, MPI_OP_NULL, 0, comm), MPI_ERR_OP, "MPI_OP_NULL");
    mtest_check_class(MPI_Reduce(a, b, 1, MPI_DOUBLE, MPI_BAND, 0, comm), MPI_ERR_OP, "BAND on MPI_DOUBLE");
    mtest_check_class(MPI_Ireduce(a, b, 1, MPI_INT, MPI_SUM, 0, comm, NULL), MPI_ERR_ARG, "NULL request");
    /* dmpi's root takes part in the Reduce before it reports the aliased
     * buffers, so every rank calls it (MPICH 4.0's root returns at once) */
    if (rank == 0)
        mtest_check_class(MPI_Reduce(a, a, 1, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_BUFFER, "sendbuf == recvbuf");
    else if (!MTEST_MPICH_DEVIATION)
        MTEST_RC(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, 0, comm));
    /* MPICH 4.0 crashes on a negative count and on MPI_IN_PLACE away from the root */
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Reduce(a, b, -1, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_COUNT, "count -1");
        if (rank != 0)
            mtest_check_class(MPI_Reduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_BUFFER,
                              "MPI_IN_PLACE away from the root");
    }
    a[0] = rank + 1;
    MTEST_RC(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size - 1, comm));
    if (rank == size - 1)
        MTEST_CHECK(b[0] == size * (size + 1) / 2, "Reduce after errors: %d", b[0]);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ops_init();
    layouts_init();

    test_cases(MPI_COMM_WORLD, "world", size <= 4 ? 200000 : 4000);
    test_layouts(MPI_COMM_WORLD);
    test_nonblocking(MPI_COMM_WORLD, 1000);
    test_nonblocking(MPI_COMM_WORLD, 2);

    MPI_Comm rev, half;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    test_cases(rev, "reversed", 3000);
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    test_cases(half, "half", 3000);
    test_nonblocking(half, 300);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    test_errors();
    layouts_free();
    ops_free();
    return mtest_finalize();
}
