/* Attributes on windows and their keyvals (core/attr.c, kind
 * DMPI_ATTR_WIN). Windows are never duplicated, so copy callbacks never
 * run; delete callbacks run in Win_delete_attr, when a value is replaced,
 * and in Win_free. The predefined attributes are read from the window. */
#include "api/rma_api.h"
#include "core/attr.h"

DMPI_ALIAS(Win_create_keyval)
DMPI_ALIAS(Win_free_keyval)
DMPI_ALIAS(Win_set_attr)
DMPI_ALIAS(Win_get_attr)
DMPI_ALIAS(Win_delete_attr)

static dmpi_attr_owner_t owner(dmpi_win_t *w) { return dmpi_attr_owner_win(w->handle, &w->attrs); }

/* MPI_WIN_BASE is the address itself; the others point at the window's
 * own fields, which live as long as the window. */
static void *predefined_value(dmpi_win_t *w, int keyval)
{
    switch (keyval) {
    case MPI_WIN_BASE: return w->base;
    case MPI_WIN_SIZE: return &w->size;
    case MPI_WIN_DISP_UNIT: return &w->disp_unit_attr;
    case MPI_WIN_CREATE_FLAVOR: return &w->flavor;
    case MPI_WIN_MODEL: return &w->model;
    }
    return NULL;
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_create_keyval";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, win_keyval, "win_keyval")) ||
        (err = dmpi_keyval_create(DMPI_ATTR_WIN, win_copy_attr_fn, win_delete_attr_fn, extra_state, win_keyval)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_free_keyval(int *win_keyval)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_free_keyval";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, win_keyval, "win_keyval")) ||
        (err = dmpi_keyval_check(fn, *win_keyval, DMPI_ATTR_WIN, false)))
        return dmpi_api_error(NULL, fn, err);
    return dmpi_keyval_free(win_keyval);
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_set_attr";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_keyval_check(fn, win_keyval, DMPI_ATTR_WIN, false)) ||
        (err = dmpi_attr_set_on(owner(w), win_keyval, attribute_val)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_get_attr";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_keyval_check_held(fn, win_keyval, DMPI_ATTR_WIN, true)) ||
        (err = dmpi_check_ptr(fn, attribute_val, "attribute_val")) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_win_error(w, fn, err);
    if (dmpi_keyval_predefined_kind(win_keyval) == DMPI_ATTR_WIN) {
        *(void **)attribute_val = predefined_value(w, win_keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    if ((err = dmpi_attr_get_on(owner(w), win_keyval, attribute_val, flag)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_delete_attr";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) ||
        (err = dmpi_keyval_check_held(fn, win_keyval, DMPI_ATTR_WIN, false)) ||
        (err = dmpi_attr_delete_on(owner(w), win_keyval)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}
