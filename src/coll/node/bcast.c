/* Algorithm: node-level broadcast. The root exposes the data (inline in its
 * post line up to 48 bytes, packed into its slot up to the copy limit, by
 * address above it) and every other rank copies it out. By address the
 * copying is shared: each reader with a contiguous buffer posts its
 * address too, reads the first (n - 1) / n of the data from the root with
 * process_vm_readv, while the root writes the last nth into every such
 * reader with process_vm_writev; both wait until the other side is through.
 * Where single copy is denied, larger messages go through the slots in
 * pieces (pieces.c).
 * Cost: one flag transfer plus one copy per reader (two through the slot);
 * by address (n - 1) / n of the message copied by every rank at once. */
#include "coll/node/node_coll.h"
#include "node/cma.h"
#include <string.h>

/* The root's share of each reader's buffer: the last nth, element-free
 * (bytes of a contiguous buffer). */
static size_t root_share(const nc_state_t *s, size_t bytes) { return bytes / (size_t)s->n; }

static int root_writes(nc_state_t *s, uint64_t t, size_t bytes)
{
    size_t share = root_share(s, bytes), from = bytes - share;
    const char *src = (const char *)(uintptr_t)nc_post(s, s->me, t)->addr + from;
    int err = MPI_SUCCESS;
    for (int r = 0; r < s->n; r++) {
        if (r == s->me)
            continue;
        nc_post_t *p = nc_wait_post(s, r, t, bytes);
        if (p->addr && share && err == MPI_SUCCESS && (err = dmpi_cma_write(s->pid[r], p->addr + from, src, share)))
            err = dmpi_err(MPI_ERR_OTHER, "%s: writing into rank %d's buffer with process_vm_writev failed (%s)",
                           s->call, r, strerror(err));
    }
    return err;
}

/* Two levels (several groups, data within the copy limit): the root's
 * group reads from the root; every other group's leader copies the data
 * and exposes it again in a second phase for its group. */
static int bcast_two_level(nc_state_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int root, int mode)
{
    size_t bytes = count * dt->size;
    uint64_t t = nc_next(s), t2 = nc_next(s);
    int g = s->group_of[s->me], lead = s->leader[g], err = MPI_SUCCESS;
    if (s->me == root) {
        err = nc_expose(s, t, mode, buf, count, dt, bytes);
    } else if (g == s->group_of[root] || s->me == lead) {
        nc_wait_post(s, root, t, bytes);
        err = nc_pull(s, root, t, mode, 0, bytes, buf, dt, 0);
        nc_set_done(s, t);
        if (s->me == lead && g != s->group_of[root] && err == MPI_SUCCESS)
            err = nc_expose(s, t2, mode, buf, count, dt, bytes);
    } else {
        nc_wait_post(s, lead, t2, bytes);
        err = nc_pull(s, lead, t2, mode, 0, bytes, buf, dt, 0);
    }
    nc_set_done(s, t2);
    return err;
}

int nc_bcast(nc_state_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int root, int mode)
{
    if (s->ngroups > 1 && mode != NC_CMA)
        return bcast_two_level(s, buf, count, dt, root, mode);
    size_t bytes = count * dt->size;
    uint64_t t = nc_next(s);
    if (s->me == root) {
        int err = nc_expose(s, t, mode, buf, count, dt, bytes);
        if (mode == NC_CMA && err == MPI_SUCCESS)
            err = root_writes(s, t, bytes);
        nc_set_done(s, t);
        if (mode == NC_CMA)
            nc_wait_done_all(s, t);
        return err;
    }
    size_t mine = bytes;
    if (mode == NC_CMA) {            /* my buffer's address for the root's share (0: I read it all) */
        nc_post_t *p = nc_post_begin(s, t);
        p->bytes = nc_sig(s, bytes);
        p->addr = dt->contig ? (uint64_t)(uintptr_t)((char *)buf + dt->true_lb) : 0;
        nc_publish(p, t);
        if (p->addr)
            mine = bytes - root_share(s, bytes);
    }
    nc_wait_post(s, root, t, bytes);
    int err = nc_pull(s, root, t, mode, 0, mine, buf, dt, 0);
    nc_set_done(s, t);
    if (mode == NC_CMA)
        nc_wait_done(s, root, t);     /* the root has written its share */
    return err;
}

