/* Algorithm: reduce-scatter as a binomial reduce of the whole vector to
 * rank 0 followed by a linear scatter of the blocks, for ops that are not
 * commutative: the binomial reduce combines in rank order. Cost:
 * ceil(log2 p) rounds of n bytes, then one round in which rank 0 sends
 * n(p-1)/p bytes; the safe choice rather than a fast one. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_reduce_scatter_reduce_scatterv(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                        const MPI_Count *counts, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, me = c->rank;
    const void *data = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t total = 0, mine = (size_t)counts[me];
    for (int i = 0; i < p; i++)
        total += (size_t)counts[i];
    if (total == 0)
        return MPI_SUCCESS;
    void *full = me == 0 ? dmpi_coll_tmpbuf(s, total, dt) : NULL;
    if (me == 0 && !full)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter of %zu elements", total);
    DMPI_TRY(dmpi_reduce_binomial(s, c, data, full, total, dt, op, 0));
    if (me != 0) {
        if (mine)
            DMPI_TRY(dmpi_sched_recv(s, rbuf, mine, dt, 0));
        return dmpi_sched_round(s);
    }
    size_t at = 0;
    for (int i = 0; i < p; at += (size_t)counts[i], i++) {
        if (counts[i] && i)
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(full, at, dt), (size_t)counts[i], dt, i));
    }
    if (mine)
        DMPI_TRY(dmpi_sched_copy(s, full, mine, dt, rbuf, mine, dt));
    return dmpi_sched_round(s);
}
