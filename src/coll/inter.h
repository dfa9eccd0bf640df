/* Collectives on intercommunicators (MPI-4.1 chapter 6, the two-group
 * forms): data flows only between the two groups. Each algorithm is a
 * schedule of point-to-point steps on the intercommunicator (peers are
 * ranks of the remote group) and, through dmpi_sched_local, steps of the
 * local group's algorithms (select.c's choices for its size) on its private
 * intracommunicator c->local_comm, plus local reductions; so one
 * description serves the blocking and the nonblocking form. The local
 * group's leader is its rank 0.
 *
 * Rooted calls: root is MPI_ROOT at the root, MPI_PROC_NULL at the other
 * ranks of its group (they do nothing) and the root's rank in the remote
 * group at the ranks of the other group. Blocks of the move calls are
 * indexed by remote rank. The algorithms sit in coll/, not algo/: they
 * run select.c's choices on the local group, and unit.coll_algos links
 * algo/ alone. */
#ifndef DMPI_COLL_INTER_H
#define DMPI_COLL_INTER_H

#include "coll/coll.h"

struct dmpi_op;

/* coll/inter_rooted.c */
int dmpi_inter_barrier(dmpi_sched_t *s, dmpi_comm_t *c);
int dmpi_inter_bcast(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root);
int dmpi_inter_reduce(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      dmpi_dtype_t *dt, struct dmpi_op *op, int root);
int dmpi_inter_gather(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);    /* and gatherv */
int dmpi_inter_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);   /* and scatterv */

/* coll/inter_all.c */
int dmpi_inter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m); /* and allgatherv */
int dmpi_inter_alltoall(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);  /* and v, w */
int dmpi_inter_allreduce(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         dmpi_dtype_t *dt, struct dmpi_op *op);
/* counts: the local group's recvcounts (one per local rank). */
int dmpi_inter_reduce_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                              dmpi_dtype_t *dt, struct dmpi_op *op);

#endif
