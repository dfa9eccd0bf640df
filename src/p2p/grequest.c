/* Generalized requests (MPI_Grequest_start): requests whose operation the
 * program carries out itself and ends with MPI_Grequest_complete. The
 * library only keeps the program's three callbacks and calls them when the
 * standard says:
 *   query_fn  when a wait or test call completes the request (and at
 *             MPI_Request_get_status once it is complete): it writes the status;
 *   free_fn   right after that query_fn; or, for a request released with
 *             MPI_Request_free, at the later of MPI_Request_free and
 *             MPI_Grequest_complete;
 *   cancel_fn at MPI_Cancel, told whether the request is already complete.
 * A callback's error code is what the calling MPI function returns (the
 * first one when query_fn and free_fn both fail). Every wait and test call
 * sees such a request through r->done, set by MPI_Grequest_complete. */
#include "p2p/p2p.h"
#include <stdlib.h>

struct dmpi_greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
};

int dmpi_greq_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state, dmpi_request_t **out)
{
    struct dmpi_greq *g = malloc(sizeof *g);
    dmpi_request_t *r = g ? dmpi_req_alloc(DMPI_REQ_GREQ) : NULL;
    if (!r) {
        free(g);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Grequest_start: out of request objects");
    }
    *g = (struct dmpi_greq){query_fn, free_fn, cancel_fn, extra_state};
    r->greq = g;
    *out = r;
    return MPI_SUCCESS;
}

/* free_fn, then the request goes. */
static int destroy(dmpi_request_t *r)
{
    struct dmpi_greq *g = r->greq;
    int err = g->free ? g->free(g->extra) : MPI_SUCCESS;
    free(g);
    r->greq = NULL;
    dmpi_req_free(r);
    return err;
}

int dmpi_greq_complete(dmpi_request_t *r)
{
    r->done = 1;
    if (r->free_on_done)            /* MPI_Request_free came first */
        return destroy(r);
    return MPI_SUCCESS;
}

int dmpi_greq_query(dmpi_request_t *r, MPI_Status *st)
{
    MPI_Status scratch;              /* query_fn always gets a status to write */
    if (st == MPI_STATUS_IGNORE)
        st = &scratch;
    dmpi_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, false);
    return r->greq->query ? r->greq->query(r->greq->extra, st) : MPI_SUCCESS;
}

int dmpi_greq_finish(dmpi_request_t *r, MPI_Status *st)
{
    int err = dmpi_greq_query(r, st);
    int ferr = destroy(r);
    return err != MPI_SUCCESS ? err : ferr;
}

int dmpi_greq_release(dmpi_request_t *r)
{
    if (r->done)
        return destroy(r);
    r->free_on_done = 1;            /* destroyed by MPI_Grequest_complete */
    return MPI_SUCCESS;
}

int dmpi_greq_cancel(dmpi_request_t *r)
{
    struct dmpi_greq *g = r->greq;
    return g->cancel ? g->cancel(g->extra, r->done ? 1 : 0) : MPI_SUCCESS;
}
