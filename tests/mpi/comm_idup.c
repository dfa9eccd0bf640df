/* MPI_Comm_idup and MPI_Comm_idup_with_info: the new communicator's handle
 * is there at once and usable after the wait; attributes are copied (copy
 * callback called once per idup); several idups may be outstanding at once
 * on one communicator and on different ones, started in different orders
 * on different ranks, with a blocking Comm_dup between; the parent may be
 * freed before the wait; point-to-point may happen before the idup is
 * complete on every rank. Every new communicator is checked for its own
 * context: the same tag sent on all of them at once arrives on each. */
#include "mtest.h"
#include <stdlib.h>
#include <string.h>

#define MANY 12

static int copies;

static int copy_fn(MPI_Comm c, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)keyval, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* Every communicator in cs[] is a working copy of MPI_COMM_WORLD with its
 * own context: one message with the same tag on each, all in flight. */
static void check_distinct(MPI_Comm *cs, int n, const char *what)
{
    int size = mtest_size, rank = mtest_rank, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *in = malloc((size_t)n * sizeof(int)), *out = malloc((size_t)n * sizeof(int));
    MPI_Request *r = malloc(2 * (size_t)n * sizeof *r);
    for (int i = 0; i < n; i++) {
        int s, cmp;
        MPI_Comm_size(cs[i], &s);
        MPI_Comm_compare(cs[i], MPI_COMM_WORLD, &cmp);
        (void)MTEST_CHECK(s == size && cmp == MPI_CONGRUENT, "%s: communicator %d: size %d, compare %d", what,
                          i, s, cmp);
        out[i] = rank * 1000 + i;
        in[i] = -1;
        MPI_Irecv(&in[i], 1, MPI_INT, left, 77, cs[i], &r[2 * i]);
        MPI_Isend(&out[i], 1, MPI_INT, right, 77, cs[i], &r[2 * i + 1]);
    }
    MPI_Waitall(2 * n, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; i++)
        (void)MTEST_CHECK(in[i] == left * 1000 + i, "%s: communicator %d got %d, expected %d (contexts shared?)",
                          what, i, in[i], left * 1000 + i);
    for (int i = 0; i < n; i++) {
        int sum = 0, one = 1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, cs[i]);
        (void)MTEST_CHECK(sum == size, "%s: allreduce on communicator %d gave %d", what, i, sum);
    }
    free(in);
    free(out);
    free(r);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int keyval, value = 42;
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm base;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_attr(base, keyval, &value);

    /* one idup: attributes, then a working communicator */
    MPI_Comm c[MANY + 2];
    MPI_Request r[MANY + 2];
    copies = 0;
    MPI_Comm_idup(base, &c[0], &r[0]);
    (void)MTEST_CHECK(c[0] != MPI_COMM_NULL, "the new handle is there before the wait");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    int *got, flag = 0;
    MPI_Comm_get_attr(c[0], keyval, &got, &flag);
    (void)MTEST_CHECK(flag && got == &value && copies == 1, "attribute copied once (flag %d, copies %d)", flag,
                      copies);
    check_distinct(c, 1, "one idup");
    MPI_Comm_free(&c[0]);

    /* many at once on one parent, a blocking dup in between, waited in reverse */
    for (int i = 0; i < MANY; i++) {
        MPI_Comm_idup(base, &c[i], &r[i]);
        if (i == MANY / 2)
            MPI_Comm_dup(base, &c[MANY]);
    }
    for (int i = MANY - 1; i >= 0; i--)
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    check_distinct(c, MANY + 1, "many idups and a dup");
    for (int i = 0; i <= MANY; i++)
        MPI_Comm_free(&c[i]);

    /* two parents, idups started in opposite orders on even and odd ranks */
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    for (int round = 0; round < 10; round++) {
        if (mtest_rank % 2) {
            MPI_Comm_idup(b, &c[1], &r[1]);
            MPI_Comm_idup(a, &c[0], &r[0]);
        } else {
            MPI_Comm_idup(a, &c[0], &r[0]);
            MPI_Comm_idup(b, &c[1], &r[1]);
        }
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        check_distinct(c, 2, "idups on two parents in opposite orders");
        MPI_Comm_free(&c[0]);
        MPI_Comm_free(&c[1]);
    }

    /* point-to-point before every rank has called it; parent freed before the wait */
    MPI_Comm p;
    MPI_Comm_dup(MPI_COMM_WORLD, &p);
    int token = 5;
    if (mtest_rank == 0) {
        MPI_Comm_idup(p, &c[0], &r[0]);
        if (mtest_size > 1)
            MPI_Send(&token, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        if (mtest_rank == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_idup(p, &c[0], &r[0]);
    }
    MPI_Comm_free(&p);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    check_distinct(c, 1, "idup of a parent freed before the wait");
    MPI_Comm_free(&c[0]);

    /* with info: the given hints, not the parent's */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_idup_with_info(base, info, &c[0], &r[0]);
    MPI_Info_free(&info);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Comm_get_info(c[0], &used);
    char v[MPI_MAX_INFO_VAL + 1] = "";
    flag = 0;
    MPI_Info_get_string(used, "mpi_assert_no_any_tag", &(int){MPI_MAX_INFO_VAL + 1}, v, &flag);
    (void)MTEST_CHECK(flag && !strcmp(v, "true"), "idup_with_info: hint %s (flag %d)", v, flag);
    MPI_Info_free(&used);
    check_distinct(c, 1, "idup_with_info");
    MPI_Comm_free(&c[0]);

    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free(&base);
    MPI_Comm_free_keyval(&keyval);
    return mtest_finalize();
}
