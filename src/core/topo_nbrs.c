/* A process's neighbours for the neighbourhood collectives (core/topo.h). */
#include "core/topo.h"

void dmpi_topo_degrees(const dmpi_topo_t *t, int rank, int *indegree, int *outdegree)
{
    switch (t->kind) {
    case MPI_CART: *indegree = *outdegree = 2 * t->cart.ndims; break;
    case MPI_GRAPH: *indegree = *outdegree = dmpi_graph_degree(t, rank); break;
    default:
        *indegree = t->dist.indegree;
        *outdegree = t->dist.outdegree;
    }
}

void dmpi_topo_nbrs(const dmpi_topo_t *t, int rank, int *in, int *out)
{
    switch (t->kind) {
    case MPI_CART:
        for (int d = 0; d < t->cart.ndims; d++) {
            dmpi_cart_shift(t, rank, d, 1, &in[2 * d], &in[2 * d + 1]);
            out[2 * d] = in[2 * d];
            out[2 * d + 1] = in[2 * d + 1];
        }
        break;
    case MPI_GRAPH: {
        int n = dmpi_graph_degree(t, rank);
        dmpi_graph_neighbors(t, rank, n, in);
        dmpi_graph_neighbors(t, rank, n, out);
        break;
    }
    default:
        dmpi_topo_copy_ints(in, t->dist.sources, t->dist.indegree);
        dmpi_topo_copy_ints(out, t->dist.destinations, t->dist.outdegree);
    }
}
