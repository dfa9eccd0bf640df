/* Requests looked at without completing them (see p2p/request_query.h). */
#include "p2p/request_query.h"
#include "p2p/p2p.h"

static MPI_Status *status_at(MPI_Status sts[], int i)
{
    return sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];
}

int dmpi_req_peek(dmpi_request_t *r, MPI_Status *st)
{
    if (r->kind == DMPI_REQ_GREQ)   /* the program's query_fn writes the status */
        return dmpi_greq_query(r, st);
    dmpi_req_fill_status(r, st);
    return r->st_error;
}

/* Index of the first complete request, -1 if none; *active counts the
 * non-NULL ones. A second look follows one pass of progress. */
static int first_done(int count, dmpi_request_t *const rq[], int *active)
{
    for (int pass = 0; pass < 2; pass++) {
        *active = 0;
        for (int i = 0; i < count; i++) {
            if (!rq[i])
                continue;
            (*active)++;
            if (dmpi_req_is_done(rq[i]))
                return i;
        }
        if (*active == 0 || pass == 1)
            break;
        dmpi_progress();
    }
    return -1;
}

int dmpi_req_status_any(int count, dmpi_request_t *const rq[], int *index, int *flag, MPI_Status *st,
                        dmpi_comm_t **errcomm)
{
    int active, i = first_done(count, rq, &active);
    *index = MPI_UNDEFINED;
    if (i < 0) {
        *flag = active == 0;
        if (*flag)
            dmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    *flag = 1;
    *index = i;
    *errcomm = rq[i]->comm;
    return dmpi_req_peek(rq[i], st);
}

static bool all_done(int count, dmpi_request_t *const rq[])
{
    for (int i = 0; i < count; i++)
        if (rq[i] && !dmpi_req_is_done(rq[i]))
            return false;
    return true;
}

/* The statuses of the complete requests among rq (all of them when
 * only_done is false, NULL entries then giving empty statuses). */
static int peek_all(int count, dmpi_request_t *const rq[], MPI_Status sts[], bool only_done, int *outcount,
                    int indices[], dmpi_comm_t **errcomm)
{
    int result = MPI_SUCCESS, n = 0;
    for (int i = 0; i < count; i++) {
        if (!rq[i] || (only_done && !dmpi_req_is_done(rq[i]))) {
            if (!only_done)
                dmpi_status_empty(status_at(sts, n++));
            continue;
        }
        MPI_Status *st = status_at(sts, n);
        int err = dmpi_req_peek(rq[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS && result == MPI_SUCCESS) {
            result = MPI_ERR_IN_STATUS;
            *errcomm = rq[i]->comm;
        }
        if (indices)
            indices[n] = i;
        n++;
    }
    if (outcount)
        *outcount = n;
    return result;
}

int dmpi_req_status_all(int count, dmpi_request_t *const rq[], int *flag, MPI_Status sts[],
                        dmpi_comm_t **errcomm)
{
    if (!all_done(count, rq)) {
        dmpi_progress();
        if (!all_done(count, rq)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return peek_all(count, rq, sts, false, NULL, NULL, errcomm);
}

int dmpi_req_status_some(int count, dmpi_request_t *const rq[], int *outcount, int indices[], MPI_Status sts[],
                         dmpi_comm_t **errcomm)
{
    int active;
    if (first_done(count, rq, &active) < 0) {
        *outcount = active == 0 ? MPI_UNDEFINED : 0;
        return MPI_SUCCESS;
    }
    return peek_all(count, rq, sts, true, outcount, indices, errcomm);
}
