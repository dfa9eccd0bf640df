/* Algorithm: recursive-halving reduce-scatter, for commutative ops. After
 * MPICH's fold of non-power-of-two sizes (the even ranks among the first
 * 2*rem hand their vector to rank + 1 and sit out), newrank j stands for
 * the one or two ranks it represents, whose blocks are adjacent; recursive
 * halving leaves newrank j with those blocks reduced, and rank + 1 hands
 * the even rank its block. Cost: log2 pof2 rounds (+2 when folding); the
 * bytes sent halve each round, n(p-1)/p in all: best for short and medium
 * vectors. The caller checks that the op is commutative. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_reduce_scatter_recursive_halving(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                          const MPI_Count *counts, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, me = c->rank;
    dmpi_fold_t f = dmpi_fold(me, p);
    const void *data = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t *disp = dmpi_sched_tmp(s, (size_t)(p + 1) * sizeof *disp);
    size_t *bdisp = dmpi_sched_tmp(s, (size_t)(f.pof2 + 1) * sizeof *bdisp);
    if (!disp || !bdisp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter on %d ranks", p);
    disp[0] = 0;
    for (int i = 0; i < p; i++)
        disp[i + 1] = disp[i] + (size_t)counts[i];
    size_t total = disp[p], mine = (size_t)counts[me];
    if (total == 0)
        return MPI_SUCCESS;
    if (f.newrank < 0) {         /* sits out */
        DMPI_TRY(dmpi_sched_send(s, data, total, dt, me + 1));
        DMPI_TRY(dmpi_sched_round(s));
        if (mine)
            DMPI_TRY(dmpi_sched_recv(s, rbuf, mine, dt, me + 1));
        return dmpi_sched_round(s);
    }

    /* newrank j's blocks start with those of its lowest rank */
    for (int j = 0; j < f.pof2; j++)
        bdisp[j] = disp[j < f.rem ? 2 * j : j + f.rem];
    bdisp[f.pof2] = total;
    void *acc = dmpi_coll_tmpbuf(s, total, dt), *tmp = dmpi_coll_tmpbuf(s, total, dt);
    if (!acc || !tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter of %zu elements", total);
    DMPI_TRY(dmpi_sched_copy(s, data, total, dt, acc, total, dt));
    DMPI_TRY(dmpi_sched_round(s));
    if (me < 2 * f.rem) {
        DMPI_TRY(dmpi_sched_recv(s, tmp, total, dt, me - 1));
        DMPI_TRY(dmpi_sched_reduce(s, tmp, acc, total, dt, op));
        DMPI_TRY(dmpi_sched_round(s));
    }
    DMPI_TRY(dmpi_halving_reduce_scatter(s, &f, acc, tmp, bdisp, dt, op));
    if (me < 2 * f.rem && counts[me - 1])
        DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(acc, disp[me - 1], dt), (size_t)counts[me - 1], dt, me - 1));
    if (mine)
        DMPI_TRY(dmpi_sched_copy(s, dmpi_coll_at(acc, disp[me], dt), mine, dt, rbuf, mine, dt));
    return dmpi_sched_round(s);
}
