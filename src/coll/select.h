/* Shared by the entry points of select.c: the decision tables with their
 * forced algorithms (coll/decide.h) and the hand-over of a built schedule. */
#ifndef DMPI_COLL_SELECT_H
#define DMPI_COLL_SELECT_H

#include "coll/decide.h"
#include "coll/sched.h"

/* Blocking (req NULL): run s and wait; nonblocking: start it as *req. If
 * err is set, s is freed and err returned. */
int dmpi_coll_finish(dmpi_sched_t *s, int err, dmpi_request_t **req);

/* The flat algorithm the tables pick for c's size, added to s (coll/hier.c
 * runs them on a level's view). */
struct dmpi_op;
int dmpi_coll_bcast_build(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root);
int dmpi_coll_reduce_build(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                           dmpi_dtype_t *dt, struct dmpi_op *op, int root);
int dmpi_coll_allreduce_build(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                              dmpi_dtype_t *dt, struct dmpi_op *op);

/* At MPI_Init: every DMPI_COLL_<NAME> names a known algorithm of its
 * decision table (0), or an error was printed (-1); takes in the other
 * collective parameters (DMPI_COLL_MESSAGE_MAX). */
int dmpi_coll_check_params(void);

#endif
