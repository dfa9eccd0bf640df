/* Neighbourhood collectives (MPI-4.0 sections 8.6-8.8): MPI_Neighbor_allgather(v)
 * and MPI_Neighbor_alltoall(v/w), blocking, nonblocking and, through the
 * same schedules, persistent; int and large-count (_c) forms alike. Each
 * rank exchanges one block with each of its neighbours, in the order of
 * core/topo.h's dmpi_topo_nbrs: block j of the send side goes to out[j],
 * block j of the receive side comes from in[j]. */
#ifndef DMPI_COLL_NEIGHBOR_H
#define DMPI_COLL_NEIGHBOR_H

#include "coll/sched.h"

/* Counts or displacements as the call gave them: int (the classic forms)
 * or MPI_Count / MPI_Aint (the _c forms, and the displacements of the w
 * form), read where they are. Exactly one pointer is set. */
typedef struct dmpi_nbr_ints {
    const int *i;
    const MPI_Count *l;
} dmpi_nbr_ints_t;

static inline MPI_Count dmpi_nbr_at(dmpi_nbr_ints_t a, int j) { return a.l ? a.l[j] : a.i[j]; }

/* One side (send or receive) at this rank; its block for neighbour j is
 *   same:    count elements of dt at buf (allgather's send: one block for all)
 *   uniform: count elements of dt at buf + j * count * extent (allgather's
 *            receive, alltoall)
 *   v:       counts[j] elements of dt at buf + displs[j] * extent
 *   w:       counts[j] elements of types[j] at buf + displs[j] bytes
 * buf may be MPI_BOTTOM. */
typedef struct dmpi_nbr_side {
    const void *buf;
    size_t count;
    dmpi_dtype_t *dt;
    bool same;
    bool v;                      /* counts and displs are set */
    dmpi_nbr_ints_t counts, displs;
    const MPI_Datatype *types;   /* the w form: committed types, one per neighbour */
} dmpi_nbr_side_t;

/* Block j of a side: its address, count and type. */
void dmpi_nbr_block(const dmpi_nbr_side_t *side, int j, void **buf, size_t *count, dmpi_dtype_t **dt);

/* The collective on c, which has a topology (the api checked every
 * argument): run at once (req NULL) or started as *req. name is the MPI
 * call, for error and hang messages. */
int dmpi_coll_neighbor(dmpi_comm_t *c, const char *name, const dmpi_nbr_side_t *send,
                       const dmpi_nbr_side_t *recv, dmpi_request_t **req);
/* The same made an inactive persistent request *req (MPI_Neighbor_*_init):
 * the schedule is built now, with the buffers, counts and types of the
 * call, and run at every MPI_Start. */
int dmpi_coll_neighbor_init(dmpi_comm_t *c, const char *name, const dmpi_nbr_side_t *send,
                            const dmpi_nbr_side_t *recv, dmpi_request_t **req);
/* The schedule alone, built into s without starting it. */
int dmpi_coll_neighbor_sched(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_nbr_side_t *send,
                             const dmpi_nbr_side_t *recv);

/* Algorithm (coll/neighbor_linear.c; not in algo/, whose unit test simulates no
 * messages to oneself): every exchange in one round. */
int dmpi_neighbor_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_nbr_side_t *send,
                         const dmpi_nbr_side_t *recv);

#endif
