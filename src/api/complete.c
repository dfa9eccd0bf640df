/* Wait and test, on one, any, some or all requests; freeing, cancelling and
 * inspecting requests. Inactive persistent requests count as null ones. */
#include "api/api.h"
#include "p2p/p2p.h"
#include <stdlib.h>

DMPI_ALIAS(Wait)
DMPI_ALIAS(Waitall)
DMPI_ALIAS(Waitany)
DMPI_ALIAS(Waitsome)
DMPI_ALIAS(Test)
DMPI_ALIAS(Testall)
DMPI_ALIAS(Testany)
DMPI_ALIAS(Testsome)
DMPI_ALIAS(Request_free)
DMPI_ALIAS(Request_get_status)
DMPI_ALIAS(Cancel)
DMPI_ALIAS(Test_cancelled)

/* *r is NULL for MPI_REQUEST_NULL and inactive persistent requests. */
static int lookup(const char *fn, MPI_Request h, dmpi_request_t **r)
{
    *r = NULL;
    if (h == MPI_REQUEST_NULL)
        return MPI_SUCCESS;
    dmpi_request_t *q = dmpi_req_get(h);
    if (!q || q->kind == DMPI_REQ_MESSAGE)
        return dmpi_err(MPI_ERR_REQUEST, "%s: invalid request handle 0x%x", fn, (unsigned)h);
    if (!(q->persistent && !q->active))
        *r = q;
    return MPI_SUCCESS;
}

static int check_array(const char *fn, int count, const MPI_Request reqs[])
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)))
        return err;
    if (count > 0 && !reqs)
        return dmpi_err(MPI_ERR_ARG, "%s: the request array is NULL", fn);
    dmpi_request_t *r;
    for (int i = 0; i < count; i++)
        if ((err = lookup(fn, reqs[i], &r)))
            return err;
    return MPI_SUCCESS;
}


/* Done now, or after one more pass of the progress engine (the test calls). */
static bool done_after_poll(dmpi_request_t *r)
{
    if (dmpi_req_is_done(r))
        return true;
    dmpi_progress();
    return dmpi_req_is_done(r);
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Wait";
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = lookup(fn, *request, &r)) || (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    if (!r) {
        dmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    dmpi_comm_t *c = r->comm;
    err = dmpi_wait(r, request, status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Test";
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_check_ptr(fn, flag, "flag")) || (err = lookup(fn, *request, &r)) ||
        (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    *flag = 1;
    if (!r) {
        dmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!done_after_poll(r)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    dmpi_comm_t *c = r->comm;
    err = dmpi_finish(r, request, status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

/* ---- many requests ------------------------------------------------------ */

struct reqs {
    int count;
    MPI_Request *h;
};

static bool all_done(void *arg)
{
    struct reqs *a = arg;
    for (int i = 0; i < a->count; i++) {
        dmpi_request_t *r = dmpi_req_get(a->h[i]);
        if (r && !(r->persistent && !r->active) && !dmpi_req_is_done(r))
            return false;
    }
    return true;
}

/* Index of a completed active request, -1 if none; *active counts them. */
static int first_done(int count, MPI_Request reqs[], int *active)
{
    *active = 0;
    for (int i = 0; i < count; i++) {
        dmpi_request_t *r;
        lookup("", reqs[i], &r);
        if (!r)
            continue;
        (*active)++;
        if (dmpi_req_is_done(r))
            return i;
    }
    return -1;
}

static bool any_done(void *arg)
{
    struct reqs *a = arg;
    int active;
    return first_done(a->count, a->h, &active) >= 0 || active == 0;
}

/* Completes every finished active request; their statuses get MPI_ERROR.
 * Returns MPI_ERR_IN_STATUS if any failed. */
static int finish_all(int count, MPI_Request reqs[], dmpi_request_t **resolved, MPI_Status statuses[],
                      bool only_done, int *outcount, int indices[], dmpi_comm_t **errcomm)
{
    int result = MPI_SUCCESS, n = 0;
    for (int i = 0; i < count; i++) {
        dmpi_request_t *r;
        if (resolved)
            r = resolved[i];
        else
            lookup("", reqs[i], &r);
        if (!r) {
            if (!only_done)
                dmpi_status_empty(status_at(statuses, i));
            continue;
        }
        if (only_done && !dmpi_req_is_done(r))
            continue;
        dmpi_comm_t *c = r->comm;
        MPI_Status *st = status_at(statuses, only_done ? n : i);
        int err = dmpi_finish(r, &reqs[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS && result == MPI_SUCCESS) {
            result = MPI_ERR_IN_STATUS;
            *errcomm = c;
        }
        if (indices)
            indices[n] = i;
        n++;
    }
    if (outcount)
        *outcount = n;
    return result;
}

/* Waitall looks each handle up once; the wait then walks pointers, and
 * skips for good the requests already seen complete. */
struct resolved {
    int count, next;
    dmpi_request_t **r;
};

static bool resolved_all_done(void *arg)
{
    struct resolved *a = arg;
    while (a->next < a->count && (!a->r[a->next] || dmpi_req_is_done(a->r[a->next])))
        a->next++;
    return a->next == a->count;
}

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Waitall";
    int err;
    if ((err = check_array(fn, count, requests)) || (err = dmpi_check_statuses(fn, count, statuses)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_request_t *local[64], **rq = count <= 64 ? local : malloc((size_t)count * sizeof *rq);
    if (!rq)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %d requests", fn, count));
    for (int i = 0; i < count; i++)
        lookup(fn, requests[i], &rq[i]);
    struct resolved a = {count, 0, rq};
    dmpi_progress_until(resolved_all_done, &a);
    dmpi_comm_t *c = NULL;
    err = finish_all(count, requests, rq, statuses, false, NULL, NULL, &c);
    if (rq != local)
        free(rq);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Testall";
    int err;
    if ((err = check_array(fn, count, requests)) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_check_statuses(fn, count, statuses)))
        return dmpi_api_error(NULL, fn, err);
    struct reqs a = {count, requests};
    if (!all_done(&a)) {
        dmpi_progress();
        if (!all_done(&a)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    dmpi_comm_t *c = NULL;
    err = finish_all(count, requests, NULL, statuses, false, NULL, NULL, &c);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

static int finish_one(const char *fn, MPI_Request requests[], int i, int *index, MPI_Status *status)
{
    dmpi_request_t *r = dmpi_req_get(requests[i]);
    dmpi_comm_t *c = r->comm;
    *index = i;
    int err = dmpi_finish(r, &requests[i], status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Waitany";
    int err, active;
    if ((err = check_array(fn, count, requests)) || (err = dmpi_check_ptr(fn, index, "index")) ||
        (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    struct reqs a = {count, requests};
    dmpi_progress_until(any_done, &a);
    int i = first_done(count, requests, &active);
    if (i < 0) {
        *index = MPI_UNDEFINED;
        dmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    return finish_one(fn, requests, i, index, status);
}

int PMPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Testany";
    int err, active;
    if ((err = check_array(fn, count, requests)) || (err = dmpi_check_ptr(fn, index, "index")) ||
        (err = dmpi_check_ptr(fn, flag, "flag")) || (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    int i = first_done(count, requests, &active);
    if (i < 0 && active) {
        dmpi_progress();
        i = first_done(count, requests, &active);
    }
    *index = MPI_UNDEFINED;
    if (i < 0) {
        *flag = active == 0;
        if (*flag)
            dmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = 1;
    return finish_one(fn, requests, i, index, status);
}

static int some(const char *fn, int incount, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[], bool wait)
{
    int err, active;
    if ((err = check_array(fn, incount, requests)) || (err = dmpi_check_ptr(fn, outcount, "outcount")) ||
        (incount > 0 && (err = dmpi_check_ptr(fn, indices, "the index array"))) ||
        (err = dmpi_check_statuses(fn, incount, statuses)))
        return dmpi_api_error(NULL, fn, err);
    struct reqs a = {incount, requests};
    if (wait)
        dmpi_progress_until(any_done, &a);
    else if (first_done(incount, requests, &active) < 0 && active)
        dmpi_progress();
    if (first_done(incount, requests, &active) < 0 && active == 0) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    dmpi_comm_t *c = NULL;
    err = finish_all(incount, requests, NULL, statuses, true, outcount, indices, &c);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    DMPI_API_ENTER;
    return some("MPI_Waitsome", incount, requests, outcount, indices, statuses, true);
}

int PMPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    DMPI_API_ENTER;
    return some("MPI_Testsome", incount, requests, outcount, indices, statuses, false);
}

/* ---- one request, without completing it ---------------------------------- */

static int check_live(const char *fn, MPI_Request *request, dmpi_request_t **r)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")))
        return err;
    *r = dmpi_req_get(*request);
    if (!*r || (*r)->kind == DMPI_REQ_MESSAGE)
        return dmpi_err(MPI_ERR_REQUEST, "%s: invalid request handle 0x%x%s", fn, (unsigned)*request,
                        *request == MPI_REQUEST_NULL ? " (MPI_REQUEST_NULL)" : "");
    return MPI_SUCCESS;
}

int PMPI_Request_free(MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Request_free";
    dmpi_request_t *r;
    int err;
    if ((err = check_live(fn, request, &r)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_req_release(r);      /* a generalized request's free_fn may fail */
    *request = MPI_REQUEST_NULL;
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Cancel(MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cancel";
    dmpi_request_t *r;
    int err;
    if ((err = check_live(fn, request, &r)))
        return dmpi_api_error(NULL, fn, err);
    if (r->kind == DMPI_REQ_COLL)   /* MPI-4.0 6.12 and 6.13: erroneous for collectives */
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_REQUEST, "%s: request 0x%x is a %scollective operation, "
                                                 "which cannot be cancelled", fn, (unsigned)*request,
                                                 r->persistent ? "persistent " : "nonblocking "));
    if (r->kind == DMPI_REQ_COMPOSITE)
        return MPI_SUCCESS;         /* completes normally */
    if (r->kind == DMPI_REQ_GREQ)   /* the program's cancel_fn decides */
        return (err = dmpi_greq_cancel(r)) == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
    return dmpi_cancel(r);
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Request_get_status";
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, flag, "flag")) || (err = lookup(fn, request, &r)) ||
        (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    *flag = 1;
    if (!r) {
        dmpi_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!done_after_poll(r)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (r->kind == DMPI_REQ_GREQ)   /* the program's query_fn writes the status */
        return (err = dmpi_greq_query(r, status)) == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
    dmpi_req_fill_status(r, status);
    return MPI_SUCCESS;
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Test_cancelled";
    int err;
    if ((err = dmpi_check_ptr(fn, status, "status")) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(NULL, fn, err);
    *flag = status->count_hi_and_cancelled & 1;
    return MPI_SUCCESS;
}

