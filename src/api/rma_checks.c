/* Argument checks of the one-sided entry points (api/rma_api.h), out of
 * line like api/checks.c, and the request of an R operation that has no
 * target. */
#include "api/rma_api.h"

int dmpi_check_win(const char *fn, MPI_Win h, dmpi_win_t **out)
{
    *out = NULL;
    int err = dmpi_check_init(fn);
    if (err != MPI_SUCCESS)
        return err;
    if ((*out = dmpi_win_get(h)))
        return MPI_SUCCESS;
    if (h == MPI_WIN_NULL)
        return dmpi_err(MPI_ERR_WIN, "%s: the window is MPI_WIN_NULL", fn);
    return dmpi_err(MPI_ERR_WIN, "%s: invalid window handle 0x%x", fn, (unsigned)h);
}

static const char *win_name(const dmpi_win_t *w) { return w->name[0] ? w->name : "the window"; }

int dmpi_check_win_rank(const char *fn, const dmpi_win_t *w, int rank, const char *what)
{
    if ((rank >= 0 && rank < w->comm->size) || rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_RANK, "%s: invalid %s %d (the group of %s has %d ranks)", fn, what, rank, win_name(w),
                    w->comm->size);
}

int dmpi_check_win_disp(const char *fn, const dmpi_win_t *w, MPI_Aint disp)
{
    if (disp >= 0 || w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_DISP, "%s: negative target_disp %ld", fn, (long)disp);
}

int dmpi_check_rma_type(const char *fn, MPI_Count count, MPI_Datatype type, const char *what, dmpi_dtype_t **dt)
{
    if (count < 0)
        return dmpi_err(MPI_ERR_COUNT, "%s: negative %s_count %lld", fn, what, (long long)count);
    if ((*dt = dmpi_dtype_get(type))) {
        if ((*dt)->committed)
            return MPI_SUCCESS;
        return dmpi_err(MPI_ERR_TYPE, "%s: %s_datatype %s is not committed; call MPI_Type_commit first", fn, what,
                        dmpi_dtype_desc(*dt));
    }
    if (type == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s_datatype is MPI_DATATYPE_NULL", fn, what);
    return dmpi_err(MPI_ERR_TYPE, "%s: invalid %s_datatype handle 0x%x", fn, what, (unsigned)type);
}

/* The rule of api/checks.c's dmpi_check_buf. */
int dmpi_check_rma_buf(const char *fn, const void *buf, MPI_Count count, const dmpi_dtype_t *dt, const char *what)
{
    if (buf || count == 0 || dt->size == 0 || !dt->predefined)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s_addr is NULL but %s_count is %lld of %s", fn, what, what, (long long)count,
                    dmpi_dtype_desc(dt));
}

int dmpi_check_assert(const char *fn, int assert, int allowed)
{
    if ((assert & ~allowed) == 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ASSERT, "%s: assert 0x%x holds bits (0x%x) that are no MPI_MODE_* assertion of this call",
                    fn, (unsigned)assert, (unsigned)(assert & ~allowed));
}

int dmpi_rma_proc_null(const char *fn, dmpi_win_t *w, MPI_Request *request)
{
    if (!request)
        return MPI_SUCCESS;
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_PROC_NULL);
    if (!r)
        return dmpi_api_win_error(w, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of request objects", fn));
    dmpi_req_set_proc_null_status(r);
    r->done = 1;
    *request = r->handle;
    return MPI_SUCCESS;
}
