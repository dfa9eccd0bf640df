/*
 * coll_scan: MPI_Scan, MPI_Exscan, MPI_Iscan and MPI_Iexscan.
 *   - SUM on int, double, long long; MAX, MIN; MAXLOC on MPI_DOUBLE_INT;
 *     BAND; a non-commutative user op (2x2 matrix product: every prefix
 *     proves rank order) and a commutative user op; counts 0, 1, 3, 7,
 *     100, 1013 and a large one; MPI_IN_PLACE and not; rank r's result is
 *     checked exactly against the reduction over ranks 0..r (Scan) or
 *     0..r-1 (Exscan; rank 0's is undefined);
 *   - derived types (a vector with a gap, a resized type with lb != 0):
 *     data exact, gaps untouched;
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world;
 *   - several Iscan/Iexscan outstanding at once, mixed with
 *     point-to-point traffic on the same communicator and tags, completed
 *     in reverse order and with Test loops;
 *   - error classes: op, count, MPI_IN_PLACE as recvbuf, aliased buffers,
 *     NULL request.
 */
#include "coll_ops.h"

static int rank, size;

static void check_one(MPI_Comm comm, int k, size_t n, int ex, int inplace, int seed, const char *cname)
{
    int r;
    char what[160];
    MPI_Comm_rank(comm, &r);
    snprintf(what, sizeof what, "%s: %s count %zu%s", cname, ex ? "Exscan" : "Scan", n, inplace ? " in place" : "");
    void *sbuf = case_alloc(k, n), *rbuf = case_alloc(k, n), *want = case_alloc(k, n);
    case_fill(k, inplace ? rbuf : sbuf, r, 0, n, seed);
    const void *in = inplace ? MPI_IN_PLACE : sbuf;
    if (ex)
        MTEST_RC(MPI_Exscan(in, rbuf, (int)n, cases[k].type, cases[k].op, comm));
    else
        MTEST_RC(MPI_Scan(in, rbuf, (int)n, cases[k].type, cases[k].op, comm));
    if (!ex || r > 0) {
        case_expect(k, want, 0, ex ? r : r + 1, 0, n, seed);
        case_check(k, rbuf, want, n, what);
    }
    free(sbuf);
    free(rbuf);
    free(want);
}

static void test_cases(MPI_Comm comm, const char *cname, size_t big)
{
    size_t counts[] = {0, 1, 3, 7, 100, 1013, big};
    int nc = sizeof counts / sizeof counts[0];
    for (int k = 0; k < NCASES; k++)
        for (int c = 0; c < nc; c++) {
            if (c == nc - 1 && k != C_INT_SUM && k != C_MAT)
                continue;        /* the large count: a few cases are enough */
            for (int ex = 0; ex < 2; ex++)
                for (int inplace = 0; inplace < 2; inplace++)
                    check_one(comm, k, counts[c], ex, inplace, k * 11 + c, cname);
        }
}

static void test_layouts(MPI_Comm comm)
{
    int r;
    MPI_Comm_rank(comm, &r);
    size_t counts[] = {0, 1, 5, 1000};
    MPI_Op ops[2] = {layout_op, MPI_SUM};
    int nops = MTEST_MPICH_DEVIATION ? 1 : 2;   /* MPICH 4.0: no predefined ops on derived types */
    for (int o = 0; o < nops; o++)
        for (int l = 0; l < 2; l++)
            for (size_t c = 0; c < 4; c++)
                for (int ex = 0; ex < 2; ex++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        const layout_t *L = &layouts[l];
                        size_t n = counts[c];
                        int *sbuf = layout_alloc(L, n), *rbuf = layout_alloc(L, n), *want = mtest_malloc(8 * n + 8);
                        int *in = inplace ? rbuf : sbuf, upto = ex ? r : r + 1;   /* ranks 0 .. upto-1 */
                        for (size_t e = 0; e < n; e++)
                            for (int j = 0; j < 2; j++) {
                                *layout_int(L, in, e, j) = (int)(e * 2 + (size_t)j) * (r + 1);
                                want[2 * e + j] = (int)(e * 2 + (size_t)j) * upto * (upto + 1) / 2;
                            }
                        const void *s = inplace ? MPI_IN_PLACE : sbuf;
                        if (ex)
                            MTEST_RC(MPI_Exscan(s, rbuf, (int)n, L->type, ops[o], comm));
                        else
                            MTEST_RC(MPI_Scan(s, rbuf, (int)n, L->type, ops[o], comm));
                        if (upto > 0)
                            layout_check(L, rbuf, n, want, ex ? "Exscan" : "Scan");
                        free(sbuf);
                        free(rbuf);
                        free(want);
                    }
}

/* Iscan and Iexscan in flight together, with user messages on the same tags. */
static void test_nonblocking(MPI_Comm comm, size_t n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int ks[4] = {C_MAT, C_INT_SUM, C_MAT, C_MAXLOC};
    for (int pass = 0; pass < 2; pass++) {
        void *sb[4], *rb[4];
        MPI_Request rq[6];
        int out = r + pass, in = -1;
        MTEST_RC(MPI_Irecv(&in, 1, MPI_INT, (r - 1 + p) % p, 0, comm, &rq[4]));
        for (int i = 0; i < 4; i++) {
            int k = ks[i];
            sb[i] = case_alloc(k, n);
            rb[i] = case_alloc(k, n);
            case_fill(k, sb[i], r, 0, n, 20 + i + pass);
            if (i % 2)
                MTEST_RC(MPI_Iexscan(sb[i], rb[i], (int)n, cases[k].type, cases[k].op, comm, &rq[i]));
            else
                MTEST_RC(MPI_Iscan(sb[i], rb[i], (int)n, cases[k].type, cases[k].op, comm, &rq[i]));
            if (i == 1)
                MTEST_RC(MPI_Isend(&out, 1, MPI_INT, (r + 1) % p, 0, comm, &rq[5]));
        }
        if (pass == 0) {
            for (int i = 5; i >= 0; i--)
                MTEST_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(6, rq, &done, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(in == (r - 1 + p) % p + pass, "user message around Iscan: got %d", in);
        for (int i = 0; i < 4; i++) {
            int k = ks[i], upto = i % 2 ? r : r + 1;
            if (upto > 0) {
                void *want = case_alloc(k, n);
                case_expect(k, want, 0, upto, 0, n, 20 + i + pass);
                case_check(k, rb[i], want, n, i % 2 ? "Iexscan" : "Iscan");
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
    mtest_check_class(MPI_Scan(a, b, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP, "Scan MPI_OP_NULL");
    mtest_check_class(MPI_Scan(a, b, 1, MPI_DOUBLE, MPI_BXOR, comm), MPI_ERR_OP, "Scan BXOR on MPI_DOUBLE");
    mtest_check_class(MPI_Exscan(a, b, 1, MPI_DOUBLE, MPI_BXOR, comm), MPI_ERR_OP, "Exscan BXOR on MPI_DOUBLE");
    /* MPICH 4.0 accepts logical ops on floating types, which the standard leaves undefined */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(MPI_Scan(a, b, 1, MPI_DOUBLE, MPI_LXOR, comm), MPI_ERR_OP, "Scan LXOR on MPI_DOUBLE");
    mtest_check_class(MPI_Scan(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, "Scan recvbuf in place");
    mtest_check_class(MPI_Exscan(a, a, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, "Exscan sendbuf == recvbuf");
    mtest_check_class(MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, comm, NULL), MPI_ERR_ARG, "Iscan NULL request");
    mtest_check_class(MPI_Iexscan(a, b, 1, MPI_INT, MPI_NO_OP, comm, &rq), MPI_ERR_OP, "Iexscan MPI_NO_OP");
    /* MPICH 4.0 crashes on a negative count */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(MPI_Scan(a, b, -3, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "Scan count -3");
    a[0] = rank + 1;
    MTEST_RC(MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, comm));
    MTEST_CHECK(b[0] == (rank + 1) * (rank + 2) / 2, "Scan after errors: %d", b[0]);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ops_init();
    layouts_init();

    test_cases(MPI_COMM_WORLD, "world", size <= 4 ? 100000 : 3000);
    test_layouts(MPI_COMM_WORLD);
    test_nonblocking(MPI_COMM_WORLD, 1);
    test_nonblocking(MPI_COMM_WORLD, 2000);

    MPI_Comm rev, half;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    test_cases(rev, "reversed", 2000);
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    test_cases(half, "half", 2000);
    test_nonblocking(half, 100);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    test_errors();
    layouts_free();
    ops_free();
    return mtest_finalize();
}
