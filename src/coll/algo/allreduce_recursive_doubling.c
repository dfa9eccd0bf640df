/* Algorithm: recursive-doubling allreduce, for short vectors and any op.
 * On p = pof2 + rem ranks the even ranks among the first 2*rem hand their
 * vector to rank + 1 and sit out (MPICH's fold); the pof2 others, in rank
 * order, exchange their whole running result with the newrank at distance
 * 1, 2, 4, ... and combine (lower newrank's) op (higher newrank's), so a
 * non-commutative op keeps rank order and both partners compute the same
 * bits; at the end rank + 1 hands the result back. Cost: log2 pof2 rounds
 * (+2 when folding) of n bytes each. The running result alternates between
 * the receive buffer and one scratch vector, so no step copies data. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_allreduce_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                      size_t count, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int me = c->rank;
    dmpi_fold_t f = dmpi_fold(me, c->size);
    const void *data = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (count == 0)
        return MPI_SUCCESS;
    if (f.newrank < 0) {         /* sits out */
        DMPI_TRY(dmpi_sched_send(s, data, count, dt, me + 1));
        DMPI_TRY(dmpi_sched_round(s));
        DMPI_TRY(dmpi_sched_recv(s, rbuf, count, dt, me + 1));
        return dmpi_sched_round(s);
    }

    void *acc = rbuf, *other = dmpi_coll_tmpbuf(s, count, dt);
    if (!other)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an allreduce of %zu elements", count);
    if (data != rbuf) {
        DMPI_TRY(dmpi_sched_copy(s, data, count, dt, rbuf, count, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (me < 2 * f.rem) {        /* odd: the even neighbour's vector comes first */
        DMPI_TRY(dmpi_sched_recv(s, other, count, dt, me - 1));
        DMPI_TRY(dmpi_sched_reduce(s, other, acc, count, dt, op));
        DMPI_TRY(dmpi_sched_round(s));
    }
    for (int m = 1; m < f.pof2; m *= 2) {
        int peer = f.newrank ^ m;
        DMPI_TRY(dmpi_sched_send(s, acc, count, dt, dmpi_fold_rank(&f, peer)));
        DMPI_TRY(dmpi_sched_recv(s, other, count, dt, dmpi_fold_rank(&f, peer)));
        if (peer < f.newrank) {
            DMPI_TRY(dmpi_sched_reduce(s, other, acc, count, dt, op));
        } else {
            DMPI_TRY(dmpi_sched_reduce(s, acc, other, count, dt, op));
            void *t = acc;
            acc = other;
            other = t;
        }
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (me < 2 * f.rem)
        DMPI_TRY(dmpi_sched_send(s, acc, count, dt, me - 1));
    if (acc != rbuf)
        DMPI_TRY(dmpi_sched_copy(s, acc, count, dt, rbuf, count, dt));
    return dmpi_sched_round(s);
}
