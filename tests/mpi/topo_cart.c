/*
 * topo_cart: Cartesian topologies.  MPI_Dims_create against a table of known
 * answers and against a brute-force search for the most balanced grid;
 * Cart_create (grids smaller than the communicator, zero dimensions),
 * Cart_get/Cartdim_get/Topo_test, coordinates <-> rank round trips with
 * periodic wrap-around, Cart_shift in periodic and non-periodic dimensions
 * (MPI_PROC_NULL at the edges) with halo traffic to the neighbours it names,
 * Cart_sub slices that communicate, Cart_map, the topology kept by
 * MPI_Comm_dup (attributes are not carried by Cart_create), and the error
 * classes of bad arguments.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* ---- MPI_Dims_create ------------------------------------------------------ */

struct dims_case {
    int nnodes, ndims;
    int in[6], want[6];
};

/* Known answers (the same as MPICH's); zeros in `in` are filled in. */
static const struct dims_case dims_cases[] = {
    {1, 1, {0}, {1}},
    {1, 3, {0, 0, 0}, {1, 1, 1}},
    {6, 2, {0, 0}, {3, 2}},
    {7, 2, {0, 0}, {7, 1}},
    {8, 3, {0, 0, 0}, {2, 2, 2}},
    {12, 3, {0, 0, 0}, {3, 2, 2}},
    {16, 4, {0, 0, 0, 0}, {2, 2, 2, 2}},
    {24, 3, {0, 0, 0}, {4, 3, 2}},
    {30, 4, {0, 0, 0, 0}, {5, 3, 2, 1}},
    {36, 3, {0, 0, 0}, {4, 3, 3}},
    {60, 3, {0, 0, 0}, {5, 4, 3}},
    {90, 3, {0, 0, 0}, {6, 5, 3}},
    {180, 3, {0, 0, 0}, {6, 6, 5}},
    {210, 4, {0, 0, 0, 0}, {7, 5, 3, 2}},
    {243, 5, {0, 0, 0, 0, 0}, {3, 3, 3, 3, 3}},
    {256, 3, {0, 0, 0}, {8, 8, 4}},
    {299, 5, {0, 0, 0, 0, 0}, {23, 13, 1, 1, 1}},
    {1000000, 4, {0, 0, 0, 0}, {40, 40, 25, 25}},
    {1000000, 5, {0, 0, 0, 0, 0}, {25, 20, 20, 10, 10}},
    {720720, 6, {0, 0, 0, 0, 0, 0}, {13, 11, 10, 9, 8, 7}},
    {1048576, 3, {0, 0, 0}, {128, 128, 64}},
    {2147483647, 1, {0}, {2147483647}},
    /* given entries stay, the free ones are balanced and non-increasing */
    {6, 3, {0, 3, 0}, {2, 3, 1}},
    {12, 3, {0, 2, 0}, {3, 2, 2}},
    {16, 3, {0, 4, 0}, {2, 4, 2}},
    {24, 4, {2, 0, 0, 3}, {2, 2, 2, 3}},
    {60, 3, {0, 0, 5}, {4, 3, 5}},
    {8, 3, {2, 2, 2}, {2, 2, 2}},
    {64, 3, {1, 0, 0}, {1, 8, 8}},
};

/* Brute force: every non-increasing k-tuple of factors of n (each at most
 * cap) in turn; best keeps the lexicographically smallest, which is the
 * most balanced grid (the smallest largest extent, then the smallest
 * second one, ...). */
static void all_factorizations(int n, int k, int cap, int *cur, int depth, int *best, int *found)
{
    if (k == 0) {
        if (n != 1)
            return;
        int less = !*found;
        for (int i = 0; i < depth && !less; i++)
            if (cur[i] != best[i]) {
                less = cur[i] < best[i];
                break;
            }
        if (less)
            memcpy(best, cur, sizeof(int) * depth);
        *found = 1;
        return;
    }
    for (int f = 1; f <= cap && f <= n; f++)
        if (n % f == 0) {
            cur[depth] = f;
            all_factorizations(n / f, k - 1, f, cur, depth + 1, best, found);
        }
}

static void test_dims_create(void)
{
    for (size_t i = 0; i < sizeof dims_cases / sizeof *dims_cases; i++) {
        const struct dims_case *c = &dims_cases[i];
        int d[6];
        memcpy(d, c->in, sizeof d);
        if (!MTEST_RC(MPI_Dims_create(c->nnodes, c->ndims, d)))
            continue;
        for (int j = 0; j < c->ndims; j++)
            if (!MTEST_CHECK(d[j] == c->want[j], "Dims_create(%d, %d): dims[%d] = %d, want %d", c->nnodes, c->ndims,
                             j, d[j], c->want[j]))
                break;
    }
    /* MPICH divides by zero on a large prime in two or more dimensions */
    if (!MTEST_MPICH_DEVIATION) {
        int d[3] = {0, 0, 0};
        MTEST_RC(MPI_Dims_create(2147483647, 3, d));
        MTEST_CHECK(d[0] == 2147483647 && d[1] == 1 && d[2] == 1, "Dims_create(2^31-1, 3) = %d %d %d", d[0], d[1],
                    d[2]);
    }
    /* every n up to 120 in 1..4 dimensions: the most balanced grid */
    for (int n = 1; n <= 120; n++)
        for (int k = 1; k <= 4; k++) {
            int d[4] = {0, 0, 0, 0}, cur[4], best[4], found = 0;
            MTEST_RC(MPI_Dims_create(n, k, d));
            all_factorizations(n, k, n, cur, 0, best, &found);
            for (int j = 0; j < k; j++)
                if (!MTEST_CHECK(d[j] == best[j], "Dims_create(%d, %d): dims[%d] = %d, the most balanced has %d", n,
                                 k, j, d[j], best[j]))
                    break;
        }
    /* zero dimensions: the empty grid has one process */
    MTEST_RC(MPI_Dims_create(1, 0, NULL));

    int d[4];
    d[0] = 2, d[1] = 0;
    mtest_check_class(MPI_Dims_create(7, 2, d), MPI_ERR_DIMS, "Dims_create(7, {2, 0})");
    d[0] = 2, d[1] = 2, d[2] = 3;
    mtest_check_class(MPI_Dims_create(8, 3, d), MPI_ERR_DIMS, "Dims_create(8, {2, 2, 3})");
    d[0] = 2, d[1] = 2, d[2] = 1;
    /* MPICH: success, although no free entry is left to make 4 into 8 */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(MPI_Dims_create(8, 3, d), MPI_ERR_DIMS, "Dims_create(8, {2, 2, 1})");
    d[0] = -1, d[1] = 0;
    mtest_check_class(MPI_Dims_create(4, 2, d), MPI_ERR_DIMS, "Dims_create(4, {-1, 0})");
    d[0] = d[1] = 0;
    mtest_check_class(MPI_Dims_create(-4, 2, d), MPI_ERR_ARG, "Dims_create(-4, 2)");
    if (!MTEST_MPICH_DEVIATION) {
        /* MPICH: a negative ndims is MPI_ERR_ARG, nnodes 2 in zero
         * dimensions succeeds, and nnodes 0 does not return */
        mtest_check_class(MPI_Dims_create(4, -1, d), MPI_ERR_DIMS, "Dims_create(4, ndims -1)");
        mtest_check_class(MPI_Dims_create(2, 0, d), MPI_ERR_DIMS, "Dims_create(2, ndims 0)");
        mtest_check_class(MPI_Dims_create(0, 2, d), MPI_ERR_ARG, "Dims_create(0, 2)");
    }
}

/* ---- helpers ------------------------------------------------------------------- */

static int row_major(int ndims, const int *dims, const int *coords)
{
    int r = 0;
    for (int i = 0; i < ndims; i++)
        r = r * dims[i] + coords[i];
    return r;
}

static void coords_of(int ndims, const int *dims, int r, int *coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = r % dims[i];
        r /= dims[i];
    }
}

/* The rank `disp` steps along dimension dir from coords, or MPI_PROC_NULL. */
static int neighbour(int ndims, const int *dims, const int *periods, const int *coords, int dir, int disp)
{
    int c[8];
    memcpy(c, coords, sizeof(int) * ndims);
    long x = (long)c[dir] + disp;
    if (periods[dir])
        x = ((x % dims[dir]) + dims[dir]) % dims[dir];
    else if (x < 0 || x >= dims[dir])
        return MPI_PROC_NULL;
    c[dir] = (int)x;
    return row_major(ndims, dims, c);
}

/* Checks everything the communicator says about its grid. */
static void check_grid(MPI_Comm cart, int ndims, const int *dims, const int *periods, int myrank, const char *what)
{
    int status, nd, d[8], p[8], c[8], want[8];
    MTEST_RC(MPI_Topo_test(cart, &status));
    MTEST_CHECK(status == MPI_CART, "%s: Topo_test %d, want MPI_CART", what, status);
    MTEST_RC(MPI_Cartdim_get(cart, &nd));
    if (!MTEST_CHECK(nd == ndims, "%s: Cartdim_get %d, want %d", what, nd, ndims))
        return;
    MTEST_RC(MPI_Cart_get(cart, 8, d, p, c));
    coords_of(ndims, dims, myrank, want);
    for (int i = 0; i < ndims; i++)
        MTEST_CHECK(d[i] == dims[i] && !!p[i] == !!periods[i] && c[i] == want[i],
                    "%s: Cart_get dimension %d: %d %d %d, want %d %d %d", what, i, d[i], p[i], c[i], dims[i],
                    periods[i], want[i]);
}

/* ---- creation, queries, coordinates ------------------------------------------ */

static void test_cart_basic(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MTEST_RC(MPI_Dims_create(size, 2, dims));
    MPI_Comm cart;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    int n, me;
    MPI_Comm_size(cart, &n);
    MPI_Comm_rank(cart, &me);
    MTEST_CHECK(n == size && me == rank, "2-d grid: size %d rank %d, want %d %d", n, me, size, rank);
    check_grid(cart, 2, dims, periods, rank, "2-d grid");

    /* maxdims smaller than ndims: the first entries only (MPICH writes
     * all ndims entries, past the end of the caller's arrays) */
    if (!MTEST_MPICH_DEVIATION) {
        int d[2] = {-7, -7}, p[2] = {-7, -7}, c[2] = {-7, -7};
        MTEST_RC(MPI_Cart_get(cart, 1, d, p, c));
        MTEST_CHECK(d[0] == dims[0] && d[1] == -7 && p[1] == -7 && c[1] == -7,
                    "Cart_get(maxdims 1) wrote %d %d %d %d", d[0], d[1], p[1], c[1]);
    }

    /* every rank: coords -> rank -> coords */
    for (int r = 0; r < size; r++) {
        int co[2], back, want[2];
        MTEST_RC(MPI_Cart_coords(cart, r, 2, co));
        coords_of(2, dims, r, want);
        MTEST_CHECK(co[0] == want[0] && co[1] == want[1], "Cart_coords(%d) = (%d, %d), want (%d, %d)", r, co[0], co[1],
                    want[0], want[1]);
        MTEST_RC(MPI_Cart_rank(cart, co, &back));
        MTEST_CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
        /* the periodic dimension wraps, in both directions */
        int wrap[2] = {co[0] + 3 * dims[0], co[1]};
        MTEST_RC(MPI_Cart_rank(cart, wrap, &back));
        MTEST_CHECK(back == r, "Cart_rank(%d + 3 * %d, %d) = %d, want %d", co[0], dims[0], co[1], back, r);
        wrap[0] = co[0] - 2 * dims[0] - dims[0];
        MTEST_RC(MPI_Cart_rank(cart, wrap, &back));
        MTEST_CHECK(back == r, "Cart_rank(%d, %d) = %d, want %d", wrap[0], co[1], back, r);
    }
    /* the non-periodic dimension does not */
    int bad[2] = {0, dims[1]};
    mtest_check_class(MPI_Cart_rank(cart, bad, &n), MPI_ERR_ARG, "Cart_rank(0, %d) in a non-periodic dimension",
                      dims[1]);
    bad[1] = -1;
    mtest_check_class(MPI_Cart_rank(cart, bad, &n), MPI_ERR_ARG, "Cart_rank(0, -1) in a non-periodic dimension");
    MTEST_RC(MPI_Comm_free(&cart));

    /* Cart_map without reordering: the rank if it is in the grid */
    int one[1] = {size > 1 ? size - 1 : 1}, nr;
    MTEST_RC(MPI_Cart_map(MPI_COMM_WORLD, 1, one, periods, &nr));
    MTEST_CHECK(nr == (rank < one[0] ? rank : MPI_UNDEFINED), "Cart_map(%d): %d", one[0], nr);
    MTEST_RC(MPI_Cart_map(MPI_COMM_WORLD, 0, NULL, NULL, &nr));
    MTEST_CHECK(nr == (rank == 0 ? 0 : MPI_UNDEFINED), "Cart_map(0 dims): %d", nr);
}

/* A grid smaller than the communicator, and one of zero dimensions. */
static void test_cart_partial(void)
{
    int dims[1] = {size > 1 ? size - 1 : 1}, periods[1] = {0};
    MPI_Comm cart;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart));
    if (rank >= dims[0]) {
        MTEST_CHECK(cart == MPI_COMM_NULL, "rank %d outside a grid of %d got a communicator", rank, dims[0]);
    } else if (MTEST_CHECK(cart != MPI_COMM_NULL, "rank %d inside a grid of %d got MPI_COMM_NULL", rank, dims[0])) {
        int n, me;
        MPI_Comm_size(cart, &n);
        MPI_Comm_rank(cart, &me);
        MTEST_CHECK(n == dims[0], "partial grid: size %d, want %d", n, dims[0]);
        check_grid(cart, 1, dims, periods, me, "partial grid");
        MTEST_RC(MPI_Comm_free(&cart));
    }

    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &cart));
    if (rank > 0) {
        MTEST_CHECK(cart == MPI_COMM_NULL, "zero dimensions: rank %d got a communicator", rank);
    } else if (MTEST_CHECK(cart != MPI_COMM_NULL, "zero dimensions: rank 0 got MPI_COMM_NULL")) {
        int n, nd, r = -1;
        MPI_Comm_size(cart, &n);
        MTEST_RC(MPI_Cartdim_get(cart, &nd));
        MTEST_CHECK(n == 1 && nd == 0, "zero dimensions: size %d, ndims %d", n, nd);
        MTEST_RC(MPI_Cart_rank(cart, NULL, &r));
        MTEST_CHECK(r == 0, "zero dimensions: Cart_rank %d", r);
        if (!MTEST_MPICH_DEVIATION)     /* MPICH crashes here */
            MTEST_RC(MPI_Cart_get(cart, 0, NULL, NULL, NULL));
        MTEST_RC(MPI_Comm_free(&cart));
    }
}

/* ---- shifts and halo traffic ----------------------------------------------------- */

static void check_shift(MPI_Comm cart, int ndims, const int *dims, const int *periods, const char *what)
{
    int me, co[8];
    MPI_Comm_rank(cart, &me);
    coords_of(ndims, dims, me, co);
    const int disps[] = {1, -1, 2, -2, 0, 3, size + 1, -(size + 1)};
    for (int dir = 0; dir < ndims; dir++)
        for (size_t k = 0; k < sizeof disps / sizeof *disps; k++) {
            int src = -5, dst = -5, disp = disps[k];
            MTEST_RC(MPI_Cart_shift(cart, dir, disp, &src, &dst));
            int ws = neighbour(ndims, dims, periods, co, dir, -disp);
            int wd = neighbour(ndims, dims, periods, co, dir, disp);
            MTEST_CHECK(src == ws && dst == wd, "%s: Cart_shift(dir %d, disp %d) at rank %d = (%d, %d), want (%d, %d)",
                        what, dir, disp, me, src, dst, ws, wd);
        }
}

/* Along every dimension both ways: send my rank to the shift's
 * destination, receive from its source; MPI_PROC_NULL leaves the buffer. */
static void halo(MPI_Comm cart, int ndims, const char *what)
{
    int me;
    MPI_Comm_rank(cart, &me);
    for (int dir = 0; dir < ndims; dir++)
        for (int disp = -1; disp <= 1; disp += 2) {
            int src, dst, got = -3;
            MPI_Status st;
            MTEST_RC(MPI_Cart_shift(cart, dir, disp, &src, &dst));
            MTEST_RC(MPI_Sendrecv(&me, 1, MPI_INT, dst, 20 + dir, &got, 1, MPI_INT, src, 20 + dir, cart, &st));
            if (src == MPI_PROC_NULL)
                MTEST_CHECK(got == -3 && st.MPI_SOURCE == MPI_PROC_NULL, "%s: halo from MPI_PROC_NULL wrote %d", what,
                            got);
            else
                MTEST_CHECK(got == src, "%s: halo dir %d disp %d: got %d from rank %d", what, dir, disp, got, src);
        }
}

static void test_shift(void)
{
    /* 1-d rings: periodic and not */
    for (int per = 0; per < 2; per++) {
        int dims[1] = {size}, periods[1] = {per};
        MPI_Comm ring;
        MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
        int src, dst;
        MTEST_RC(MPI_Cart_shift(ring, 0, 1, &src, &dst));
        if (per)
            MTEST_CHECK(src == (rank - 1 + size) % size && dst == (rank + 1) % size, "ring shift: %d %d", src, dst);
        else
            MTEST_CHECK(src == (rank > 0 ? rank - 1 : MPI_PROC_NULL) &&
                            dst == (rank < size - 1 ? rank + 1 : MPI_PROC_NULL),
                        "line shift at %d: %d %d", rank, src, dst);
        check_shift(ring, 1, dims, periods, per ? "ring" : "line");
        halo(ring, 1, per ? "ring" : "line");
        MTEST_RC(MPI_Comm_free(&ring));
    }
    /* 3-d grid, periodic in the first and last dimensions */
    int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
    MTEST_RC(MPI_Dims_create(size, 3, dims));
    MPI_Comm grid;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid));
    check_grid(grid, 3, dims, periods, rank, "3-d grid");
    check_shift(grid, 3, dims, periods, "3-d grid");
    halo(grid, 3, "3-d grid");

    /* the topology survives Comm_dup, twice, and the copy is independent */
    MPI_Comm dup, dup2;
    MTEST_RC(MPI_Comm_dup(grid, &dup));
    MTEST_RC(MPI_Comm_dup(dup, &dup2));
    MTEST_RC(MPI_Comm_free(&grid));
    check_grid(dup2, 3, dims, periods, rank, "dup of a dup of a 3-d grid");
    check_shift(dup2, 3, dims, periods, "dup of a dup");
    halo(dup, 3, "dup");
    MTEST_RC(MPI_Comm_free(&dup));
    check_grid(dup2, 3, dims, periods, rank, "dup after its parent was freed");
    MTEST_RC(MPI_Comm_free(&dup2));
}

/* ---- Cart_sub -------------------------------------------------------------------- */

/* Every member sends its world rank to every other; member j must be
 * world rank expect[j]. */
static void exchange_check(MPI_Comm c, const int *expect, const char *what)
{
    int n;
    MPI_Comm_size(c, &n);
    int *in = mtest_malloc(sizeof(int) * n);
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * 2 * n);
    for (int i = 0; i < n; i++)
        MTEST_RC(MPI_Irecv(&in[i], 1, MPI_INT, i, 30, c, &rq[i]));
    for (int i = 0; i < n; i++)
        MTEST_RC(MPI_Isend(&rank, 1, MPI_INT, i, 30, c, &rq[n + i]));
    MTEST_RC(MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        MTEST_CHECK(in[i] == expect[i], "%s: member %d is world rank %d, want %d", what, i, in[i], expect[i]);
    free(in);
    free(rq);
}

static void test_sub(void)
{
    int dims[3] = {0, 0, 0}, periods[3] = {0, 1, 1}, co[3];
    MTEST_RC(MPI_Dims_create(size, 3, dims));
    MPI_Comm grid;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid));
    coords_of(3, dims, rank, co);

    /* each keep-pattern: the slice through this process */
    for (int mask = 0; mask < 8; mask++) {
        int remain[3] = {mask & 4 ? 1 : 0, mask & 2 ? 1 : 0, mask & 1 ? 1 : 0}, sd[3], sp[3], nk = 0;
        for (int i = 0; i < 3; i++)
            if (remain[i]) {
                sd[nk] = dims[i];
                sp[nk++] = periods[i];
            }
        char what[64];
        snprintf(what, sizeof what, "Cart_sub(%d, %d, %d)", remain[0], remain[1], remain[2]);
        MPI_Comm sub;
        MTEST_RC(MPI_Cart_sub(grid, remain, &sub));
        /* MPICH: with no dimension kept, only rank 0 gets a communicator;
         * MPI says every process gets its own zero-dimensional one */
        if (MTEST_MPICH_DEVIATION && mask == 0 && rank > 0 && sub == MPI_COMM_NULL)
            continue;
        if (!MTEST_CHECK(sub != MPI_COMM_NULL, "%s gave MPI_COMM_NULL", what))
            continue;
        int n, me, want_n = 1, want_me = 0;
        for (int i = 0; i < 3; i++)
            if (remain[i]) {
                want_n *= dims[i];
                want_me = want_me * dims[i] + co[i];
            }
        MPI_Comm_size(sub, &n);
        MPI_Comm_rank(sub, &me);
        MTEST_CHECK(n == want_n && me == want_me, "%s: size %d rank %d, want %d %d", what, n, me, want_n, want_me);
        check_grid(sub, nk, sd, sp, me, what);
        /* member j of the slice: my coordinates with the kept ones of j */
        int *expect = mtest_malloc(sizeof(int) * n);
        for (int j = 0; j < n; j++) {
            int sc[3], full[3], k = 0;
            coords_of(nk, sd, j, sc);
            for (int i = 0; i < 3; i++)
                full[i] = remain[i] ? sc[k++] : co[i];
            expect[j] = row_major(3, dims, full);
        }
        exchange_check(sub, expect, what);
        if (nk > 0)
            halo(sub, nk, what);
        free(expect);
        if (mask == 7) {
            int cmp;
            MTEST_RC(MPI_Comm_compare(sub, grid, &cmp));
            MTEST_CHECK(cmp == MPI_CONGRUENT, "%s: compare with the grid %d, want MPI_CONGRUENT", what, cmp);
        }
        MTEST_RC(MPI_Comm_free(&sub));
    }
    MTEST_RC(MPI_Comm_free(&grid));
}

/* Cart_create is not Comm_dup: no attribute comes along. */
static void test_no_attributes(void)
{
    int key, val = 42, *got, flag;
    MPI_Comm dup, cart;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MTEST_RC(MPI_Comm_set_attr(dup, key, &val));
    int dims[1] = {size}, periods[1] = {0};
    MTEST_RC(MPI_Cart_create(dup, 1, dims, periods, 0, &cart));
    MTEST_RC(MPI_Comm_get_attr(cart, key, &got, &flag));
    MTEST_CHECK(!flag, "Cart_create copied an attribute");
    MPI_Comm cdup;
    MTEST_RC(MPI_Comm_set_attr(cart, key, &val));
    MTEST_RC(MPI_Comm_dup(cart, &cdup));
    MTEST_RC(MPI_Comm_get_attr(cdup, key, &got, &flag));
    MTEST_CHECK(flag && got == &val, "Comm_dup of a grid lost its attribute");
    MTEST_RC(MPI_Comm_free(&cdup));
    MTEST_RC(MPI_Comm_free(&cart));
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_RC(MPI_Comm_free_keyval(&key));
}

/* ---- errors -------------------------------------------------------------------- */

static void test_errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    int dims[2] = {size, 1}, periods[2] = {0, 0}, a, b, co[2];
    /* whatever MPICH returns for the erroneous calls below, free it */
#define FREE_IF_MADE(cm)                                                                                             \
    do {                                                                                                             \
        if ((cm) != MPI_COMM_NULL)                                                                                   \
            MPI_Comm_free(&(cm));                                                                                    \
    } while (0)
    dims[1] = 2;
    int rc = MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    /* MPICH: MPI_ERR_ARG for a grid larger than the communicator */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(rc, MPI_ERR_DIMS, "Cart_create of %d x 2 on %d processes", size, size);
    else if (rc == MPI_SUCCESS)
        FREE_IF_MADE(c);
    dims[1] = 0;
    rc = MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    /* MPICH accepts a dimension of extent 0 */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(rc, MPI_ERR_DIMS, "Cart_create with dims[1] = 0");
    else if (rc == MPI_SUCCESS)
        FREE_IF_MADE(c);
    dims[1] = -1;
    rc = MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(rc, MPI_ERR_DIMS, "Cart_create with dims[1] = -1");
    else if (rc == MPI_SUCCESS)
        FREE_IF_MADE(c);
    rc = MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &c);
    /* MPICH: MPI_ERR_ARG for a negative ndims */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class(rc, MPI_ERR_DIMS, "Cart_create with ndims -1");
    dims[1] = 1;
    mtest_check_class(MPI_Cart_create(MPI_COMM_NULL, 2, dims, periods, 0, &c), MPI_ERR_COMM,
                      "Cart_create on MPI_COMM_NULL");
    dims[1] = 2;
    mtest_check_class(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &a), MPI_ERR_DIMS, "Cart_map too large");

    /* a communicator without the topology */
    mtest_check_class(MPI_Cartdim_get(MPI_COMM_WORLD, &a), MPI_ERR_TOPOLOGY, "Cartdim_get(world)");
    mtest_check_class(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &a, &b), MPI_ERR_TOPOLOGY, "Cart_shift(world)");
    if (!MTEST_MPICH_DEVIATION)         /* MPICH crashes here */
        mtest_check_class(MPI_Cart_get(MPI_COMM_WORLD, 2, dims, periods, co), MPI_ERR_TOPOLOGY, "Cart_get(world)");
    mtest_check_class(MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, co), MPI_ERR_TOPOLOGY, "Cart_coords(world)");
    mtest_check_class(MPI_Cart_rank(MPI_COMM_WORLD, co, &a), MPI_ERR_TOPOLOGY, "Cart_rank(world)");
    int remain[2] = {1, 0};
    mtest_check_class(MPI_Cart_sub(MPI_COMM_WORLD, remain, &c), MPI_ERR_TOPOLOGY, "Cart_sub(world)");
    MTEST_RC(MPI_Topo_test(MPI_COMM_WORLD, &a));
    MTEST_CHECK(a == MPI_UNDEFINED, "Topo_test(world) = %d, want MPI_UNDEFINED", a);
    mtest_check_class(MPI_Topo_test(MPI_COMM_NULL, &a), MPI_ERR_COMM, "Topo_test(MPI_COMM_NULL)");

    /* bad arguments on a grid */
    dims[0] = size, dims[1] = 1;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    mtest_check_class(MPI_Cart_coords(c, size, 2, co), MPI_ERR_RANK, "Cart_coords(rank %d)", size);
    mtest_check_class(MPI_Cart_coords(c, -1, 2, co), MPI_ERR_RANK, "Cart_coords(rank -1)");
    mtest_check_class(MPI_Cart_coords(c, 0, 1, co), MPI_ERR_ARG, "Cart_coords(maxdims 1 of 2)");
    mtest_check_class(MPI_Cart_shift(c, 2, 1, &a, &b), MPI_ERR_ARG, "Cart_shift(direction 2 of 2)");
    mtest_check_class(MPI_Cart_shift(c, -1, 1, &a, &b), MPI_ERR_ARG, "Cart_shift(direction -1)");
    mtest_check_class(MPI_Cart_get(c, -1, dims, periods, co), MPI_ERR_ARG, "Cart_get(maxdims -1)");
    co[0] = size, co[1] = 0;
    mtest_check_class(MPI_Cart_rank(c, co, &a), MPI_ERR_ARG, "Cart_rank(%d, 0)", size);
    mtest_check_class(MPI_Graphdims_get(c, &a, &b), MPI_ERR_TOPOLOGY, "Graphdims_get(grid)");
    mtest_check_class(MPI_Dist_graph_neighbors_count(c, &a, &b, co), MPI_ERR_TOPOLOGY,
                      "Dist_graph_neighbors_count(grid)");
    MTEST_RC(MPI_Comm_free(&c));
#undef FREE_IF_MADE
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_dims_create();
    test_cart_basic();
    test_cart_partial();
    test_shift();
    test_sub();
    test_no_attributes();
    test_errors();
    return mtest_finalize();
}
