/* MPI_Comm_idup: the new communicator exists at once, with its group,
 * hints, topology and attributes (copy callbacks run now, as in MPICH);
 * its context pair is agreed by nonblocking allreduces of the parent, one
 * per round of the agreement (comm/ctx_agree.h), driven by a progress hook.
 * The request completes once the pair is set. */
#include "comm/comm.h"
#include "comm/ctx_agree.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "core/group.h"
#include "core/op.h"
#include "p2p/p2p.h"
#include <stdlib.h>

typedef struct idup {
    dmpi_ctx_agreement_t agree;
    uint32_t serial, round_no;   /* the idup's number on its parent, and its round: the rounds' tag */
    dmpi_comm_t *parent, *comm;
    dmpi_request_t *round;       /* the allreduce of the current round */
    dmpi_request_t *req;         /* the user's request */
    struct idup *next;
} idup_t;

static idup_t *in_flight;

/* Each rank advances its idups as their rounds complete, so two idups of
 * one parent may start rounds in different orders on different ranks: a
 * round's tag comes from the idup's number and the round's, never from the
 * order of starting. */
static int start_round(idup_t *d)
{
    dmpi_ctx_agree_offer(&d->agree);
    dmpi_comm_t v = *d->parent;
    v.coll_tag = DMPI_TAG_IDUP_FIRST - (int)((d->serial * 1024u + d->round_no++) % DMPI_TAG_SPAN);
    return v.coll->allreduce(&v, MPI_IN_PLACE, d->agree.buf, DMPI_CTX_AGREE_WORDS, dmpi_dtype_get(MPI_UINT32_T),
                             dmpi_op_get(MPI_BAND), &d->round);
}

static void finish(idup_t *d, int err)
{
    dmpi_ctx_agree_end(&d->agree);
    dmpi_request_t *r = d->req;
    dmpi_req_set_empty_status(r, err);
    if (err != MPI_SUCCESS)         /* the handle the caller holds is no longer valid */
        dmpi_comm_free(d->comm);
    dmpi_comm_release(d->parent);
    free(d);
    dmpi_req_complete(r);
}

/* One idup: true once it has finished. */
static bool advance(idup_t *d)
{
    if (!d->round->done)
        return false;
    int err = d->round->st_error, pair = -1;
    dmpi_req_free(d->round);
    d->round = NULL;
    int got = err != MPI_SUCCESS ? err : dmpi_ctx_agree_result(&d->agree, &pair);
    if (got == 1) {
        dmpi_comm_set_pair(d->comm, pair);
        dmpi_coll_comm_init(d->comm);
        finish(d, MPI_SUCCESS);
        return true;
    }
    if (got == 0 && (err = start_round(d)) == MPI_SUCCESS)
        return false;
    finish(d, got == 0 ? err : got);
    return true;
}

static int idup_progress(void)
{
    int did = 0;
    for (idup_t **p = &in_flight; *p;) {
        idup_t *d = *p, *next = d->next;
        if (advance(d)) {           /* d is gone */
            *p = next;
            did++;
        } else {
            p = &d->next;
        }
    }
    if (!in_flight)
        dmpi_progress_remove_hook(idup_progress);
    return did;
}

/* An intercommunicator: made at once, the request complete. */
static int idup_inter(dmpi_comm_t *c, dmpi_comm_t **out, dmpi_request_t **req)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_COLL);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_idup: out of request objects");
    int err = dmpi_comm_dup(c, out);
    if (err != MPI_SUCCESS) {
        dmpi_req_free(r);
        return err;
    }
    dmpi_req_set_empty_status(r, MPI_SUCCESS);
    dmpi_req_complete(r);
    *req = r;
    return MPI_SUCCESS;
}

int dmpi_comm_idup(dmpi_comm_t *c, dmpi_comm_t **out, dmpi_request_t **req)
{
    if (dmpi_comm_is_inter(c))
        return idup_inter(c, out, req);
    idup_t *d = calloc(1, sizeof *d);
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_COLL);
    if (!d || !r) {
        free(d);
        if (r)
            dmpi_req_free(r);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_idup: out of memory");
    }
    dmpi_group_retain(c->group);
    int err = dmpi_comm_make(c, c->group, -1, false, &d->comm);
    if (err != MPI_SUCCESS) {
        dmpi_group_release(c->group);
    } else {
        d->comm->coll = c->coll;    /* replaced by dmpi_coll_comm_init once the pair is known */
        err = dmpi_comm_dup_extras(c, &d->comm);
    }
    if (err != MPI_SUCCESS) {
        free(d);
        dmpi_req_free(r);
        return err;
    }
    d->parent = c;
    d->serial = c->obj->idup_seq++;
    dmpi_comm_retain(c);
    d->req = r;
    dmpi_ctx_agree_begin(&d->agree, c->ctx, d->serial);
    if ((err = start_round(d)) != MPI_SUCCESS) {
        dmpi_ctx_agree_end(&d->agree);
        dmpi_comm_release(c);
        dmpi_comm_free(d->comm);
        free(d);
        dmpi_req_free(r);
        return err;
    }
    if (!in_flight)
        dmpi_progress_add_hook(idup_progress);
    d->next = in_flight;
    in_flight = d;
    *out = d->comm;
    *req = r;
    return MPI_SUCCESS;
}
