/* Point-to-point operations, called by the api/ layer after it has checked
 * the arguments. Ranks are communicator ranks; buffers are the user's. */
#ifndef DMPI_P2P_H
#define DMPI_P2P_H

#include "p2p/request.h"
#include "p2p/match.h"
#include "tport/tport.h"

/* Blocking send (inline below: the direct mode) and receive (no pooled request). */
int dmpi_recv(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, MPI_Status *st);

/* A standard-mode send that is complete at once (the direct mode), or false
 * if the message cannot go that way: the caller sends it otherwise. */
bool dmpi_send_try_direct(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c);

/* Nonblocking: *out is a pooled request (NULL and an error code on failure). */
int dmpi_isend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
               dmpi_request_t **out);
int dmpi_irecv(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, dmpi_request_t **out);

/* Persistent requests: create inactive, then start (again and again). */
int dmpi_send_init(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
                   dmpi_request_t **out);
int dmpi_recv_init(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c,
                   dmpi_request_t **out);
int dmpi_start(dmpi_request_t *r);

/* Pieces of the above, shared inside p2p/. */
void dmpi_send_fill(dmpi_request_t *s, const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag,
                    dmpi_comm_t *c, int mode);
int dmpi_start_send(dmpi_request_t *s);
int dmpi_start_recv(dmpi_request_t *r);
/* Starts a send of bytes already packed at s->ubuf (buffered sends). */
int dmpi_start_send_bytes(dmpi_request_t *s, size_t bytes);
/* A send from a private copy of the data (MPI_Isendrecv_replace). */
int dmpi_isend_copy(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
                    dmpi_request_t **out);

/* Sendrecv family: composite request of a send and a receive. */
int dmpi_isendrecv(const void *sbuf, MPI_Count scount, dmpi_dtype_t *sdt, int dest, int stag,
                   void *rbuf, MPI_Count rcount, dmpi_dtype_t *rdt, int src, int rtag, dmpi_comm_t *c,
                   bool replace, dmpi_request_t **out);

/* Probing and matched receives. msg_out NULL: plain probe. */
int dmpi_iprobe(int src, int tag, dmpi_comm_t *c, int *flag, MPI_Status *st, dmpi_request_t **msg_out);
int dmpi_probe(int src, int tag, dmpi_comm_t *c, MPI_Status *st, dmpi_request_t **msg_out);
int dmpi_imrecv(void *buf, MPI_Count count, dmpi_dtype_t *dt, dmpi_request_t *msg, dmpi_request_t **out);

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
/* Start-up: the transports, whose progress functions become hooks. */
int dmpi_p2p_init(void);
void dmpi_p2p_finalize(void);

/* Progress hooks: each transport's progress, and layers above with work of
 * their own (collective schedules). fn returns nonzero if it did something. */
typedef int dmpi_progress_fn(void);
void dmpi_progress_add_hook(dmpi_progress_fn *fn);
void dmpi_progress_remove_hook(dmpi_progress_fn *fn);
void dmpi_progress_wait(dmpi_request_t *r);
void dmpi_progress_until(bool (*cond)(void *), void *arg);
/* The same, and a hang report says what describe(arg) writes. */
void dmpi_progress_until_described(bool (*cond)(void *), void *arg, void (*describe)(void *arg, char *buf, size_t len));

/* ---- the direct mode, inline in the api layer's MPI_Send ------------------ */

/* A small contiguous message sent inline by the peer's transport with no
 * request, complete at once; false if it cannot go that way (too large, an
 * unsequenced communicator, or the transport cannot take it now). */
static inline bool dmpi_send_direct(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag,
                                    dmpi_comm_t *c)
{
    int peer = dmpi_comm_peer_world(c, dest);
    const dmpi_tport_peer_t *p = &dmpi_tport_peers[peer];
    size_t bytes = (size_t)count * dt->size;
    uint32_t *seq = c->seq_out;
    if ((long long)bytes > p->inline_max || !seq)
        return false;
    dmpi_hdr_t h = {c->ctx, c->rank, tag, seq[dest]};
    if (!p->t->send_inline(p->index, &h, (const char *)buf + dt->true_lb, bytes))
        return false;
    seq[dest]++;
    return true;
}

/* Everything else: a request, waited for. */
int dmpi_send_slow(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode);

static inline int dmpi_send(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
                            int mode)
{
    if (DMPI_LIKELY(dest != MPI_PROC_NULL && dt->contig && mode != DMPI_MODE_SYNC) &&
        dmpi_send_direct(buf, count, dt, dest, tag, c))
        return MPI_SUCCESS;
    return dmpi_send_slow(buf, count, dt, dest, tag, c, mode);
}

#endif
