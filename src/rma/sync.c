/* Synchronisation of one-sided communication: fence, post-start-complete-
 * wait, passive-target locks and flushes, and the epoch bookkeeping that
 * turns a call in the wrong epoch into MPI_ERR_RMA_SYNC.
 *
 * Remote completion is an acknowledged command that the target runs after
 * every earlier command of this origin (rma/am.c): UNLOCK and FLUSH are
 * acknowledged, COMPLETE is counted by the target's Win_wait. A fence is
 * a flush of every target written since the last one, then a barrier.
 * Operations that acknowledge themselves (Get, Get_accumulate, CAS) or that
 * ran on memory this rank addresses need no flush. */
#include "rma/rma_internal.h"
#include "coll/coll.h"
#include "core/group.h"
#include "p2p/p2p.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sync_error(const char *fn, const char *why)
{
    return dmpi_err(MPI_ERR_RMA_SYNC, "%s: %s", fn, why);
}

/* ---- waiting for a condition, with a report if it hangs ------------------- */

typedef struct post_wait {
    struct rma_state *st;
    int target;
} post_wait_t;

static bool post_arrived(void *arg)
{
    post_wait_t *a = arg;
    return a->st->posts[a->target] > 0;
}

static void describe_post(void *arg, char *buf, size_t len)
{
    post_wait_t *a = arg;
    snprintf(buf, len, "MPI_Win_post of rank %d of the window (this rank called MPI_Win_start with it)", a->target);
}

/* The PSCW access epoch to target may begin once its post arrived. */
static void consume_post(struct rma_state *st, int target)
{
    post_wait_t a = {st, target};
    if (!post_arrived(&a))
        dmpi_progress_until_described(post_arrived, &a, describe_post);
    st->posts[target]--;
    st->start_wait[target] = 2;
}

int rma_check_access(struct rma_state *st, int target, const char *fn, bool request)
{
    if (DMPI_LIKELY(st->lock_all || st->locked[target]))
        return MPI_SUCCESS;
    if (request)                    /* MPI_Rput ...: valid only in passive target */
        return dmpi_err(MPI_ERR_RMA_SYNC, "%s: request-based operations are valid only in a passive-target "
                        "epoch (MPI_Win_lock or MPI_Win_lock_all to rank %d)", fn, target);
    if (st->start_group && st->start_wait[target]) {
        if (st->start_wait[target] == 1)
            consume_post(st, target);
        return MPI_SUCCESS;
    }
    if (st->fence_on) {
        st->fence_used = true;
        return MPI_SUCCESS;
    }
    return dmpi_err(MPI_ERR_RMA_SYNC, "%s: no access epoch to rank %d of the window is open (begin one with "
                    "MPI_Win_fence, MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all)", fn, target);
}

/* A lock or PSCW epoch may not begin while a fence epoch has operations. */
static int leave_fence(struct rma_state *st, const char *fn)
{
    if (st->fence_on && st->fence_used)
        return sync_error(fn, "operations of the fence epoch are not completed by an MPI_Win_fence yet");
    st->fence_on = false;
    return MPI_SUCCESS;
}

/* One acknowledged command to each target in [lo, hi) (all but this rank;
 * with only_dirty, those written since their last acknowledgement), sent
 * together, then every answer awaited; the first error. */
static int ack_each(struct rma_state *st, int lo, int hi, int kind, int type, bool only_dirty)
{
    rma_pend_t **acks = calloc((size_t)(hi - lo), sizeof *acks);
    if (!acks)
        return dmpi_err(MPI_ERR_NO_MEM, "one-sided synchronisation: out of memory");
    int err = MPI_SUCCESS, n = 0;
    for (int t = lo; t < hi; t++) {
        if (only_dirty ? !st->dirty[t] : t == st->rank)
            continue;
        st->dirty[t] = 0;
        int e = rma_am_sync_start(st, t, kind, type, true, &acks[n]);
        if (e == MPI_SUCCESS)
            n++;
        else if (err == MPI_SUCCESS)
            err = e;
    }
    for (int i = 0; i < n; i++) {
        int e = rma_am_sync_finish(st, acks[i]);
        if (err == MPI_SUCCESS)
            err = e;
    }
    free(acks);
    return err;
}

/* Remote completion at the targets (target -1: every one) written since
 * their last acknowledgement. */
static int flush_remote(struct rma_state *st, int target)
{
    int err = rma_pend_wait(st, target);
    int lo = target < 0 ? 0 : target, hi = target < 0 ? st->size : target + 1;
    if (!memchr(st->dirty + lo, 1, (size_t)(hi - lo)))
        return err;                 /* nothing unacknowledged (always so on a node's window) */
    int e = ack_each(st, lo, hi, AM_FLUSH, 0, true);
    return err != MPI_SUCCESS ? err : e;
}

/* ---- fence -------------------------------------------------------------- */

int dmpi_win_fence(int assert, dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (st->nlocked || st->lock_all)
        return sync_error("MPI_Win_fence", "a passive-target epoch (MPI_Win_lock, MPI_Win_lock_all) is open");
    if (st->start_group || st->post_group)
        return sync_error("MPI_Win_fence", "a post-start-complete-wait epoch is open");
    int err = MPI_SUCCESS;
    if (!(assert & MPI_MODE_NOPRECEDE))
        err = flush_remote(st, -1);
    int e = st->size > 1 ? dmpi_coll_barrier(w->comm) : MPI_SUCCESS;
    st->fence_on = !(assert & MPI_MODE_NOSUCCEED);
    st->fence_used = false;
    return err != MPI_SUCCESS ? err : e;
}

/* ---- post-start-complete-wait -------------------------------------------- */

/* The window ranks of group g's members (MPI_ERR_GROUP if one is not in the window). */
static int window_ranks(struct rma_state *st, const dmpi_group_t *g, const char *fn, int **out)
{
    int *r = malloc(((size_t)g->size + 1) * sizeof *r);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < g->size; i++) {
        r[i] = dmpi_group_rank_of_world(st->win->comm->group, g->world[i]);
        if (r[i] == MPI_UNDEFINED) {
            free(r);
            return dmpi_err(MPI_ERR_GROUP, "%s: rank %d of the group is not in the window's group", fn, i);
        }
    }
    *out = r;
    return MPI_SUCCESS;
}

int dmpi_win_post(struct dmpi_group *g, int assert, dmpi_win_t *w)
{
    (void)assert;
    struct rma_state *st = w->st;
    const char *fn = "MPI_Win_post";
    if (st->post_group)
        return sync_error(fn, "an exposure epoch (MPI_Win_post) is already open; MPI_Win_wait ends it");
    int *ranks, err;
    if ((err = window_ranks(st, g, fn, &ranks)))
        return err;
    for (int i = 0; i < g->size; i++) {
        if (ranks[i] == st->rank)
            st->posts[st->rank]++;
        else if ((err = rma_am_sync_start(st, ranks[i], AM_POST, 0, false, NULL)) != MPI_SUCCESS)
            break;
    }
    st->post_group = ranks;
    st->post_n = g->size;
    return err;
}

int dmpi_win_start(struct dmpi_group *g, int assert, dmpi_win_t *w)
{
    (void)assert;
    struct rma_state *st = w->st;
    const char *fn = "MPI_Win_start";
    if (st->start_group)
        return sync_error(fn, "an access epoch (MPI_Win_start) is already open; MPI_Win_complete ends it");
    if (st->nlocked || st->lock_all)
        return sync_error(fn, "a passive-target epoch (MPI_Win_lock, MPI_Win_lock_all) is open");
    int *ranks, err;
    if ((err = leave_fence(st, fn)) || (err = window_ranks(st, g, fn, &ranks)))
        return err;
    for (int i = 0; i < g->size; i++)
        st->start_wait[ranks[i]] = 1;
    st->start_group = ranks;
    st->start_n = g->size;
    return MPI_SUCCESS;
}

int dmpi_win_complete(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->start_group)
        return sync_error("MPI_Win_complete", "no access epoch was begun by MPI_Win_start");
    for (int i = 0; i < st->start_n; i++)
        if (st->start_wait[st->start_group[i]] == 1)
            consume_post(st, st->start_group[i]);
    int err = rma_pend_wait(st, -1);
    for (int i = 0; i < st->start_n; i++) {
        int t = st->start_group[i];
        st->start_wait[t] = 0;
        st->dirty[t] = 0;           /* COMPLETE runs after everything sent to t */
        if (t == st->rank)
            st->completes++;
        else {
            int e = rma_am_sync_start(st, t, AM_COMPLETE, 0, false, NULL);
            if (err == MPI_SUCCESS)
                err = e;
        }
    }
    free(st->start_group);
    st->start_group = NULL;
    st->start_n = 0;
    return err;
}

static bool all_completed(void *arg)
{
    struct rma_state *st = arg;
    return st->completes >= st->post_n;
}

static void describe_completes(void *arg, char *buf, size_t len)
{
    struct rma_state *st = arg;
    snprintf(buf, len, "MPI_Win_complete of %d of the %d ranks this rank's MPI_Win_post named",
             st->post_n - st->completes, st->post_n);
}

static void end_exposure(struct rma_state *st)
{
    st->completes -= st->post_n;
    free(st->post_group);
    st->post_group = NULL;
    st->post_n = 0;
}

int dmpi_win_wait(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->post_group)
        return sync_error("MPI_Win_wait", "no exposure epoch was begun by MPI_Win_post");
    if (!all_completed(st))
        dmpi_progress_until_described(all_completed, st, describe_completes);
    end_exposure(st);
    return MPI_SUCCESS;
}

int dmpi_win_test(dmpi_win_t *w, int *flag)
{
    struct rma_state *st = w->st;
    if (!st->post_group)
        return sync_error("MPI_Win_test", "no exposure epoch was begun by MPI_Win_post");
    dmpi_progress();
    *flag = all_completed(st);
    if (*flag)
        end_exposure(st);
    return MPI_SUCCESS;
}

/* ---- passive target ------------------------------------------------------- */

typedef struct self_lock {
    struct rma_state *st;
    int type;
} self_lock_t;

static bool self_locked(void *arg)
{
    self_lock_t *a = arg;
    return rma_lock_try(a->st, a->st->rank, a->type);
}

static void describe_self_lock(void *arg, char *buf, size_t len)
{
    self_lock_t *a = arg;
    snprintf(buf, len, "a lock on this rank's own window memory, held by %s", a->st->lock.excl >= 0 ?
             "another rank (exclusive)" : "other ranks (shared)");
}

static void lock_self(struct rma_state *st, int type)
{
    self_lock_t a = {st, type};
    if (!self_locked(&a))
        dmpi_progress_until_described(self_locked, &a, describe_self_lock);
}

int dmpi_win_lock(int type, int rank, int assert, dmpi_win_t *w)
{
    (void)assert;
    struct rma_state *st = w->st;
    const char *fn = "MPI_Win_lock";
    if (st->locked[rank] || st->lock_all) {
        char why[96];
        snprintf(why, sizeof why, "this rank already holds a lock on rank %d of the window", rank);
        return sync_error(fn, why);
    }
    if (st->start_group)
        return sync_error(fn, "an access epoch (MPI_Win_start) is open");
    int err;
    if ((err = leave_fence(st, fn)))
        return err;
    if (st->ctl)
        rma_ctl_lock(st, rank, type);
    else if (rank == st->rank)
        lock_self(st, type);
    else {
        rma_pend_t *p;
        if ((err = rma_am_sync_start(st, rank, AM_LOCK, type, true, &p)) ||
            (err = rma_am_sync_finish(st, p)))
            return err;
    }
    st->locked[rank] = (unsigned char)(type == MPI_LOCK_EXCLUSIVE ? 2 : 1);
    st->nlocked++;
    return MPI_SUCCESS;
}

int dmpi_win_unlock(int rank, dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->locked[rank]) {
        char why[96];
        snprintf(why, sizeof why, "this rank holds no lock on rank %d of the window (MPI_Win_lock)", rank);
        return sync_error("MPI_Win_unlock", why);
    }
    int err = rma_pend_wait(st, rank);
    int type = st->locked[rank] == 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
    st->locked[rank] = 0;
    st->nlocked--;
    if (st->ctl) {                  /* operations by messages (if any) complete first */
        int e = st->dirty[rank] ? flush_remote(st, rank) : MPI_SUCCESS;
        rma_ctl_unlock(&st->ctl[rank], type);
        return err != MPI_SUCCESS ? err : e;
    }
    st->dirty[rank] = 0;            /* UNLOCK runs after everything sent to rank */
    if (rank == st->rank) {
        rma_lock_release(st, st->rank);
        return err;
    }
    rma_pend_t *p;
    int e = rma_am_sync_start(st, rank, AM_UNLOCK, 0, true, &p);
    if (e == MPI_SUCCESS)
        e = rma_am_sync_finish(st, p);
    return err != MPI_SUCCESS ? err : e;
}

int dmpi_win_lock_all(int assert, dmpi_win_t *w)
{
    (void)assert;
    struct rma_state *st = w->st;
    const char *fn = "MPI_Win_lock_all";
    if (st->lock_all || st->nlocked)
        return sync_error(fn, "this rank already holds a lock on the window");
    if (st->start_group)
        return sync_error(fn, "an access epoch (MPI_Win_start) is open");
    int err;
    if ((err = leave_fence(st, fn)))
        return err;
    if (st->ctl) {
        for (int t = 0; t < st->size; t++)
            rma_ctl_lock(st, t, MPI_LOCK_SHARED);
        st->lock_all = true;
        return MPI_SUCCESS;
    }
    lock_self(st, MPI_LOCK_SHARED);
    if ((err = ack_each(st, 0, st->size, AM_LOCK, MPI_LOCK_SHARED, false)) != MPI_SUCCESS) {
        rma_lock_release(st, st->rank);
        return err;
    }
    st->lock_all = true;
    return MPI_SUCCESS;
}

int dmpi_win_unlock_all(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->lock_all)
        return sync_error("MPI_Win_unlock_all", "no MPI_Win_lock_all epoch is open");
    int err = rma_pend_wait(st, -1), e;
    if (st->ctl) {
        e = flush_remote(st, -1);
        for (int t = 0; t < st->size; t++)
            rma_ctl_unlock(&st->ctl[t], MPI_LOCK_SHARED);
        st->lock_all = false;
        return err != MPI_SUCCESS ? err : e;
    }
    e = ack_each(st, 0, st->size, AM_UNLOCK, 0, false);
    rma_lock_release(st, st->rank);
    memset(st->dirty, 0, (size_t)st->size);
    st->lock_all = false;
    return err != MPI_SUCCESS ? err : e;
}

int dmpi_win_flush(int rank, bool local_only, dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    const char *fn = rank < 0 ? (local_only ? "MPI_Win_flush_local_all" : "MPI_Win_flush_all")
                              : (local_only ? "MPI_Win_flush_local" : "MPI_Win_flush");
    if (!st->lock_all && (rank < 0 ? !st->nlocked : !st->locked[rank]))
        return sync_error(fn, "no passive-target epoch (MPI_Win_lock, MPI_Win_lock_all) is open to that rank");
    /* A rank that spins on its own memory (Compare_and_swap, flush) must
     * still serve the commands others send it; in a window on one node
     * commands are rare (dynamic windows, PSCW), so every 64th flush looks. */
    if (!st->ctl || (++st->flush_polls & 63) == 0)
        dmpi_progress();
    return local_only ? rma_pend_wait(st, rank) : flush_remote(st, rank);
}

int dmpi_win_sync(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->lock_all && !st->nlocked)     /* as MPICH: only passive target has private copies to sync */
        return sync_error("MPI_Win_sync", "no passive-target epoch (MPI_Win_lock, MPI_Win_lock_all) is open");
    atomic_thread_fence(memory_order_seq_cst);
    dmpi_progress();
    return MPI_SUCCESS;
}
