/*
 * subarray: MPI_Type_create_subarray in 1 to 4 dimensions and both orders.
 * Packing a subarray gives exactly the elements an index loop over the
 * subarray visits, in storage order (two elements apart by the whole array's
 * extent); lb is 0 and the extent is the full array's; Type_get_envelope and
 * Type_get_contents report the arguments; a subarray sent by one rank lands
 * in a subarray of another shape (same type signature) on the next rank;
 * bad arguments give their error classes.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

typedef struct shape {
    int ndims;
    int sizes[4], subsizes[4], starts[4];
    int order;
} shape_t;

static const char *order_name(int order) { return order == MPI_ORDER_C ? "C" : "Fortran"; }

static size_t count_of(const int *dims, int ndims)
{
    size_t n = 1;
    for (int i = 0; i < ndims; i++)
        n *= (size_t)dims[i];
    return n;
}

/* Offset (in elements) of multi-index idx in the full array. */
static size_t offset_of(const shape_t *s, const int *idx)
{
    size_t off = 0;
    if (s->order == MPI_ORDER_C)
        for (int i = 0; i < s->ndims; i++)
            off = off * (size_t)s->sizes[i] + (size_t)idx[i];
    else
        for (int i = s->ndims - 1; i >= 0; i--)
            off = off * (size_t)s->sizes[i] + (size_t)idx[i];
    return off;
}

/* The subarray's element offsets in storage order: the loop runs the
 * fastest dimension innermost (the last for C, the first for Fortran). */
static size_t expected_offsets(const shape_t *s, size_t *out)
{
    int idx[4];
    size_t n = 0, total = count_of(s->subsizes, s->ndims);
    for (size_t k = 0; k < total; k++) {
        size_t rem = k;
        for (int j = 0; j < s->ndims; j++) {
            int d = s->order == MPI_ORDER_C ? s->ndims - 1 - j : j;
            idx[d] = s->starts[d] + (int)(rem % (size_t)s->subsizes[d]);
            rem /= (size_t)s->subsizes[d];
        }
        out[n++] = offset_of(s, idx);
    }
    return n;
}

static MPI_Datatype make(const shape_t *s, MPI_Datatype old)
{
    MPI_Datatype t;
    MTEST_RC(MPI_Type_create_subarray(s->ndims, s->sizes, s->subsizes, s->starts, s->order, old, &t));
    MTEST_RC(MPI_Type_commit(&t));
    return t;
}

static const shape_t shapes[] = {
    {1, {10}, {4}, {3}, MPI_ORDER_C},
    {1, {10}, {10}, {0}, MPI_ORDER_FORTRAN},
    {2, {5, 7}, {3, 4}, {1, 2}, MPI_ORDER_C},
    {2, {5, 7}, {3, 4}, {1, 2}, MPI_ORDER_FORTRAN},
    {2, {6, 4}, {6, 1}, {0, 3}, MPI_ORDER_C},
    {2, {6, 4}, {1, 4}, {5, 0}, MPI_ORDER_FORTRAN},
    {3, {4, 5, 6}, {2, 3, 4}, {1, 1, 2}, MPI_ORDER_C},
    {3, {4, 5, 6}, {2, 3, 4}, {1, 1, 2}, MPI_ORDER_FORTRAN},
    {3, {3, 3, 3}, {3, 3, 3}, {0, 0, 0}, MPI_ORDER_C},
    {3, {2, 9, 3}, {1, 2, 3}, {1, 7, 0}, MPI_ORDER_FORTRAN},
    {4, {3, 4, 2, 5}, {2, 2, 1, 3}, {1, 0, 1, 2}, MPI_ORDER_C},
    {4, {3, 4, 2, 5}, {2, 2, 1, 3}, {1, 0, 1, 2}, MPI_ORDER_FORTRAN},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

/* Pack two subarray elements of an array of ints a[i] = i and compare with
 * the index loop; check bounds, size and the true bounds. */
static void test_pack(const shape_t *s, int which)
{
    size_t total = count_of(s->sizes, s->ndims), sub = count_of(s->subsizes, s->ndims);
    MPI_Datatype t = make(s, MPI_INT);
    int *a = mtest_malloc(2 * total * sizeof(int));
    for (size_t i = 0; i < 2 * total; i++)
        a[i] = (int)i;
    int psize, pos = 0;
    MTEST_RC(MPI_Pack_size(2, t, MPI_COMM_WORLD, &psize));
    int *packed = mtest_malloc((size_t)psize + sizeof(int));
    MTEST_RC(MPI_Pack(a, 2, t, packed, psize, &pos, MPI_COMM_WORLD));
    MTEST_CHECK(pos == (int)(2 * sub * sizeof(int)), "shape %d: packed %d bytes, want %zu", which, pos,
                2 * sub * sizeof(int));
    size_t *want = mtest_malloc(sub * sizeof(size_t));
    expected_offsets(s, want);
    int bad = 0;
    for (size_t e = 0; e < 2; e++)
        for (size_t k = 0; k < sub; k++)
            if (packed[e * sub + k] != (int)(e * total + want[k]) && bad++ < 3)
                mtest_fail("shape %d (%dD %s): packed element %zu of copy %zu is %d, want %zu", which, s->ndims,
                           order_name(s->order), k, e, packed[e * sub + k], e * total + want[k]);

    MPI_Aint lb, extent, tlb, textent;
    int tsize;
    MTEST_RC(MPI_Type_get_extent(t, &lb, &extent));
    MTEST_RC(MPI_Type_get_true_extent(t, &tlb, &textent));
    MTEST_RC(MPI_Type_size(t, &tsize));
    MTEST_CHECK(lb == 0 && extent == (MPI_Aint)(total * sizeof(int)), "shape %d: lb %ld extent %ld, want 0 and %zu",
                which, (long)lb, (long)extent, total * sizeof(int));
    MTEST_CHECK(tsize == (int)(sub * sizeof(int)), "shape %d: size %d, want %zu", which, tsize, sub * sizeof(int));
    MTEST_CHECK(tlb == (MPI_Aint)(want[0] * sizeof(int)) &&
                    textent == (MPI_Aint)((want[sub - 1] - want[0] + 1) * sizeof(int)),
                "shape %d: true lb %ld extent %ld, want %zu and %zu", which, (long)tlb, (long)textent,
                want[0] * sizeof(int), (want[sub - 1] - want[0] + 1) * sizeof(int));

    /* unpack into an array of -1: exactly the subarray's elements come back */
    int *b = mtest_malloc(2 * total * sizeof(int)), *expect = mtest_malloc(2 * total * sizeof(int));
    for (size_t i = 0; i < 2 * total; i++)
        b[i] = expect[i] = -1;
    for (size_t e = 0; e < 2; e++)
        for (size_t k = 0; k < sub; k++)
            expect[e * total + want[k]] = (int)(e * total + want[k]);
    pos = 0;
    MTEST_RC(MPI_Unpack(packed, psize, &pos, b, 2, t, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < 2 * total; i++)
        if (b[i] != expect[i] && bad++ < 3)
            mtest_fail("shape %d: unpacked a[%zu] = %d, want %d", which, i, b[i], expect[i]);
    free(expect);
    free(a);
    free(b);
    free(packed);
    free(want);
    MPI_Type_free(&t);
}

static void test_contents(void)
{
    const shape_t *s = &shapes[10];
    /* a derived old type: its handle comes back from Type_get_contents */
    MPI_Datatype pair, t;
    MTEST_RC(MPI_Type_contiguous(2, MPI_SHORT, &pair));
    MTEST_RC(MPI_Type_create_subarray(s->ndims, s->sizes, s->subsizes, s->starts, s->order, pair, &t));
    int ni, na, nt, combiner;
    MTEST_RC(MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner));
    MTEST_CHECK(combiner == MPI_COMBINER_SUBARRAY && ni == 3 * s->ndims + 2 && na == 0 && nt == 1,
                "envelope: combiner %d ints %d aints %d types %d", combiner, ni, na, nt);
    int ints[32];
    MPI_Aint aints[1];
    MPI_Datatype types[1];
    MTEST_RC(MPI_Type_get_contents(t, 32, 1, 1, ints, aints, types));
    int bad = ints[0] != s->ndims || ints[3 * s->ndims + 1] != s->order;
    for (int i = 0; i < s->ndims; i++)
        bad |= ints[1 + i] != s->sizes[i] || ints[1 + s->ndims + i] != s->subsizes[i] ||
               ints[1 + 2 * s->ndims + i] != s->starts[i];
    MTEST_CHECK(!bad, "contents: the integers are not the arguments");
    int ni2, na2, nt2, comb2;
    MTEST_RC(MPI_Type_get_envelope(types[0], &ni2, &na2, &nt2, &comb2));
    MTEST_CHECK(comb2 == MPI_COMBINER_CONTIGUOUS && ni2 == 1, "contents: old type combiner %d", comb2);
    MPI_Type_free(&types[0]);
    /* the subarray holds its own reference to the old type */
    MPI_Type_free(&pair);
    MTEST_RC(MPI_Type_commit(&t));
    MPI_Aint lb, extent;
    MTEST_RC(MPI_Type_get_extent(t, &lb, &extent));
    MTEST_CHECK(lb == 0 && extent == 3 * 4 * 2 * 5 * 4, "subarray of a derived type: lb %ld extent %ld", (long)lb,
                (long)extent);
    MPI_Type_free(&t);

    /* predefined old type */
    MTEST_RC(MPI_Type_create_subarray(2, shapes[2].sizes, shapes[2].subsizes, shapes[2].starts, MPI_ORDER_C,
                                      MPI_DOUBLE, &t));
    MTEST_RC(MPI_Type_get_contents(t, 32, 1, 1, ints, aints, types));
    MTEST_CHECK(types[0] == MPI_DOUBLE, "contents: old type 0x%x, want MPI_DOUBLE", (unsigned)types[0]);
    MPI_Type_free(&t);
}

/* Each rank sends a subarray of one shape to the next rank, which receives
 * it into a subarray of another shape holding as many ints. */
static void test_send(int order)
{
    shape_t from = {2, {6, 5}, {3, 4}, {2, 1}, order};
    shape_t to = {3, {3, 4, 5}, {1, 3, 4}, {2, 1, 0}, order == MPI_ORDER_C ? MPI_ORDER_FORTRAN : MPI_ORDER_C};
    /* 3-D Fortran-order subarray of 1 x 3 x 4 = 12 ints: same signature as 3 x 4 */
    size_t nfrom = count_of(from.sizes, 2), nto = count_of(to.sizes, 3), sub = 12;
    MPI_Datatype tf = make(&from, MPI_INT), tt = make(&to, MPI_INT);
    int *a = mtest_malloc(nfrom * sizeof(int)), *b = mtest_malloc(nto * sizeof(int));
    for (size_t i = 0; i < nfrom; i++)
        a[i] = rank * 1000 + (int)i;
    for (size_t i = 0; i < nto; i++)
        b[i] = -1;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Request rq[2];
    MPI_Status st;
    MTEST_RC(MPI_Irecv(b, 1, tt, prev, 7, MPI_COMM_WORLD, &rq[0]));
    MTEST_RC(MPI_Isend(a, 1, tf, next, 7, MPI_COMM_WORLD, &rq[1]));
    MTEST_RC(MPI_Wait(&rq[0], &st));
    MTEST_RC(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    mtest_check_status(&st, prev, 7, MPI_INT, (int)sub, "subarray receive");
    size_t wf[12], wt[12];
    expected_offsets(&from, wf);
    expected_offsets(&to, wt);
    int bad = 0;
    for (size_t i = 0, k = 0; i < nto; i++) {
        int want = -1;
        if (k < sub && wt[k] == i)
            want = prev * 1000 + (int)wf[k++];
        if (b[i] != want && bad++ < 3)
            mtest_fail("send (%s order): b[%zu] = %d, want %d", order_name(order), i, b[i], want);
    }
    free(a);
    free(b);
    MPI_Type_free(&tf);
    MPI_Type_free(&tt);
}

static void test_errors(void)
{
    const int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 1};
    int bad_sub[2] = {5, 3}, bad_start[2] = {3, 1}, zero_sub[2] = {0, 3}, neg_start[2] = {-1, 0}, neg_size[2] = {-4, 5};
    MPI_Datatype t;
    mtest_check_class(MPI_Type_create_subarray(0, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS,
                      "ndims 0");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, bad_sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "subsize larger than size");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, zero_sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "subsize 0");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, sub, bad_start, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "start + subsize past size");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, sub, neg_start, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "negative start");
    mtest_check_class(MPI_Type_create_subarray(2, neg_size, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "negative size");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, sub, starts, 12345, MPI_INT, &t), MPI_ERR_ARG,
                      "bad order");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DATATYPE_NULL, &t),
                      MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    mtest_check_class(MPI_Type_create_subarray(2, NULL, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "NULL array_of_sizes");
    mtest_check_class(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, NULL), MPI_ERR_ARG,
                      "NULL newtype");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    for (int i = 0; i < NSHAPES; i++)
        test_pack(&shapes[i], i);
    test_contents();
    test_send(MPI_ORDER_C);
    test_send(MPI_ORDER_FORTRAN);
    /* MPICH 4.0 as packaged accepts most bad arguments here (ndims 0,
     * subsizes past the size), gives MPI_ERR_COUNT for a negative start and
     * crashes on a NULL array: its checks are compiled out. */
    if (!MTEST_MPICH_DEVIATION)
        test_errors();
    return mtest_finalize();
}
