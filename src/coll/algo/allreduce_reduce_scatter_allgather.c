/* Algorithm: Rabenseifner's allreduce, for long vectors and commutative
 * ops. After MPICH's fold of non-power-of-two sizes (the even ranks among
 * the first 2*rem hand their vector to rank + 1 and sit out), the pof2
 * others reduce-scatter by recursive halving (newrank j ends with block j,
 * n/pof2 elements, fully reduced) and allgather the blocks by recursive
 * doubling; rank + 1 hands the result back to a rank that sat out. Every
 * element is reduced at one rank only, so all ranks get the same bits.
 * Cost: 2 log2 pof2 rounds (+2 when folding), about 2n(p-1)/p bytes per
 * rank, against n log2 p for recursive doubling. The caller checks that
 * the op is commutative. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_allreduce_reduce_scatter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
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

    void *tmp = dmpi_coll_tmpbuf(s, count, dt);
    size_t *bdisp = dmpi_coll_blocks(s, count, f.pof2);
    if (!tmp || !bdisp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an allreduce of %zu elements", count);
    if (data != rbuf) {
        DMPI_TRY(dmpi_sched_copy(s, data, count, dt, rbuf, count, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (me < 2 * f.rem) {        /* odd: take in the even neighbour's vector */
        DMPI_TRY(dmpi_sched_recv(s, tmp, count, dt, me - 1));
        DMPI_TRY(dmpi_sched_reduce(s, tmp, rbuf, count, dt, op));
        DMPI_TRY(dmpi_sched_round(s));
    }
    DMPI_TRY(dmpi_halving_reduce_scatter(s, &f, rbuf, tmp, bdisp, dt, op));
    DMPI_TRY(dmpi_doubling_allgather(s, &f, rbuf, bdisp, dt));
    if (me < 2 * f.rem) {
        DMPI_TRY(dmpi_sched_send(s, rbuf, count, dt, me - 1));
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}
