/* Algorithm: Rabenseifner's reduce, for long vectors and commutative ops.
 * On p = pof2 + rem ranks, the even ranks among the first 2*rem first hand
 * their vector to the next rank and sit out. The pof2 others then
 * reduce-scatter by recursive halving (newrank j ends with block j of the
 * result, n/pof2 elements) and gather the blocks to the root's newrank by
 * a binomial tree that undoes the halving step by step; if the root sat
 * out, its neighbour rank + 1 gathers and forwards the result. Cost:
 * 2 log2 pof2 rounds (+2 when folding), about 2n(p-1)/p bytes per rank
 * instead of the binomial tree's n log2 p. The caller checks that the op
 * is commutative. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_reduce_scatter_gather(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                               dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    int me = c->rank;
    dmpi_fold_t f = dmpi_fold(me, c->size);
    const void *data = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int newroot = root < 2 * f.rem ? root / 2 : root - f.rem, gatherer = dmpi_fold_rank(&f, newroot);
    if (count == 0)
        return MPI_SUCCESS;
    if (f.newrank < 0) {         /* sits out */
        DMPI_TRY(dmpi_sched_send(s, data, count, dt, me + 1));
        DMPI_TRY(dmpi_sched_round(s));
        if (me == root)
            DMPI_TRY(dmpi_sched_recv(s, rbuf, count, dt, gatherer));
        return dmpi_sched_round(s);
    }

    /* The root accumulates in its receive buffer, the others in scratch. */
    void *acc = me == root ? rbuf : dmpi_coll_tmpbuf(s, count, dt), *tmp = dmpi_coll_tmpbuf(s, count, dt);
    size_t *bdisp = dmpi_coll_blocks(s, count, f.pof2);
    if (!acc || !tmp || !bdisp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduction of %zu elements", count);
    if (data != acc) {
        DMPI_TRY(dmpi_sched_copy(s, data, count, dt, acc, count, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (me < 2 * f.rem) {        /* odd: take in the even neighbour's vector */
        DMPI_TRY(dmpi_sched_recv(s, tmp, count, dt, me - 1));
        DMPI_TRY(dmpi_sched_reduce(s, tmp, acc, count, dt, op));
        DMPI_TRY(dmpi_sched_round(s));
    }
    DMPI_TRY(dmpi_halving_reduce_scatter(s, &f, acc, tmp, bdisp, dt, op));

    /* Gather: at distance m the one of a pair whose bit m differs from the
     * root's sends its m blocks and is done, the other receives. */
    int x = f.newrank;
    for (int m = 1; m < f.pof2; m *= 2) {
        int peer = x ^ m, mine = x & ~(m - 1), theirs = peer & ~(m - 1);
        if ((x & m) != (newroot & m)) {
            size_t n = bdisp[mine + m] - bdisp[mine];
            if (n)
                DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(acc, bdisp[mine], dt), n, dt, dmpi_fold_rank(&f, peer)));
            return dmpi_sched_round(s);
        }
        size_t n = bdisp[theirs + m] - bdisp[theirs];
        if (n)
            DMPI_TRY(dmpi_sched_recv(s, dmpi_coll_at(acc, bdisp[theirs], dt), n, dt, dmpi_fold_rank(&f, peer)));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (me != root)              /* the gatherer stands in for a root that sat out */
        DMPI_TRY(dmpi_sched_send(s, acc, count, dt, root));
    return dmpi_sched_round(s);
}
