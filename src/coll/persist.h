/* Persistent collectives (MPI-4.0 section 6.13): the schedule of a
 * nonblocking collective, built once by the *_init call and run again at
 * every MPI_Start, each time with a fresh tag from the communicator's
 * nonblocking sequence (so persistent and nonblocking collectives, started
 * in the same order on every rank as MPI requires, never exchange each
 * other's messages). The request is a persistent DMPI_REQ_COLL request:
 * Wait, Test and Request_get_status treat it as any persistent request,
 * Request_free of an inactive one frees the schedule (of an active one, once
 * it completes), and MPI_Cancel refuses it.
 *
 * Turning any nonblocking collective that builds one schedule and hands it
 * to dmpi_sched_start (as dmpi_coll_finish does when given a request) into
 * a persistent request:
 *
 *   dmpi_request_t *r = NULL;
 *   dmpi_coll_persist_begin();
 *   int err = my_ineighbor_allgather(c, ..., &r);     builds; does not start
 *   err = dmpi_coll_persist_end(err, "MPI_Neighbor_allgather_init", &r);
 *   on success r is an inactive persistent request (r->handle for the program)
 *
 * Between begin and end, dmpi_sched_start keeps the first schedule it is
 * given instead of starting it (and sets its *out to NULL). Wrap only calls
 * that build exactly one schedule and do nothing else nonlocal; persistent
 * calls therefore use the schedule-building tables (dmpi_coll_persist_table),
 * never a component that runs collectives its own way (coll/node/).
 * A schedule built by hand can be given directly: dmpi_coll_persist_sched.
 *
 * The buffers, counts and types are bound when the schedule is built, as
 * the standard says for persistent operations: the program may change the
 * buffers' contents between starts, not the arrays of counts. */
#ifndef DMPI_COLL_PERSIST_H
#define DMPI_COLL_PERSIST_H

#include "coll/sched.h"
#include "coll/table.h"

/* Opens the capture of the next schedule started. */
void dmpi_coll_persist_begin(void);
/* Closes it. err: what the wrapped call returned. On success *out becomes a
 * new inactive persistent request of the captured schedule, named name in
 * error and hang messages; on failure *out is NULL and the schedule, if any,
 * is freed. */
int dmpi_coll_persist_end(int err, const char *name, dmpi_request_t **out);
/* The same for a schedule built by hand and not started. */
int dmpi_coll_persist_sched(dmpi_sched_t *s, const char *name, dmpi_request_t **out);
/* The table whose calls build one schedule each, for communicator c: the
 * point-to-point schedules, or the intercommunicator forms. */
const dmpi_coll_table_t *dmpi_coll_persist_table(const dmpi_comm_t *c);

#endif
