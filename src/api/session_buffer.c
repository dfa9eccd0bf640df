/* MPI-4.1's buffer of a session for buffered sends (attach, detach, flush):
 * the communicators derived from the session use it when they have none of
 * their own (p2p/bsend.c). The communicator forms are in api/buffer.c. */
#include "api/api.h"
#include "core/session.h"
#include "p2p/bsend.h"
#include <limits.h>

DMPI_ALIAS(Session_attach_buffer)
DMPI_ALIAS(Session_attach_buffer_c)
DMPI_ALIAS(Session_detach_buffer)
DMPI_ALIAS(Session_detach_buffer_c)
DMPI_ALIAS(Session_flush_buffer)
DMPI_ALIAS(Session_iflush_buffer)

/* Attach: size is ignored with MPI_BUFFER_AUTOMATIC. */
static int attach(const char *fn, MPI_Session session, void *buffer, MPI_Count size)
{
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)))
        return dmpi_api_session_error(s, fn, err);
    if (buffer != MPI_BUFFER_AUTOMATIC) {
        if (size < 0)
            err = dmpi_err(MPI_ERR_ARG, "%s: negative buffer size %lld", fn, (long long)size);
        else if (!buffer && size > 0)
            err = dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but size is %lld", fn, (long long)size);
    }
    if (err ||
        (err = dmpi_session_buffer_attach(fn, s, buffer, buffer == MPI_BUFFER_AUTOMATIC ? 0 : (size_t)size)))
        return dmpi_api_session_error(s, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    DMPI_API_ENTER;
    return attach("MPI_Session_attach_buffer", session, buffer, size);
}

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    DMPI_API_ENTER;
    return attach("MPI_Session_attach_buffer_c", session, buffer, size);
}

/* Detach: *size (int form: isize) gets what was attached. */
static int detach(const char *fn, MPI_Session session, void *buffer_addr, MPI_Count *size, int *isize)
{
    dmpi_session_t *s = NULL;
    size_t n;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) ||
        (err = dmpi_check_ptr(fn, buffer_addr, "the buffer address pointer")) ||
        (err = dmpi_check_ptr(fn, size ? (void *)size : (void *)isize, "the size pointer")) ||
        (err = dmpi_session_buffer_detach(s, buffer_addr, &n)))
        return dmpi_api_session_error(s, fn, err);
    if (size)
        *size = (MPI_Count)n;
    else
        *isize = n > INT_MAX ? INT_MAX : (int)n;
    return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    DMPI_API_ENTER;
    return detach("MPI_Session_detach_buffer", session, buffer_addr, NULL, size);
}

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    DMPI_API_ENTER;
    return detach("MPI_Session_detach_buffer_c", session, buffer_addr, size, NULL);
}

int PMPI_Session_flush_buffer(MPI_Session session)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_flush_buffer";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = dmpi_session_buffer_flush(s)))
        return dmpi_api_session_error(s, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_iflush_buffer";
    dmpi_session_t *s = NULL;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = dmpi_session_buffer_iflush(s, &r)))
        return dmpi_api_session_error(s, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}
