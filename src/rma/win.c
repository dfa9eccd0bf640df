/* Window objects: creation of every flavor, the handle table, and freeing.
 * Creation is collective: every rank publishes its memory (address, size,
 * displacement unit) to the others, and any rank's failure makes the call
 * fail on all of them. Windows whose ranks all share this node get their
 * memory (Win_allocate, Win_allocate_shared) from one shared mapping
 * (rma/win_shm.c), so Put and Get to a peer there are plain copies. */
#include "rma/rma_internal.h"
#include "coll/coll.h"
#include "core/info.h"
#include "core/objtable.h"
#include "p2p/p2p.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* MPICH-style direct handles of object type 1000 (MPI_WIN_NULL is 0x20000000). */
static dmpi_objtable_t wins = {.base = 0xa0000000u};
struct rma_state *rma_windows;

dmpi_win_t *dmpi_win_get(MPI_Win h)
{
    if (((unsigned)h & 0xfc000000u) != 0xa0000000u)
        return NULL;
    return dmpi_obj_get(&wins, (uint32_t)h);
}

static void state_free(struct rma_state *st)
{
    free(st->peers);
    free(st->blocked);
    free(st->err_for);
    free(st->dirty);
    free(st->locked);
    free(st->posts);
    free(st->start_wait);
    free(st->queued);
    free(st->regions);
    free(st->start_group);
    free(st->post_group);
    free(st);
}

/* A window over comm with this rank's memory not yet set; NULL if out of memory. */
static dmpi_win_t *win_new(dmpi_comm_t *comm, int flavor)
{
    dmpi_win_t *w = calloc(1, sizeof *w);
    struct rma_state *st = calloc(1, sizeof *st);
    if (!w || !st) {
        free(w);
        free(st);
        return NULL;
    }
    size_t n = (size_t)comm->size;
    st->peers = calloc(n, sizeof *st->peers);
    st->blocked = calloc(n, 1);
    st->err_for = calloc(n, sizeof(int));
    st->dirty = calloc(n, 1);
    st->locked = calloc(n, 1);
    st->posts = calloc(n, sizeof(int));
    st->start_wait = calloc(n, 1);
    st->queued = calloc(n, sizeof(int));
    if (!st->peers || !st->blocked || !st->err_for || !st->dirty || !st->locked || !st->posts || !st->start_wait ||
        !st->queued) {
        state_free(st);
        free(w);
        return NULL;
    }
    st->win = w;
    st->rank = comm->rank;
    st->size = comm->size;
    st->lock.excl = -1;
    w->st = st;
    w->comm = comm;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;
    w->errhandler = MPI_ERRORS_ARE_FATAL;
    return w;
}

/* What each rank tells the others about its part of the window. */
typedef struct published {
    uint64_t base;
    int64_t size;
    int64_t disp_unit;
    int32_t err;
    int32_t unused;                 /* this rank's creation failed with this error class */
} published_t;

/* Exchanges every rank's part; MPI_ERR_* of the first rank that failed
 * (mine is my own error so far), on every rank alike. */
static int publish(dmpi_win_t *w, int mine)
{
    struct rma_state *st = w->st;
    published_t me = {(uint64_t)(uintptr_t)w->base, w->size, w->disp_unit, mine, 0}, *all = NULL;
    int err = MPI_SUCCESS;
    if (!(all = malloc((size_t)st->size * sizeof *all)))
        return dmpi_err(MPI_ERR_NO_MEM, "window creation: out of memory");   /* the job cannot agree: fatal later */
    dmpi_dtype_t *b = dmpi_dtype_get(MPI_BYTE);
    if ((err = dmpi_coll_allgather(w->comm, &me, sizeof me, b, all, sizeof me, b, NULL)) != MPI_SUCCESS) {
        free(all);
        return err;
    }
    for (int r = 0; r < st->size; r++) {
        if (all[r].err != MPI_SUCCESS && err == MPI_SUCCESS)
            err = r == st->rank ? mine
                                : dmpi_err(dmpi_err_class_of(all[r].err) > 0 ? dmpi_err_class_of(all[r].err)
                                                                               : MPI_ERR_OTHER,
                                           "window creation failed on rank %d of the communicator", r);
        st->peers[r].base = all[r].base;
        st->peers[r].size = all[r].size;
        st->peers[r].disp_unit = all[r].disp_unit;
    }
    free(all);
    return err;
}

/* The window goes live: its command receive is posted and it has a handle. */
static int go_live(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    int err = rma_am_open(st);
    if (err != MPI_SUCCESS)
        return err;
    uint32_t h = dmpi_obj_add(&wins, w);
    if (!h) {
        rma_am_close(st);
        return dmpi_err(MPI_ERR_NO_MEM, "window creation: out of memory for a handle");
    }
    w->handle = (MPI_Win)h;
    if (!rma_windows)
        dmpi_progress_add_hook(rma_progress);
    st->next_win = rma_windows;
    rma_windows = st;
    return MPI_SUCCESS;
}

/* Undoes a window that never went live (comm is freed too). */
static void discard(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    rma_shm_unmap(st);
    free(st->alloc);
    if (w->hints)
        dmpi_info_drop(w->hints);
    dmpi_comm_free(w->comm);
    state_free(st);
    free(w);
}

/* The last steps of every creation: info keys, the exchange, going live. */
static int finish_create(dmpi_win_t *w, struct dmpi_info *info, int mine, dmpi_win_t **out)
{
    if (mine == MPI_SUCCESS)
        mine = dmpi_win_set_info(w, info);
    int err = publish(w, mine);
    if (err == MPI_SUCCESS)
        err = rma_shm_share(w);
    if (err == MPI_SUCCESS)
        err = go_live(w);
    if (err != MPI_SUCCESS) {
        discard(w);
        return err;
    }
    *out = w;
    return MPI_SUCCESS;
}

static int out_of_memory(dmpi_comm_t *comm)
{
    dmpi_comm_free(comm);
    return dmpi_err(MPI_ERR_NO_MEM, "window creation: out of memory");
}

int dmpi_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, struct dmpi_info *info, dmpi_comm_t *comm,
                    dmpi_win_t **out)
{
    dmpi_win_t *w = win_new(comm, MPI_WIN_FLAVOR_CREATE);
    if (!w)
        return out_of_memory(comm);
    w->base = base;
    w->size = size;
    w->disp_unit = disp_unit;
    w->disp_unit_attr = disp_unit > INT_MAX ? INT_MAX : (int)disp_unit;
    return finish_create(w, info, rma_shm_plan(w, info), out);
}

int dmpi_win_allocate(MPI_Aint size, MPI_Aint disp_unit, struct dmpi_info *info, dmpi_comm_t *comm, bool shared,
                      void *baseptr, dmpi_win_t **out)
{
    dmpi_win_t *w = win_new(comm, shared ? MPI_WIN_FLAVOR_SHARED : MPI_WIN_FLAVOR_ALLOCATE);
    if (!w)
        return out_of_memory(comm);
    w->size = size;
    w->disp_unit = disp_unit;
    w->disp_unit_attr = disp_unit > INT_MAX ? INT_MAX : (int)disp_unit;
    int mine = rma_shm_plan(w, info);
    if (mine == MPI_SUCCESS && !w->st->map_memory && size > 0) {
        /* not on one node: private memory */
        if (posix_memalign(&w->st->alloc, DMPI_CACHELINE, (size_t)size) != 0)
            mine = dmpi_err(MPI_ERR_NO_MEM, "MPI_Win_allocate: cannot allocate %ld bytes", (long)size);
        w->base = w->st->alloc;
    }
    dmpi_win_t *made = NULL;
    int err = finish_create(w, info, mine, &made);
    if (err == MPI_SUCCESS) {
        *out = made;
        *(void **)baseptr = made->base;
    }
    return err;
}

int dmpi_win_create_dynamic(struct dmpi_info *info, dmpi_comm_t *comm, dmpi_win_t **out)
{
    dmpi_win_t *w = win_new(comm, MPI_WIN_FLAVOR_DYNAMIC);
    if (!w)
        return out_of_memory(comm);
    w->disp_unit = 1;
    w->disp_unit_attr = 1;
    return finish_create(w, info, rma_shm_plan(w, info), out);
}

/* Takes a live window apart (after the collective part of freeing). */
static void destroy(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    rma_am_close(st);
    for (rma_pend_t *p = st->pend, *next; p; p = next) {
        next = p->next;
        rma_pend_free(p);
    }
    struct rma_state **pp = &rma_windows;
    while (*pp != st)
        pp = &(*pp)->next_win;
    *pp = st->next_win;
    if (!rma_windows)
        dmpi_progress_remove_hook(rma_progress);
    dmpi_obj_remove(&wins, (uint32_t)w->handle);
    w->handle = MPI_WIN_NULL;
    discard(w);
}

int dmpi_win_free(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (st->nlocked || st->lock_all)
        return dmpi_err(MPI_ERR_RMA_SYNC, "MPI_Win_free: this rank still holds a lock on the window");
    if (st->start_group || st->post_group)
        return dmpi_err(MPI_ERR_RMA_SYNC, "MPI_Win_free: a post-start-complete-wait epoch is still open");
    int err = rma_pend_wait(st, -1);
    /* Once every rank is here, nobody needs this rank's memory any more. */
    int e = st->size > 1 ? dmpi_coll_barrier(w->comm) : MPI_SUCCESS;
    rma_am_drain(st);
    destroy(w);
    return err != MPI_SUCCESS ? err : e;
}

void dmpi_rma_finalize(void)
{
    while (rma_windows)
        destroy(rma_windows->win);
    dmpi_obj_clear(&wins);
}

/* ---- dynamic windows ---------------------------------------------------------- */

static int not_dynamic(const char *fn)
{
    return dmpi_err(MPI_ERR_RMA_FLAVOR, "%s: the window was not made by MPI_Win_create_dynamic", fn);
}

int dmpi_win_attach(dmpi_win_t *w, void *base, MPI_Aint size)
{
    struct rma_state *st = w->st;
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return not_dynamic("MPI_Win_attach");
    if (st->nregions == st->cap_regions) {
        int cap = st->cap_regions ? 2 * st->cap_regions : 8;
        rma_region_t *r = realloc(st->regions, (size_t)cap * sizeof *r);
        if (!r)
            return dmpi_err(MPI_ERR_NO_MEM, "MPI_Win_attach: out of memory");
        st->regions = r;
        st->cap_regions = cap;
    }
    uintptr_t b = (uintptr_t)base;
    for (int i = 0; i < st->nregions; i++) {
        rma_region_t *r = &st->regions[i];
        if (size > 0 && b < r->base + r->size && r->base < b + (size_t)size)
            return dmpi_err(MPI_ERR_RMA_ATTACH, "MPI_Win_attach: [%p, %p) overlaps memory attached before",
                            base, (void *)(b + (size_t)size));
    }
    st->regions[st->nregions++] = (rma_region_t){b, (size_t)size};
    return MPI_SUCCESS;
}

int dmpi_win_detach(dmpi_win_t *w, const void *base)
{
    struct rma_state *st = w->st;
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return not_dynamic("MPI_Win_detach");
    for (int i = 0; i < st->nregions; i++)
        if (st->regions[i].base == (uintptr_t)base) {
            st->regions[i] = st->regions[--st->nregions];
            return MPI_SUCCESS;
        }
    return dmpi_err(MPI_ERR_RMA_ATTACH, "MPI_Win_detach: %p is not the base of memory attached to the window", base);
}

int dmpi_win_shared_query(dmpi_win_t *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    struct rma_state *st = w->st;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return dmpi_err(MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query: a dynamic window has no shared memory to query");
    if (rank == MPI_PROC_NULL) {
        rank = 0;
        for (int r = 0; r < st->size; r++)
            if (st->peers[r].size > 0) {
                rank = r;
                break;
            }
    }
    void *p = rank == st->rank ? w->base : st->peers[rank].shared;
    /* MPI-4.1: a window of another flavor answers for memory this rank can load and store, else size 0. */
    bool reachable = p || w->flavor == MPI_WIN_FLAVOR_SHARED;
    *size = reachable ? st->peers[rank].size : 0;
    *disp_unit = st->peers[rank].disp_unit;
    *(void **)baseptr = reachable ? p : NULL;
    return MPI_SUCCESS;
}
