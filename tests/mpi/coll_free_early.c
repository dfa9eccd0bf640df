/*
 * coll_free_early: a derived datatype and a user op may be freed as soon as
 * the nonblocking collectives that use them have started (MPI-4 3.7.3 and
 * 6.12): the collectives must still see them intact. Freed slots are
 * refilled with new objects before the wait, so a collective that kept a
 * dangling pointer reads someone else's type or op (and ASan reports it).
 *
 *   usage: coll_free_early [count]     (default 100000)
 */
#include "mtest.h"
#include <stdlib.h>

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 100000, p = mtest_size, r = mtest_rank;
    /* every other int: a type with gaps, resized to two ints */
    MPI_Datatype v, rv;
    MPI_Type_vector(1, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 2 * sizeof(int), &rv);
    MPI_Type_commit(&rv);
    MPI_Type_free(&v);
    int *buf = malloc(2 * (size_t)n * sizeof(int)), *a = malloc((size_t)n * sizeof(int)),
        *b = malloc((size_t)n * sizeof(int)), *g = malloc(2 * (size_t)n * sizeof(int));
    for (int i = 0; i < 2 * n; i++)
        buf[i] = r == 0 ? i : -1;
    for (int i = 0; i < n; i++)
        a[i] = r + 1;
    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    MPI_Request rq[3];
    MPI_Ibcast(buf, n, rv, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Iallreduce(a, b, n, MPI_INT, op, MPI_COMM_WORLD, &rq[1]);
    MPI_Ialltoall(a, n / p, MPI_INT, g, n / p, rv, MPI_COMM_WORLD, &rq[2]);
    MPI_Type_free(&rv);
    MPI_Op_free(&op);
    MTEST_CHECK(rv == MPI_DATATYPE_NULL && op == MPI_OP_NULL, "free did not reset the handles");
    MPI_Datatype junk[4];
    MPI_Op junk_op;
    for (int i = 0; i < 4; i++) {
        MPI_Type_contiguous(3, MPI_CHAR, &junk[i]);
        MPI_Type_commit(&junk[i]);
    }
    MPI_Op_create(add_ints, 0, &junk_op);
    MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    int bad = 0, sum = p * (p + 1) / 2;
    for (int i = 0; i < n; i++)
        bad += buf[2 * i] != 2 * i || (r != 0 && buf[2 * i + 1] != -1);
    MTEST_CHECK(bad == 0, "Ibcast with a freed type: %d wrong elements", bad);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != sum;
    MTEST_CHECK(bad == 0, "Iallreduce with a freed op: %d wrong elements (b[0] = %d, want %d)", bad, b[0], sum);
    bad = 0;
    for (int s = 0; s < p; s++)
        for (int i = 0; i < n / p; i++)
            bad += g[2 * (s * (n / p) + i)] != s + 1;
    MTEST_CHECK(bad == 0, "Ialltoall into a freed type: %d wrong elements", bad);
    for (int i = 0; i < 4; i++)
        MPI_Type_free(&junk[i]);
    MPI_Op_free(&junk_op);
    free(buf);
    free(a);
    free(b);
    free(g);
    return mtest_finalize();
}
