/*
 * darray: MPI_Type_create_darray for block, cyclic(1), cyclic(2) and
 * undistributed dimensions, default and explicit dargs, 1 to 3 dimensions,
 * both orders, on a process grid made from the job's size. Every rank packs
 * the global array of index values through its darray type: it must get
 * exactly the elements its grid coordinates own, in storage order, and the
 * union over all ranks (gathered at rank 0) must hold every global element
 * exactly once. lb is 0 and the extent the whole global array's; the size
 * is the owned elements'. Also Type_get_envelope/contents, a derived old
 * type, and the error classes of inconsistent arguments.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

typedef struct dcase {
    int ndims;
    int gsizes[3], distribs[3], dargs[3], psizes[3];
} dcase_t;

#define BLOCK MPI_DISTRIBUTE_BLOCK
#define CYCLIC MPI_DISTRIBUTE_CYCLIC
#define NONE MPI_DISTRIBUTE_NONE
#define DFLT MPI_DISTRIBUTE_DFLT_DARG

static const char *dist_name(int d, int darg)
{
    static char buf[4][32];
    static int next;
    char *b = buf[next++ % 4];
    const char *n = d == BLOCK ? "block" : d == CYCLIC ? "cyclic" : "none";
    if (darg == DFLT)
        snprintf(b, 32, "%s", n);
    else
        snprintf(b, 32, "%s(%d)", n, darg);
    return b;
}

static void describe(const dcase_t *c, int order, char *out, size_t n)
{
    int len = snprintf(out, n, "%s order, ", order == MPI_ORDER_C ? "C" : "Fortran");
    for (int i = 0; i < c->ndims && len < (int)n; i++)
        len += snprintf(out + len, n - (size_t)len, "%s%d %s on %d", i ? " x " : "", c->gsizes[i],
                        dist_name(c->distribs[i], c->dargs[i]), c->psizes[i]);
}

/* Grid coordinate owning global index idx of dimension i. */
static int owner(const dcase_t *c, int i, int idx)
{
    int g = c->gsizes[i], p = c->psizes[i], darg = c->dargs[i];
    switch (c->distribs[i]) {
    case BLOCK: return idx / (darg == DFLT ? (g + p - 1) / p : darg);
    case CYCLIC: return (idx / (darg == DFLT ? 1 : darg)) % p;
    default: return 0;
    }
}

/* The global element offsets rank r owns, in storage order. */
static size_t owned(const dcase_t *c, int order, int r, size_t *out)
{
    int coords[3], procs = size, left = r;
    for (int i = 0; i < c->ndims; i++) {
        procs /= c->psizes[i];
        coords[i] = left / procs;
        left %= procs;
    }
    size_t total = 1, n = 0;
    for (int i = 0; i < c->ndims; i++)
        total *= (size_t)c->gsizes[i];
    for (size_t off = 0; off < total; off++) {
        size_t rem = off;
        int mine = 1;
        for (int k = 0; k < c->ndims; k++) {    /* fastest dimension first */
            int d = order == MPI_ORDER_C ? c->ndims - 1 - k : k;
            int idx = (int)(rem % (size_t)c->gsizes[d]);
            rem /= (size_t)c->gsizes[d];
            mine &= owner(c, d, idx) == coords[d];
        }
        if (mine)
            out[n++] = off;
    }
    return n;
}

static int case_tag;

/* One case: build, check bounds and the packed indices, gather coverage. */
static void run_case(const dcase_t *c, int order, MPI_Datatype old, int old_ints)
{
    char what[160];
    describe(c, order, what, sizeof what);
    size_t total = 1;
    for (int i = 0; i < c->ndims; i++)
        total *= (size_t)c->gsizes[i];
    MPI_Datatype t;
    int rc = MPI_Type_create_darray(size, rank, c->ndims, c->gsizes, c->distribs, c->dargs, c->psizes, order, old, &t);
    if (!MTEST_CHECK(rc == MPI_SUCCESS, "%s: MPI_Type_create_darray failed (%d)", what, rc))
        return;
    MTEST_RC(MPI_Type_commit(&t));

    size_t *want = mtest_malloc(total * sizeof(size_t));
    size_t nwant = owned(c, order, rank, want);
    MPI_Aint lb, extent;
    int tsize;
    MTEST_RC(MPI_Type_get_extent(t, &lb, &extent));
    MTEST_RC(MPI_Type_size(t, &tsize));
    MTEST_CHECK(lb == 0 && extent == (MPI_Aint)(total * (size_t)old_ints * sizeof(int)),
                "%s: rank %d: lb %ld extent %ld, want 0 and %zu", what, rank, (long)lb, (long)extent,
                total * (size_t)old_ints * sizeof(int));
    MTEST_CHECK(tsize == (int)(nwant * (size_t)old_ints * sizeof(int)), "%s: rank %d: size %d, want %zu", what, rank,
                tsize, nwant * (size_t)old_ints * sizeof(int));

    /* pack the array of index values: element e holds e (old_ints ints each) */
    int *a = mtest_malloc(total * (size_t)old_ints * sizeof(int));
    for (size_t e = 0; e < total; e++)
        for (int j = 0; j < old_ints; j++)
            a[e * (size_t)old_ints + (size_t)j] = (int)e * old_ints + j;
    int psize, pos = 0;
    MTEST_RC(MPI_Pack_size(1, t, MPI_COMM_WORLD, &psize));
    int *got = mtest_malloc((size_t)psize + sizeof(int));
    MTEST_RC(MPI_Pack(a, 1, t, got, psize, &pos, MPI_COMM_WORLD));
    int n = pos / (int)sizeof(int), bad = 0;
    MTEST_CHECK(n == (int)nwant * old_ints, "%s: rank %d packed %d ints, want %zu", what, rank, n,
                nwant * (size_t)old_ints);
    for (int k = 0; k < n && k < (int)nwant * old_ints; k++) {
        int expect = (int)want[k / old_ints] * old_ints + k % old_ints;
        if (got[k] != expect && bad++ < 3)
            mtest_fail("%s: rank %d: packed int %d is %d, want %d", what, rank, k, got[k], expect);
    }

    /* every global element exactly once over all ranks */
    int tag = 100 + (case_tag++ % 1000);
    if (rank != 0) {
        MTEST_RC(MPI_Send(&n, 1, MPI_INT, 0, tag, MPI_COMM_WORLD));
        MTEST_RC(MPI_Send(got, n, MPI_INT, 0, tag, MPI_COMM_WORLD));
    } else {
        int *seen = calloc(total * (size_t)old_ints, sizeof(int));
        int *in = mtest_malloc(total * (size_t)old_ints * sizeof(int));
        for (int r = 0; r < size; r++) {
            int m = n, *list = got;
            if (r > 0) {
                MTEST_RC(MPI_Recv(&m, 1, MPI_INT, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                MTEST_RC(MPI_Recv(in, m, MPI_INT, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                list = in;
            }
            for (int k = 0; k < m; k++)
                if (list[k] >= 0 && (size_t)list[k] < total * (size_t)old_ints)
                    seen[list[k]]++;
        }
        int wrong = 0;
        for (size_t e = 0; e < total * (size_t)old_ints; e++)
            if (seen[e] != 1 && wrong++ < 3)
                mtest_fail("%s: global int %zu is held by %d ranks, want 1", what, e, seen[e]);
        free(seen);
        free(in);
    }
    free(a);
    free(got);
    free(want);
    MPI_Type_free(&t);
}

/* p0 x p1 = size, as square as it gets. */
static void grid2(int *p0, int *p1)
{
    int a = 1;
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            a = d;
    *p0 = size / a;
    *p1 = a;
}

static void run_all(int order)
{
    int p0, p1;
    grid2(&p0, &p1);
    static const int kinds[][2] = {{BLOCK, DFLT}, {CYCLIC, DFLT}, {CYCLIC, 1}, {CYCLIC, 2}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int d = kinds[k][0], a = kinds[k][1];
        dcase_t c1 = {1, {11}, {d}, {a}, {size}};
        dcase_t c2 = {2, {7, 5}, {d, d}, {a, a}, {p0, p1}};
        dcase_t c3 = {2, {6, 9}, {d, NONE}, {a, DFLT}, {size, 1}};
        dcase_t c4 = {2, {4, 10}, {NONE, d}, {DFLT, a}, {1, size}};
        dcase_t c5 = {3, {3, 4, 5}, {d, NONE, d}, {a, DFLT, a}, {p0, 1, p1}};
        dcase_t c6 = {3, {5, 2, 3}, {NONE, d, BLOCK}, {DFLT, a, DFLT}, {1, p0, p1}};
        run_case(&c1, order, MPI_INT, 1);
        run_case(&c2, order, MPI_INT, 1);
        run_case(&c3, order, MPI_INT, 1);
        run_case(&c4, order, MPI_INT, 1);
        run_case(&c5, order, MPI_INT, 1);
        run_case(&c6, order, MPI_INT, 1);
    }
    /* explicit block sizes: some ranks may own nothing */
    int b = (10 + size - 1) / size + 1;
    dcase_t e1 = {1, {10}, {BLOCK}, {b}, {size}};
    dcase_t e2 = {2, {9, 3}, {BLOCK, CYCLIC}, {(9 + p0 - 1) / p0, 3}, {p0, p1}};
    run_case(&e1, order, MPI_INT, 1);
    run_case(&e2, order, MPI_INT, 1);
    /* cyclic blocks longer than the dimension: all on coordinate 0 */
    dcase_t e3 = {2, {3, 8}, {CYCLIC, BLOCK}, {5, DFLT}, {p0, p1}};
    run_case(&e3, order, MPI_INT, 1);
    /* everything undistributed: one process holds all */
    if (size == 1) {
        dcase_t n2 = {2, {3, 4}, {NONE, NONE}, {DFLT, DFLT}, {1, 1}};
        run_case(&n2, order, MPI_INT, 1);
    }
    /* a derived old type of two ints */
    MPI_Datatype two;
    MTEST_RC(MPI_Type_contiguous(2, MPI_INT, &two));
    dcase_t c7 = {2, {5, 6}, {CYCLIC, BLOCK}, {2, DFLT}, {p0, p1}};
    run_case(&c7, order, two, 2);
    MPI_Type_free(&two);
}

static void test_contents(void)
{
    int p0, p1;
    grid2(&p0, &p1);
    const int gs[2] = {7, 5}, ds[2] = {CYCLIC, BLOCK}, da[2] = {2, DFLT}, ps[2] = {p0, p1};
    MPI_Datatype t, types[1];
    MTEST_RC(MPI_Type_create_darray(size, rank, 2, gs, ds, da, ps, MPI_ORDER_FORTRAN, MPI_FLOAT, &t));
    int ni, na, nt, comb, ints[16];
    MPI_Aint aints[1];
    MTEST_RC(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
    MTEST_CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && na == 0 && nt == 1,
                "envelope: combiner %d ints %d aints %d types %d", comb, ni, na, nt);
    MTEST_RC(MPI_Type_get_contents(t, 16, 1, 1, ints, aints, types));
    const int want[12] = {size, rank, 2, 7, 5, CYCLIC, BLOCK, 2, DFLT, p0, p1, MPI_ORDER_FORTRAN};
    for (int i = 0; i < 12; i++)
        MTEST_CHECK(ints[i] == want[i], "contents: ints[%d] = %d, want %d", i, ints[i], want[i]);
    MTEST_CHECK(types[0] == MPI_FLOAT, "contents: old type 0x%x, want MPI_FLOAT", (unsigned)types[0]);
    MPI_Type_free(&t);
}

static void test_errors(void)
{
    const int gs[2] = {8, 6}, ds[2] = {BLOCK, CYCLIC}, da[2] = {DFLT, DFLT}, ps[2] = {size, 1};
    int bad_ps[2] = {size, 2}, zero_ps[2] = {size, 0}, small_da[2] = {1, DFLT}, zero_da[2] = {DFLT, 0};
    int bad_ds[2] = {BLOCK, 999}, none_ds[2] = {BLOCK, NONE}, none_ps[2] = {1, size};
    int neg_gs[2] = {8, -6};
    MPI_Datatype t;
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, da, bad_ps, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG, "psizes multiply to 2 * size");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, da, zero_ps, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG, "psize 0");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, neg_gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG, "negative gsize");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, bad_ds, da, ps, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG, "unknown distribution");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, zero_da, ps, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG, "darg 0");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, da, ps, 77, MPI_INT, &t), MPI_ERR_ARG,
                      "bad order");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_DATATYPE_NULL, &t),
                      MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    mtest_check_class(MPI_Type_create_darray(0, 0, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "size 0");
    mtest_check_class(MPI_Type_create_darray(size, rank, 0, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS,
                      "ndims 0");
    if (size > 1) {     /* none on more than one process */
        mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, none_ds, da, none_ps, MPI_ORDER_C, MPI_INT, &t),
                          MPI_ERR_ARG, "MPI_DISTRIBUTE_NONE with psize %d", size);
    }
    if (size > 1 && 8 > size) {  /* blocks of 1 on size processes do not cover 8 elements */
        mtest_check_class(MPI_Type_create_darray(size, rank, 2, gs, ds, small_da, ps, MPI_ORDER_C, MPI_INT, &t),
                          MPI_ERR_ARG, "block darg 1 on %d processes for 8 elements", size);
    }
    /* the standard names no class for a rank outside the group; we say
     * MPI_ERR_ARG like the other inconsistent arguments, MPICH MPI_ERR_RANK */
    mtest_check_class(MPI_Type_create_darray(size, size, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "rank == size");
    mtest_check_class(MPI_Type_create_darray(size, rank, 2, NULL, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                      "NULL array_of_gsizes");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    run_all(MPI_ORDER_C);
    run_all(MPI_ORDER_FORTRAN);
    test_contents();
    /* MPICH 4.0 as packaged has these checks compiled out (psize 0 makes
     * it divide by zero) */
    if (!MTEST_MPICH_DEVIATION)
        test_errors();
    return mtest_finalize();
}
