/* Synchronisation of one-sided communication: fence, the post-start-
 * complete-wait epochs of groups, passive-target locks and flushes. Which
 * epoch a call may open or close is the window's state, checked by the
 * engine; here only the arguments. Lock, unlock and flush of MPI_PROC_NULL
 * do nothing. */
#include "api/rma_api.h"
#include "core/group.h"

DMPI_ALIAS(Win_fence)
DMPI_ALIAS(Win_post)
DMPI_ALIAS(Win_start)
DMPI_ALIAS(Win_complete)
DMPI_ALIAS(Win_wait)
DMPI_ALIAS(Win_test)
DMPI_ALIAS(Win_lock)
DMPI_ALIAS(Win_unlock)
DMPI_ALIAS(Win_lock_all)
DMPI_ALIAS(Win_unlock_all)
DMPI_ALIAS(Win_flush)
DMPI_ALIAS(Win_flush_all)
DMPI_ALIAS(Win_flush_local)
DMPI_ALIAS(Win_flush_local_all)
DMPI_ALIAS(Win_sync)

/* The assertions each call takes (MPI-4.1 section 12.5.5). */
#define FENCE_MODES (MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)
#define POST_MODES (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)
#define START_MODES MPI_MODE_NOCHECK
#define LOCK_MODES MPI_MODE_NOCHECK

/* The group of a post or start: valid, and all of it in the window's group. */
static int check_group(const char *fn, MPI_Group h, const dmpi_win_t *w, dmpi_group_t **g)
{
    if (!(*g = dmpi_group_get(h)))
        return dmpi_err(MPI_ERR_GROUP, "%s: invalid group 0x%x%s", fn, (unsigned)h,
                        h == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
    for (int i = 0; i < (*g)->size; i++)
        if (dmpi_group_rank_of_world(w->comm->group, (*g)->world[i]) == MPI_UNDEFINED)
            return dmpi_err(MPI_ERR_GROUP, "%s: rank %d of the group is not in the window's group", fn, i);
    return MPI_SUCCESS;
}

static int check_lock_type(const char *fn, int lock_type)
{
    if (lock_type == MPI_LOCK_SHARED || lock_type == MPI_LOCK_EXCLUSIVE)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_LOCKTYPE, "%s: lock_type %d is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", fn,
                    lock_type);
}

/* The calls that take the window alone. */
static int plain(const char *fn, MPI_Win win, int (*call)(dmpi_win_t *))
{
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = call(w)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_fence";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_assert(fn, assert, FENCE_MODES)) ||
        (err = dmpi_win_fence(assert, w)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

static int post_or_start(const char *fn, MPI_Group group, int assert, MPI_Win win, int allowed,
                         int (*call)(dmpi_group_t *, int, dmpi_win_t *))
{
    dmpi_win_t *w = NULL;
    dmpi_group_t *g;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = check_group(fn, group, w, &g)) ||
        (err = dmpi_check_assert(fn, assert, allowed)) || (err = call(g, assert, w)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    DMPI_API_ENTER;
    return post_or_start("MPI_Win_post", group, assert, win, POST_MODES, dmpi_win_post);
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    DMPI_API_ENTER;
    return post_or_start("MPI_Win_start", group, assert, win, START_MODES, dmpi_win_start);
}

int PMPI_Win_complete(MPI_Win win)
{
    DMPI_API_ENTER;
    return plain("MPI_Win_complete", win, dmpi_win_complete);
}

int PMPI_Win_wait(MPI_Win win)
{
    DMPI_API_ENTER;
    return plain("MPI_Win_wait", win, dmpi_win_wait);
}

int PMPI_Win_test(MPI_Win win, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_test";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_win_test(w, flag)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_lock";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = check_lock_type(fn, lock_type)) ||
        (err = dmpi_check_win_rank(fn, w, rank, "rank")) || (err = dmpi_check_assert(fn, assert, LOCK_MODES)) ||
        (rank != MPI_PROC_NULL && (err = dmpi_win_lock(lock_type, rank, assert, w))))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_unlock";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_win_rank(fn, w, rank, "rank")) ||
        (rank != MPI_PROC_NULL && (err = dmpi_win_unlock(rank, w))))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Win_lock_all";
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = dmpi_check_assert(fn, assert, LOCK_MODES)) ||
        (err = dmpi_win_lock_all(assert, w)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win)
{
    DMPI_API_ENTER;
    return plain("MPI_Win_unlock_all", win, dmpi_win_unlock_all);
}

/* all: the _all forms, rank unused (the engine's -1 is MPI_PROC_NULL's
 * value too, which never reaches it). */
static int flush(const char *fn, int rank, bool all, bool local_only, MPI_Win win)
{
    dmpi_win_t *w = NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (!all && (err = dmpi_check_win_rank(fn, w, rank, "rank"))))
        return dmpi_api_win_error(w, fn, err);
    if (!all && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((err = dmpi_win_flush(all ? -1 : rank, local_only, w)))
        return dmpi_api_win_error(w, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    DMPI_API_ENTER;
    return flush("MPI_Win_flush", rank, false, false, win);
}

int PMPI_Win_flush_all(MPI_Win win)
{
    DMPI_API_ENTER;
    return flush("MPI_Win_flush_all", 0, true, false, win);
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    DMPI_API_ENTER;
    return flush("MPI_Win_flush_local", rank, false, true, win);
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
    DMPI_API_ENTER;
    return flush("MPI_Win_flush_local_all", 0, true, true, win);
}

int PMPI_Win_sync(MPI_Win win)
{
    DMPI_API_ENTER;
    return plain("MPI_Win_sync", win, dmpi_win_sync);
}
