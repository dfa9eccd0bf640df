/* Window creation and destruction. A new window runs on a private
 * duplicate of the caller's communicator (comm/comm.h), which the engine
 * (rma/) takes over; errors of the creating calls are raised on that
 * communicator, errors of Win_free on the window. */
#include "api/rma_api.h"
#include "comm/comm.h"
#include "core/attr.h"
#include "core/info.h"
#include <string.h>

DMPI_ALIAS(Win_create)
DMPI_ALIAS(Win_allocate)
DMPI_ALIAS(Win_allocate_shared)
DMPI_ALIAS(Win_create_dynamic)
DMPI_ALIAS(Win_free)
DMPI_ALIAS(Win_create_c)
DMPI_ALIAS(Win_allocate_c)
DMPI_ALIAS(Win_allocate_shared_c)

/* What every creating call takes: an intracommunicator, an info object or
 * MPI_INFO_NULL, and somewhere to put the window. */
static int check_create(const char *fn, MPI_Info info, MPI_Comm comm, MPI_Win *win, dmpi_comm_t **c,
                        dmpi_info_t **i)
{
    int err;
    *i = NULL;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_intra(fn, *c)) ||
        (err = dmpi_check_ptr(fn, win, "win")))
        return err;
    if (info != MPI_INFO_NULL && !(*i = dmpi_info_get(info)))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info);
    return MPI_SUCCESS;
}

static int check_size(const char *fn, MPI_Aint size, MPI_Aint disp_unit)
{
    if (size < 0)
        return dmpi_err(MPI_ERR_SIZE, "%s: negative size %ld", fn, (long)size);
    if (disp_unit <= 0)
        return dmpi_err(MPI_ERR_DISP, "%s: disp_unit %ld is not positive", fn, (long)disp_unit);
    return MPI_SUCCESS;
}

/* The memory of Win_create: NULL only when there is none. */
static int check_base(const char *fn, const void *base, MPI_Aint size)
{
    if (base || size == 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BASE, "%s: base is NULL but size is %ld", fn, (long)size);
}

/* The end of every creating call. A new window's error handler is
 * MPI_ERRORS_ARE_FATAL whatever its communicator's is (MPI-4.1 section
 * 12.6.1); this layer owns that reference and lets it go in Win_free. */
static int hand_out(const char *fn, dmpi_comm_t *c, int err, dmpi_win_t *w, MPI_Win *win)
{
    if (err != MPI_SUCCESS) {
        if (win)
            *win = MPI_WIN_NULL;
        return dmpi_api_error(c, fn, err);
    }
    dmpi_errhandler_release(w->errhandler);
    w->errhandler = MPI_ERRORS_ARE_FATAL;
    *win = w->handle;
    return MPI_SUCCESS;
}

/* Win_create and Win_create_c. */
static int create(const char *fn, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                  MPI_Win *win)
{
    dmpi_comm_t *c = NULL, *dup;
    dmpi_info_t *i;
    dmpi_win_t *w = NULL;
    int err;
    if ((err = check_create(fn, info, comm, win, &c, &i)) || (err = check_size(fn, size, disp_unit)) ||
        (err = check_base(fn, base, size)))
        return hand_out(fn, c, err, NULL, win);
    if ((err = dmpi_comm_dup_plain(c, &dup)) == MPI_SUCCESS)
        err = dmpi_win_create(base, size, disp_unit, i, dup, &w);
    return hand_out(fn, c, err, w, win);
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    DMPI_API_ENTER;
    return create("MPI_Win_create", base, size, disp_unit, info, comm, win);
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    DMPI_API_ENTER;
    return create("MPI_Win_create_c", base, size, disp_unit, info, comm, win);
}

static int allocate(const char *fn, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, bool shared,
                    void *baseptr, MPI_Win *win)
{
    dmpi_comm_t *c = NULL, *dup;
    dmpi_info_t *i;
    dmpi_win_t *w = NULL;
    int err;
    if ((err = check_create(fn, info, comm, win, &c, &i)) || (err = check_size(fn, size, disp_unit)) ||
        (err = dmpi_check_ptr(fn, baseptr, "baseptr")))
        return hand_out(fn, c, err, NULL, win);
    if ((err = dmpi_comm_dup_plain(c, &dup)) == MPI_SUCCESS)
        err = dmpi_win_allocate(size, disp_unit, i, dup, shared, baseptr, &w);
    return hand_out(fn, c, err, w, win);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    DMPI_API_ENTER;
    return allocate("MPI_Win_allocate", size, disp_unit, info, comm, false, baseptr, win);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                             MPI_Win *win)
{
    DMPI_API_ENTER;
    return allocate("MPI_Win_allocate_shared", size, disp_unit, info, comm, true, baseptr, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                        MPI_Win *win)
{
    DMPI_API_ENTER;
    return allocate("MPI_Win_allocate_c", size, disp_unit, info, comm, false, baseptr, win);
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    DMPI_API_ENTER;
    return allocate("MPI_Win_allocate_shared_c", size, disp_unit, info, comm, true, baseptr, win);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_create_dynamic";
    dmpi_comm_t *c = NULL, *dup;
    dmpi_info_t *i;
    dmpi_win_t *w = NULL;
    int err;
    if ((err = check_create(fn, info, comm, win, &c, &i)))
        return hand_out(fn, c, err, NULL, win);
    if ((err = dmpi_comm_dup_plain(c, &dup)) == MPI_SUCCESS)
        err = dmpi_win_create_dynamic(i, dup, &w);
    return hand_out(fn, c, err, w, win);
}

int PMPI_Win_free(MPI_Win *win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_free";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, win, "win")) ||
        (err = dmpi_check_win(fn, *win, &w)))
        return dmpi_api_win_error(w, fn, err);
    /* Delete callbacks run first (newest first), on a window still whole;
     * the engine never sees attributes. */
    if ((err = dmpi_attr_delete_all_on(dmpi_attr_owner_win(w->handle, &w->attrs))))
        return dmpi_api_win_error(w, fn, err);
    /* What an error of the engine's free is raised with: w may be gone. */
    MPI_Errhandler e = w->errhandler;
    char name[MPI_MAX_OBJECT_NAME];
    memcpy(name, w->name, sizeof name);
    if ((err = dmpi_win_free(w)))
        return dmpi_err_handle_win(e, *win, name, fn, err);
    dmpi_errhandler_release(e);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}
