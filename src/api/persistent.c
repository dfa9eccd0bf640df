/* Persistent requests: *_init (int and _c forms, one function behind both)
 * creates them inactive, Start(all) runs them. */
#include "api/api.h"
#include "p2p/p2p.h"

DMPI_ALIAS(Send_init)
DMPI_ALIAS(Ssend_init)
DMPI_ALIAS(Rsend_init)
DMPI_ALIAS(Bsend_init)
DMPI_ALIAS(Recv_init)
DMPI_ALIAS(Start)
DMPI_ALIAS(Startall)
DMPI_ALIAS(Send_init_c)
DMPI_ALIAS(Ssend_init_c)
DMPI_ALIAS(Rsend_init_c)
DMPI_ALIAS(Bsend_init_c)
DMPI_ALIAS(Recv_init_c)

static int send_init(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, int mode, MPI_Request *request)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_send_args(fn, buf, count, type, dest, tag, comm, &c, &dt)) ||
        (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_send_init(buf, count, dt, dest, tag, c, mode, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Send_init", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD, request);
}

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Send_init_c", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD, request);
}

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Ssend_init", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC, request);
}

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Ssend_init_c", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC, request);
}

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Rsend_init", buf, count, type, dest, tag, comm, DMPI_MODE_READY, request);
}

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Rsend_init_c", buf, count, type, dest, tag, comm, DMPI_MODE_READY, request);
}

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Bsend_init", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED, request);
}

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    DMPI_API_ENTER;
    return send_init("MPI_Bsend_init_c", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED, request);
}

static int recv_init(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_recv_args(fn, buf, count, type, source, tag, comm, &c, &dt)) ||
        (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_recv_init(buf, count, dt, source, tag, c, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    DMPI_API_ENTER;
    return recv_init("MPI_Recv_init", buf, count, type, source, tag, comm, request);
}

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    DMPI_API_ENTER;
    return recv_init("MPI_Recv_init_c", buf, count, type, source, tag, comm, request);
}

static int check_startable(const char *fn, MPI_Request h, dmpi_request_t **r)
{
    *r = dmpi_req_get(h);
    if (!*r || !(*r)->persistent)
        return dmpi_err(MPI_ERR_REQUEST, "%s: request 0x%x is not a persistent request", fn, (unsigned)h);
    if ((*r)->active)
        return dmpi_err(MPI_ERR_REQUEST, "%s: request 0x%x is already active", fn, (unsigned)h);
    return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Start";
    dmpi_request_t *r = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = check_startable(fn, *request, &r)) || (err = dmpi_start(r)))
        return dmpi_api_error(r ? r->comm : NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Startall(int count, MPI_Request requests[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Startall";
    dmpi_request_t *r = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)) ||
        (count > 0 && (err = dmpi_check_ptr(fn, requests, "the request array"))))
        return dmpi_api_error(NULL, fn, err);
    for (int i = 0; i < count; i++)
        if ((err = check_startable(fn, requests[i], &r)))
            return dmpi_api_error(r ? r->comm : NULL, fn, err);
    for (int i = 0; i < count; i++) {
        r = dmpi_req_get(requests[i]);
        if ((err = dmpi_start(r)))
            return dmpi_api_error(r->comm, fn, err);
    }
    return MPI_SUCCESS;
}
