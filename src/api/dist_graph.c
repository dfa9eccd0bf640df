/* Distributed graph topologies: Dist_graph_create_adjacent,
 * Dist_graph_create and the neighbour queries. Weights: MPI_UNWEIGHTED
 * makes an unweighted graph; MPI_WEIGHTS_EMPTY (or any array) stands for
 * zero weights of a weighted graph. */
#include "api/topo.h"
#include "core/info.h"

DMPI_ALIAS(Dist_graph_create_adjacent)
DMPI_ALIAS(Dist_graph_create)
DMPI_ALIAS(Dist_graph_neighbors_count)
DMPI_ALIAS(Dist_graph_neighbors)

/* The hints are checked, then ignored: there is no reordering. */
static int check_info(const char *fn, MPI_Info info)
{
    if (info == MPI_INFO_NULL || dmpi_info_get(info))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info);
}

/* n ranks of c in an array called what. */
static int check_ranks(const char *fn, const dmpi_comm_t *c, const int *ranks, int n, const char *what)
{
    int err = dmpi_topo_check_array(fn, ranks, n, what);
    for (int i = 0; i < n && !err; i++)
        if (ranks[i] < 0 || ranks[i] >= c->size)
            err = dmpi_err(MPI_ERR_RANK, "%s: %s[%d] is %d, not a rank of the communicator (0..%d)", fn, what, i,
                           ranks[i], c->size - 1);
    return err;
}

/* n weights of a weighted graph: a real array when n > 0, none negative. */
static int check_weights(const char *fn, const int *w, int n, const char *what)
{
    if (n > 0 && (!w || w == MPI_WEIGHTS_EMPTY))
        return dmpi_err(MPI_ERR_ARG, "%s: %s is %s but there are %d edges", fn, what,
                        w ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    for (int i = 0; i < n; i++)
        if (w[i] < 0)
            return dmpi_err(MPI_ERR_ARG, "%s: %s[%d] is %d; weights must not be negative", fn, what, i, w[i]);
    return MPI_SUCCESS;
}

static int check_adjacent(const char *fn, const dmpi_comm_t *c, int indegree, const int *sources,
                          const int *sourceweights, int outdegree, const int *destinations, const int *destweights)
{
    int err;
    if ((err = dmpi_topo_check_nonneg(fn, indegree, "indegree")) ||
        (err = dmpi_topo_check_nonneg(fn, outdegree, "outdegree")) ||
        (err = check_ranks(fn, c, sources, indegree, "sources")) ||
        (err = check_ranks(fn, c, destinations, outdegree, "destinations")))
        return err;
    if ((sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED))
        return dmpi_err(MPI_ERR_ARG, "%s: only one of sourceweights and destweights is MPI_UNWEIGHTED; "
                        "a graph is weighted or not", fn);
    if (sourceweights == MPI_UNWEIGHTED)
        return MPI_SUCCESS;
    if ((err = check_weights(fn, sourceweights, indegree, "sourceweights")) ||
        (err = check_weights(fn, destweights, outdegree, "destweights")))
        return err;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Dist_graph_create_adjacent";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err = dmpi_topo_check_parent(fn, comm_old, comm_dist_graph, &c);
    (void)reorder;                  /* keeping the order is always allowed */
    if (err == MPI_SUCCESS && !(err = check_info(fn, info)) &&
        !(err = check_adjacent(fn, c, indegree, sources, sourceweights, outdegree, destinations, destweights)))
        err = dmpi_dist_graph_create_adjacent(c, indegree, sources, sourceweights, outdegree, destinations,
                                              destweights, sourceweights != MPI_UNWEIGHTED, &n);
    return dmpi_topo_made(fn, c, err, n, comm_dist_graph);
}

#define MAX_EDGES (0x7fffffff / 12)

/* n sources, each with degrees[i] destinations (ranks), weights unless MPI_UNWEIGHTED. */
static int check_general(const char *fn, const dmpi_comm_t *c, int n, const int *sources, const int *degrees,
                         const int *destinations, const int *weights)
{
    int err;
    if ((err = dmpi_topo_check_nonneg(fn, n, "n")) || (err = check_ranks(fn, c, sources, n, "sources")) ||
        (err = dmpi_topo_check_array(fn, degrees, n, "degrees")))
        return err;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return dmpi_err(MPI_ERR_ARG, "%s: degrees[%d] is %d; it must not be negative", fn, i, degrees[i]);
        /* an edge travels as 3 ints, and one message stays below 2 GiB */
        if ((total += degrees[i]) > MAX_EDGES)
            return dmpi_err(MPI_ERR_ARG, "%s: the degrees add up to more than %d edges, too many for one call", fn,
                            MAX_EDGES);
    }
    if ((err = check_ranks(fn, c, destinations, (int)total, "destinations")))
        return err;
    if (weights != MPI_UNWEIGHTED && (err = check_weights(fn, weights, (int)total, "weights")))
        return err;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Dist_graph_create";
    dmpi_comm_t *c = NULL, *nc = NULL;
    int err = dmpi_topo_check_parent(fn, comm_old, comm_dist_graph, &c);
    (void)reorder;                  /* keeping the order is always allowed */
    if (err == MPI_SUCCESS && !(err = check_info(fn, info)) &&
        !(err = check_general(fn, c, n, sources, degrees, destinations, weights)))
        err = dmpi_dist_graph_create(c, n, sources, degrees, destinations, weights, weights != MPI_UNWEIGHTED, &nc);
    return dmpi_topo_made(fn, c, err, nc, comm_dist_graph);
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Dist_graph_neighbors_count";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_DIST_GRAPH, &c, &t)) ||
        (err = dmpi_check_ptr(fn, indegree, "indegree")) || (err = dmpi_check_ptr(fn, outdegree, "outdegree")) ||
        (err = dmpi_check_ptr(fn, weighted, "weighted")))
        return dmpi_api_error(c, fn, err);
    *indegree = t->dist.indegree;
    *outdegree = t->dist.outdegree;
    *weighted = t->dist.weighted;
    return MPI_SUCCESS;
}

/* The first max entries of a list, the weights too if the graph is weighted
 * and the caller did not pass MPI_UNWEIGHTED for them. */
static int check_out(const char *fn, bool weighted, int max, int degree, const int *ranks, int **w,
                     const char *what, const char *wwhat)
{
    int err, n = max < degree ? max : degree;
    if ((err = dmpi_topo_check_array(fn, ranks, n, what)))
        return err;
    if (!weighted || *w == MPI_UNWEIGHTED) {
        *w = NULL;
        return MPI_SUCCESS;
    }
    if (n > 0 && (!*w || *w == MPI_WEIGHTS_EMPTY))
        return dmpi_err(MPI_ERR_ARG, "%s: %s is %s but the graph is weighted and %d weights are returned", fn, wwhat,
                        *w ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Dist_graph_neighbors";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_DIST_GRAPH, &c, &t)) ||
        (err = dmpi_topo_check_nonneg(fn, maxindegree, "maxindegree")) ||
        (err = dmpi_topo_check_nonneg(fn, maxoutdegree, "maxoutdegree")) ||
        (err = check_out(fn, t->dist.weighted, maxindegree, t->dist.indegree, sources, &sourceweights, "sources",
                         "sourceweights")) ||
        (err = check_out(fn, t->dist.weighted, maxoutdegree, t->dist.outdegree, destinations, &destweights,
                         "destinations", "destweights")))
        return dmpi_api_error(c, fn, err);
    dmpi_dist_graph_neighbors(t, maxindegree, sources, sourceweights, maxoutdegree, destinations, destweights);
    return MPI_SUCCESS;
}
