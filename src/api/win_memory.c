/* The memory of a window after creation: attaching to and detaching from a
 * dynamic window, and the other ranks' parts of a shared one. Whether the
 * window is of the right flavor, and whether memory is attached, only the
 * engine knows. */
#include "api/rma_api.h"
#include <limits.h>

DMPI_ALIAS(Win_attach)
DMPI_ALIAS(Win_detach)
DMPI_ALIAS(Win_shared_query)
DMPI_ALIAS(Win_shared_query_c)

static int check_region(const char *fn, const void *base, MPI_Aint size)
{
    if (size < 0)
        return dmpi_err(MPI_ERR_SIZE, "%s: negative size %ld", fn, (long)size);
    if (!base && size > 0)
        return dmpi_err(MPI_ERR_BASE, "%s: base is NULL but size is %ld", fn, (long)size);
    return MPI_SUCCESS;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_attach";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = check_region(fn, base, size)) ||
        (err = dmpi_win_attach(w, base, size)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_detach";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_win_detach(w, base)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

/* Win_shared_query and its _c form; the int form cannot hold a disp_unit above INT_MAX. */
static int shared_query(const char *fn, MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, int *idisp_unit,
                        void *baseptr)
{
    dmpi_win_t *w = NULL;
    MPI_Aint du;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_win_rank(fn, w, rank, "rank")) ||
        (err = dmpi_check_ptr(fn, size, "size")) ||
        (err = dmpi_check_ptr(fn, disp_unit ? (void *)disp_unit : (void *)idisp_unit, "disp_unit")) ||
        (err = dmpi_check_ptr(fn, baseptr, "baseptr")) || (err = dmpi_win_shared_query(w, rank, size, &du, baseptr)))
        return dmpi_api_win_error(w, fn, err);
    if (disp_unit) {
        *disp_unit = du;
        return MPI_SUCCESS;
    }
    if (du > INT_MAX)
        return dmpi_api_win_error(w, fn, dmpi_err(MPI_ERR_VALUE_TOO_LARGE, "%s: the disp_unit %ld of rank %d does "
                                                  "not fit in an int; use MPI_Win_shared_query_c", fn, (long)du,
                                                  rank));
    *idisp_unit = (int)du;
    return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    DMPI_API_ENTER;
    return shared_query("MPI_Win_shared_query", win, rank, size, NULL, disp_unit, baseptr);
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    DMPI_API_ENTER;
    return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, NULL, baseptr);
}
