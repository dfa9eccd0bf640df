/* Graph topologies: Graph_create/map and the queries. */
#include "api/topo.h"

DMPI_ALIAS(Graph_create)
DMPI_ALIAS(Graph_map)
DMPI_ALIAS(Graphdims_get)
DMPI_ALIAS(Graph_get)
DMPI_ALIAS(Graph_neighbors_count)
DMPI_ALIAS(Graph_neighbors)

/* nnodes (at most the communicator's size), index cumulative and never
 * decreasing, every edge a node. Self-loops and repeated edges are allowed. */
static int check_graph(const char *fn, const dmpi_comm_t *c, int nnodes, const int *index, const int *edges)
{
    int err;
    if (nnodes < 0 || nnodes > c->size)
        return dmpi_err(MPI_ERR_ARG, "%s: nnodes is %d; the communicator has %d processes", fn, nnodes, c->size);
    if ((err = dmpi_topo_check_array(fn, index, nnodes, "index")))
        return err;
    if (nnodes > 0 && index[0] < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: index[0] is %d; it must not be negative", fn, index[0]);
    for (int i = 1; i < nnodes; i++)
        if (index[i] < index[i - 1])
            return dmpi_err(MPI_ERR_ARG, "%s: index[%d] is %d, less than index[%d] = %d (index counts edges "
                            "cumulatively)", fn, i, index[i], i - 1, index[i - 1]);
    int nedges = nnodes ? index[nnodes - 1] : 0;
    if ((err = dmpi_topo_check_array(fn, edges, nedges, "edges")))
        return err;
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return dmpi_err(MPI_ERR_ARG, "%s: edges[%d] is %d, not a node of the graph (0..%d)", fn, e, edges[e],
                            nnodes - 1);
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graph_create";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err = dmpi_topo_check_parent(fn, comm_old, comm_graph, &c);
    (void)reorder;                  /* keeping the order is always allowed */
    if (err == MPI_SUCCESS && !(err = check_graph(fn, c, nnodes, indx, edges)))
        err = dmpi_graph_create(c, nnodes, indx, edges, &n);
    return dmpi_topo_made(fn, c, err, n, comm_graph);
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[], const int edges[], int *newrank)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graph_map";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_intra(fn, c)) ||
        (err = check_graph(fn, c, nnodes, indx, edges)) || (err = dmpi_check_ptr(fn, newrank, "newrank")))
        return dmpi_api_error(c, fn, err);
    *newrank = dmpi_topo_map(c, nnodes);
    return MPI_SUCCESS;
}

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graphdims_get";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_GRAPH, &c, &t)) || (err = dmpi_check_ptr(fn, nnodes, "nnodes")) ||
        (err = dmpi_check_ptr(fn, nedges, "nedges")))
        return dmpi_api_error(c, fn, err);
    *nnodes = t->graph.nnodes;
    *nedges = t->graph.nedges;
    return MPI_SUCCESS;
}

/* Short arrays get the first maxindex / maxedges entries. */
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int indx[], int edges[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graph_get";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_GRAPH, &c, &t)) ||
        (err = dmpi_topo_check_nonneg(fn, maxindex, "maxindex")) ||
        (err = dmpi_topo_check_nonneg(fn, maxedges, "maxedges")) ||
        (err = dmpi_topo_check_array(fn, indx, maxindex < t->graph.nnodes ? maxindex : t->graph.nnodes, "index")) ||
        (err = dmpi_topo_check_array(fn, edges, maxedges < t->graph.nedges ? maxedges : t->graph.nedges, "edges")))
        return dmpi_api_error(c, fn, err);
    dmpi_graph_get(t, maxindex, maxedges, indx, edges);
    return MPI_SUCCESS;
}

static int check_node(const char *fn, const dmpi_topo_t *t, int rank)
{
    if (rank >= 0 && rank < t->graph.nnodes)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_RANK, "%s: rank %d is not a node of the graph (0..%d)", fn, rank, t->graph.nnodes - 1);
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graph_neighbors_count";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_GRAPH, &c, &t)) || (err = check_node(fn, t, rank)) ||
        (err = dmpi_check_ptr(fn, nneighbors, "nneighbors")))
        return dmpi_api_error(c, fn, err);
    *nneighbors = dmpi_graph_degree(t, rank);
    return MPI_SUCCESS;
}

/* A short array gets the first maxneighbors neighbours. */
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Graph_neighbors";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_GRAPH, &c, &t)) || (err = check_node(fn, t, rank)) ||
        (err = dmpi_topo_check_nonneg(fn, maxneighbors, "maxneighbors")))
        return dmpi_api_error(c, fn, err);
    int degree = dmpi_graph_degree(t, rank);
    if ((err = dmpi_topo_check_array(fn, neighbors, maxneighbors < degree ? maxneighbors : degree, "neighbors")))
        return dmpi_api_error(c, fn, err);
    dmpi_graph_neighbors(t, rank, maxneighbors, neighbors);
    return MPI_SUCCESS;
}
