/* Process topologies attached to communicators: the objects, Cartesian
 * arithmetic, and the creation of the communicators that carry them.
 * Processes are never reordered (MPI allows keeping the old order), so a
 * process's rank in the topology is its rank in the old communicator. */
#include "core/topo.h"
#include "core/group.h"
#include "coll/coll.h"
#include "p2p/p2p.h"
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

/* t (kind and counts filled in) moved to the heap with room for its arrays. */
static dmpi_topo_t *topo_alloc(const dmpi_topo_t *t)
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
    dmpi_topo_t *c = topo_alloc(t);
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
static void copy_ints(int *dst, const int *src, int n)
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
    copy_ints(index, t->graph.index, min_int(maxindex, t->graph.nnodes));
    copy_ints(edges, t->graph.edges, min_int(maxedges, t->graph.nedges));
}

/* Node r's neighbours are edges[index[r - 1] .. index[r]). */
static int first_edge(const dmpi_topo_t *t, int rank) { return rank ? t->graph.index[rank - 1] : 0; }

int dmpi_graph_degree(const dmpi_topo_t *t, int rank) { return t->graph.index[rank] - first_edge(t, rank); }

void dmpi_graph_neighbors(const dmpi_topo_t *t, int rank, int maxneighbors, int *neighbors)
{
    copy_ints(neighbors, t->graph.edges + first_edge(t, rank), min_int(maxneighbors, dmpi_graph_degree(t, rank)));
}

void dmpi_dist_graph_neighbors(const dmpi_topo_t *t, int maxindegree, int *sources, int *sourceweights,
                               int maxoutdegree, int *destinations, int *destweights)
{
    int in = min_int(maxindegree, t->dist.indegree), out = min_int(maxoutdegree, t->dist.outdegree);
    copy_ints(sources, t->dist.sources, in);
    copy_ints(destinations, t->dist.destinations, out);
    if (t->dist.weighted && sourceweights)
        copy_ints(sourceweights, t->dist.sourceweights, in);
    if (t->dist.weighted && destweights)
        copy_ints(destweights, t->dist.destweights, out);
}

int dmpi_topo_map(const dmpi_comm_t *c, long long nodes)
{
    return c->rank < nodes ? c->rank : MPI_UNDEFINED;
}

/* ---- creation ------------------------------------------------------------------ */

/* The end of every creation: the new communicator n (NULL where the
 * process is left out) gets t, or both go if the call failed. t is NULL
 * only if it could not be allocated; the caller still took part in the
 * collective part, so that the other processes are not left waiting. */
static int attach(const char *fn, int err, dmpi_comm_t *n, dmpi_topo_t *t, dmpi_comm_t **out)
{
    *out = NULL;
    if (err == MPI_SUCCESS && n && !t)
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the topology", fn);
    if (err != MPI_SUCCESS) {
        if (n)
            dmpi_comm_free(n);
        dmpi_topo_free(t);
        return err;
    }
    if (n) {
        n->topo = t;
        *out = n;
    } else {
        dmpi_topo_free(t);
    }
    return MPI_SUCCESS;
}

static dmpi_topo_t *new_cart(int ndims)
{
    return topo_alloc(&(dmpi_topo_t){.kind = MPI_CART, .cart.ndims = ndims});
}

int dmpi_cart_create(dmpi_comm_t *c, int ndims, const int *dims, const int *periods, dmpi_comm_t **out)
{
    int nodes = 1;
    dmpi_topo_t *t = new_cart(ndims);
    for (int i = 0; i < ndims; i++) {
        nodes *= dims[i];               /* the api layer checked it fits in c */
        if (t) {
            t->cart.dims[i] = dims[i];
            t->cart.periods[i] = periods[i] != 0;
        }
    }
    dmpi_comm_t *n;
    int err = dmpi_comm_split(c, c->rank < nodes ? 0 : MPI_UNDEFINED, c->rank, &n);
    return attach("MPI_Cart_create", err, n, t, out);
}

int dmpi_cart_sub(dmpi_comm_t *c, const int *remain_dims, dmpi_comm_t **out)
{
    const dmpi_topo_t *p = c->topo;
    int kept = 0, color = 0, key = 0;
    for (int i = 0; i < p->cart.ndims; i++)
        kept += remain_dims[i] != 0;
    dmpi_topo_t *t = new_cart(kept);
    /* The processes that agree in the dropped coordinates form one
     * subgrid (colour: the dropped coordinates as one number), ordered by
     * the kept ones (key), so ranks in it are row-major in them too. */
    for (int i = 0, k = 0, rank = c->rank, stride_c = 1, stride_k = 1; i < p->cart.ndims; i++) {
        int j = p->cart.ndims - 1 - i, d = p->cart.dims[j], x = rank % d;
        rank /= d;
        if (remain_dims[j]) {
            key += x * stride_k;
            stride_k *= d;
            if (t) {
                t->cart.dims[kept - 1 - k] = d;
                t->cart.periods[kept - 1 - k] = p->cart.periods[j];
            }
            k++;
        } else {
            color += x * stride_c;
            stride_c *= d;
        }
    }
    dmpi_comm_t *n;
    int err = dmpi_comm_split(c, color, key, &n);
    return attach("MPI_Cart_sub", err, n, t, out);
}

int dmpi_graph_create(dmpi_comm_t *c, int nnodes, const int *index, const int *edges, dmpi_comm_t **out)
{
    int nedges = nnodes ? index[nnodes - 1] : 0;
    dmpi_topo_t *t = topo_alloc(&(dmpi_topo_t){.kind = MPI_GRAPH, .graph = {nnodes, nedges, NULL, NULL}});
    if (t) {
        copy_ints(t->graph.index, index, nnodes);
        copy_ints(t->graph.edges, edges, nedges);
    }
    dmpi_comm_t *n;
    int err = dmpi_comm_split(c, c->rank < nnodes ? 0 : MPI_UNDEFINED, c->rank, &n);
    return attach("MPI_Graph_create", err, n, t, out);
}

/* A new communicator over the same processes in the same order: no
 * attributes, hints or topology come along (unlike MPI_Comm_dup). */
static int same_group(dmpi_comm_t *c, dmpi_comm_t **n)
{
    return dmpi_comm_create(c, c->group, n);
}

static dmpi_topo_t *new_dist(int indegree, int outdegree, bool weighted)
{
    return topo_alloc(&(dmpi_topo_t){.kind = MPI_DIST_GRAPH,
                                     .dist = {.indegree = indegree, .outdegree = outdegree, .weighted = weighted}});
}

int dmpi_dist_graph_create_adjacent(dmpi_comm_t *c, int indegree, const int *sources, const int *sourceweights,
                                    int outdegree, const int *destinations, const int *destweights,
                                    bool weighted, dmpi_comm_t **out)
{
    dmpi_topo_t *t = new_dist(indegree, outdegree, weighted);
    if (t) {
        copy_ints(t->dist.sources, sources, indegree);
        copy_ints(t->dist.destinations, destinations, outdegree);
        for (int i = 0; i < indegree; i++)
            t->dist.sourceweights[i] = weighted ? sourceweights[i] : 1;
        for (int i = 0; i < outdegree; i++)
            t->dist.destweights[i] = weighted ? destweights[i] : 1;
    }
    dmpi_comm_t *n;
    int err = same_group(c, &n);
    return attach("MPI_Dist_graph_create_adjacent", err, n, t, out);
}

/* ---- MPI_Dist_graph_create: every process learns the edges that touch it --- */

typedef struct { int src, dst, w; } edge_t;

/* For each rank r, the given edges that start or end at r (a self-loop of r
 * once), grouped by r: by[off[r] .. off[r + 1]). */
static int sort_edges(dmpi_comm_t *c, int n, const int *sources, const int *degrees, const int *destinations,
                      const int *weights, bool weighted, edge_t **by, int **off)
{
    int size = c->size, total = 0;
    for (int i = 0; i < n; i++)
        total += degrees[i];
    *off = calloc((size_t)size + 1, sizeof **off);
    *by = malloc(((size_t)2 * total + 1) * sizeof **by);
    if (!*off || !*by)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d edges", total);
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            (*off)[sources[i] + 1]++;
            if (destinations[e] != sources[i])
                (*off)[destinations[e] + 1]++;
        }
    for (int r = 0; r < size; r++)
        (*off)[r + 1] += (*off)[r];
    int *fill = malloc((size_t)size * sizeof *fill);
    if (!fill)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d ranks", size);
    memcpy(fill, *off, (size_t)size * sizeof *fill);
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            edge_t x = {sources[i], destinations[e], weighted ? weights[e] : 1};
            (*by)[fill[x.src]++] = x;
            if (x.dst != x.src)
                (*by)[fill[x.dst]++] = x;
        }
    free(fill);
    return MPI_SUCCESS;
}

/* Sends every other rank its edges (possibly none) and receives its own
 * from each, appended to *got in the senders' rank order, so the neighbour
 * lists come out the same in every call with the same input. */
static int exchange_edges(dmpi_comm_t *c, const edge_t *by, const int *off, edge_t **got, int *ngot)
{
    dmpi_comm_t v = dmpi_coll_view(c);
    dmpi_dtype_t *bytes = dmpi_dtype_get(MPI_BYTE);
    int size = c->size, me = c->rank, nreq = 0, err = MPI_SUCCESS;
    dmpi_request_t **req = malloc((size_t)size * sizeof *req);
    if (!req)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d requests", size);
    for (int r = 0; r < size && err == MPI_SUCCESS; r++)
        if (r != me)
            if ((err = dmpi_isend(by + off[r], (off[r + 1] - off[r]) * (int)sizeof(edge_t), bytes, r,
                                  DMPI_TAG_DIST_GRAPH, &v, DMPI_MODE_STANDARD, &req[nreq])) == MPI_SUCCESS)
                nreq++;
    *ngot = 0;
    for (int r = 0; r < size && err == MPI_SUCCESS; r++) {
        int k = off[r + 1] - off[r];
        MPI_Status st;
        if (r != me) {
            if ((err = dmpi_probe(r, DMPI_TAG_DIST_GRAPH, &v, &st, NULL)) != MPI_SUCCESS)
                break;
            k = (int)(dmpi_status_bytes(&st) / sizeof(edge_t));
        }
        edge_t *more = realloc(*got, ((size_t)*ngot + (size_t)k + 1) * sizeof **got);
        if (!more) {
            err = dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d edges", *ngot + k);
            break;
        }
        *got = more;
        if (r == me)
            memcpy(*got + *ngot, by + off[me], (size_t)k * sizeof(edge_t));
        else if ((err = dmpi_recv(*got + *ngot, k * (int)sizeof(edge_t), bytes, r, DMPI_TAG_DIST_GRAPH, &v,
                                  MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            break;
        *ngot += k;
    }
    for (int i = 0; i < nreq; i++) {        /* the sends read from `by` and use `v` */
        int e = dmpi_wait(req[i], NULL, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = e;
    }
    free(req);
    return err;
}

int dmpi_dist_graph_create(dmpi_comm_t *c, int n, const int *sources, const int *degrees,
                           const int *destinations, const int *weights, bool weighted, dmpi_comm_t **out)
{
    edge_t *by = NULL, *got = NULL;
    int *off = NULL, ngot = 0, me = c->rank, in = 0, nout = 0;
    int err = sort_edges(c, n, sources, degrees, destinations, weights, weighted, &by, &off);
    if (err == MPI_SUCCESS)
        err = exchange_edges(c, by, off, &got, &ngot);
    free(by);
    free(off);
    dmpi_topo_t *t = NULL;
    if (err == MPI_SUCCESS) {
        for (int i = 0; i < ngot; i++) {
            in += got[i].dst == me;
            nout += got[i].src == me;
        }
        if ((t = new_dist(in, nout, weighted))) {
            for (int i = 0, a = 0, b = 0; i < ngot; i++) {
                if (got[i].dst == me) {
                    t->dist.sources[a] = got[i].src;
                    t->dist.sourceweights[a++] = got[i].w;
                }
                if (got[i].src == me) {
                    t->dist.destinations[b] = got[i].dst;
                    t->dist.destweights[b++] = got[i].w;
                }
            }
        }
    }
    free(got);
    dmpi_comm_t *nc = NULL;
    if (err == MPI_SUCCESS)
        err = same_group(c, &nc);
    return attach("MPI_Dist_graph_create", err, nc, t, out);
}
