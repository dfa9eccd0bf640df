/* Generalized requests: started and completed by the program; waited for,
 * tested, freed and cancelled like any other request (api/complete.c). */
#include "api/api.h"
#include "p2p/p2p.h"

DMPI_ALIAS(Grequest_start)
DMPI_ALIAS(Grequest_complete)

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Grequest_start";
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_greq_start(query_fn, free_fn, cancel_fn, extra_state, &r)))
        return dmpi_api_error(NULL, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Grequest_complete";
    int err;
    if ((err = dmpi_check_init(fn)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_request_t *r = dmpi_req_get(request);
    if (!r || r->kind != DMPI_REQ_GREQ)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_REQUEST, "%s: 0x%x is not a generalized request%s", fn,
                                                 (unsigned)request,
                                                 request == MPI_REQUEST_NULL ? " (MPI_REQUEST_NULL)" : ""));
    if (r->done)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_REQUEST, "%s: request 0x%x is already complete", fn,
                                                 (unsigned)request));
    err = dmpi_greq_complete(r);    /* free_fn runs here if MPI_Request_free came first */
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}
