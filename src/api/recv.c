/* Receives, probes, matched probes and MPI_Get_count, in int and _c forms
 * (one function taking MPI_Count behind both). */
#include "api/api.h"
#include "p2p/p2p.h"
#include <limits.h>

DMPI_ALIAS(Recv)
DMPI_ALIAS(Irecv)
DMPI_ALIAS(Probe)
DMPI_ALIAS(Iprobe)
DMPI_ALIAS(Mprobe)
DMPI_ALIAS(Improbe)
DMPI_ALIAS(Mrecv)
DMPI_ALIAS(Imrecv)
DMPI_ALIAS(Get_count)
DMPI_ALIAS(Recv_c)
DMPI_ALIAS(Irecv_c)
DMPI_ALIAS(Mrecv_c)
DMPI_ALIAS(Imrecv_c)
DMPI_ALIAS(Get_count_c)

static DMPI_ALWAYS_INLINE int recv_blocking(const char *fn, void *buf, MPI_Count count, MPI_Datatype type,
                                            int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    dmpi_comm_t *c = dmpi_comm_get(comm);
    dmpi_dtype_t *dt = dmpi_dtype_get(type);
    if (DMPI_UNLIKELY(!dmpi_p2p_args_ok(c, dt, buf, count, source, tag) || !status)) {
        int err;
        if ((err = dmpi_check_recv_args(fn, buf, count, type, source, tag, comm, &c, &dt)) ||
            (err = dmpi_check_status(fn, status)))
            return dmpi_api_error(c, fn, err);
    }
    int err = dmpi_recv(buf, count, dt, source, tag, c, status);
    return DMPI_LIKELY(err == MPI_SUCCESS) ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_FAST(recv_blocking("MPI_Recv", buf, count, type, source, tag, comm, status));
    return recv_blocking("MPI_Recv", buf, count, type, source, tag, comm, status);
}

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    DMPI_API_ENTER;
    return recv_blocking("MPI_Recv_c", buf, count, type, source, tag, comm, status);
}

static int irecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    dmpi_comm_t *c = dmpi_comm_get(comm);
    dmpi_dtype_t *dt = dmpi_dtype_get(type);
    int err;
    if (DMPI_UNLIKELY(!dmpi_p2p_args_ok(c, dt, buf, count, source, tag) || !request)) {
        if ((err = dmpi_check_recv_args(fn, buf, count, type, source, tag, comm, &c, &dt)) ||
            (err = dmpi_check_ptr(fn, request, "the request pointer")))
            return dmpi_api_error(c, fn, err);
    }
    dmpi_request_t *r;
    if (DMPI_UNLIKELY((err = dmpi_irecv(buf, count, dt, source, tag, c, &r)) != MPI_SUCCESS))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return irecv("MPI_Irecv", buf, count, type, source, tag, comm, request);
}

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return irecv("MPI_Irecv_c", buf, count, type, source, tag, comm, request);
}

static int check_probe(const char *fn, int source, int tag, MPI_Comm comm, dmpi_comm_t **c)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) ||
        (err = dmpi_check_source(fn, source, *c)) || (err = dmpi_check_recv_tag(fn, tag)))
        return err;
    return MPI_SUCCESS;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Iprobe";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = check_probe(fn, source, tag, comm, &c)) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_check_status(fn, status)) || (err = dmpi_iprobe(source, tag, c, flag, status, NULL)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Probe";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = check_probe(fn, source, tag, comm, &c)) || (err = dmpi_check_status(fn, status)) ||
        (err = dmpi_probe(source, tag, c, status, NULL)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

static MPI_Message message_handle(int flag, dmpi_request_t *m)
{
    if (!flag)
        return MPI_MESSAGE_NULL;
    return m ? (MPI_Message)m->handle : MPI_MESSAGE_NO_PROC;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Improbe";
    dmpi_comm_t *c = NULL;
    dmpi_request_t *m = NULL;
    int err;
    if ((err = check_probe(fn, source, tag, comm, &c)) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_check_ptr(fn, message, "the message pointer")) || (err = dmpi_check_status(fn, status)) ||
        (err = dmpi_iprobe(source, tag, c, flag, status, &m)))
        return dmpi_api_error(c, fn, err);
    *message = message_handle(*flag, m);
    return MPI_SUCCESS;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Mprobe";
    dmpi_comm_t *c = NULL;
    dmpi_request_t *m = NULL;
    int err;
    if ((err = check_probe(fn, source, tag, comm, &c)) || (err = dmpi_check_ptr(fn, message, "the message pointer")) ||
        (err = dmpi_check_status(fn, status)) || (err = dmpi_probe(source, tag, c, status, &m)))
        return dmpi_api_error(c, fn, err);
    *message = message_handle(1, m);
    return MPI_SUCCESS;
}

/* Checks a matched receive; *m is NULL for MPI_MESSAGE_NO_PROC. */
static int check_mrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                       dmpi_dtype_t **dt, dmpi_request_t **m)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)) || (err = dmpi_check_type(fn, type, dt)) ||
        (err = dmpi_check_buf(fn, buf, count, *dt)) || (err = dmpi_check_ptr(fn, message, "the message pointer")))
        return err;
    *m = NULL;
    if (*message == MPI_MESSAGE_NO_PROC)
        return MPI_SUCCESS;
    *m = dmpi_req_get((MPI_Request)*message);
    if (!*m || (*m)->kind != DMPI_REQ_MESSAGE)
        return dmpi_err(MPI_ERR_REQUEST, "%s: invalid message handle 0x%x%s", fn, (unsigned)*message,
                        *message == MPI_MESSAGE_NULL ? " (MPI_MESSAGE_NULL)" : "");
    return MPI_SUCCESS;
}

static int imrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                  MPI_Request *request)
{
    dmpi_dtype_t *dt = NULL;
    dmpi_request_t *m, *r;
    int err;
    if ((err = check_mrecv(fn, buf, count, type, message, &dt, &m)) ||
        (err = dmpi_check_ptr(fn, request, "the request pointer")))
        return dmpi_api_error(NULL, fn, err);
    dmpi_comm_t *c = m ? m->comm : NULL;
    if (!m) {
        r = dmpi_req_alloc(DMPI_REQ_RECV);
        if (!r)
            return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of request objects", fn));
        dmpi_req_set_proc_null_status(r);
        r->done = 1;
    } else if ((err = dmpi_imrecv(buf, count, dt, m, &r)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *message = MPI_MESSAGE_NULL;
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request)
{
    DMPI_API_ENTER;
    return imrecv("MPI_Imrecv", buf, count, type, message, request);
}

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message, MPI_Request *request)
{
    DMPI_API_ENTER;
    return imrecv("MPI_Imrecv_c", buf, count, type, message, request);
}

static int mrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                 MPI_Status *status)
{
    dmpi_dtype_t *dt = NULL;
    dmpi_request_t *m, *r;
    int err;
    if ((err = check_mrecv(fn, buf, count, type, message, &dt, &m)) || (err = dmpi_check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    if (!m) {
        if (status != MPI_STATUS_IGNORE)
            dmpi_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, false);
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    dmpi_comm_t *c = m->comm;
    if ((err = dmpi_imrecv(buf, count, dt, m, &r)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *message = MPI_MESSAGE_NULL;
    err = dmpi_wait(r, NULL, status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
    DMPI_API_ENTER;
    return mrecv("MPI_Mrecv", buf, count, type, message, status);
}

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
    DMPI_API_ENTER;
    return mrecv("MPI_Mrecv_c", buf, count, type, message, status);
}

/* Whole elements of type in the status's bytes, MPI_UNDEFINED if the bytes
 * end inside one or the number is more than max. */
static int get_count(const char *fn, const MPI_Status *status, MPI_Datatype type, MPI_Count *count, MPI_Count max)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_ptr(fn, status, "status")) || (err = dmpi_check_type(fn, type, &dt)) ||
        (err = dmpi_check_ptr(fn, count, "count")))
        return dmpi_api_error(NULL, fn, err);
    if (status == MPI_STATUS_IGNORE)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn));
    size_t bytes = dmpi_status_bytes(status);
    if (dt->size == 0)
        *count = 0;
    else if (bytes % dt->size || bytes / dt->size > (size_t)max)
        *count = MPI_UNDEFINED;
    else
        *count = (MPI_Count)(bytes / dt->size);
    return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
    DMPI_API_ENTER;
    MPI_Count n = 0;
    int err = get_count("MPI_Get_count", status, type, count ? &n : NULL, INT_MAX);
    if (err == MPI_SUCCESS)
        *count = (int)n;
    return err;
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    DMPI_API_ENTER;
    return get_count("MPI_Get_count_c", status, type, count, INT64_MAX);
}
