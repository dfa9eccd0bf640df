/* MPI-4.1's MPI_Request_get_status_any, _all and _some: MPI_Testany,
 * MPI_Testall and MPI_Testsome that leave the requests as they are, so a
 * library can learn what completed without taking the requests from their
 * owner (p2p/request_query.c). */
#include "api/api.h"
#include "p2p/request_query.h"
#include <stdlib.h>

DMPI_ALIAS(Request_get_status_any)
DMPI_ALIAS(Request_get_status_all)
DMPI_ALIAS(Request_get_status_some)

/* The requests behind the handles, NULL for MPI_REQUEST_NULL and inactive
 * persistent ones; *rq is local when count fits, malloc'ed otherwise. */
static int resolve(const char *fn, int count, const MPI_Request reqs[], dmpi_request_t *local[64],
                   dmpi_request_t ***rq)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)))
        return err;
    if (count > 0 && !reqs)
        return dmpi_err(MPI_ERR_ARG, "%s: array_of_requests is NULL", fn);
    *rq = count <= 64 ? local : malloc((size_t)count * sizeof **rq);
    if (!*rq)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %d requests", fn, count);
    for (int i = 0; i < count; i++) {
        dmpi_request_t *r = NULL;
        if (reqs[i] != MPI_REQUEST_NULL) {
            r = dmpi_req_get(reqs[i]);
            if (!r || r->kind == DMPI_REQ_MESSAGE) {
                if (*rq != local)
                    free(*rq);
                return dmpi_err(MPI_ERR_REQUEST, "%s: array_of_requests[%d] is an invalid request handle 0x%x",
                                fn, i, (unsigned)reqs[i]);
            }
            if (r->persistent && !r->active)
                r = NULL;
        }
        (*rq)[i] = r;
    }
    return MPI_SUCCESS;
}

/* The call's result: its error through the failing request's communicator. */
static int done(const char *fn, dmpi_request_t **rq, dmpi_request_t **local, int err, dmpi_comm_t *c)
{
    if (rq != local)
        free(rq);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx, int *flag,
                                MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Request_get_status_any";
    dmpi_request_t *local[64], **rq;
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, indx, "indx")) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_check_status(fn, status)) || (err = resolve(fn, count, array_of_requests, local, &rq)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_req_status_any(count, rq, indx, flag, status, &c);
    return done(fn, rq, local, err, c);
}

int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status *array_of_statuses)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Request_get_status_all";
    dmpi_request_t *local[64], **rq;
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, flag, "flag")) || (err = dmpi_check_statuses(fn, count, array_of_statuses)) ||
        (err = resolve(fn, count, array_of_requests, local, &rq)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_req_status_all(count, rq, flag, array_of_statuses, &c);
    return done(fn, rq, local, err, c);
}

int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status *array_of_statuses)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Request_get_status_some";
    dmpi_request_t *local[64], **rq;
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, outcount, "outcount")) ||
        (incount > 0 && (err = dmpi_check_ptr(fn, array_of_indices, "array_of_indices"))) ||
        (err = dmpi_check_statuses(fn, incount, array_of_statuses)) ||
        (err = resolve(fn, incount, array_of_requests, local, &rq)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_req_status_some(incount, rq, outcount, array_of_indices, array_of_statuses, &c);
    return done(fn, rq, local, err, c);
}
