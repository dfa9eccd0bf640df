/* One shared mapping for a window whose ranks all share this node: the
 * ranks' synchronisation words (rma/direct.c), then, for Win_allocate and
 * Win_allocate_shared, the window memory itself (Win_allocate_shared's
 * ranks must share a node; on one rank it is all memory). Rank 0 of the window
 * creates the mapping in /dev/shm, the others map it, and once all have it
 * the name is unlinked, so nothing stays behind even after a crash (the
 * launcher removes /dev/shm/dmpi-<job>* as well).
 *
 * Layout: the control words (a cache line per rank, rounded to a page),
 * then the ranks' parts in rank order, back to back (MPI's contiguous
 * default), or each starting on a page with alloc_shared_noncontig. */
#include "rma/rma_internal.h"
#include "coll/coll.h"
#include "core/info.h"
#include "core/params.h"
#include "pmi/pmi.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define PAGE 4096

static bool on_one_node(const dmpi_comm_t *c)
{
    int node = dmpi_world.node_of_world[dmpi_comm_world_rank(c, 0)];
    for (int r = 1; r < c->size; r++)
        if (dmpi_world.node_of_world[dmpi_comm_world_rank(c, r)] != node)
            return false;
    return true;
}

static bool info_true(const struct dmpi_info *info, const char *key)
{
    const char *v = info ? dmpi_info_lookup(info, key) : NULL;
    return v && strcmp(v, "true") == 0;
}

int rma_shm_plan(dmpi_win_t *w, struct dmpi_info *info)
{
    struct rma_state *st = w->st;
    bool one_node = on_one_node(w->comm);
    if (w->flavor == MPI_WIN_FLAVOR_SHARED && !one_node)
        return dmpi_err(MPI_ERR_RMA_SHARED, "MPI_Win_allocate_shared: the ranks of the communicator are on more "
                        "than one node, so they cannot share memory (split it with MPI_COMM_TYPE_SHARED)");
    st->use_map = one_node && (w->flavor == MPI_WIN_FLAVOR_SHARED || (w->comm->size > 1 && dmpi_params.rma_direct));
    st->map_memory = st->use_map && (w->flavor == MPI_WIN_FLAVOR_SHARED || w->flavor == MPI_WIN_FLAVOR_ALLOCATE);
    st->shared_noncontig = info_true(info, "alloc_shared_noncontig");
    return MPI_SUCCESS;
}

static size_t page_up(size_t n) { return (n + PAGE - 1) & ~(size_t)(PAGE - 1); }

/* Rank 0: makes and maps the mapping, writing its name; NULL on failure (said why). */
static void *create_map(char *name, size_t len, size_t bytes)
{
    static unsigned serial;
    snprintf(name, len, "/dmpi-%s-win%d-%u", dmpi_pmi_kvsname(), dmpi_world.rank, serial++);
    struct statvfs vfs;
    if (statvfs("/dev/shm", &vfs) == 0 && (unsigned long long)vfs.f_bavail * vfs.f_frsize < bytes) {
        fprintf(stderr, "dmpi: /dev/shm has too little room for a window of %zu bytes\n", bytes);
        return NULL;
    }
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    int err = fchmod(fd, 0600) != 0 ? errno : 0;
    if (!err)
        err = ftruncate(fd, (off_t)bytes) != 0 ? errno : posix_fallocate(fd, 0, (off_t)bytes);
    void *p = err ? MAP_FAILED : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(name);
        return NULL;
    }
    return p;
}

static void *open_map(const char *name, size_t bytes)
{
    int fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

int rma_shm_share(dmpi_win_t *w)
{
    struct rma_state *st = w->st;
    if (!st->use_map)
        return MPI_SUCCESS;
    size_t *off = malloc((size_t)st->size * sizeof *off);
    if (!off)
        return dmpi_err(MPI_ERR_NO_MEM, "window creation: out of memory");
    bool words = st->size > 1 && dmpi_params.rma_direct;
    size_t ctl = words ? page_up((size_t)st->size * sizeof(rma_ctl_t)) : 0, total = ctl;
    for (int r = 0; r < st->size; r++) {
        off[r] = total;
        if (st->map_memory)
            total += st->shared_noncontig ? page_up((size_t)st->peers[r].size) : (size_t)st->peers[r].size;
    }
    int err = MPI_SUCCESS;
    char *map = NULL;
    char name[256] = "";
    if (total > 0) {
        if (st->rank == 0)
            map = create_map(name, sizeof name, total);
        err = dmpi_coll_bcast(w->comm, name, sizeof name, dmpi_dtype_get(MPI_CHAR), 0, NULL);
        if (err == MPI_SUCCESS && st->rank != 0 && name[0])
            map = open_map(name, total);
        int ok = map != NULL, all_ok = 0;
        if (err == MPI_SUCCESS)
            err = dmpi_coll_allreduce(w->comm, &ok, &all_ok, 1, dmpi_dtype_get(MPI_INT), dmpi_op_get(MPI_MIN), NULL);
        if (st->rank == 0 && name[0])
            shm_unlink(name);       /* every rank has it mapped, or the window fails */
        if (err == MPI_SUCCESS && !all_ok)
            err = dmpi_err(MPI_ERR_NO_MEM, "window creation: cannot share %zu bytes of memory in /dev/shm", total);
        if (err != MPI_SUCCESS) {
            if (map)
                munmap(map, total);
            free(off);
            return err;
        }
        st->map = map;
        st->map_bytes = total;
    }
    st->ctl = ctl ? (rma_ctl_t *)map : NULL;    /* zero-filled by the kernel */
    if (st->map_memory) {
        for (int r = 0; r < st->size; r++)
            st->peers[r].shared = map ? map + off[r] : NULL;
        w->base = map ? map + off[st->rank] : NULL;
        st->peers[st->rank].base = (uint64_t)(uintptr_t)w->base;
    }
    free(off);
    return MPI_SUCCESS;
}

void rma_shm_unmap(struct rma_state *st)
{
    if (st->map)
        munmap(st->map, st->map_bytes);
    st->map = NULL;
    st->map_bytes = 0;
}
