/* Algorithm: node-level reductions. Every rank exposes its vector (inline,
 * in its slot, or by address). Results are reduced straight from the
 * exposures in rank order, the highest rank's value first and each lower
 * one applied in front of it (acc = v_i op acc), so non-commutative ops get
 * v_0 op v_1 op ... op v_(n-1) exactly:
 * - allreduce and reduce, vectors within the copy limit: each rank that
 *   needs the result reduces the whole vector from the slots;
 * - larger allreduce (by address): each rank reduces its nth of the
 *   vector, reading the others' pieces with process_vm_readv chunk by
 *   chunk (DMPI_COLL_NODE_CHUNK), and exposes its reduced piece in a
 *   second phase for the others to copy: a reduce-scatter followed by an
 *   allgather, each byte crossing once (larger reduce, scan and exscan run
 *   as chains of pieces through the slots, chain.c);
 * - reduce_scatter(_block): rank r reduces block r; scan and exscan: rank r
 *   reduces the vectors of ranks 0 .. r (r - 1).
 * Cost (large allreduce): 2 (n - 1) / n of the vector read by single copy
 * per rank, (n - 1) / n of it reduced. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include "core/params.h"
#include <string.h>

typedef struct red {
    nc_state_t *s;
    uint64_t t;
    int mode;
    dmpi_op_t *op;
    dmpi_dtype_t *dt;            /* contiguous */
    size_t total;                /* bytes each rank exposes */
} red_t;

/* Rank r's exposed bytes at first, readable here without a copy: the
 * inline data or slot, or this rank's own buffer exposed by address. */
static const char *direct(const red_t *x, int r, size_t first)
{
    nc_post_t *p = nc_post(x->s, r, x->t);
    if (x->mode == NC_INL)
        return (const char *)p->data + first;
    if (x->mode == NC_SLOT)
        return nc_slot_of(x->s, r, p) + first;
    return r == x->s->me ? (const char *)(uintptr_t)p->addr + first : NULL;
}

/* Typed views of packed bytes for dmpi_op_apply (displacements apply). */
static inline const void *typed(const red_t *x, const char *p) { return p - x->dt->true_lb; }

/* out (packed bytes) = v_r[0] op v_r[1] op ... op v_r[k-1] over bytes
 * [first, first + n) of the exposures of ranks r[], each posted in phase
 * x->t. In place with the vector read by address, this rank's own bytes
 * are out itself: they are set aside before out is overwritten. */
/* Within the copy limit every exposure is readable in place: no chunks,
 * no copies but the first. */
static int reduce_direct(red_t *x, const int *r, int k, size_t first, size_t n, char *out)
{
    nc_state_t *s = x->s;
    nc_wait_post(s, r[k - 1], x->t, x->total);
    dmpi_copy(out, direct(x, r[k - 1], first), n);
    int err = MPI_SUCCESS;
    for (int i = k - 2; i >= 0 && err == MPI_SUCCESS; i--) {
        nc_wait_post(s, r[i], x->t, x->total);
        err = dmpi_op_apply(x->op, typed(x, direct(x, r[i], first)), (void *)typed(x, out), n / x->dt->size, x->dt);
    }
    return err;
}

static int reduce_ranks(red_t *x, const int *r, int k, size_t first, size_t n, char *out)
{
    nc_state_t *s = x->s;
    if (x->mode != NC_CMA)
        return reduce_direct(x, r, k, first, n, out);
    size_t esize = x->dt->size, step = dmpi_params.coll_node_chunk / esize * esize;
    if (step == 0)
        step = esize;
    if (step > n)
        step = n;
    char *tmp = NULL;
    if (x->mode == NC_CMA && n && !(tmp = nc_tmp(s, 2 * step)))
        return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for a chunk of %zu bytes", s->call, step);
    for (size_t off = 0; off < n; off += step) {
        size_t len = n - off < step ? n - off : step;
        int err = MPI_SUCCESS;
        const char *own = NULL;
        if (x->mode == NC_CMA && r[k - 1] != s->me && direct(x, s->me, first + off) == out + off) {
            memcpy(tmp + step, out + off, len);
            own = tmp + step;
        }
        nc_wait_post(s, r[k - 1], x->t, x->total);
        const char *src = direct(x, r[k - 1], first + off);
        if (src != out + off) {
            if (src)
                memcpy(out + off, src, len);
            else
                err = nc_pull(s, r[k - 1], x->t, x->mode, first + off, len, out + off, NULL, 0);
        }
        for (int i = k - 2; i >= 0 && err == MPI_SUCCESS; i--) {
            nc_wait_post(s, r[i], x->t, x->total);
            src = r[i] == s->me && own ? own : direct(x, r[i], first + off);
            if (!src) {
                err = nc_pull(s, r[i], x->t, x->mode, first + off, len, tmp, NULL, 0);
                src = tmp;
            }
            if (err == MPI_SUCCESS)
                err = dmpi_op_apply(x->op, typed(x, src), (void *)typed(x, out + off), len / esize, x->dt);
        }
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* The same over ranks lo .. hi. */
static int reduce_range(red_t *x, int lo, int hi, size_t first, size_t n, char *out)
{
    return reduce_ranks(x, x->s->order + lo, hi - lo + 1, first, n, out);
}


/* Phase one of every reduction: this rank's vector exposed. */
static int expose_vector(red_t *x, const void *sbuf, void *rbuf, size_t count)
{
    const void *mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    return nc_expose(x->s, x->t, x->mode, mine, count, x->dt, count * x->dt->size);
}

/* The piece of the vector that rank r reduces in the large algorithms. */
static void piece(size_t count, int n, int r, size_t esize, size_t *first, size_t *len)
{
    size_t a = count * (size_t)r / (size_t)n, b = count * (size_t)(r + 1) / (size_t)n;
    *first = a * esize;
    *len = (b - a) * esize;
}

/* Two levels (several groups, and an order the op allows): each group's
 * leader reduces its group, the leaders expose their partial results in a
 * second phase, and every rank that needs the result (root NULL: all)
 * reduces the partials in group order. */
static bool two_level(const nc_state_t *s, dmpi_op_t *op)
{
    return s->ngroups > 1 && (s->groups_ordered || dmpi_op_commutative(op));
}

static int reduce_two_level(red_t *x, void *rbuf, size_t count, const int *root)
{
    nc_state_t *s = x->s;
    bool lead = s->leader[s->group_of[s->me]] == s->me;
    char *out = !root || *root == s->me ? nc_packed(rbuf, x->dt) : NULL;
    void *part = rbuf;
    int err = MPI_SUCCESS;
    if (lead && !root)
        err = reduce_ranks(x, s->group, s->ngroup, 0, x->total, out);
    else if (lead && !(part = nc_tmp(s, x->total ? x->total : 1)))
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %zu bytes", s->call, x->total);
    else if (lead)
        err = reduce_ranks(x, s->group, s->ngroup, 0, x->total, (char *)part);
    nc_set_done(s, x->t);
    red_t y = *x;
    y.t = nc_next(s);
    if (lead && err == MPI_SUCCESS)
        err = root ? nc_expose(s, y.t, y.mode, (char *)part - x->dt->true_lb, count, x->dt, x->total)
                   : nc_expose(s, y.t, y.mode, rbuf, count, x->dt, x->total);
    if (err == MPI_SUCCESS && (!root || *root == s->me))
        err = reduce_ranks(&y, s->leader, s->ngroups, 0, y.total, out);
    nc_set_done(s, y.t);
    return err;
}

int nc_allreduce(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                 int mode)
{
    red_t x = {s, nc_next(s), mode, op, dt, count * dt->size};
    size_t bytes = x.total;
    int err = expose_vector(&x, sbuf, rbuf, count);
    if (mode != NC_CMA && two_level(s, op))
        return err != MPI_SUCCESS ? err : reduce_two_level(&x, rbuf, count, NULL);
    if (mode != NC_CMA) {
        if (err == MPI_SUCCESS)
            err = reduce_range(&x, 0, s->n - 1, 0, bytes, nc_packed(rbuf, dt));
        nc_set_done(s, x.t);
        return err;
    }
    /* Reduce-scatter into this rank's piece of rbuf (no other rank reads
     * that piece of rbuf in this phase, even in place), then gather. */
    size_t first, len;
    piece(count, s->n, s->me, dt->size, &first, &len);
    if (err == MPI_SUCCESS)
        err = reduce_range(&x, 0, s->n - 1, first, len, nc_packed(rbuf, dt) + first);
    nc_set_done(s, x.t);
    uint64_t t2 = nc_next(s);
    int err2 = nc_expose(s, t2, NC_CMA, rbuf, count, dt, bytes);
    for (int r = 0; r < s->n && err2 == MPI_SUCCESS; r++) {
        if (r == s->me)
            continue;
        piece(count, s->n, r, dt->size, &first, &len);
        nc_wait_post(s, r, t2, bytes);
        err2 = nc_pull(s, r, t2, NC_CMA, first, len, nc_packed(rbuf, dt) + first, NULL, 0);
    }
    nc_set_done(s, t2);
    nc_wait_done_all(s, t2);         /* nobody reads sbuf or rbuf any more */
    return err != MPI_SUCCESS ? err : err2;
}

/* Within the copy limit (larger ones run in chain.c). */
int nc_reduce(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
              int root, int mode)
{
    red_t x = {s, nc_next(s), mode, op, dt, count * dt->size};
    bool am_root = s->me == root;
    int err = expose_vector(&x, sbuf, am_root ? rbuf : NULL, count);
    if (two_level(s, op))
        return err != MPI_SUCCESS ? err : reduce_two_level(&x, rbuf, count, &root);
    if (err == MPI_SUCCESS && am_root)
        err = reduce_range(&x, 0, s->n - 1, 0, x.total, nc_packed(rbuf, dt));
    nc_set_done(s, x.t);
    return err;
}

/* reduce_scatter and reduce_scatter_block: rank r reduces its block,
 * counts[r] elements from element displ. In place with the vector read by
 * address, the block is reduced in scratch and copied once every rank is
 * through with this rank's vector. */
int nc_reduce_scatter(nc_state_t *s, const void *sbuf, void *rbuf, const size_t *counts, size_t total,
                      dmpi_dtype_t *dt, dmpi_op_t *op, int mode)
{
    red_t x = {s, nc_next(s), mode, op, dt, total * dt->size};
    size_t displ = 0;
    for (int r = 0; r < s->me; r++)
        displ += counts[r];
    size_t len = counts[s->me] * dt->size;
    int err = expose_vector(&x, sbuf, rbuf, total);
    bool staged = mode == NC_CMA && sbuf == MPI_IN_PLACE;
    char *out = staged ? nc_xtmp(s, len ? len : 1) : nc_packed(rbuf, dt);
    if (staged && !out && err == MPI_SUCCESS)
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %zu bytes", s->call, len);
    if (err == MPI_SUCCESS)
        err = reduce_range(&x, 0, s->n - 1, displ * dt->size, len, out);
    nc_set_done(s, x.t);
    if (mode == NC_CMA)
        nc_wait_done_all(s, x.t);
    if (staged && err == MPI_SUCCESS)
        memcpy(nc_packed(rbuf, dt), out, len);
    return err;
}

/* scan (inclusive) and exscan within the copy limit (larger ones run in
 * chain.c): rank r reduces ranks 0 .. r (r - 1) straight from their
 * exposures, one step instead of a chain's r. Rank 0 of exscan leaves rbuf
 * alone, as the standard says. */
int nc_scan(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op, int mode,
            bool exclusive)
{
    red_t x = {s, nc_next(s), mode, op, dt, count * dt->size};
    int err = expose_vector(&x, sbuf, rbuf, count);
    int hi = exclusive ? s->me - 1 : s->me;
    if (err == MPI_SUCCESS && hi >= 0)
        err = reduce_range(&x, 0, hi, 0, x.total, nc_packed(rbuf, dt));
    nc_set_done(s, x.t);
    return err;
}
