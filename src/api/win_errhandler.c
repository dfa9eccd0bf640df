/* Error handlers of windows. A handler made here may be set only on
 * windows, one made by MPI_Comm_create_errhandler only on communicators;
 * the predefined ones on both (core/errhandler.c). */
#include "api/rma_api.h"

DMPI_ALIAS(Win_create_errhandler)
DMPI_ALIAS(Win_set_errhandler)
DMPI_ALIAS(Win_get_errhandler)
DMPI_ALIAS(Win_call_errhandler)

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_create_errhandler";
    int err;
    if ((err = dmpi_check_init(fn)) ||
        (err = dmpi_check_ptr(fn, (const void *)win_errhandler_fn, "win_errhandler_fn")) ||
        (err = dmpi_check_ptr(fn, errhandler, "errhandler")) ||
        (err = dmpi_errhandler_create_win(win_errhandler_fn, errhandler)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_set_errhandler";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_errhandler_check(fn, errhandler, DMPI_EH_WIN)))
        return dmpi_api_win_error(w, fn, err);
    dmpi_errhandler_retain(errhandler);
    dmpi_errhandler_release(w->errhandler);
    w->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_get_errhandler";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, errhandler, "errhandler")))
        return dmpi_api_win_error(w, fn, err);
    dmpi_errhandler_retain(w->errhandler);   /* the caller frees its copy */
    *errhandler = w->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_call_errhandler";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)))
        return dmpi_api_win_error(w, fn, err);
    dmpi_api_win_error(w, fn, errorcode);
    return MPI_SUCCESS;
}
