/* Algorithm: node-level alltoallv. Every rank exposes its send buffer once,
 * led by a table of n entries (where the block for each rank lies, and its
 * bytes): within the copy limit the blocks are packed after the table, in
 * the post's own line when all of it fits 48 bytes, else in the slot ring;
 * above it the table lives in this process and holds the blocks'
 * addresses, which the receivers read with process_vm_readv. Each rank
 * then copies out only the blocks it receives: it never looks at a rank it
 * gets nothing from, so a sparse exchange costs its partners only. A rank
 * exposed by address waits for the ranks it sends to before it returns.
 * Cost: one post per rank; per block received one copy by address (plus
 * one read of its table entry), two through the slots. */
#include "coll/node/node_coll.h"
#include "node/cma.h"
#include <stdint.h>
#include <string.h>

static size_t table_bytes(const nc_state_t *s) { return (size_t)s->n * sizeof(nc_entry_t); }

/* Table and blocks packed at `at` (offsets from it). */
static void pack_all(nc_state_t *s, char *at, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                     dmpi_dtype_t *sdt)
{
    nc_entry_t *tab = (nc_entry_t *)(void *)at;
    size_t off = table_bytes(s);
    for (int r = 0; r < s->n; r++) {
        size_t len = r == s->me ? 0 : (size_t)scounts[r] * sdt->size;
        nc_entry_t e = {off, len};
        memcpy(&tab[r], &e, sizeof e);
        if (len)
            dmpi_dtype_pack(sdt, (size_t)scounts[r], nc_block(sbuf, (size_t)sdispls[r], 1, sdt), at + off);
        off += len;
    }
}

/* By address: the table in this process, pointing at the blocks in sbuf,
 * or at a packed copy of them (noncontiguous type, or in place: rbuf is
 * overwritten while the others read). NULL if out of memory. */
static nc_entry_t *address_table(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                                 dmpi_dtype_t *sdt, size_t data, bool copy)
{
    char *mem = nc_xtmp(s, table_bytes(s) + (copy ? data : 0));
    if (!mem)
        return NULL;
    nc_entry_t *tab = (nc_entry_t *)(void *)mem;
    char *next = mem + table_bytes(s);
    for (int r = 0; r < s->n; r++) {
        size_t len = r == s->me ? 0 : (size_t)scounts[r] * sdt->size;
        const char *blk = nc_block(sbuf, (size_t)sdispls[r], 1, sdt);
        uint64_t at = (uint64_t)(uintptr_t)(blk + sdt->true_lb);
        if (copy && len) {
            dmpi_dtype_pack(sdt, (size_t)scounts[r], blk, next);
            at = (uint64_t)(uintptr_t)next;
            next += len;
        }
        tab[r] = (nc_entry_t){at, len};
    }
    return tab;
}

static int expose(nc_state_t *s, uint64_t t, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                  dmpi_dtype_t *sdt, bool in_place, int *mode)
{
    size_t data = 0;
    for (int r = 0; r < s->n; r++)
        data += r == s->me ? 0 : (size_t)scounts[r] * sdt->size;
    size_t total = table_bytes(s) + data;
    *mode = nc_mode(s, total);
    nc_post_t *p;
    if (*mode != NC_CMA) {
        pack_all(s, nc_expose_begin(s, t, *mode, total, &p), sbuf, scounts, sdispls, sdt);
        nc_publish(p, t);
        return MPI_SUCCESS;
    }
    nc_entry_t *tab = address_table(s, sbuf, scounts, sdispls, sdt, data, in_place || !sdt->contig);
    nc_expose_begin(s, t, NC_CMA, total, &p);
    p->addr = (uint64_t)(uintptr_t)tab;
    nc_publish(p, t);                /* a NULL table tells the others this rank is out of memory */
    return tab ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for the table of %d ranks", s->call, s->n);
}

static void length_mismatch(nc_state_t *s, int r, size_t want, uint64_t got)
{
    dmpi_comm_t *c = s->comm;
    dmpi_fatal("%s on %s: rank %d expected %zu bytes from rank %d, but it sends %llu; the ranks called the "
               "collective with counts that do not match", s->call, c->name[0] ? c->name : "a communicator", s->me,
               want, r, (unsigned long long)got);
}

/* Rank r's block for this rank, len bytes, into the typed block at dst. */
static int receive(nc_state_t *s, uint64_t t, int r, size_t len, void *dst, dmpi_dtype_t *rdt)
{
    nc_post_t *p = nc_wait_post_any(s, r, t);
    int mode = nc_mode(s, p->bytes & NC_BYTES_MASK);
    nc_entry_t e;
    if (mode != NC_CMA) {
        const char *at = mode == NC_INL ? (const char *)p->data : nc_slot_of(s, r, p);
        memcpy(&e, at + (size_t)s->me * sizeof e, sizeof e);
        if (e.len != len)
            length_mismatch(s, r, len, e.len);
        if (rdt->contig)
            dmpi_copy((char *)dst + rdt->true_lb, at + e.at, len);
        else
            dmpi_dtype_unpack_range(rdt, dst, 0, len, at + e.at);
        return MPI_SUCCESS;
    }
    if (!p->addr)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: rank %d ran out of memory for its table", s->call, r);
    int err = dmpi_cma_read(s->pid[r], &e, p->addr + (uint64_t)s->me * sizeof e, sizeof e);
    if (!err && e.len != len)
        length_mismatch(s, r, len, e.len);
    if (!err)
        err = rdt->contig ? dmpi_cma_read(s->pid[r], (char *)dst + rdt->true_lb, e.at, len)
                          : dmpi_cma_read_typed(s->pid[r], rdt, dst, dmpi_dtype_get(MPI_BYTE), e.at, 0, len);
    return err ? dmpi_err(MPI_ERR_OTHER, "%s: reading rank %d's buffer with process_vm_readv failed (%s)", s->call,
                          r, strerror(err))
               : MPI_SUCCESS;
}

int nc_alltoallv(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls, dmpi_dtype_t *sdt,
                 void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, dmpi_dtype_t *rdt)
{
    bool in_place = sbuf == MPI_IN_PLACE;
    if (in_place) {                  /* the send blocks are the receive blocks */
        sbuf = rbuf, scounts = rcounts, sdispls = rdispls, sdt = rdt;
    }
    uint64_t t = nc_next(s);
    int mode, err = expose(s, t, sbuf, scounts, sdispls, sdt, in_place, &mode);
    if (!in_place && err == MPI_SUCCESS)
        err = nc_copy_local(s, nc_block(sbuf, (size_t)sdispls[s->me], 1, sdt), (size_t)scounts[s->me], sdt,
                            nc_block(rbuf, (size_t)rdispls[s->me], 1, rdt), (size_t)rcounts[s->me], rdt);
    /* From the next rank on, so that no rank is everyone's first reader. */
    for (int i = 1; i < s->n; i++) {
        int r = (s->me + i) % s->n;
        size_t len = (size_t)rcounts[r] * rdt->size;
        if (len == 0)
            continue;
        int e = receive(s, t, r, len, nc_block(rbuf, (size_t)rdispls[r], 1, rdt), rdt);
        err = err != MPI_SUCCESS ? err : e;
    }
    nc_set_done(s, t);
    for (int r = 0; mode == NC_CMA && r < s->n; r++)
        if (r != s->me && scounts[r])
            nc_wait_done(s, r, t);   /* the ranks reading this one's buffer are through */
    return err;
}
