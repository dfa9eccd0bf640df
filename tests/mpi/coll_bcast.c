/*
 * coll_bcast: MPI_Bcast and MPI_Ibcast.
 *   - every root; counts 0, 1, 7, 1000, 3073 (12 KiB + 4 bytes), and a large
 *     one (4 MiB at up to 4 ranks, 256 KiB above); data checked exactly and
 *     nothing written past the buffer;
 *   - derived types: a vector with a gap and a resized type with lb != 0
 *     (gaps untouched), and different types with the same signature on
 *     root and receivers (one contiguous(n) against n ints, a vector
 *     against contiguous ints);
 *   - on MPI_COMM_WORLD, a reversed communicator and halves of the world;
 *   - several Ibcast from different roots outstanding at once, mixed with
 *     point-to-point traffic on the same communicator and tags, completed
 *     in reverse order and with Test loops;
 *   - error classes: root, MPI_IN_PLACE, count, type, NULL buffer,
 *     MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_BCAST algorithm (tests/mpi/testlist).
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static int value(int root, size_t i, int seed) { return (int)(root * 1000003 + (int)i * 7 + seed); }

static void check_ints(MPI_Comm comm, size_t n, int seed, const char *cname)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *buf = mtest_malloc(n * sizeof(int) + MTEST_GUARD);
    for (int root = 0; root < p; root++) {
        for (size_t i = 0; i < n; i++)
            buf[i] = r == root ? value(root, i, seed) : -1;
        mtest_guard_set(buf + n);
        MTEST_RC(MPI_Bcast(buf, (int)n, MPI_INT, root, comm));
        for (size_t i = 0; i < n; i++)
            if (!MTEST_CHECK(buf[i] == value(root, i, seed), "%s: Bcast of %zu ints from %d: int %zu is %d", cname,
                             n, root, i, buf[i]))
                break;
        mtest_guard_check(buf + n, "Bcast");
    }
    free(buf);
}

/* Derived layouts: element = 2 ints; gaps hold GAP. */
#define GAP 0x5a5a5a5a
static void check_layouts(MPI_Comm comm, size_t n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    MPI_Datatype vec, h, res;
    MPI_Aint disp = 8;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);           /* ints at 0 and 8, extent 12 */
    MPI_Type_commit(&vec);
    MPI_Type_create_hindexed_block(1, 2, &disp, MPI_INT, &h);
    MPI_Type_create_resized(h, 4, 20, &res);          /* ints at 8 and 12, lb 4, extent 20 */
    MPI_Type_commit(&res);
    MPI_Type_free(&h);
    struct {
        MPI_Datatype t;
        MPI_Aint ext, off[2];
        const char *name;
    } L[2] = {{vec, 12, {0, 8}, "vector"}, {res, 20, {8, 12}, "resized"}};
    for (int l = 0; l < 2; l++) {
        size_t bytes = n * (size_t)L[l].ext + 32;
        int *buf = mtest_malloc(bytes);
        int root = (int)(n % (size_t)p);
        for (size_t i = 0; i < bytes / 4; i++)
            buf[i] = GAP;
        if (r == root)
            for (size_t e = 0; e < n; e++)
                for (int j = 0; j < 2; j++)
                    *(int *)((char *)buf + e * (size_t)L[l].ext + L[l].off[j]) = value(root, 2 * e + (size_t)j, 5);
        MTEST_RC(MPI_Bcast(buf, (int)n, L[l].t, root, comm));
        char *isdata = calloc(bytes / 4, 1);
        int bad = 0;
        for (size_t e = 0; e < n && !bad; e++)
            for (int j = 0; j < 2; j++) {
                int *x = (int *)((char *)buf + e * (size_t)L[l].ext + L[l].off[j]);
                isdata[x - buf] = 1;
                if (*x != value(root, 2 * e + (size_t)j, 5)) {
                    mtest_fail("Bcast of %zu %s from %d: int %d of element %zu is %d", n, L[l].name, root, j, e, *x);
                    bad = 1;
                    break;
                }
            }
        for (size_t i = 0; i < bytes / 4 && !bad; i++)
            if (!isdata[i] && buf[i] != GAP) {
                mtest_fail("Bcast of %zu %s: gap int %zu overwritten", n, L[l].name, i);
                bad = 1;
            }
        free(isdata);
        free(buf);
    }

    /* same signature, different types: root sends n ints as a vector (with
     * gaps) or as one contiguous(n); the others receive plain ints */
    MPI_Datatype cont;
    MPI_Type_contiguous((int)(n ? n : 1), MPI_INT, &cont);
    MPI_Type_commit(&cont);
    for (int form = 0; form < 2; form++) {
        int root = p - 1;
        int *buf = mtest_malloc(3 * n * sizeof(int) + 8);
        if (r == root) {
            for (size_t i = 0; i < 3 * n; i++)
                buf[i] = value(root, i, 9);
            if (form == 0 && n)       /* as a vector: ints 0 and 2 of every 3 */
                MTEST_RC(MPI_Bcast(buf, (int)n, vec, root, comm));
            else if (n)               /* one element of contiguous(n) */
                MTEST_RC(MPI_Bcast(buf, 1, cont, root, comm));
            else
                MTEST_RC(MPI_Bcast(buf, 0, cont, root, comm));
        } else {
            size_t m = form == 0 ? 2 * n : n;   /* vector elements carry 2 ints each */
            for (size_t i = 0; i < m; i++)
                buf[i] = -1;
            MTEST_RC(MPI_Bcast(buf, (int)m, MPI_INT, root, comm));
            for (size_t i = 0; i < m; i++) {
                int want = form == 0 ? value(root, (i / 2) * 3 + (i % 2) * 2, 9) : value(root, i, 9);
                if (!MTEST_CHECK(buf[i] == want, "Bcast %s to ints: int %zu is %d, want %d",
                                 form == 0 ? "vector" : "contiguous(n)", i, buf[i], want))
                    break;
            }
        }
        free(buf);
    }
    MPI_Type_free(&cont);
    MPI_Type_free(&vec);
    MPI_Type_free(&res);
}

/* Ibcast from every root at once, with user messages on the same tags. */
static void check_nonblocking(MPI_Comm comm, size_t n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int k = p < 4 ? 4 : p;       /* several per root on small communicators */
    int **bufs = mtest_malloc(sizeof(int *) * (size_t)k);
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * (size_t)(k + 4));
    for (int pass = 0; pass < 2; pass++) {
        int out[2] = {r + 100 * pass, r + 100 * pass + 1}, in[2] = {-1, -1};
        int right = (r + 1) % p, left = (r - 1 + p) % p;
        MTEST_RC(MPI_Irecv(&in[0], 1, MPI_INT, left, 0, comm, &rq[k]));
        for (int b = 0; b < k; b++) {
            int root = b % p;
            bufs[b] = mtest_malloc(n * sizeof(int) + 4);
            for (size_t i = 0; i < n; i++)
                bufs[b][i] = r == root ? value(root, i, b + pass) : -1;
            MTEST_RC(MPI_Ibcast(bufs[b], (int)n, MPI_INT, root, comm, &rq[b]));
            if (b == 1)
                MTEST_RC(MPI_Isend(&out[0], 1, MPI_INT, right, 0, comm, &rq[k + 1]));
        }
        if (k < 2)
            MTEST_RC(MPI_Isend(&out[0], 1, MPI_INT, right, 0, comm, &rq[k + 1]));
        MTEST_RC(MPI_Irecv(&in[1], 1, MPI_INT, left, 0, comm, &rq[k + 2]));
        MTEST_RC(MPI_Isend(&out[1], 1, MPI_INT, right, 0, comm, &rq[k + 3]));
        if (pass == 0) {
            for (int i = k + 3; i >= 0; i--)
                MTEST_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(k + 4, rq, &done, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(in[0] == left + 100 * pass && in[1] == left + 100 * pass + 1,
                    "user messages around Ibcast: got %d %d", in[0], in[1]);
        for (int b = 0; b < k; b++) {
            for (size_t i = 0; i < n; i++)
                if (!MTEST_CHECK(bufs[b][i] == value(b % p, i, b + pass), "Ibcast %d (root %d) of %zu: int %zu is %d",
                                 b, b % p, n, i, bufs[b][i]))
                    break;
            free(bufs[b]);
        }
    }
    free(bufs);
    free(rq);
}

static void check_errors(void)
{
    MPI_Comm comm;
    MPI_Request rq;
    int a[4] = {0};
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Bcast(a, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "root == size");
    mtest_check_class(MPI_Bcast(a, 1, MPI_INT, -1, comm), MPI_ERR_ROOT, "root -1");
    mtest_check_class(MPI_Ibcast(a, 1, MPI_INT, size + 3, comm, &rq), MPI_ERR_ROOT, "Ibcast root");
    mtest_check_class(MPI_Bcast(NULL, 1, MPI_INT, 0, comm), MPI_ERR_BUFFER, "NULL buffer");
    mtest_check_class(MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_COMM_NULL");
    mtest_check_class(MPI_Ibcast(a, 1, MPI_INT, 0, comm, NULL), MPI_ERR_ARG, "NULL request");
    /* MPICH 4.0 crashes on MPI_IN_PLACE and a negative count, and calls
     * MPI_DATATYPE_NULL something else */
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, comm), MPI_ERR_BUFFER, "MPI_IN_PLACE");
        mtest_check_class(MPI_Bcast(a, -1, MPI_INT, 0, comm), MPI_ERR_COUNT, "count -1");
        mtest_check_class(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, comm), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    }
#ifdef DMPI_VERSION
    /* on an intercommunicator the root is MPI_ROOT, MPI_PROC_NULL or a remote rank (coll_inter.c has the rest) */
    if (size > 1) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Bcast(a, 1, MPI_INT, 1000, inter), MPI_ERR_ROOT, "root 1000 on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
#endif
    a[0] = rank == 0 ? 42 : 0;
    MTEST_RC(MPI_Bcast(a, 1, MPI_INT, 0, comm));
    MTEST_CHECK(a[0] == 42, "Bcast after errors: %d", a[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&comm);
}

static void run(MPI_Comm comm, const char *cname, size_t big)
{
    size_t counts[] = {0, 1, 7, 1000, 3073, big};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        check_ints(comm, counts[c], (int)c, cname);
    size_t lc[] = {0, 1, 5, 1000, big / 8};
    for (size_t c = 0; c < sizeof lc / sizeof lc[0]; c++)
        check_layouts(comm, lc[c]);
    check_nonblocking(comm, 3);
    check_nonblocking(comm, 5000);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    run(MPI_COMM_WORLD, "world", size <= 4 ? 1 << 20 : 1 << 16);
    MPI_Comm rev, half;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    run(rev, "reversed", 20000);
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    run(half, "half", 20000);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    check_errors();
    return mtest_finalize();
}
