/*
 * group: the group operations, checked against lists computed here.
 * Group_incl/excl/range_incl/range_excl, union/intersection/difference
 * (MPI's order), translate_ranks (PROC_NULL, absent -> MPI_UNDEFINED),
 * compare (IDENT, SIMILAR, UNEQUAL), MPI_GROUP_EMPTY, Group_free, and
 * the error classes of bad ranks and bad groups.
 */
#include "mtest.h"

#include <stdlib.h>

static int size, rank;

/* g must hold exactly the world ranks want[0..n) in that order. */
static void expect(MPI_Group g, const int *want, int n, const char *what)
{
    MPI_Group wg;
    int gs, gr;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MTEST_RC(MPI_Group_size(g, &gs));
    if (!MTEST_CHECK(gs == n, "%s: size %d, want %d", what, gs, n)) {
        MPI_Group_free(&wg);
        return;
    }
    int *idx = mtest_malloc(sizeof(int) * (n ? n : 1)), *out = mtest_malloc(sizeof(int) * (n ? n : 1));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MTEST_RC(MPI_Group_translate_ranks(g, n, idx, wg, out));
    int myrank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        MTEST_CHECK(out[i] == want[i], "%s: member %d is world rank %d, want %d", what, i, out[i], want[i]);
        if (want[i] == rank)
            myrank = i;
    }
    MTEST_RC(MPI_Group_rank(g, &gr));
    MTEST_CHECK(gr == myrank, "%s: Group_rank %d, want %d", what, gr, myrank);
    free(idx);
    free(out);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *all = mtest_malloc(sizeof(int) * size), *w = mtest_malloc(sizeof(int) * size), n;
    for (int i = 0; i < size; i++)
        all[i] = i;
    MPI_Group wg, rev, evens, odds, u, x, d, e;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    expect(wg, all, size, "world group");

    for (int i = 0; i < size; i++)
        w[i] = size - 1 - i;
    MTEST_RC(MPI_Group_incl(wg, size, w, &rev));
    expect(rev, w, size, "reversed incl");

    int r_even[1][3] = {{0, size - 1, 2}};
    MTEST_RC(MPI_Group_range_incl(wg, 1, r_even, &evens));
    n = 0;
    for (int i = 0; i < size; i += 2)
        w[n++] = i;
    expect(evens, w, n, "range_incl evens");
    MTEST_RC(MPI_Group_range_excl(wg, 1, r_even, &odds));
    n = 0;
    for (int i = 1; i < size; i += 2)
        w[n++] = i;
    expect(odds, w, n, "range_excl evens");

    /* union keeps the first group's order, then the second's new members */
    MTEST_RC(MPI_Group_union(odds, rev, &u));
    n = 0;
    for (int i = 1; i < size; i += 2)
        w[n++] = i;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2 == 0)
            w[n++] = i;
    expect(u, w, n, "union(odds, reversed)");
    MTEST_RC(MPI_Group_intersection(rev, evens, &x));
    n = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2 == 0)
            w[n++] = i;
    expect(x, w, n, "intersection(reversed, evens)");
    MTEST_RC(MPI_Group_difference(wg, wg, &d));
    MTEST_CHECK(d == MPI_GROUP_EMPTY, "difference(world, world) is not MPI_GROUP_EMPTY");
    MTEST_RC(MPI_Group_excl(wg, 0, NULL, &e));
    expect(e, all, size, "excl of nothing");

    int cmp;
    MTEST_RC(MPI_Group_compare(wg, e, &cmp));
    MTEST_CHECK(cmp == MPI_IDENT, "compare(world, copy) = %d", cmp);
    MTEST_RC(MPI_Group_compare(wg, rev, &cmp));
    MTEST_CHECK(cmp == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "compare(world, reversed) = %d", cmp);
    MTEST_RC(MPI_Group_compare(wg, evens, &cmp));
    MTEST_CHECK(cmp == (size > 1 ? MPI_UNEQUAL : MPI_IDENT), "compare(world, evens) = %d", cmp);

    int in[2] = {MPI_PROC_NULL, 0}, out[2];
    MTEST_RC(MPI_Group_translate_ranks(wg, 2, in, odds, out));
    /* MPI_PROC_NULL translates to itself (MPI-2.2); MPICH 4.0 gives MPI_UNDEFINED. */
    MTEST_CHECK((out[0] == MPI_PROC_NULL || MTEST_MPICH_DEVIATION) && out[1] == MPI_UNDEFINED,
                "translate: %d %d", out[0], out[1]);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group bad;
    int twice[2] = {0, 0}, outside[1] = {size};
    mtest_check_class_at(__FILE__, __LINE__, MPI_Group_incl(wg, 1, outside, &bad), MPI_ERR_RANK, "incl of rank size");
    if (size > 1 && !MTEST_MPICH_DEVIATION)   /* MPICH 4.0 does not check that ranks are distinct */
        mtest_check_class_at(__FILE__, __LINE__, MPI_Group_incl(wg, 2, twice, &bad), MPI_ERR_RANK, "incl of a rank twice");
    mtest_check_class_at(__FILE__, __LINE__, MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP, "size of GROUP_NULL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Group *gs[] = {&wg, &rev, &evens, &odds, &u, &x, &e};
    for (unsigned i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        MTEST_RC(MPI_Group_free(gs[i]));
        MTEST_CHECK(*gs[i] == MPI_GROUP_NULL, "Group_free did not set MPI_GROUP_NULL");
    }
    free(all);
    free(w);
    return mtest_finalize();
}
