/* MPI-4.1's buffers of buffered sends: a communicator's own buffer
 * (attach, detach, flush) and the flushes of the process's buffer
 * (p2p/bsend.c). MPI_Buffer_attach/detach are in api/send.c. */
#include "api/api.h"
#include "p2p/bsend.h"
#include <limits.h>

DMPI_ALIAS(Comm_attach_buffer)
DMPI_ALIAS(Comm_attach_buffer_c)
DMPI_ALIAS(Comm_detach_buffer)
DMPI_ALIAS(Comm_detach_buffer_c)
DMPI_ALIAS(Comm_flush_buffer)
DMPI_ALIAS(Comm_iflush_buffer)
DMPI_ALIAS(Buffer_flush)
DMPI_ALIAS(Buffer_iflush)

/* Attach: size is ignored with MPI_BUFFER_AUTOMATIC. */
static int attach(const char *fn, MPI_Comm comm, void *buffer, MPI_Count size)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)))
        return dmpi_api_error(c, fn, err);
    if (buffer != MPI_BUFFER_AUTOMATIC) {
        if (size < 0)
            err = dmpi_err(MPI_ERR_ARG, "%s: negative buffer size %lld", fn, (long long)size);
        else if (!buffer && size > 0)
            err = dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but size is %lld", fn, (long long)size);
    }
    if (err || (err = dmpi_buffer_attach_to(fn, c, buffer, buffer == MPI_BUFFER_AUTOMATIC ? 0 : (size_t)size)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    DMPI_API_ENTER;
    return attach("MPI_Comm_attach_buffer", comm, buffer, size);
}

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    DMPI_API_ENTER;
    return attach("MPI_Comm_attach_buffer_c", comm, buffer, size);
}

/* Detach: *size (int form: isize) gets what was attached. */
static int detach(const char *fn, MPI_Comm comm, void *buffer_addr, MPI_Count *size, int *isize)
{
    dmpi_comm_t *c = NULL;
    size_t n;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, buffer_addr, "the buffer address pointer")) ||
        (err = dmpi_check_ptr(fn, size ? (void *)size : (void *)isize, "the size pointer")) ||
        (err = dmpi_buffer_detach_from(c, buffer_addr, &n)))
        return dmpi_api_error(c, fn, err);
    if (size)
        *size = (MPI_Count)n;
    else
        *isize = n > INT_MAX ? INT_MAX : (int)n;
    return MPI_SUCCESS;
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    DMPI_API_ENTER;
    return detach("MPI_Comm_detach_buffer", comm, buffer_addr, NULL, size);
}

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    DMPI_API_ENTER;
    return detach("MPI_Comm_detach_buffer_c", comm, buffer_addr, size, NULL);
}

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_flush_buffer";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_buffer_flush(c)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_iflush_buffer";
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, request, "the request pointer")) || (err = dmpi_buffer_iflush(c, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Buffer_flush(void)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Buffer_flush";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_buffer_flush(NULL)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Buffer_iflush(MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Buffer_iflush";
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_buffer_iflush(NULL, &r)))
        return dmpi_api_error(NULL, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}
