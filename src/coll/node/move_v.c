/* Algorithm: node-level gatherv and scatterv. Only the root knows every
 * block's size and place, so:
 * - gatherv: each rank exposes its block (inline, slot, or by address, by
 *   its own size) and the root copies each one to its displacement. Without
 *   single copy between every pair, the root first posts whether every
 *   block fits a slot; if one does not, all ranks take the point-to-point
 *   schedule instead.
 * - scatterv: the root posts a table of (place, length) per rank and the
 *   blocks: packed in its slot after the table when they all fit, else (with
 *   single copy) the table in its memory pointing into its send buffer,
 *   else the point-to-point schedule. Readers read their entry, then their
 *   block.
 * Cost: one flag per owner and each block crossing once (single copy) or
 * twice (slot); scatterv by address adds one small read per rank. */
#include "coll/node/node_coll.h"
#include "node/cma.h"
#include <string.h>

/* The root's decision, in its post: how the others proceed (and for
 * scatterv by address, where its table is). */
static void post_decision(nc_state_t *s, uint64_t t, int mode, uint64_t table)
{
    nc_post_t *p = nc_post_begin(s, t);
    p->bytes = nc_sig(s, 0);
    uint64_t w[2] = {(uint64_t)mode, table};
    memcpy(p->data, w, sizeof w);
    nc_publish(p, t);
}

static int read_decision(nc_state_t *s, int root, uint64_t t, uint64_t *table)
{
    nc_post_t *p = nc_wait_post(s, root, t, 0);
    uint64_t w[2];
    memcpy(w, p->data, sizeof w);
    if (table)
        *table = w[1];
    return (int)w[0];
}

static void length_mismatch(nc_state_t *s, int root, size_t want, uint64_t got)
{
    dmpi_comm_t *c = s->comm;
    dmpi_fatal("%s on %s: rank %d expected %zu bytes from rank %d, but the root sends it %llu; the ranks called "
               "the collective with different counts or datatypes", s->call, c->name[0] ? c->name : "a communicator",
               s->me, want, root, (unsigned long long)got);
}

int nc_gatherv(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts,
               const MPI_Aint *displs, dmpi_dtype_t *rdt, int root)
{
    uint64_t t = nc_next(s);
    size_t limit = s->copy;
    if (s->me != root) {
        size_t b = scount * sdt->size;
        if (!s->cma_all && read_decision(s, root, t, NULL) == NC_NONE) {
            nc_set_done(s, t);
            return NC_BELOW;
        }
        int mode = nc_mode(s, b);
        int err = nc_expose(s, t, mode, sbuf, scount, sdt, b);
        nc_set_done(s, t);
        if (mode == NC_CMA)
            nc_wait_done(s, root, t);
        return err;
    }
    if (!s->cma_all) {
        bool fits = true;
        for (int r = 0; r < s->n; r++)
            fits &= r == root || (size_t)rcounts[r] * rdt->size <= limit;
        post_decision(s, t, fits ? NC_SLOT : NC_NONE, 0);
        if (!fits) {
            nc_set_done(s, t);
            return NC_BELOW;
        }
    }
    int err = MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, sbuf, scount, sdt, nc_block(rbuf, (size_t)displs[root], 1, rdt), (size_t)rcounts[root],
                            rdt);
    for (int r = 0; r < s->n && err == MPI_SUCCESS; r++) {
        if (r == root)
            continue;
        size_t b = (size_t)rcounts[r] * rdt->size;
        nc_wait_post(s, r, t, b);
        err = nc_pull(s, r, t, nc_mode(s, b), 0, b, nc_block(rbuf, (size_t)displs[r], 1, rdt), rdt, 0);
    }
    nc_set_done(s, t);
    return err;
}

/* The root's table and blocks at slot: entries are offsets from it. */
static void scatterv_slot(nc_state_t *s, char *slot, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                          dmpi_dtype_t *sdt, int root)
{
    nc_entry_t *tab = (nc_entry_t *)slot;
    size_t at = (size_t)s->n * sizeof *tab;
    for (int r = 0; r < s->n; r++) {
        size_t len = r == root ? 0 : (size_t)scounts[r] * sdt->size;
        tab[r] = (nc_entry_t){at, len};
        if (len)
            dmpi_dtype_pack(sdt, (size_t)scounts[r], nc_block(sbuf, (size_t)displs[r], 1, sdt), slot + at);
        at += len;
    }
}

/* The table in this process's memory, entries pointing at the blocks in
 * sbuf (contiguous) or in a packed copy. NULL if out of memory. */
static nc_entry_t *scatterv_table(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                                  dmpi_dtype_t *sdt, size_t total, int root)
{
    size_t head = (size_t)s->n * sizeof(nc_entry_t);
    char *mem = nc_xtmp(s, head + (sdt->contig ? 0 : total));
    if (!mem)
        return NULL;
    nc_entry_t *tab = (nc_entry_t *)mem;
    char *copy = mem + head;
    for (int r = 0; r < s->n; r++) {
        size_t len = r == root ? 0 : (size_t)scounts[r] * sdt->size;
        const char *blk = nc_block(sbuf, (size_t)displs[r], 1, sdt);
        if (sdt->contig) {
            tab[r] = (nc_entry_t){(uint64_t)(uintptr_t)(blk + sdt->true_lb), len};
        } else {
            if (len)
                dmpi_dtype_pack(sdt, (size_t)scounts[r], blk, copy);
            tab[r] = (nc_entry_t){(uint64_t)(uintptr_t)copy, len};
            copy += len;
        }
    }
    return tab;
}

static int scatterv_root(nc_state_t *s, uint64_t t, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                         dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root)
{
    size_t total = 0;
    for (int r = 0; r < s->n; r++)
        total += r == root ? 0 : (size_t)scounts[r] * sdt->size;
    size_t in_slot = (size_t)s->n * sizeof(nc_entry_t) + total;
    int mode = in_slot <= s->copy ? NC_SLOT
               : s->cma_all                                                   ? NC_CMA
                                                                              : NC_NONE;
    nc_entry_t *tab = NULL;
    uint64_t where = 0;              /* the table: its offset in the slot, or its address */
    if (mode == NC_CMA && !(tab = scatterv_table(s, sbuf, scounts, displs, sdt, total, root)))
        mode = NC_NONE;              /* out of memory: the same everywhere only through the post */
    if (mode == NC_CMA)
        where = (uint64_t)(uintptr_t)tab;
    if (mode == NC_SLOT) {
        where = nc_slot_begin(s, t, in_slot);
        scatterv_slot(s, nc_ring(s, s->me) + where, sbuf, scounts, displs, sdt, root);
    }
    post_decision(s, t, mode, where);
    int err = MPI_SUCCESS;
    if (mode != NC_NONE && rbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, nc_block(sbuf, (size_t)displs[root], 1, sdt), (size_t)scounts[root], sdt, rbuf, rcount,
                            rdt);
    nc_set_done(s, t);
    if (mode == NC_CMA)
        nc_wait_done_all(s, t);
    return mode == NC_NONE ? NC_BELOW : err;
}

int nc_scatterv(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs, dmpi_dtype_t *sdt,
                void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root)
{
    uint64_t t = nc_next(s);
    if (s->me == root)
        return scatterv_root(s, t, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root);
    uint64_t table;
    int mode = read_decision(s, root, t, &table);
    size_t b = rcount * rdt->size;
    nc_entry_t e;
    int err = MPI_SUCCESS;
    if (mode == NC_SLOT) {
        const char *slot = nc_ring(s, root) + table;
        memcpy(&e, slot + (size_t)s->me * sizeof e, sizeof e);
        if (e.len != b)
            length_mismatch(s, root, b, e.len);
        if (b)
            dmpi_dtype_unpack_range(rdt, rbuf, 0, b, slot + e.at);
    } else if (mode == NC_CMA) {
        err = dmpi_cma_read(s->pid[root], &e, table + (uint64_t)s->me * sizeof e, sizeof e);
        if (!err && e.len != b)
            length_mismatch(s, root, b, e.len);
        if (!err && b)
            err = rdt->contig ? dmpi_cma_read(s->pid[root], (char *)rbuf + rdt->true_lb, e.at, b)
                              : dmpi_cma_read_typed(s->pid[root], rdt, rbuf, dmpi_dtype_get(MPI_BYTE), e.at, 0, b);
        if (err)
            err = dmpi_err(MPI_ERR_OTHER, "%s: reading rank %d's buffer with process_vm_readv failed (%s)", s->call,
                           root, strerror(err));
    }
    nc_set_done(s, t);
    return mode == NC_NONE ? NC_BELOW : err;
}
