/* MPI_Send and its modes, blocking and nonblocking, and the Bsend buffer. */
#include "api/api.h"
#include "p2p/p2p.h"
#include "p2p/bsend.h"

DMPI_ALIAS(Send)
DMPI_ALIAS(Ssend)
DMPI_ALIAS(Rsend)
DMPI_ALIAS(Bsend)
DMPI_ALIAS(Isend)
DMPI_ALIAS(Issend)
DMPI_ALIAS(Irsend)
DMPI_ALIAS(Ibsend)
DMPI_ALIAS(Buffer_attach)
DMPI_ALIAS(Buffer_detach)

static DMPI_ALWAYS_INLINE int blocking_send(const char *fn, const void *buf, int count, MPI_Datatype type,
                                            int dest, int tag, MPI_Comm comm, int mode)
{
    dmpi_comm_t *c = dmpi_comm_get(comm);
    dmpi_dtype_t *dt = dmpi_dtype_get(type);
    if (DMPI_UNLIKELY(!dmpi_p2p_args_ok(c, dt, buf, count, dest, tag))) {
        int err = dmpi_check_send_args(fn, buf, count, type, dest, tag, comm, &c, &dt);
        if (err != MPI_SUCCESS)
            return dmpi_api_error(c, fn, err);
    }
    int err = mode == DMPI_MODE_BUFFERED ? dmpi_bsend(buf, count, dt, dest, tag, c)
                                         : dmpi_send(buf, count, dt, dest, tag, c, mode);
    return DMPI_LIKELY(err == MPI_SUCCESS) ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_FAST(blocking_send("MPI_Send", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD));
    return blocking_send("MPI_Send", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD);
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, DMPI_MODE_READY);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Bsend", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED);
}

/* A buffered send is complete as soon as its data sits in the buffer. */
static int ibsend(const void *buf, int count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
                  dmpi_request_t **out)
{
    int err = dmpi_bsend(buf, count, dt, dest, tag, c);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    r->done = 1;
    *out = r;
    return MPI_SUCCESS;
}

static int nonblocking_send(const char *fn, const void *buf, int count, MPI_Datatype type, int dest, int tag,
                            MPI_Comm comm, int mode, MPI_Request *request)
{
    dmpi_comm_t *c = dmpi_comm_get(comm);
    dmpi_dtype_t *dt = dmpi_dtype_get(type);
    int err;
    if (DMPI_UNLIKELY(!dmpi_p2p_args_ok(c, dt, buf, count, dest, tag) || !request)) {
        if ((err = dmpi_check_send_args(fn, buf, count, type, dest, tag, comm, &c, &dt)) ||
            (err = dmpi_check_ptr(fn, request, "the request pointer")))
            return dmpi_api_error(c, fn, err);
    }
    dmpi_request_t *r;
    err = mode == DMPI_MODE_BUFFERED ? ibsend(buf, count, dt, dest, tag, c, &r)
                                     : dmpi_isend(buf, count, dt, dest, tag, c, mode, &r);
    if (DMPI_UNLIKELY(err != MPI_SUCCESS))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Isend", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD, request);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Issend", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC, request);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Irsend", buf, count, type, dest, tag, comm, DMPI_MODE_READY, request);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Ibsend", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED, request);
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Buffer_attach";
    int err = dmpi_check_init(fn);
    bool automatic = buffer == MPI_BUFFER_AUTOMATIC;    /* size is ignored */
    if (!err && !automatic && size < 0)
        err = dmpi_err(MPI_ERR_ARG, "%s: negative buffer size %d", fn, size);
    if (!err && !buffer && size > 0)
        err = dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but size is %d", fn, size);
    if (!err)
        err = dmpi_buffer_attach(buffer, automatic ? 0 : (size_t)size);
    return err ? dmpi_api_error(NULL, fn, err) : MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Buffer_detach";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, buffer_addr, "the buffer address pointer")) ||
        (err = dmpi_check_ptr(fn, size, "the size pointer")) || (err = dmpi_buffer_detach(buffer_addr, size)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}
