/* Algorithm: node-level data movement (gather, scatter, allgather(v),
 * alltoall). Every rank that has data for others exposes it once (its
 * block, or for scatter and alltoall its whole send buffer) and every rank
 * copies out exactly the blocks it receives: through the slots up to the
 * copy limit, otherwise one process_vm_readv per block straight from the
 * owner's buffer into the receiver's. An owner exposed by address waits
 * until its readers are through before it returns.
 * Cost: each block crosses once (single copy) or twice (slots); one flag
 * per owner. */
#include "coll/node/node_coll.h"
#include <stdlib.h>
#include <string.h>

/* Between two typed buffers of this process, through the packed stream. */
int nc_copy_local(nc_state_t *s, const void *src, size_t scount, dmpi_dtype_t *sdt, void *dst, size_t dcount,
                      dmpi_dtype_t *ddt)
{
    size_t n = scount * sdt->size, dn = dcount * ddt->size;
    n = n < dn ? n : dn;
    if (n == 0)
        return MPI_SUCCESS;
    if (sdt->contig && ddt->contig) {
        dmpi_copy((char *)dst + ddt->true_lb, (const char *)src + sdt->true_lb, n);
    } else if (sdt->contig) {
        dmpi_dtype_unpack_range(ddt, dst, 0, n, (const char *)src + sdt->true_lb);
    } else if (ddt->contig) {
        dmpi_dtype_pack_range(sdt, src, 0, n, (char *)dst + ddt->true_lb);
    } else {
        void *tmp = nc_tmp(s, n);
        if (!tmp)
            return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory to copy %zu bytes", s->call, n);
        dmpi_dtype_pack_range(sdt, src, 0, n, tmp);
        dmpi_dtype_unpack_range(ddt, dst, 0, n, tmp);
    }
    return MPI_SUCCESS;
}

/* The end of a phase in which this rank's buffer may have been read by
 * address: its readers are through before it returns. */
static void finish(nc_state_t *s, uint64_t t, int mode)
{
    nc_set_done(s, t);
    if (mode == NC_CMA)
        nc_wait_done_all(s, t);
}

int nc_gather(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
              dmpi_dtype_t *rdt, int root, int mode)
{
    uint64_t t = nc_next(s);
    if (s->me != root) {
        int err = nc_expose(s, t, mode, sbuf, scount, sdt, scount * sdt->size);
        nc_set_done(s, t);
        if (mode == NC_CMA)
            nc_wait_done(s, root, t);
        return err;
    }
    size_t b = rcount * rdt->size;
    int err = MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, sbuf, scount, sdt, nc_block(rbuf, (size_t)root, rcount, rdt), rcount, rdt);
    for (int r = 0; r < s->n && err == MPI_SUCCESS; r++)
        if (r != root) {
            nc_wait_post(s, r, t, b);
            err = nc_pull(s, r, t, mode, 0, b, rbuf, rdt, (size_t)r * b);
        }
    nc_set_done(s, t);
    return err;
}

int nc_scatter(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
               dmpi_dtype_t *rdt, int root, int mode)
{
    uint64_t t = nc_next(s);
    if (s->me == root) {
        size_t n = (size_t)s->n;
        int err = nc_expose(s, t, mode, sbuf, n * scount, sdt, n * scount * sdt->size);
        if (err == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
            err = nc_copy_local(s, nc_block(sbuf, (size_t)root, scount, sdt), scount, sdt, rbuf, rcount, rdt);
        finish(s, t, mode);
        return err;
    }
    size_t b = rcount * rdt->size;
    nc_wait_post(s, root, t, (size_t)s->n * b);
    int err = nc_pull(s, root, t, mode, (size_t)s->me * b, b, rbuf, rdt, 0);
    nc_set_done(s, t);
    return err;
}

/* allgather and allgatherv: rank r's block is rcounts[r] elements of rdt
 * at displs[r] extents (allgather: rcount at r * rcount). */
int nc_allgatherv(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                  const size_t *rcounts, const size_t *displs, dmpi_dtype_t *rdt, int mode)
{
    uint64_t t = nc_next(s);
    void *mine = nc_block(rbuf, displs[s->me], 1, rdt);
    int err = sbuf == MPI_IN_PLACE ? nc_expose(s, t, mode, mine, rcounts[s->me], rdt, rcounts[s->me] * rdt->size)
                                   : nc_expose(s, t, mode, sbuf, scount, sdt, scount * sdt->size);
    if (err == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, sbuf, scount, sdt, mine, rcounts[s->me], rdt);
    for (int i = 1; i < s->n && err == MPI_SUCCESS; i++) {
        int r = (s->me + i) % s->n;   /* everyone starts with a different owner */
        nc_wait_post(s, r, t, rcounts[r] * rdt->size);
        err = nc_pull(s, r, t, mode, 0, rcounts[r] * rdt->size, nc_block(rbuf, displs[r], 1, rdt), rdt, 0);
    }
    finish(s, t, mode);
    return err;
}

/* In place by address, the others would read rbuf while this rank fills
 * it: its blocks are exposed from a packed copy instead. */
static int expose_snapshot(nc_state_t *s, uint64_t t, const void *buf, size_t count, dmpi_dtype_t *dt)
{
    size_t bytes = count * dt->size;
    void *copy = nc_xtmp(s, bytes ? bytes : 1);
    if (!copy)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %zu bytes", s->call, bytes);
    dmpi_dtype_pack(dt, count, buf, copy);
    return nc_expose(s, t, NC_CMA, copy, bytes, dmpi_dtype_get(MPI_BYTE), bytes);
}

int nc_alltoall(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                dmpi_dtype_t *rdt, int mode)
{
    uint64_t t = nc_next(s);
    size_t n = (size_t)s->n, b = rcount * rdt->size;
    int err;
    if (sbuf == MPI_IN_PLACE)
        err = mode == NC_CMA ? expose_snapshot(s, t, rbuf, n * rcount, rdt)
                             : nc_expose(s, t, mode, rbuf, n * rcount, rdt, n * b);
    else
        err = nc_expose(s, t, mode, sbuf, n * scount, sdt, n * scount * sdt->size);
    if (err == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, nc_block(sbuf, (size_t)s->me, scount, sdt), scount, sdt,
                         nc_block(rbuf, (size_t)s->me, rcount, rdt), rcount, rdt);
    for (size_t i = 1; i < n && err == MPI_SUCCESS; i++) {
        int r = (int)((s->me + i) % n);
        nc_wait_post(s, r, t, n * b);
        err = nc_pull(s, r, t, mode, (size_t)s->me * b, b, rbuf, rdt, (size_t)r * b);
    }
    finish(s, t, mode);
    return err;
}
