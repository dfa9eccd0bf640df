/* Checks shared by the topology entry points (api/cart.c, graph.c,
 * dist_graph.c, topo.c). */
#ifndef DMPI_API_TOPO_H
#define DMPI_API_TOPO_H

#include "api/api.h"
#include "core/topo.h"

/* MPI_ERR_TOPOLOGY unless comm is a valid communicator with a topology of
 * this kind (MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH). *c is set whenever
 * comm is valid, for the error handler. */
int dmpi_topo_check_kind(const char *fn, MPI_Comm comm, int kind, dmpi_comm_t **c, const dmpi_topo_t **t);
/* The creation calls: comm valid and an intracommunicator, out not NULL. */
int dmpi_topo_check_parent(const char *fn, MPI_Comm comm, MPI_Comm *out, dmpi_comm_t **c);
/* MPI_ERR_ARG if v is negative. */
int dmpi_topo_check_nonneg(const char *fn, int v, const char *what);
/* MPI_ERR_ARG if p is NULL although n > 0 entries are read or written. */
int dmpi_topo_check_array(const char *fn, const void *p, int n, const char *what);
/* The end of a creation call: the new handle, or the error through the parent's handler. */
int dmpi_topo_made(const char *fn, dmpi_comm_t *parent, int err, dmpi_comm_t *made, MPI_Comm *out);

#endif
