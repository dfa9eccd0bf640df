/* Process topologies (Cartesian, graph, distributed graph) attached to
 * communicators. Comm_dup copies them; freeing a communicator frees them.
 * The api layer checks every argument (ranges, sizes, pointers) before it
 * calls the functions below, which then cannot fail except for memory. */
#ifndef DMPI_TOPO_H
#define DMPI_TOPO_H

#include "core/dmpi.h"

/* One allocation: the header, then the arrays the pointers point into. */
typedef struct dmpi_topo {
    int kind;                    /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    union {
        struct { int ndims; int *dims, *periods; } cart;          /* periods: 0 or 1 */
        struct { int nnodes, nedges; int *index, *edges; } graph; /* MPI's cumulative index */
        struct {
            int indegree, outdegree;
            bool weighted;       /* false if created with MPI_UNWEIGHTED */
            int *sources, *sourceweights, *destinations, *destweights;
        } dist;
    };
    int data[];
} dmpi_topo_t;

/* t (kind and counts filled in) moved to the heap with room for its arrays. */
dmpi_topo_t *dmpi_topo_alloc(const dmpi_topo_t *t);
dmpi_topo_t *dmpi_topo_copy(const dmpi_topo_t *t);    /* NULL if out of memory */
void dmpi_topo_copy_ints(int *dst, const int *src, int n);
void dmpi_topo_free(dmpi_topo_t *t);                    /* t may be NULL */

/* The topology of c if it is of this kind, else NULL. */
static inline const dmpi_topo_t *dmpi_topo_of(const dmpi_comm_t *c, int kind)
{
    return c->topo && c->topo->kind == kind ? c->topo : NULL;
}

/* MPI_Dims_create: fills the zero entries of dims[ndims]. */
int dmpi_dims_create(int nnodes, int ndims, int *dims);

/* Creation (comm/topo_create.c), collective over c. *out is NULL for
 * processes left out. */
int dmpi_cart_create(dmpi_comm_t *c, int ndims, const int *dims, const int *periods, dmpi_comm_t **out);
int dmpi_cart_sub(dmpi_comm_t *c, const int *remain_dims, dmpi_comm_t **out);
int dmpi_graph_create(dmpi_comm_t *c, int nnodes, const int *index, const int *edges, dmpi_comm_t **out);
int dmpi_dist_graph_create_adjacent(dmpi_comm_t *c, int indegree, const int *sources, const int *sourceweights,
                                    int outdegree, const int *destinations, const int *destweights,
                                    bool weighted, dmpi_comm_t **out);
int dmpi_dist_graph_create(dmpi_comm_t *c, int n, const int *sources, const int *degrees,
                           const int *destinations, const int *weights, bool weighted, dmpi_comm_t **out);

/* Queries. Arrays are the user's; at most max entries are written (MPI
 * returns the first part of a longer list). Cart_rank takes coordinates
 * already checked against the non-periodic extents. */
void dmpi_cart_get(const dmpi_topo_t *t, int rank, int maxdims, int *dims, int *periods, int *coords);
int dmpi_cart_rank(const dmpi_topo_t *t, const int *coords);
void dmpi_cart_shift(const dmpi_topo_t *t, int rank, int direction, int disp, int *source, int *dest);
void dmpi_graph_get(const dmpi_topo_t *t, int maxindex, int maxedges, int *index, int *edges);
int dmpi_graph_degree(const dmpi_topo_t *t, int rank);
void dmpi_graph_neighbors(const dmpi_topo_t *t, int rank, int maxneighbors, int *neighbors);
/* Weights only where the array is not NULL (the api passes NULL for MPI_UNWEIGHTED). */
void dmpi_dist_graph_neighbors(const dmpi_topo_t *t, int maxindegree, int *sources, int *sourceweights,
                               int maxoutdegree, int *destinations, int *destweights);

/* Mapping without reordering: the process's own rank if it is in the
 * topology of `nodes` processes, else MPI_UNDEFINED. */
int dmpi_topo_map(const dmpi_comm_t *c, long long nodes);

/* Neighbourhood collectives (core/topo_nbrs.c): a process's neighbours in
 * the standard's order. Cartesian: per dimension the -1 then the +1
 * neighbour, MPI_PROC_NULL past a non-periodic edge, the same list in and
 * out; graph: MPI_Graph_neighbors's list, in and out; distributed graph:
 * the sources in, the destinations out, in the order given (an edge given
 * twice is there twice). */
void dmpi_topo_degrees(const dmpi_topo_t *t, int rank, int *indegree, int *outdegree);
/* in[indegree] and out[outdegree] are the caller's. */
void dmpi_topo_nbrs(const dmpi_topo_t *t, int rank, int *in, int *out);

#endif
