/* Point-to-point operations, called by the api/ layer after it has checked
 * the arguments. Ranks are communicator ranks; buffers are the user's. */
#ifndef DMPI_P2P_H
#define DMPI_P2P_H

#include "p2p/request.h"
#include "p2p/match.h"

/* Blocking send and receive: the direct mode (no pooled request). */
int dmpi_send(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode);
int dmpi_recv(void *buf, int count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, MPI_Status *st);

/* A standard-mode send that is complete at once (the direct mode), or false
 * if the message cannot go that way: the caller sends it otherwise. */
bool dmpi_send_try_direct(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c);

/* Nonblocking: *out is a pooled request (NULL and an error code on failure). */
int dmpi_isend(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
               dmpi_request_t **out);
int dmpi_irecv(void *buf, int count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, dmpi_request_t **out);

/* Persistent requests: create inactive, then start (again and again). */
int dmpi_send_init(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
                   dmpi_request_t **out);
int dmpi_recv_init(void *buf, int count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c,
                   dmpi_request_t **out);
int dmpi_start(dmpi_request_t *r);

/* Pieces of the above, shared inside p2p/. */
void dmpi_send_fill(dmpi_request_t *s, const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag,
                    dmpi_comm_t *c, int mode);
int dmpi_start_send(dmpi_request_t *s);
int dmpi_start_recv(dmpi_request_t *r);
/* Starts a send of bytes already packed at s->ubuf (buffered sends). */
int dmpi_start_send_bytes(dmpi_request_t *s, size_t bytes);
/* A send from a private copy of the data (MPI_Isendrecv_replace). */
int dmpi_isend_copy(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
                    dmpi_request_t **out);

/* Sendrecv family: composite request of a send and a receive. */
int dmpi_isendrecv(const void *sbuf, int scount, dmpi_dtype_t *sdt, int dest, int stag,
                   void *rbuf, int rcount, dmpi_dtype_t *rdt, int src, int rtag, dmpi_comm_t *c,
                   bool replace, dmpi_request_t **out);

/* Probing and matched receives. msg_out NULL: plain probe. */
int dmpi_iprobe(int src, int tag, dmpi_comm_t *c, int *flag, MPI_Status *st, dmpi_request_t **msg_out);
int dmpi_probe(int src, int tag, dmpi_comm_t *c, MPI_Status *st, dmpi_request_t **msg_out);
int dmpi_imrecv(void *buf, int count, dmpi_dtype_t *dt, dmpi_request_t *msg, dmpi_request_t **out);

int dmpi_cancel(dmpi_request_t *r);

/* Completion: true once r (and, for composites, its parts) is complete. */
bool dmpi_req_is_done(dmpi_request_t *r);
/* Waits for r; then fills st, returns its error, and releases it (a
 * persistent one goes inactive) setting *handle to MPI_REQUEST_NULL. */
int dmpi_wait(dmpi_request_t *r, MPI_Request *handle, MPI_Status *st);
int dmpi_finish(dmpi_request_t *r, MPI_Request *handle, MPI_Status *st);
/* MPI_Request_free: released now, or as soon as it completes. */
int dmpi_req_release(dmpi_request_t *r);

/* Generalized requests (p2p/grequest.c). The callbacks may be NULL (nothing
 * to do). Each returns MPI_SUCCESS or the error a callback returned. */
int dmpi_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state, dmpi_request_t **out);
int dmpi_greq_complete(dmpi_request_t *r);           /* MPI_Grequest_complete */
int dmpi_greq_query(dmpi_request_t *r, MPI_Status *st);    /* a complete one's status (Request_get_status) */
int dmpi_greq_finish(dmpi_request_t *r, MPI_Status *st);   /* query_fn, free_fn, then r is gone */
int dmpi_greq_release(dmpi_request_t *r);            /* MPI_Request_free */
int dmpi_greq_cancel(dmpi_request_t *r);             /* MPI_Cancel */

/* Progress: one pass, or until r is complete, or until cond holds. */
int dmpi_progress(void);
/* A layer above (collective schedules) that progress also advances; fn
 * returns nonzero if it did something. */
void dmpi_progress_set_hook(int (*fn)(void));
void dmpi_progress_wait(dmpi_request_t *r);
void dmpi_progress_until(bool (*cond)(void *), void *arg);

#endif
