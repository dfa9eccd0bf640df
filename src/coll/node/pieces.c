/* Algorithm: broadcast, gather, scatter, allgather and alltoall above the
 * copy limit where single copy is denied: the data go through the slot
 * rings in pieces, each piece a phase of its own in which every rank that
 * sends exposes the next bytes of each of its blocks (packed, so ranks
 * with different datatypes of one signature agree on the bytes) and the
 * receivers unpack them at the same offset of theirs. A ring holds four
 * pieces, so senders pack piece k + 1 while receivers unpack piece k.
 * Cost: every byte copied twice (in and out), against once by address;
 * the point-to-point copy path would copy it twice too, with a handoff
 * per cell between two ranks that may share a core. */
#include "coll/node/node_coll.h"
#include <string.h>

/* Bytes of each of `blocks` blocks that one piece carries. */
static size_t step_of(const nc_state_t *s, int blocks)
{
    size_t step = s->slot / 4 / (size_t)(blocks > 0 ? blocks : 1);
    return step ? step : 1;
}

/* Which of a sender's exposed blocks rank r's is: blocks go to every rank
 * but the sender, in rank order. */
static size_t slot_index(int sender, int r) { return (size_t)(r < sender ? r : r - 1); }

/* Exposes bytes [off, off + len) of each block this rank sends in phase t:
 * one block (blk, count, dt), or with dest_all the n - 1 blocks of the
 * others in rank order (blocks of count elements from buf). */
static void expose_piece(nc_state_t *s, uint64_t t, const void *buf, size_t count, dmpi_dtype_t *dt, size_t off,
                         size_t len, bool dest_all)
{
    int k = dest_all ? s->n - 1 : 1;
    nc_post_t *p;
    char *at = nc_expose_begin(s, t, nc_piece_mode((size_t)k * len), (size_t)k * len, &p);
    if (!dest_all)
        dmpi_dtype_pack_range(dt, buf, off, len, at);
    for (int r = 0; dest_all && r < s->n; r++)
        if (r != s->me)
            dmpi_dtype_pack_range(dt, nc_block(buf, (size_t)r, count, dt), off, len,
                                  at + slot_index(s->me, r) * len);
    nc_publish(p, t);
}

/* Unpacks rank r's piece (block `index` of its exposure of k blocks) into
 * bytes [off, off + len) of the typed block dst. */
static int take_piece(nc_state_t *s, uint64_t t, int r, int k, size_t index, size_t len, void *dst,
                      dmpi_dtype_t *dt, size_t off)
{
    nc_wait_post(s, r, t, (size_t)k * len);
    return nc_pull(s, r, t, nc_piece_mode((size_t)k * len), index * len, len, dst, dt, off);
}

int nc_bcast_pieces(nc_state_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int root)
{
    size_t bytes = count * dt->size, step = step_of(s, 1);
    int err = MPI_SUCCESS;
    for (size_t off = 0; off < bytes; off += step) {
        size_t len = bytes - off < step ? bytes - off : step;
        uint64_t t = nc_next(s);
        int e = MPI_SUCCESS;
        if (s->me == root)
            expose_piece(s, t, buf, count, dt, off, len, false);
        else
            e = take_piece(s, t, root, 1, 0, len, buf, dt, off);
        err = err != MPI_SUCCESS ? err : e;
        nc_set_done(s, t);
    }
    return err;
}

/* Gather (all false) and allgather (all true): block b bytes per rank. */
int nc_gather_pieces(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                     dmpi_dtype_t *rdt, int root, bool all)
{
    bool gets = all || s->me == root;
    size_t b = gets ? rcount * rdt->size : scount * sdt->size, step = step_of(s, 1);
    int err = MPI_SUCCESS;
    if (gets && sbuf != MPI_IN_PLACE)
        err = nc_copy_local(s, sbuf, scount, sdt, nc_block(rbuf, (size_t)s->me, rcount, rdt), rcount, rdt);
    const void *mine = sbuf != MPI_IN_PLACE ? sbuf : nc_block(rbuf, (size_t)s->me, rcount, rdt);
    size_t mcount = sbuf != MPI_IN_PLACE ? scount : rcount;
    dmpi_dtype_t *mdt = sbuf != MPI_IN_PLACE ? sdt : rdt;
    for (size_t off = 0; off < b; off += step) {
        size_t len = b - off < step ? b - off : step;
        uint64_t t = nc_next(s);
        if (all || s->me != root)
            expose_piece(s, t, mine, mcount, mdt, off, len, false);
        for (int r = 0; gets && r < s->n; r++) {
            if (r == s->me)
                continue;
            int e = take_piece(s, t, r, 1, 0, len, nc_block(rbuf, (size_t)r, rcount, rdt), rdt, off);
            err = err != MPI_SUCCESS ? err : e;
        }
        nc_set_done(s, t);
    }
    return err;
}

/* Scatter (all false) and alltoall (all true): block b bytes per pair. In
 * place, each piece is exposed before any rank's data lands on its bytes. */
int nc_scatter_pieces(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                      dmpi_dtype_t *rdt, int root, bool all)
{
    bool gives = all || s->me == root;
    size_t b = s->me != root || all ? rcount * rdt->size : scount * sdt->size, step = step_of(s, s->n - 1);
    int err = MPI_SUCCESS;
    bool in_place = all ? sbuf == MPI_IN_PLACE : s->me == root && rbuf == MPI_IN_PLACE;
    if (!in_place && !all && s->me == root)
        err = nc_copy_local(s, nc_block(sbuf, (size_t)root, scount, sdt), scount, sdt, rbuf, rcount, rdt);
    if (!in_place && all)
        err = nc_copy_local(s, nc_block(sbuf, (size_t)s->me, scount, sdt), scount, sdt,
                            nc_block(rbuf, (size_t)s->me, rcount, rdt), rcount, rdt);
    const void *src = all && in_place ? rbuf : sbuf;
    size_t scnt = all && in_place ? rcount : scount;
    dmpi_dtype_t *sdtype = all && in_place ? rdt : sdt;
    for (size_t off = 0; off < b; off += step) {
        size_t len = b - off < step ? b - off : step;
        uint64_t t = nc_next(s);
        if (gives)
            expose_piece(s, t, src, scnt, sdtype, off, len, true);
        for (int r = 0; r < s->n; r++) {
            if (r == s->me || (!all && r != root))
                continue;
            void *dst = all ? nc_block(rbuf, (size_t)r, rcount, rdt) : rbuf;
            int e = take_piece(s, t, r, s->n - 1, slot_index(r, s->me), len, dst, rdt, off);
            err = err != MPI_SUCCESS ? err : e;
        }
        nc_set_done(s, t);
    }
    return err;
}
