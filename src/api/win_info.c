/* What a window tells about itself: its group, its info hints, its name. */
#include "api/rma_api.h"
#include "core/group.h"
#include "core/info.h"
#include <stdio.h>
#include <string.h>

DMPI_ALIAS(Win_get_group)
DMPI_ALIAS(Win_set_info)
DMPI_ALIAS(Win_get_info)
DMPI_ALIAS(Win_set_name)
DMPI_ALIAS(Win_get_name)

/* A new group for the caller to free, as MPI_Comm_group gives. */
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_get_group";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, group, "group")))
        return dmpi_api_win_error(w, fn, err);
    const dmpi_group_t *wg = w->comm->group;
    dmpi_group_t *g = dmpi_group_new(wg->world, wg->size);
    if (!g)
        return dmpi_api_win_error(w, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    if ((err = dmpi_group_handle(g, group)) != MPI_SUCCESS) {
        dmpi_group_release(g);
        return dmpi_api_win_error(w, fn, err);
    }
    return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_set_info";
    dmpi_win_t *w = NULL;
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)))
        return dmpi_api_win_error(w, fn, err);
    if (!(i = dmpi_info_get(info)))
        return dmpi_api_win_error(w, fn, dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x%s", fn, (unsigned)info,
                                                  info == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : ""));
    if ((err = dmpi_win_set_info(w, i)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

/* A new info object for the caller to free: every key the window keeps. */
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_get_info";
    dmpi_win_t *w = NULL;
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, info_used, "info_used")) ||
        (err = dmpi_win_get_info(w, &i)))
        return dmpi_api_win_error(w, fn, err);
    *info_used = i->handle;
    return MPI_SUCCESS;
}

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_set_name";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, win_name, "win_name")))
        return dmpi_api_win_error(w, fn, err);
    snprintf(w->name, sizeof w->name, "%s", win_name);   /* longer names are cut, as MPI allows */
    return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_get_name";
    if (win == MPI_WIN_NULL)
        return dmpi_null_handle_name(fn, "MPI_WIN_NULL", win_name, resultlen);
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, win_name, "win_name")) ||
        (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_win_error(w, fn, err);
    strcpy(win_name, w->name);
    *resultlen = (int)strlen(w->name);
    return MPI_SUCCESS;
}
