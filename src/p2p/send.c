/* Sends. MPI_Send of a small contiguous message is the direct mode: the
 * peer's transport sends it inline, with no request at all. Everything else
 * becomes a request handed to the peer's transport, eager or rendezvous by
 * the transport's limit for that peer. Every message takes the next
 * sequence number from its communicator to its destination. */
#include "p2p/p2p.h"
#include "tport/tport.h"
#include <stdlib.h>

/* Where the bytes come from: the user's buffer; for noncontiguous types
 * the type's layout, read by the pack engine as the transport moves the
 * data (dmpi_req_take); or a packed copy (force_copy, and messages to
 * oneself, which are delivered from one buffer). */
static int prepare_send_data(dmpi_request_t *s, bool force_copy)
{
    dmpi_dtype_t *dt = s->dt;
    s->bytes = (size_t)s->ucount * dt->size;
    s->nc = 0;
    if (dt->contig && !force_copy) {
        s->buf = (char *)s->ubuf + dt->true_lb;
        return MPI_SUCCESS;
    }
    if (!force_copy && s->peer != dmpi_world.rank) {
        s->nc = 1;
        s->buf = NULL;
        return MPI_SUCCESS;
    }
    s->tmp = malloc(s->bytes ? s->bytes : 1);
    if (!s->tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to pack a message", s->bytes);
    dmpi_dtype_pack(dt, (size_t)s->ucount, s->ubuf, s->tmp);
    s->buf = s->tmp;
    return MPI_SUCCESS;
}

void dmpi_send_fill(dmpi_request_t *s, const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag,
                      dmpi_comm_t *c, int mode)
{
    s->ubuf = buf;
    s->ucount = count;
    s->dt = dt;
    s->rank = dest;
    s->tag = tag;
    s->comm = c;
    s->ctx = c->ctx;
    s->mode = (uint8_t)mode;
    dmpi_req_hold_type(s);
    dmpi_req_hold_comm(s);
}

/* To the peer's transport, eager or rendezvous by its limit. */
static void hand_over(dmpi_request_t *s)
{
    const dmpi_tport_peer_t *p = &dmpi_tport_peers[s->peer];
    dmpi_comm_t *c = s->comm;
    /* the next sequence number to that rank (see dmpi_comm_t.seq_out) */
    uint32_t seq = DMPI_LIKELY(c->seq_out != NULL) ? c->seq_out[s->rank]++ : DMPI_SEQ_NONE;
    s->hdr = (dmpi_hdr_t){s->ctx, c->rank, s->tag, seq};
    if ((long long)s->bytes <= p->eager_max)
        p->t->send_eager(s);
    else
        p->t->send_rndv(s);
}

/* Starts a filled-in send request (fresh or persistent). */
static int start_send(dmpi_request_t *s, bool force_copy)
{
    s->done = 0;
    s->st_error = MPI_SUCCESS;
    if (s->rank == MPI_PROC_NULL) {
        dmpi_req_complete(s);
        return MPI_SUCCESS;
    }
    s->peer = dmpi_comm_peer_world(s->comm, s->rank);
    int err = prepare_send_data(s, force_copy);
    if (err != MPI_SUCCESS)
        return err;
    hand_over(s);
    return MPI_SUCCESS;
}

/* Starts a send of bytes already packed at s->ubuf (buffered sends). */
int dmpi_start_send_bytes(dmpi_request_t *s, size_t bytes)
{
    s->done = 0;
    s->st_error = MPI_SUCCESS;
    s->buf = (char *)s->ubuf;
    s->bytes = bytes;
    s->peer = dmpi_comm_peer_world(s->comm, s->rank);
    hand_over(s);
    return MPI_SUCCESS;
}

int dmpi_isend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
               dmpi_request_t **out)
{
    dmpi_request_t *s = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!s)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    dmpi_send_fill(s, buf, count, dt, dest, tag, c, mode);
    int err = start_send(s, false);
    if (err != MPI_SUCCESS) {
        dmpi_req_free(s);
        return err;
    }
    *out = s;
    return MPI_SUCCESS;
}

/* Everything the direct mode does not take: a request, waited for. */
int dmpi_send_slow(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode)
{
    dmpi_request_t *s;
    int err = dmpi_isend(buf, count, dt, dest, tag, c, mode, &s);
    if (err != MPI_SUCCESS)
        return err;
    return dmpi_wait(s, NULL, MPI_STATUS_IGNORE);
}

bool dmpi_send_try_direct(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c)
{
    return dest != MPI_PROC_NULL && dt->contig && dmpi_send_direct(buf, count, dt, dest, tag, c);
}

int dmpi_send_init(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
                   dmpi_request_t **out)
{
    dmpi_request_t *s = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!s)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    dmpi_send_fill(s, buf, count, dt, dest, tag, c, mode);
    s->persistent = 1;
    s->done = 1;
    *out = s;
    return MPI_SUCCESS;
}

int dmpi_start_send(dmpi_request_t *s) { return start_send(s, false); }

int dmpi_isend_copy(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
                    dmpi_request_t **out)
{
    dmpi_request_t *s = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!s)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    dmpi_send_fill(s, buf, count, dt, dest, tag, c, DMPI_MODE_STANDARD);
    int err = start_send(s, true);
    if (err != MPI_SUCCESS) {
        dmpi_req_free(s);
        return err;
    }
    *out = s;
    return MPI_SUCCESS;
}
