/* Algorithm: reductions above the copy limit (reduce, scan, exscan) as a
 * pipeline of pieces of a quarter of the slot ring, each piece a chain:
 * the first rank of the chain exposes its piece, every next one folds its
 * own into the partial result of the one before and exposes that, and the
 * last one keeps the result. Up to four pieces are in a ring at once, so a
 * rank folds piece k while the one before it already works on piece k + 1.
 * - scan, exscan: the chain is 0, 1, ..., n - 1 (rank r's partial result
 *   is its answer or the next rank's);
 * - reduce: n - 1, ..., 1, 0, each rank applying its vector in front
 *   (v_r op acc, the order non-commutative ops need), rank 0 handing the
 *   result to the root if that is another rank; for a commutative op the
 *   chain instead starts after the root and ends at it.
 * Allreduce where single copy is denied is the reduce to rank 0 followed by
 * the broadcast in pieces (pieces.c).
 * Cost per rank: one pass copying and one applying the op over the vector,
 * whatever n is; no single copy (so this also serves where it is denied).
 * Reading the others' vectors by address made every rank fold all of the
 * ones below it (scan: n^2 / 2 passes in all, which the ranks pay in turn
 * when they outnumber the cores) and copied each piece into scratch before
 * folding it anyway. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include <string.h>

typedef struct chain {
    nc_state_t *s;
    dmpi_op_t *op;
    dmpi_dtype_t *dt;            /* contiguous */
    uint64_t t;                  /* the piece's phase */
    size_t count, bytes;         /* of the piece */
    int mode;                    /* NC_INL or NC_SLOT */
} chain_t;

/* inout = in op inout, on packed pieces. */
static int fold(const chain_t *c, const char *in, char *inout)
{
    return dmpi_op_apply(c->op, nc_typed(in, c->dt), nc_typed(inout, c->dt), c->count, c->dt);
}

/* inout = inout op acc (inout holding v_me, in front), without a second
 * buffer when the op commutes. */
static int fold_in_place(const chain_t *c, const char *acc, char *inout)
{
    if (dmpi_op_commutative(c->op))
        return fold(c, acc, inout);
    char *v = nc_tmp(c->s, c->bytes);
    if (!v)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %zu bytes", c->s->call, c->bytes);
    memcpy(v, inout, c->bytes);
    dmpi_copy(inout, acc, c->bytes);
    return fold(c, v, inout);
}

/* The rank before this one in the chain: its partial result of the piece. */
static const char *partial_of(chain_t *c, int r)
{
    nc_post_t *p = nc_wait_post(c->s, r, c->t, c->bytes);
    return c->mode == NC_INL ? (const char *)p->data : nc_slot_of(c->s, r, p);
}

/* This rank's exposure of the piece: where to write it, then publish. */
static char *begin_exposure(chain_t *c, nc_post_t **post)
{
    return nc_expose_begin(c->s, c->t, c->mode, c->bytes, post);
}

/* Scan and exscan of one piece: mine is this rank's vector (rbuf in place). */
static int scan_piece(chain_t *c, const char *mine, char *out, bool exclusive)
{
    nc_state_t *s = c->s;
    int me = s->me, err = MPI_SUCCESS;
    nc_post_t *post;
    if (me == 0) {
        if (!exclusive && out != mine)
            dmpi_copy(out, mine, c->bytes);
        if (s->n > 1)
            dmpi_copy(begin_exposure(c, &post), mine, c->bytes), nc_publish(post, c->t);
    } else if (!exclusive) {
        if (out != mine)
            dmpi_copy(out, mine, c->bytes);
        err = fold(c, partial_of(c, me - 1), out);
        if (me < s->n - 1)
            dmpi_copy(begin_exposure(c, &post), out, c->bytes), nc_publish(post, c->t);
    } else {
        const char *prev = partial_of(c, me - 1);
        if (me < s->n - 1) {         /* first: in place, out is mine */
            char *dst = begin_exposure(c, &post);
            dmpi_copy(dst, mine, c->bytes);
            err = fold(c, prev, dst);
            nc_publish(post, c->t);
        }
        dmpi_copy(out, prev, c->bytes);
    }
    nc_set_done(s, c->t);
    return err;
}

/* Reduce of one piece along the chain `order` (first to last). The root
 * is last unless the op is not commutative: then the chain ends at rank
 * 0, which the root (if another rank) copies the result from. */
static int reduce_piece(chain_t *c, const int *order, const char *mine, char *out, int root)
{
    nc_state_t *s = c->s;
    int n = s->n, pos = 0, err = MPI_SUCCESS;
    while (order[pos] != s->me)
        pos++;
    int last = order[n - 1];
    nc_post_t *post;
    if (pos == 0) {
        dmpi_copy(begin_exposure(c, &post), mine, c->bytes);
        nc_publish(post, c->t);
    } else if (s->me != last || s->me != root) {
        char *dst = begin_exposure(c, &post);
        dmpi_copy(dst, partial_of(c, order[pos - 1]), c->bytes);
        err = fold(c, mine, dst);    /* v_me op acc */
        nc_publish(post, c->t);
    } else if (out != mine) {
        dmpi_copy(out, partial_of(c, order[pos - 1]), c->bytes);
        err = fold(c, mine, out);
    } else {
        err = fold_in_place(c, partial_of(c, order[pos - 1]), out);
    }
    if (s->me == root && last != root)
        dmpi_copy(out, partial_of(c, last), c->bytes);
    nc_set_done(s, c->t);
    return err;
}

/* Allreduce where single copy is denied: the chain's reduce to rank 0,
 * then the result broadcast from it in pieces (pieces.c). */
int nc_allreduce_pieces(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int err = nc_reduce_pieces(s, NC_RED_REDUCE, sbuf, rbuf, count, dt, op, 0);
    int e = nc_bcast_pieces(s, rbuf, count, dt, 0);
    return err != MPI_SUCCESS ? err : e;
}

static const char *skip(const void *p, size_t off) { return p && p != MPI_IN_PLACE ? (const char *)p + off : p; }

int nc_reduce_pieces(nc_state_t *s, int what, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                     dmpi_op_t *op, int root)
{
    int n = s->n;
    /* The chain of a reduce: commutative ops end at the root; others go
     * from the highest rank down, so that each applies its vector in front. */
    bool commutative = dmpi_op_commutative(op);
    for (int i = 0; what == NC_RED_REDUCE && i < n; i++)
        s->order[i] = commutative ? (root + 1 + i) % n : n - 1 - i;
    size_t step = s->slot / 4 / dt->size;
    if (step == 0)
        step = 1;
    int err = MPI_SUCCESS;
    for (size_t i = 0; i < count; i += step) {
        chain_t c = {s, op, dt, nc_next(s), count - i < step ? count - i : step, 0, 0};
        c.bytes = c.count * dt->size;
        c.mode = nc_piece_mode(c.bytes);
        size_t off = i * dt->size;
        const char *mine = nc_packed(skip(sbuf == MPI_IN_PLACE ? rbuf : sbuf, off), dt);
        char *out = rbuf ? nc_packed(skip(rbuf, off), dt) : NULL;
        int e = what == NC_RED_REDUCE ? reduce_piece(&c, s->order, mine, out, root)
                                      : scan_piece(&c, mine, out, what == NC_RED_EXSCAN);
        if (err == MPI_SUCCESS)
            err = e;
    }
    for (int i = 0; what == NC_RED_REDUCE && i < n; i++)
        s->order[i] = i;
    return err;
}
