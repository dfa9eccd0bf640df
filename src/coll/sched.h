/* Schedules: how every collective runs. An algorithm describes its work as
 * rounds; each round starts its sends and receives together, and once all
 * of them are complete runs its local steps (reductions, copies) in order,
 * then the next round starts. A schedule becomes a request that the
 * progress engine advances, so a nonblocking collective overlaps with
 * computation and with other collectives; a blocking collective is the same
 * schedule, waited for at once.
 *
 *   dmpi_sched_t *s;
 *   dmpi_sched_new(comm, &s);
 *   dmpi_sched_recv(s, tmp, n, dt, left);      round 0: receive ...
 *   dmpi_sched_send(s, buf, n, dt, right);     ... and send at once
 *   dmpi_sched_reduce(s, tmp, buf, n, dt, op); then reduce what arrived
 *   dmpi_sched_round(s);                       round 1 begins
 *   ...
 *   return dmpi_sched_start(s, &req);          (or dmpi_sched_run(s))
 *
 * Buffers are the caller's or come from dmpi_sched_tmp (freed with the
 * schedule). Each schedule has its own tag on the communicator's
 * collective context, taken from a per-communicator sequence that every
 * rank advances in the same order (collectives are called in the same
 * order everywhere), so concurrent collectives never exchange messages. */
#ifndef DMPI_SCHED_H
#define DMPI_SCHED_H

#include "core/dmpi.h"
#include "p2p/request.h"

struct dmpi_op;
typedef struct dmpi_sched dmpi_sched_t;

int dmpi_sched_new(dmpi_comm_t *c, dmpi_sched_t **out);
/* The MPI call the schedule carries out, for error and hang messages. */
void dmpi_sched_set_name(dmpi_sched_t *s, const char *name);
/* Frees a schedule that was never started (error paths of algorithms). */
void dmpi_sched_free(dmpi_sched_t *s);

/* Communication of this round. peer is a rank of the communicator. */
int dmpi_sched_send(dmpi_sched_t *s, const void *buf, size_t count, dmpi_dtype_t *dt, int peer);
int dmpi_sched_recv(dmpi_sched_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int peer);
/* Until called again with NULL, the peers of sends and receives added are
 * indices into map, which holds the communicator's ranks: an algorithm
 * runs on a subset of the ranks (those of one node, the nodes' leaders)
 * given a view whose rank and size are the subset's (coll/hier.c). */
void dmpi_sched_map(dmpi_sched_t *s, const int *map);
/* On an intercommunicator, until called again with false, sends and
 * receives added address ranks of the local group (its private
 * intracommunicator, c->local_comm), so an algorithm of that group runs
 * inside the intercommunicator's schedule. Their tag lies DMPI_TAG_INTER_SHIFT
 * (coll.h) below the schedule's: they never meet the local group's own
 * collectives (the construction of communicators from this one). */
void dmpi_sched_local(dmpi_sched_t *s, bool on);
/* Local steps, run in order after this round's communication. */
/* inout = in (op) inout, elementwise; for noncommutative ops `in` holds the
 * lower ranks' contribution. */
int dmpi_sched_reduce(dmpi_sched_t *s, const void *in, void *inout, size_t count, dmpi_dtype_t *dt,
                      struct dmpi_op *op);
/* Copies scount elements of sdt at src to dst as dcount elements of ddt
 * (same type signature; dst gets min of the two byte counts). */
int dmpi_sched_copy(dmpi_sched_t *s, const void *src, size_t scount, dmpi_dtype_t *sdt, void *dst,
                    size_t dcount, dmpi_dtype_t *ddt);
/* Ends the current round; steps added next belong to a new one. */
int dmpi_sched_round(dmpi_sched_t *s);
/* Scratch memory that lives as long as the schedule (NULL: out of memory). */
void *dmpi_sched_tmp(dmpi_sched_t *s, size_t bytes);

/* Starts the schedule as a request (nonblocking collectives). */
int dmpi_sched_start(dmpi_sched_t *s, dmpi_request_t **out);
/* Starts it and waits for it (blocking collectives). */
int dmpi_sched_run(dmpi_sched_t *s);

/* Persistent collectives (coll/persist.h is the interface to use). Between
 * dmpi_sched_capture and dmpi_sched_captured, the first schedule handed to
 * dmpi_sched_start is not started but returned by dmpi_sched_captured
 * (*out of that dmpi_sched_start is NULL). A kept schedule survives its
 * completion (an error if its last round cannot be ended); dmpi_sched_restart runs it again from its first round, with a
 * fresh tag from the nonblocking sequence, completing r; dmpi_sched_free
 * frees it when it is not running. */
void dmpi_sched_capture(void);
dmpi_sched_t *dmpi_sched_captured(void);
int dmpi_sched_keep(dmpi_sched_t *s);     /* ends its last round too */
void dmpi_sched_restart(dmpi_sched_t *s, dmpi_request_t *r);

/* Bytes one message of a schedule carries at most (DMPI_COLL_MESSAGE_MAX,
 * set at start-up; INT_MAX by default); larger ones travel in pieces. */
extern size_t dmpi_sched_message_max;

/* Progress engine hook: advances every started schedule. Nonzero if
 * anything happened. */
int dmpi_sched_progress(void);
extern int dmpi_sched_active;   /* started and not complete */

#endif
