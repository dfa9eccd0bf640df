/* Argument checks. Kept out of line so the entry points stay short; a valid
 * call pays a few compares. */
#include "api/api.h"
#include "core/errhandler.h"
#include "core/session.h"
#include <string.h>

int dmpi_check_init(const char *fn)
{
    if (dmpi_ready())
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_OTHER, "%s: called %s", fn, dmpi_world.state == DMPI_STATE_NONE
                    ? "before MPI_Init (or MPI_Session_init)"
                    : "after MPI_Finalize (and the last MPI_Session_finalize), no longer inside MPI_Init");
}

int dmpi_check_comm(const char *fn, MPI_Comm h, dmpi_comm_t **out)
{
    if ((*out = dmpi_comm_get(h)))
        return MPI_SUCCESS;
    if (h == MPI_COMM_NULL)
        return dmpi_err(MPI_ERR_COMM, "%s: the communicator is MPI_COMM_NULL", fn);
    return dmpi_err(MPI_ERR_COMM, "%s: invalid communicator handle 0x%x", fn, (unsigned)h);
}

int dmpi_check_type(const char *fn, MPI_Datatype h, dmpi_dtype_t **out)
{
    if ((*out = dmpi_dtype_get(h))) {
        if (!(*out)->committed)
            return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s is not committed; call MPI_Type_commit first", fn,
                            dmpi_dtype_desc(*out));
        return MPI_SUCCESS;
    }
    if (h == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: the datatype is MPI_DATATYPE_NULL", fn);
    return dmpi_err(MPI_ERR_TYPE, "%s: invalid datatype handle 0x%x", fn, (unsigned)h);
}

int dmpi_check_count(const char *fn, MPI_Count count)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COUNT, "%s: negative count %lld", fn, (long long)count);
}

int dmpi_check_buf(const char *fn, const void *buf, MPI_Count count, const dmpi_dtype_t *dt)
{
    /* the data of count elements must be countable in bytes */
    if (dt->size > 0 && (unsigned long long)count > (unsigned long long)INT64_MAX / dt->size)
        return dmpi_err(MPI_ERR_COUNT, "%s: count %lld of %s is more than 2^63 bytes", fn, (long long)count,
                        dmpi_dtype_desc(dt));
    /* NULL is MPI_BOTTOM: fine for types with absolute addresses, not for
     * predefined types that hold data. */
    if (buf || count == 0 || dt->size == 0 || !dt->predefined)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but count is %lld of %s", fn, (long long)count,
                    dmpi_dtype_desc(dt));
}

int dmpi_check_dest(const char *fn, int dest, const dmpi_comm_t *c)
{
    if ((dest >= 0 && dest < c->peer_size) || dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_RANK, "%s: invalid destination rank %d (%s has %d %sranks)", fn, dest, c->name,
                    c->peer_size, dmpi_comm_is_inter(c) ? "remote " : "");
}

int dmpi_check_source(const char *fn, int src, const dmpi_comm_t *c)
{
    if ((src >= 0 && src < c->peer_size) || src == MPI_PROC_NULL || src == MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_RANK, "%s: invalid source rank %d (%s has %d %sranks)", fn, src, c->name, c->peer_size,
                    dmpi_comm_is_inter(c) ? "remote " : "");
}

int dmpi_check_send_tag(const char *fn, int tag)
{
    if (tag >= 0 && tag <= DMPI_TAG_UB_VALUE)
        return MPI_SUCCESS;
    if (tag == MPI_ANY_TAG)
        return dmpi_err(MPI_ERR_TAG, "%s: MPI_ANY_TAG is not allowed on a send", fn);
    return dmpi_err(MPI_ERR_TAG, "%s: invalid tag %d (tags run from 0 to %d)", fn, tag, DMPI_TAG_UB_VALUE);
}

int dmpi_check_recv_tag(const char *fn, int tag)
{
    if ((tag >= 0 && tag <= DMPI_TAG_UB_VALUE) || tag == MPI_ANY_TAG)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_TAG, "%s: invalid tag %d (tags run from 0 to %d, or MPI_ANY_TAG)", fn, tag,
                    DMPI_TAG_UB_VALUE);
}

int dmpi_check_ptr(const char *fn, const void *p, const char *what)
{
    if (p)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, what);
}

int dmpi_check_session(const char *fn, MPI_Session h, struct dmpi_session **s)
{
    if ((*s = dmpi_session_get(h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_SESSION, "%s: invalid session 0x%x%s", fn, (unsigned)h,
                    h == MPI_SESSION_NULL ? " (MPI_SESSION_NULL)" : "");
}

int dmpi_api_session_error(struct dmpi_session *s, const char *fn, int code)
{
    if (!s)
        return dmpi_api_error(NULL, fn, code);
    return dmpi_err_handle_session(s->errhandler, s->handle, fn, code);
}

int dmpi_err_status_null(const char *fn, int count)
{
    if (count < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: status is NULL; pass MPI_STATUS_IGNORE if the status is not wanted",
                        fn);
    return dmpi_err(MPI_ERR_ARG, "%s: the array of statuses is NULL but count is %d; pass MPI_STATUSES_IGNORE if "
                    "the statuses are not wanted", fn, count);
}

/* Communicators are named in messages; a user's may have no name. */
static const char *comm_name(const dmpi_comm_t *c) { return c->name[0] ? c->name : "the communicator"; }

int dmpi_check_intra(const char *fn, const dmpi_comm_t *c)
{
    if (!dmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COMM, "%s: %s is an intercommunicator; this call needs an intracommunicator", fn,
                    comm_name(c));
}

int dmpi_check_scan_comm(const char *fn, const dmpi_comm_t *c)
{
    if (!dmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COMM, "%s: %s is an intercommunicator; MPI defines no scans on intercommunicators", fn,
                    comm_name(c));
}

int dmpi_check_inter_in_place(const char *fn, const dmpi_comm_t *c, const void *sendbuf, const void *recvbuf)
{
    if (DMPI_LIKELY(sendbuf != MPI_IN_PLACE && recvbuf != MPI_IN_PLACE) || !dmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s is MPI_IN_PLACE, which is not allowed on an intercommunicator", fn,
                    sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf");
}

int dmpi_check_root(const char *fn, int root, const dmpi_comm_t *c)
{
    if (root >= 0 && root < c->peer_size)
        return MPI_SUCCESS;
    if (!dmpi_comm_is_inter(c))
        return dmpi_err(MPI_ERR_ROOT, "%s: invalid root %d (%s has %d ranks)", fn, root, comm_name(c), c->size);
    if (root == MPI_ROOT || root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ROOT, "%s: invalid root %d on an intercommunicator (MPI_ROOT, MPI_PROC_NULL or a rank "
                    "of the remote group of %d)", fn, root, c->peer_size);
}

int dmpi_check_inter(const char *fn, const dmpi_comm_t *c)
{
    if (dmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COMM, "%s: %s is not an intercommunicator", fn, comm_name(c));
}

int dmpi_check_send_args(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm, dmpi_comm_t **c, dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_check_type(fn, type, dt)) || (err = dmpi_check_buf(fn, buf, count, *dt)) ||
        (err = dmpi_check_dest(fn, dest, *c)) || (err = dmpi_check_send_tag(fn, tag)))
        return err;
    return MPI_SUCCESS;
}

int dmpi_check_recv_args(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int src, int tag,
                         MPI_Comm comm, dmpi_comm_t **c, dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_check_type(fn, type, dt)) || (err = dmpi_check_buf(fn, buf, count, *dt)) ||
        (err = dmpi_check_source(fn, src, *c)) || (err = dmpi_check_recv_tag(fn, tag)))
        return err;
    return MPI_SUCCESS;
}

int dmpi_null_handle_name(const char *fn, const char *null_name, char *name, int *resultlen)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, name, "the name buffer")) ||
        (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(NULL, fn, err);
    strcpy(name, null_name);
    *resultlen = (int)strlen(null_name);
    return MPI_SUCCESS;
}
