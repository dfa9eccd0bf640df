/* The communicators that carry process topologies: Cartesian and graph
 * topologies split their parent, distributed graphs make a communicator
 * over the same group after every process has learned the edges that touch
 * it (one alltoall of edge counts, one alltoallv of the edges). */
#include "comm/comm.h"
#include "core/topo.h"
#include "core/group.h"
#include "coll/coll.h"
#include "coll/table.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
    return dmpi_topo_alloc(&(dmpi_topo_t){.kind = MPI_CART, .cart.ndims = ndims});
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
    dmpi_topo_t *t = dmpi_topo_alloc(&(dmpi_topo_t){.kind = MPI_GRAPH, .graph = {nnodes, nedges, NULL, NULL}});
    if (t) {
        dmpi_topo_copy_ints(t->graph.index, index, nnodes);
        dmpi_topo_copy_ints(t->graph.edges, edges, nedges);
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
    return dmpi_topo_alloc(&(dmpi_topo_t){.kind = MPI_DIST_GRAPH,
                                     .dist = {.indegree = indegree, .outdegree = outdegree, .weighted = weighted}});
}

int dmpi_dist_graph_create_adjacent(dmpi_comm_t *c, int indegree, const int *sources, const int *sourceweights,
                                    int outdegree, const int *destinations, const int *destweights,
                                    bool weighted, dmpi_comm_t **out)
{
    dmpi_topo_t *t = new_dist(indegree, outdegree, weighted);
    if (t) {
        dmpi_topo_copy_ints(t->dist.sources, sources, indegree);
        dmpi_topo_copy_ints(t->dist.destinations, destinations, outdegree);
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

/* Every rank sends each rank the edges that touch it: first how many (one
 * alltoall), then the edges (one alltoallv). They arrive in the senders'
 * rank order, so the neighbour lists come out the same in every call with
 * the same input. */
static int exchange_edges(dmpi_comm_t *c, const edge_t *by, const int *off, edge_t **got, int *ngot)
{
    const int per = (int)(sizeof(edge_t) / sizeof(int));
    int size = c->size;
    dmpi_dtype_t *ints = dmpi_dtype_get(MPI_INT);
    MPI_Count *scounts = malloc(2 * (size_t)size * sizeof *scounts);
    MPI_Aint *sdispls = malloc(2 * (size_t)size * sizeof *sdispls);
    if (!scounts || !sdispls) {
        free(scounts);
        free(sdispls);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %d ranks", size);
    }
    MPI_Count *rcounts = scounts + size;
    MPI_Aint *rdispls = sdispls + size;
    for (int r = 0; r < size; r++) {
        scounts[r] = (off[r + 1] - off[r]) * per;
        sdispls[r] = off[r] * per;
    }
    dmpi_dtype_t *wide = dmpi_dtype_get(MPI_COUNT);
    int err = c->coll->alltoall(c, scounts, 1, wide, rcounts, 1, wide, NULL);
    long long total = 0;
    for (int r = 0; err == MPI_SUCCESS && r < size; r++) {
        rdispls[r] = (MPI_Aint)total;
        total += rcounts[r];
    }
    if (err == MPI_SUCCESS && (total > INT_MAX || !(*got = malloc((size_t)total * sizeof(int) + 1))))
        err = dmpi_err(MPI_ERR_NO_MEM, "MPI_Dist_graph_create: out of memory for %lld edges", total / per);
    if (err == MPI_SUCCESS)
        err = c->coll->alltoallv(c, by, scounts, sdispls, ints, *got, rcounts, rdispls, ints, NULL);
    *ngot = (int)(total / per);
    free(scounts);
    free(sdispls);
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
