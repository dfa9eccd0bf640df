/*
 * coll_allreduce: MPI_Allreduce and MPI_Iallreduce.
 *   - SUM on int, double, long long; MAX, MIN; MAXLOC on MPI_DOUBLE_INT
 *     (ties pick the lowest rank); BAND; a non-commutative user op (2x2
 *     matrix product: the result proves rank order) and a commutative user
 *     op; counts 0, 1, 3, size, 7, 100, 1013 and a large one (a few MiB at
 *     up to 4 ranks); in place and not; results checked exactly;
 *   - non-integer doubles summed: every rank gets the same bits;
 *   - derived types (a vector with a gap, a resized type with lb != 0):
 *     data exact, gaps untouched;
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world;
 *   - several Iallreduce outstanding at once, mixed with point-to-point
 *     traffic on the same communicator and tags, completed in reverse
 *     order and with Test loops; one of each nonblocking reduction and an
 *     Ibcast in flight together, completed by Testany;
 *   - error classes: op, op not defined on the type, count, type,
 *     MPI_IN_PLACE as recvbuf, aliased buffers, MPI_COMM_NULL, NULL
 *     request, intercommunicator.
 * Run it with each DMPI_COLL_ALLREDUCE algorithm (tests/mpi/testlist).
 */
#include "coll_ops.h"

static int rank, size;

static void check_one(MPI_Comm comm, int k, size_t n, int inplace, int seed, const char *cname)
{
    int r, p;
    char what[128];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Allreduce count %zu%s", cname, n, inplace ? " in place" : "");
    void *sbuf = case_alloc(k, n), *rbuf = case_alloc(k, n), *want = case_alloc(k, n);
    case_fill(k, inplace ? rbuf : sbuf, r, 0, n, seed);
    MTEST_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int)n, cases[k].type, cases[k].op, comm));
    case_expect(k, want, 0, p, 0, n, seed);
    case_check(k, rbuf, want, n, what);
    free(sbuf);
    free(rbuf);
    free(want);
}

static void test_cases(MPI_Comm comm, const char *cname, size_t big)
{
    int p;
    MPI_Comm_size(comm, &p);
    size_t counts[] = {0, 1, 3, (size_t)p, 7, 100, 1013, big};
    for (int k = 0; k < NCASES; k++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            if (c == sizeof counts / sizeof counts[0] - 1 && k != C_INT_SUM && k != C_MAT && k != C_DOUBLE_SUM)
                continue;        /* the large count: a few cases are enough */
            for (int inplace = 0; inplace < 2; inplace++)
                check_one(comm, k, counts[c], inplace, (int)(k * 13 + c), cname);
        }
}

/* Sums of non-integer doubles depend on the order; all ranks must agree. */
static void test_same_bits(MPI_Comm comm, size_t n)
{
    int r;
    MPI_Comm_rank(comm, &r);
    double *in = mtest_malloc(n * sizeof(double) + 1), *out = mtest_malloc(n * sizeof(double) + 1);
    for (size_t i = 0; i < n; i++)
        in[i] = 1.0 / (r + 3) * (double)(i % 13 + 1) + 1e-3 * r;
    MTEST_RC(MPI_Allreduce(in, out, (int)n, MPI_DOUBLE, MPI_SUM, comm));
    same_everywhere(comm, out, n * sizeof(double), "Allreduce of non-integer doubles");
    MTEST_RC(MPI_Allreduce(MPI_IN_PLACE, in, (int)n, MPI_DOUBLE, MPI_SUM, comm));
    same_everywhere(comm, in, n * sizeof(double), "Allreduce in place of non-integer doubles");
    free(in);
    free(out);
}

/* The ops for derived types: a user op, and MPI_SUM, which dmpi applies to
 * a derived type made of one predefined type (MPICH 4.0 refuses it). */
static int layout_ops(MPI_Op ops[2])
{
    ops[0] = layout_op;
    ops[1] = MPI_SUM;
    return MTEST_MPICH_DEVIATION ? 1 : 2;
}

static void test_layouts(MPI_Comm comm)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    size_t counts[] = {0, 1, 5, 1000};
    MPI_Op ops[2];
    int nops = layout_ops(ops);
    for (int o = 0; o < nops; o++)
        for (int l = 0; l < 2; l++)
            for (size_t c = 0; c < 4; c++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    const layout_t *L = &layouts[l];
                    size_t n = counts[c];
                    int *sbuf = layout_alloc(L, n), *rbuf = layout_alloc(L, n), *want = mtest_malloc(8 * n + 8);
                    int *in = inplace ? rbuf : sbuf;
                    for (size_t e = 0; e < n; e++)
                        for (int j = 0; j < 2; j++) {
                            *layout_int(L, in, e, j) = (int)(e * 2 + (size_t)j) * (r + 1);
                            want[2 * e + j] = (int)(e * 2 + (size_t)j) * p * (p + 1) / 2;
                        }
                    MTEST_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int)n, L->type, ops[o], comm));
                    layout_check(L, rbuf, n, want, inplace ? "Allreduce in place" : "Allreduce");
                    free(sbuf);
                    free(rbuf);
                    free(want);
                }
}

/* Several Iallreduce in flight with user messages on the same communicator
 * and the same tags (the collectives must neither take nor disturb them). */
static void test_nonblocking(MPI_Comm comm, size_t n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int ks[4] = {C_INT_SUM, C_MAT, C_DOUBLE_MIN, C_MAXLOC};
    for (int pass = 0; pass < 2; pass++) {
        void *sb[4], *rb[4];
        MPI_Request rq[8];
        int msg_out[2] = {r * 10 + pass, r * 10 + pass + 1}, msg_in[2] = {-1, -1};
        int right = (r + 1) % p, left = (r - 1 + p) % p;
        MTEST_RC(MPI_Irecv(&msg_in[0], 1, MPI_INT, left, 0, comm, &rq[4]));
        for (int i = 0; i < 4; i++) {
            sb[i] = case_alloc(ks[i], n);
            rb[i] = case_alloc(ks[i], n);
            case_fill(ks[i], sb[i], r, 0, n, 100 + i + pass);
            MTEST_RC(MPI_Iallreduce(sb[i], rb[i], (int)n, cases[ks[i]].type, cases[ks[i]].op, comm, &rq[i]));
            if (i == 1)
                MTEST_RC(MPI_Isend(&msg_out[0], 1, MPI_INT, right, 0, comm, &rq[5]));
        }
        MTEST_RC(MPI_Irecv(&msg_in[1], 1, MPI_INT, left, 0, comm, &rq[6]));
        MTEST_RC(MPI_Isend(&msg_out[1], 1, MPI_INT, right, 0, comm, &rq[7]));
        if (pass == 0) {
            for (int i = 7; i >= 0; i--)
                MTEST_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(8, rq, &done, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(msg_in[0] == left * 10 + pass && msg_in[1] == left * 10 + pass + 1,
                    "user messages around Iallreduce: got %d %d", msg_in[0], msg_in[1]);
        for (int i = 0; i < 4; i++) {
            void *want = case_alloc(ks[i], n);
            case_expect(ks[i], want, 0, p, 0, n, 100 + i + pass);
            case_check(ks[i], rb[i], want, n, pass ? "Iallreduce (Testall)" : "Iallreduce (Wait in reverse)");
            free(want);
            free(sb[i]);
            free(rb[i]);
        }
    }
}

/* One of each nonblocking reduction (and a broadcast) in flight together,
 * completed in an order of their own by Testany. */
static void test_mixed(MPI_Comm comm, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int k = C_MAT, *bc = mtest_malloc(sizeof(int) * (size_t)n + 4);
    size_t tot = (size_t)n * (size_t)p;
    void *in = case_alloc(k, tot), *out[5];
    for (int i = 0; i < 5; i++)
        out[i] = case_alloc(k, tot);
    case_fill(k, in, r, 0, tot, 77);
    for (int i = 0; i < n; i++)
        bc[i] = r == p - 1 ? i * 3 + 1 : -1;
    MPI_Request rq[6];
    MTEST_RC(MPI_Iexscan(in, out[0], n, cases[k].type, cases[k].op, comm, &rq[0]));
    MTEST_RC(MPI_Ibcast(bc, n, MPI_INT, p - 1, comm, &rq[1]));
    MTEST_RC(MPI_Ireduce_scatter_block(in, out[1], n, cases[k].type, cases[k].op, comm, &rq[2]));
    MTEST_RC(MPI_Iallreduce(in, out[2], n, cases[k].type, cases[k].op, comm, &rq[3]));
    MTEST_RC(MPI_Ireduce(in, out[3], n, cases[k].type, cases[k].op, p / 2, comm, &rq[4]));
    MTEST_RC(MPI_Iscan(in, out[4], n, cases[k].type, cases[k].op, comm, &rq[5]));
    for (int left = 6; left > 0; left--) {
        int idx = MPI_UNDEFINED, flag = 0;
        while (!flag)
            MTEST_RC(MPI_Testany(6, rq, &idx, &flag, MPI_STATUS_IGNORE));
    }
    void *want = case_alloc(k, tot);
    if (r > 0) {
        case_expect(k, want, 0, r, 0, (size_t)n, 77);
        case_check(k, out[0], want, (size_t)n, "mixed: Iexscan");
    }
    case_expect(k, want, 0, p, (size_t)n * (size_t)r, (size_t)n, 77);
    case_check(k, out[1], want, (size_t)n, "mixed: Ireduce_scatter_block");
    case_expect(k, want, 0, p, 0, (size_t)n, 77);
    case_check(k, out[2], want, (size_t)n, "mixed: Iallreduce");
    if (r == p / 2)
        case_check(k, out[3], want, (size_t)n, "mixed: Ireduce");
    case_expect(k, want, 0, r + 1, 0, (size_t)n, 77);
    case_check(k, out[4], want, (size_t)n, "mixed: Iscan");
    for (int i = 0; i < n; i++)
        if (!MTEST_CHECK(bc[i] == i * 3 + 1, "mixed: Ibcast int %d is %d", i, bc[i]))
            break;
    free(want);
    free(in);
    for (int i = 0; i < 5; i++)
        free(out[i]);
    free(bc);
}

static void test_errors(void)
{
    MPI_Comm comm;
    MPI_Request rq;
    int a[4] = {0}, b[4] = {0};
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP, "MPI_OP_NULL");
    mtest_check_class(MPI_Allreduce(a, b, 1, MPI_INT, MPI_MAXLOC, comm), MPI_ERR_OP, "MAXLOC on MPI_INT");
    /* MPICH 4.0 crashes on a negative count and calls MPI_DATATYPE_NULL an invalid op */
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Allreduce(a, b, -1, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "count -1");
        mtest_check_class(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, comm), MPI_ERR_TYPE,
                          "MPI_DATATYPE_NULL");
    }
    mtest_check_class(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER,
                      "MPI_IN_PLACE as recvbuf");
    mtest_check_class(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, "sendbuf == recvbuf");
    mtest_check_class(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, comm, NULL), MPI_ERR_ARG, "NULL request");
    mtest_check_class(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_REPLACE, comm, &rq), MPI_ERR_OP, "MPI_REPLACE");
#ifdef DMPI_VERSION
    /* on an intercommunicator MPI_IN_PLACE is not allowed (tests/mpi/coll_inter.c has the rest) */
    if (size > 1) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER,
                          "MPI_IN_PLACE on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
#endif
    /* the communicator still works after the errors */
    a[0] = rank;
    MTEST_RC(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, comm));
    MTEST_CHECK(b[0] == size * (size - 1) / 2, "Allreduce after errors: %d", b[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ops_init();
    layouts_init();

    size_t big = size <= 4 ? 200000 : 4000;
    test_cases(MPI_COMM_WORLD, "world", big);
    test_same_bits(MPI_COMM_WORLD, 5000);
    test_same_bits(MPI_COMM_WORLD, big);
    test_layouts(MPI_COMM_WORLD);
    test_nonblocking(MPI_COMM_WORLD, 1000);
    test_nonblocking(MPI_COMM_WORLD, 3);
    test_mixed(MPI_COMM_WORLD, 1);
    test_mixed(MPI_COMM_WORLD, 300);

    MPI_Comm rev, half;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    test_cases(rev, "reversed", 3000);
    test_same_bits(rev, 3000);
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    test_cases(half, "half", 3000);
    test_nonblocking(half, 500);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    test_errors();
    layouts_free();
    ops_free();
    return mtest_finalize();
}
