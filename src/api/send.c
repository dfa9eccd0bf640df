/* MPI_Send and its modes, blocking and nonblocking, and the Bsend buffer;
 * each int form and its large-count (_c) form call one function taking MPI_Count. */
#include "api/api.h"
#include "p2p/p2p.h"
#include "p2p/bsend.h"
#include <limits.h>

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
DMPI_ALIAS(Send_c)
DMPI_ALIAS(Ssend_c)
DMPI_ALIAS(Rsend_c)
DMPI_ALIAS(Bsend_c)
DMPI_ALIAS(Isend_c)
DMPI_ALIAS(Issend_c)
DMPI_ALIAS(Irsend_c)
DMPI_ALIAS(Ibsend_c)
DMPI_ALIAS(Buffer_attach_c)
DMPI_ALIAS(Buffer_detach_c)

static DMPI_ALWAYS_INLINE int blocking_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type,
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

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Send_c", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD);
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC);
}

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Ssend_c", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, DMPI_MODE_READY);
}

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Rsend_c", buf, count, type, dest, tag, comm, DMPI_MODE_READY);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Bsend", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED);
}

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return blocking_send("MPI_Bsend_c", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED);
}

/* A buffered send is complete as soon as its data sits in the buffer. */
static int ibsend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c,
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

static int nonblocking_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
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

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Isend_c", buf, count, type, dest, tag, comm, DMPI_MODE_STANDARD, request);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Issend", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC, request);
}

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Issend_c", buf, count, type, dest, tag, comm, DMPI_MODE_SYNC, request);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Irsend", buf, count, type, dest, tag, comm, DMPI_MODE_READY, request);
}

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Irsend_c", buf, count, type, dest, tag, comm, DMPI_MODE_READY, request);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Ibsend", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED, request);
}

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    DMPI_API_ENTER;
    return nonblocking_send("MPI_Ibsend_c", buf, count, type, dest, tag, comm, DMPI_MODE_BUFFERED, request);
}

/* One attach and one detach serve the int and the MPI_Count forms. */
static int buffer_attach(const char *fn, void *buffer, MPI_Count size)
{
    int err = dmpi_check_init(fn);
    bool automatic = buffer == MPI_BUFFER_AUTOMATIC;    /* size is ignored */
    if (!err && !automatic && size < 0)
        err = dmpi_err(MPI_ERR_ARG, "%s: negative buffer size %lld", fn, (long long)size);
    if (!err && !buffer && size > 0)
        err = dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but size is %lld", fn, (long long)size);
    if (!err)
        err = dmpi_buffer_attach(buffer, automatic ? 0 : (size_t)size);
    return err ? dmpi_api_error(NULL, fn, err) : MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    DMPI_API_ENTER;
    return buffer_attach("MPI_Buffer_attach", buffer, size);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    DMPI_API_ENTER;
    return buffer_attach("MPI_Buffer_attach_c", buffer, size);
}

/* max is what the size argument can hold: a buffer larger than an int
 * stays attached and the int form fails (MPI_Buffer_detach_c detaches it). */
static int buffer_detach(const char *fn, void *buffer_addr, MPI_Count *size, MPI_Count max)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, buffer_addr, "the buffer address pointer")) ||
        (err = dmpi_check_ptr(fn, size, "the size pointer")))
        return dmpi_api_error(NULL, fn, err);
    if (dmpi_buffer_attached_size() > (size_t)max)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: the attached buffer of %zu bytes is larger "
                                                 "than an int can count; call MPI_Buffer_detach_c", fn,
                                                 dmpi_buffer_attached_size()));
    size_t bytes;
    if ((err = dmpi_buffer_detach(buffer_addr, &bytes)))
        return dmpi_api_error(NULL, fn, err);
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    DMPI_API_ENTER;
    MPI_Count n = 0;
    int err = buffer_detach("MPI_Buffer_detach", buffer_addr, size ? &n : NULL, INT_MAX);
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    DMPI_API_ENTER;
    return buffer_detach("MPI_Buffer_detach_c", buffer_addr, size, INT64_MAX);
}
