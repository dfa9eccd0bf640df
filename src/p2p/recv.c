/* Receives, probes and matched receives. A blocking MPI_Recv keeps its
 * request on the stack: it is matched and completed before the call returns. */
#include "p2p/p2p.h"
#include "p2p/deliver.h"
#include <stdlib.h>
#include <string.h>

/* Where the bytes go: the user's buffer, or for noncontiguous types
 * straight into the type's layout by the pack engine (dmpi_req_put). */
static int prepare_recv_data(dmpi_request_t *r)
{
    dmpi_dtype_t *dt = r->dt;
    r->bytes = (size_t)r->ucount * dt->size;
    r->nc = !dt->contig;
    r->buf = r->nc ? NULL : (char *)r->ubuf + dt->true_lb;
    return MPI_SUCCESS;
}

static void fill_recv(dmpi_request_t *r, void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c)
{
    r->ubuf = buf;
    r->ucount = count;
    r->dt = dt;
    r->rank = src;
    r->tag = tag;
    r->comm = c;
    r->ctx = c->ctx;
}

/* Matches r against what already arrived, or posts it. */
static int start_recv(dmpi_request_t *r)
{
    r->done = 0;
    r->cancelled = 0;
    r->offset = 0;
    if (r->rank == MPI_PROC_NULL) {
        dmpi_req_set_proc_null_status(r);
        dmpi_req_complete(r);
        return MPI_SUCCESS;
    }
    int err = prepare_recv_data(r);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_matchq_t *q = dmpi_mq(r->ctx);
    dmpi_msg_t *m = q->unexp_head ? dmpi_mq_find_unexp(q, r->rank, r->tag, true) : NULL;
    if (m)
        dmpi_recv_from_msg(r, m);
    else
        dmpi_mq_post(q, r);
    return MPI_SUCCESS;
}

int dmpi_recv(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, MPI_Status *st)
{
    dmpi_request_t r;
    r.kind = DMPI_REQ_RECV;
    r.persistent = 0;
    r.free_on_done = 0;
    r.tmp = NULL;
    r.dt_held = 0;
    r.bsend_region = NULL;
    fill_recv(&r, buf, count, dt, src, tag, c);
    int err = start_recv(&r);
    if (err != MPI_SUCCESS)
        return err;
    if (!r.done)
        dmpi_progress_wait(&r);
    dmpi_req_fill_status(&r, st);
    return r.st_error;
}

int dmpi_irecv(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, dmpi_request_t **out)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    fill_recv(r, buf, count, dt, src, tag, c);
    dmpi_req_hold_type(r);
    dmpi_req_hold_comm(r);
    int err = start_recv(r);
    if (err != MPI_SUCCESS) {
        dmpi_req_free(r);
        return err;
    }
    *out = r;
    return MPI_SUCCESS;
}

int dmpi_recv_init(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c,
                   dmpi_request_t **out)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    fill_recv(r, buf, count, dt, src, tag, c);
    dmpi_req_hold_type(r);
    dmpi_req_hold_comm(r);
    r->persistent = 1;
    r->done = 1;
    *out = r;
    return MPI_SUCCESS;
}

int dmpi_start_recv(dmpi_request_t *r) { return start_recv(r); }

/* ---- probes ------------------------------------------------------------ */

static int probe_proc_null(int *flag, MPI_Status *st, dmpi_request_t **msg_out)
{
    *flag = 1;
    if (st != MPI_STATUS_IGNORE)
        dmpi_status_set(st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, false);
    if (msg_out)
        *msg_out = NULL;            /* the api layer returns MPI_MESSAGE_NO_PROC */
    return MPI_SUCCESS;
}

int dmpi_iprobe(int src, int tag, dmpi_comm_t *c, int *flag, MPI_Status *st, dmpi_request_t **msg_out)
{
    if (src == MPI_PROC_NULL)
        return probe_proc_null(flag, st, msg_out);
    dmpi_progress();
    dmpi_matchq_t *q = dmpi_mq(c->ctx);
    dmpi_msg_t *m = dmpi_mq_find_unexp(q, src, tag, false);
    *flag = m != NULL;
    if (!m)
        return MPI_SUCCESS;
    if (st != MPI_STATUS_IGNORE)
        dmpi_status_set(st, m->src, m->tag, MPI_SUCCESS, m->len, false);
    if (msg_out) {
        /* The handle first, so that a failure leaves the queue untouched. */
        dmpi_request_t *h = dmpi_req_alloc(DMPI_REQ_MESSAGE);
        if (!h)
            return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
        h->msg = dmpi_mq_find_unexp(q, src, tag, true);
        h->comm = c;
        dmpi_req_hold_comm(h);
        *msg_out = h;
    }
    return MPI_SUCCESS;
}

struct probe_args {
    int src, tag;
    dmpi_comm_t *c;
    MPI_Status *st;
    dmpi_request_t **msg_out;
    int flag, err;
};

static bool probe_found(void *arg)
{
    struct probe_args *a = arg;
    a->err = dmpi_iprobe(a->src, a->tag, a->c, &a->flag, a->st, a->msg_out);
    return a->flag || a->err != MPI_SUCCESS;
}

int dmpi_probe(int src, int tag, dmpi_comm_t *c, MPI_Status *st, dmpi_request_t **msg_out)
{
    struct probe_args a = {src, tag, c, st, msg_out, 0, MPI_SUCCESS};
    dmpi_progress_until(probe_found, &a);
    return a.err;
}

/* Receives the message held by msg (from Mprobe); msg is released. */
int dmpi_imrecv(void *buf, MPI_Count count, dmpi_dtype_t *dt, dmpi_request_t *msg, dmpi_request_t **out)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    fill_recv(r, buf, count, dt, MPI_ANY_SOURCE, MPI_ANY_TAG, msg->comm);
    dmpi_req_hold_type(r);
    dmpi_req_hold_comm(r);
    int err = prepare_recv_data(r);
    if (err != MPI_SUCCESS) {
        dmpi_req_free(r);
        return err;
    }
    dmpi_msg_t *m = msg->msg;
    dmpi_req_free(msg);
    dmpi_recv_from_msg(r, m);
    *out = r;
    return MPI_SUCCESS;
}

/* ---- cancel ------------------------------------------------------------ */

int dmpi_cancel(dmpi_request_t *r)
{
    /* A receive not yet matched is withdrawn. Anything else (sends included,
     * which MPI-4 deprecates cancelling) completes normally and reports
     * itself not cancelled, as the standard allows. */
    if (r->kind == DMPI_REQ_RECV && !r->done && dmpi_mq_unpost(dmpi_mq(r->ctx), r)) {
        r->cancelled = 1;
        dmpi_req_set_empty_status(r, MPI_SUCCESS);
        dmpi_req_complete(r);
    }
    return MPI_SUCCESS;
}
