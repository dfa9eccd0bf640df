/* The state of requests without completing them: MPI_Request_get_status
 * and MPI-4.1's MPI_Request_get_status_any/_all/_some (p2p/request_query.c).
 * A request stays as it is (not freed, a persistent one stays active); only
 * statuses are written. In the arrays, NULL stands for MPI_REQUEST_NULL
 * and for an inactive persistent request. Each call gives the progress
 * engine one pass when nothing it looks at is complete yet, as MPI_Test*
 * does, so that polling with them advances communication. */
#ifndef DMPI_P2P_REQUEST_QUERY_H
#define DMPI_P2P_REQUEST_QUERY_H

#include "p2p/request.h"

/* The status of a complete request r into st (may be MPI_STATUS_IGNORE);
 * returns the request's error (a generalized request's query_fn result). */
int dmpi_req_peek(dmpi_request_t *r, MPI_Status *st);

/* _any: *index of a complete request and its status, or MPI_UNDEFINED with
 * *flag 0 (none complete yet) or *flag 1 and an empty status (none active).
 * Returns that request's error, with *errcomm its communicator. */
int dmpi_req_status_any(int count, dmpi_request_t *const rq[], int *index, int *flag, MPI_Status *st,
                        dmpi_comm_t **errcomm);
/* _all: *flag 1 when every active request is complete, and then every
 * status (empty for NULL entries); MPI_ERR_IN_STATUS if any failed, with
 * each status's MPI_ERROR set and *errcomm the first failing one's. */
int dmpi_req_status_all(int count, dmpi_request_t *const rq[], int *flag, MPI_Status sts[],
                        dmpi_comm_t **errcomm);
/* _some: the complete active requests' indices and statuses (packed), or
 * *outcount MPI_UNDEFINED when none is active; MPI_ERR_IN_STATUS as _all. */
int dmpi_req_status_some(int count, dmpi_request_t *const rq[], int *outcount, int indices[], MPI_Status sts[],
                         dmpi_comm_t **errcomm);

#endif
