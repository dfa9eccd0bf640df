/* Process topologies attached to communicators: the objects, Cartesian
 * arithmetic and the queries. The communicators that carry them are made in
 * comm/topo_create.c. Processes are never reordered (MPI allows keeping the
 * old order), so a process's rank in the topology is its rank in the old
 * communicator. */
#include "core/topo.h"
#include <stdlib.h>
#include <string.h>

/* ---- the object ------------------------------------------------------------ */

static int topo_ints(const dmpi_topo_t *t)
{
    switch (t->kind) {
    case MPI_CART: return 2 * t->cart.ndims;
    case MPI_GRAPH: return t->graph.nnodes + t->graph.nedges;
    default: return 2 * (t->dist.indegree + t->dist.outdegree);
    }
}

/* Points the arrays into t->data, after the counts are set. */
static void place(dmpi_topo_t *t)
{
    int *p = t->data;
    switch (t->kind) {
    case MPI_CART:
        t->cart.dims = p;
        t->cart.periods = p + t->cart.ndims;
        break;
    case MPI_GRAPH:
        t->graph.index = p;
        t->graph.edges = p + t->graph.nnodes;
        break;
    default:
        t->dist.sources = p;
        t->dist.sourceweights = p + t->dist.indegree;
        t->dist.destinations = p + 2 * t->dist.indegree;
        t->dist.destweights = p + 2 * t->dist.indegree + t->dist.outdegree;
    }
}

dmpi_topo_t *dmpi_topo_alloc(const dmpi_topo_t *t)
{
    dmpi_topo_t *n = malloc(sizeof *n + (size_t)topo_ints(t) * sizeof(int));
    if (n) {
        *n = *t;
        place(n);
    }
    return n;
}

dmpi_topo_t *dmpi_topo_copy(const dmpi_topo_t *t)
{
    dmpi_topo_t *c = dmpi_topo_alloc(t);
    if (c)
        memcpy(c->data, t->data, (size_t)topo_ints(t) * sizeof(int));
    return c;
}

void dmpi_topo_free(dmpi_topo_t *t) { free(t); }

/* ---- MPI_Dims_create ------------------------------------------------------- */

/* The divisors of m in increasing order (at most 1600 for m < 2^31) and
 * its distinct primes (at most 9). */
typedef struct {
    int ndiv, nprime;
    int div[1600], prime[9];
} factors_t;

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void factorize(int m, factors_t *f)
{
    f->ndiv = 1;
    f->nprime = 0;
    f->div[0] = 1;
    for (int p = 2; m > 1; p++) {
        if ((long long)p * p > m)
            p = m;                  /* what is left is prime */
        if (m % p)
            continue;
        f->prime[f->nprime++] = p;
        int base = f->ndiv;         /* multiply the divisors so far by p, p^2, ... */
        long long pk = 1;
        while (m % p == 0) {
            m /= p;
            pk *= p;
            for (int i = 0; i < base; i++)
                f->div[f->ndiv++] = f->div[i] * (int)pk;
        }
    }
    qsort(f->div, (size_t)f->ndiv, sizeof *f->div, by_value);
}

/* f^j >= r, without overflow. */
static bool power_reaches(int f, int j, int r)
{
    if (f == 1)
        return r <= 1;
    long long v = 1;
    for (int i = 0; i < j && v < r; i++)
        v *= f;
    return v >= r;
}

/* The lexicographically smallest non-increasing j factors of r (a divisor
 * of m), none above cap, into out: the smallest largest factor, then the
 * smallest second, and so on, which is the most balanced grid. Depth-first
 * in increasing order, so the first factorization found is that one. Every
 * factor above 1 takes a prime, so the recursion is at most 31 deep. */
static bool factor(int r, int j, int cap, const factors_t *m, int *out)
{
    if (r == 1) {
        for (int i = 0; i < j; i++)
            out[i] = 1;
        return true;
    }
    if (j == 1) {
        out[0] = r;
        return r <= cap;
    }
    for (int i = 0; i < m->nprime; i++)     /* a prime above cap fits in no factor */
        if (m->prime[i] > cap && r % m->prime[i] == 0)
            return false;
    for (int i = 0; i < m->ndiv && m->div[i] <= cap && m->div[i] <= r; i++) {
        int f = m->div[i];
        /* the largest of j factors is at least the j-th root of r */
        if (r % f || !power_reaches(f, j, r))
            continue;
        if (factor(r / f, j - 1, f, m, out + 1)) {
            out[0] = f;
            return true;
        }
    }
    return false;
}

int dmpi_dims_create(int nnodes, int ndims, int *dims)
{
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] == 0)
            nfree++;
        else if ((fixed *= dims[i]) > nnodes)
            break;
    }
    if (fixed > nnodes || nnodes % fixed || (nfree == 0 && fixed != nnodes))
        return dmpi_err(MPI_ERR_DIMS, "MPI_Dims_create: the nonzero entries of dims multiply to %s%lld, %s nnodes %d",
                        fixed > nnodes ? "more than " : "", fixed > nnodes ? (long long)nnodes : fixed,
                        nfree ? "which does not divide" : "not", nnodes);
    if (nfree == 0)
        return MPI_SUCCESS;
    int m = (int)(nnodes / fixed), *f = malloc((size_t)nfree * sizeof *f);
    factors_t *mf = malloc(sizeof *mf);
    if (!f || !mf) {
        free(f);
        free(mf);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Dims_create: out of memory for %d dimensions", nfree);
    }
    factorize(m, mf);
    factor(m, nfree, m, mf, f);     /* (m, 1, ..., 1) always fits */
    free(mf);
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = f[k++];
    free(f);
    return MPI_SUCCESS;
}

/* ---- Cartesian arithmetic (row-major: the last dimension varies fastest) --- */

static int min_int(int a, int b) { return a < b ? a : b; }

/* n ints; a user's array may be NULL when n is 0. */
void dmpi_topo_copy_ints(int *dst, const int *src, int n)
{
    if (n > 0)
        memcpy(dst, src, (size_t)n * sizeof(int));
}

/* Coordinates come out last dimension first, so no scratch array is needed. */
void dmpi_cart_get(const dmpi_topo_t *t, int rank, int maxdims, int *dims, int *periods, int *coords)
{
    for (int i = t->cart.ndims - 1; i >= 0; i--) {
        int d = t->cart.dims[i];
        if (i < maxdims) {
            if (dims)
                dims[i] = d;
            if (periods)
                periods[i] = t->cart.periods[i];
            coords[i] = rank % d;
        }
        rank /= d;
    }
}

int dmpi_cart_rank(const dmpi_topo_t *t, const int *coords)
{
    int rank = 0;
    for (int i = 0; i < t->cart.ndims; i++) {
        int d = t->cart.dims[i], x = coords[i] % d;
        rank = rank * d + (x < 0 ? x + d : x);      /* periodic ones wrap; others are in range */
    }
    return rank;
}

void dmpi_cart_shift(const dmpi_topo_t *t, int rank, int direction, int disp, int *source, int *dest)
{
    int stride = 1;
    for (int i = t->cart.ndims - 1; i > direction; i--)
        stride *= t->cart.dims[i];
    int d = t->cart.dims[direction], me = rank / stride % d;
    for (int k = 0; k < 2; k++) {
        long long x = (long long)me + (k ? disp : -(long long)disp);
        if (t->cart.periods[direction])
            x = (x % d + d) % d;
        int *out = k ? dest : source;
        *out = x < 0 || x >= d ? MPI_PROC_NULL : rank + (int)(x - me) * stride;
    }
}

void dmpi_graph_get(const dmpi_topo_t *t, int maxindex, int maxedges, int *index, int *edges)
{
    dmpi_topo_copy_ints(index, t->graph.index, min_int(maxindex, t->graph.nnodes));
    dmpi_topo_copy_ints(edges, t->graph.edges, min_int(maxedges, t->graph.nedges));
}

/* Node r's neighbours are edges[index[r - 1] .. index[r]). */
static int first_edge(const dmpi_topo_t *t, int rank) { return rank ? t->graph.index[rank - 1] : 0; }

int dmpi_graph_degree(const dmpi_topo_t *t, int rank) { return t->graph.index[rank] - first_edge(t, rank); }

void dmpi_graph_neighbors(const dmpi_topo_t *t, int rank, int maxneighbors, int *neighbors)
{
    dmpi_topo_copy_ints(neighbors, t->graph.edges + first_edge(t, rank), min_int(maxneighbors, dmpi_graph_degree(t, rank)));
}

void dmpi_dist_graph_neighbors(const dmpi_topo_t *t, int maxindegree, int *sources, int *sourceweights,
                               int maxoutdegree, int *destinations, int *destweights)
{
    int in = min_int(maxindegree, t->dist.indegree), out = min_int(maxoutdegree, t->dist.outdegree);
    dmpi_topo_copy_ints(sources, t->dist.sources, in);
    dmpi_topo_copy_ints(destinations, t->dist.destinations, out);
    if (t->dist.weighted && sourceweights)
        dmpi_topo_copy_ints(sourceweights, t->dist.sourceweights, in);
    if (t->dist.weighted && destweights)
        dmpi_topo_copy_ints(destweights, t->dist.destweights, out);
}

int dmpi_topo_map(const dmpi_comm_t *c, long long nodes)
{
    return c->rank < nodes ? c->rank : MPI_UNDEFINED;
}

