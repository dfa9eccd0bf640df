/* Shared by the one-sided entry points (api/win*.c, api/rma_*.c): the
 * window a call names, the checks of its targets and data, and the hand-off
 * of errors to the window's error handler (MPI-4.1 section 12.6.1: errors
 * of a call on a window are raised on it; those of the calls that create
 * one, on their communicator). */
#ifndef DMPI_API_RMA_H
#define DMPI_API_RMA_H

#include "api/api.h"
#include "core/errhandler.h"
#include "rma/rma.h"

/* Error return through w's handler; w NULL (no valid window yet): through
 * MPI_COMM_WORLD's, as for the other calls without a communicator. */
static inline int dmpi_api_win_error(dmpi_win_t *w, const char *fn, int code)
{
    if (!w)
        return dmpi_api_error(NULL, fn, code);
    return dmpi_err_handle_win(w->errhandler, w->handle, w->name, fn, code);
}

/* Each returns MPI_SUCCESS or an error code whose message names fn and the argument. */
/* Inside MPI_Init and h a live window (MPI_ERR_WIN); *out NULL otherwise. */
int dmpi_check_win(const char *fn, MPI_Win h, dmpi_win_t **out);
/* A rank of w's group, or MPI_PROC_NULL (MPI_ERR_RANK); what names the argument. */
int dmpi_check_win_rank(const char *fn, const dmpi_win_t *w, int rank, const char *what);
/* target_disp: not negative, but on a dynamic window, where it is an address (MPI_ERR_DISP). */
int dmpi_check_win_disp(const char *fn, const dmpi_win_t *w, MPI_Aint disp);
/* One side of an operation, what = "origin", "result" or "target": what_count
 * not negative (MPI_ERR_COUNT), what_datatype valid and committed (MPI_ERR_TYPE). */
int dmpi_check_rma_type(const char *fn, MPI_Count count, MPI_Datatype type, const char *what, dmpi_dtype_t **dt);
/* what_addr holds count elements of dt: NULL only as MPI_BOTTOM, for a
 * derived type of absolute addresses, or for no data (MPI_ERR_BUFFER). */
int dmpi_check_rma_buf(const char *fn, const void *buf, MPI_Count count, const dmpi_dtype_t *dt, const char *what);
/* assert holds only MPI_MODE_* bits of allowed (MPI_ERR_ASSERT). */
int dmpi_check_assert(const char *fn, int assert, int allowed);

/* The end of an operation: its error raised on w, or the request r of an
 * R form handed out (r NULL: a plain form). */
static inline int dmpi_rma_return(const char *fn, dmpi_win_t *w, int err, dmpi_request_t *r, MPI_Request *request)
{
    if (DMPI_UNLIKELY(err != MPI_SUCCESS))
        return dmpi_api_win_error(w, fn, err);
    if (r)
        *request = r->handle;
    return MPI_SUCCESS;
}
/* An operation on target MPI_PROC_NULL does nothing; the request of an R
 * form (request not NULL) is complete at once, with MPI_PROC_NULL's status. */
int dmpi_rma_proc_null(const char *fn, dmpi_win_t *w, MPI_Request *request);

#endif
