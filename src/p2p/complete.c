/* Completion: wait and test on one request, persistent starts, and the
 * composite requests behind MPI_Isendrecv(_replace). */
#include "p2p/p2p.h"
#include "p2p/bsend.h"
#include "p2p/part.h"


/* A composite's status is its receive's; its error the first of the two. */
static void settle_composite(dmpi_request_t *r)
{
    dmpi_request_t *s = r->sub[0], *v = r->sub[1];
    r->st_source = v->st_source;
    r->st_tag = v->st_tag;
    r->st_bytes = v->st_bytes;
    r->cancelled = v->cancelled;
    r->st_error = s->st_error != MPI_SUCCESS ? s->st_error : v->st_error;
    dmpi_req_free(s);
    dmpi_req_free(v);
    r->kind = DMPI_REQ_RECV;        /* from here on it reports like a receive */
    r->done = 1;
}

bool dmpi_req_is_done(dmpi_request_t *r)
{
    if (DMPI_LIKELY(r->kind != DMPI_REQ_COMPOSITE))
        return r->done;
    if (!r->sub[0]->done || !r->sub[1]->done)
        return false;
    settle_composite(r);
    return true;
}

static bool req_done_cond(void *arg) { return dmpi_req_is_done(arg); }

int dmpi_req_release(dmpi_request_t *r)
{
    if (r->kind == DMPI_REQ_GREQ)
        return dmpi_greq_release(r);
    if (r->kind == DMPI_REQ_PART)
        return dmpi_part_release(r);
    if (r->kind == DMPI_REQ_COMPOSITE && !dmpi_req_is_done(r)) {
        /* The parts free themselves as they complete. */
        for (int i = 0; i < 2; i++) {
            if (r->sub[i]->done)
                dmpi_req_free(r->sub[i]);
            else
                r->sub[i]->free_on_done = 1;
        }
        dmpi_req_free(r);
        return MPI_SUCCESS;
    }
    if (r->done || (r->persistent && !r->active)) {
        dmpi_req_free(r);
        return MPI_SUCCESS;
    }
    r->persistent = 0;
    r->free_on_done = 1;
    return MPI_SUCCESS;
}

int dmpi_finish(dmpi_request_t *r, MPI_Request *handle, MPI_Status *st)
{
    if (r->kind == DMPI_REQ_COMPOSITE)
        dmpi_req_is_done(r);
    else if (DMPI_UNLIKELY(r->kind == DMPI_REQ_GREQ)) {
        if (handle)
            *handle = MPI_REQUEST_NULL;
        return dmpi_greq_finish(r, st);
    }
    int err = r->st_error;
    dmpi_req_fill_status(r, st);
    if (r->persistent) {
        r->active = 0;
        return err;
    }
    dmpi_req_free(r);
    if (handle)
        *handle = MPI_REQUEST_NULL;
    return err;
}

int dmpi_wait(dmpi_request_t *r, MPI_Request *handle, MPI_Status *st)
{
    if (r->kind == DMPI_REQ_COMPOSITE)
        dmpi_progress_until(req_done_cond, r);
    else if (!r->done)
        dmpi_progress_wait(r);
    return dmpi_finish(r, handle, st);
}

int dmpi_start(dmpi_request_t *r)
{
    if (r->kind == DMPI_REQ_PART)
        return dmpi_part_start(r);
    r->active = 1;
    if (r->pops)
        return r->pops->start(r);
    if (r->kind == DMPI_REQ_RECV)
        return dmpi_start_recv(r);
    if (r->mode == DMPI_MODE_BUFFERED)
        return dmpi_bsend_start(r);
    return dmpi_start_send(r);
}

int dmpi_isendrecv(const void *sbuf, MPI_Count scount, dmpi_dtype_t *sdt, int dest, int stag,
                   void *rbuf, MPI_Count rcount, dmpi_dtype_t *rdt, int src, int rtag, dmpi_comm_t *c,
                   bool replace, dmpi_request_t **out)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_COMPOSITE);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    /* Post the receive first: a send to oneself then matches it at once. For
     * the replace form, the send goes from a copy taken before that. */
    int err;
    if (replace) {
        err = dmpi_isend_copy(sbuf, scount, sdt, dest, stag, c, &r->sub[0]);
        if (err == MPI_SUCCESS && (err = dmpi_irecv(rbuf, rcount, rdt, src, rtag, c, &r->sub[1])) != MPI_SUCCESS)
            dmpi_wait(r->sub[0], NULL, MPI_STATUS_IGNORE);
    } else {
        err = dmpi_irecv(rbuf, rcount, rdt, src, rtag, c, &r->sub[1]);
        if (err == MPI_SUCCESS &&
            (err = dmpi_isend(sbuf, scount, sdt, dest, stag, c, DMPI_MODE_STANDARD, &r->sub[0])) != MPI_SUCCESS) {
            dmpi_cancel(r->sub[1]);
            dmpi_wait(r->sub[1], NULL, MPI_STATUS_IGNORE);
        }
    }
    if (err != MPI_SUCCESS) {
        dmpi_req_free(r);
        return err;
    }
    *out = r;
    return MPI_SUCCESS;
}
