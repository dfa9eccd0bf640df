/* Algorithm: pairwise-exchange reduce-scatter, for long vectors and
 * commutative ops. In step k (1 .. p-1) rank r sends its contribution to
 * block r + k to that rank and receives rank r - k's contribution to its
 * own block, which it adds to its running result. Cost: p - 1 rounds,
 * n(p-1)/p bytes per rank, no folding and no scratch beyond one block;
 * blocks are combined in the order they arrive, hence commutative ops
 * only (the caller checks). */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_reduce_scatter_pairwise(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                 const MPI_Count *counts, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, me = c->rank;
    bool inplace = sbuf == MPI_IN_PLACE;
    const void *data = inplace ? rbuf : sbuf;
    size_t mine = (size_t)counts[me], *disp = dmpi_sched_tmp(s, (size_t)(p + 1) * sizeof *disp);
    if (!disp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter on %d ranks", p);
    disp[0] = 0;
    for (int i = 0; i < p; i++)
        disp[i + 1] = disp[i] + (size_t)counts[i];
    /* In place the vector's blocks are still to be sent from rbuf, so the
     * result grows in scratch and moves to the front of rbuf at the end. */
    void *acc = inplace ? dmpi_coll_tmpbuf(s, mine, dt) : rbuf, *tmp = dmpi_coll_tmpbuf(s, mine, dt);
    if (!acc || !tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter block of %zu elements", mine);
    if (mine) {
        DMPI_TRY(dmpi_sched_copy(s, dmpi_coll_at(data, disp[me], dt), mine, dt, acc, mine, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    for (int k = 1; k < p; k++) {
        int to = (me + k) % p, from = (me - k + p) % p;
        if (counts[to])
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(data, disp[to], dt), (size_t)counts[to], dt, to));
        if (mine) {
            DMPI_TRY(dmpi_sched_recv(s, tmp, mine, dt, from));
            DMPI_TRY(dmpi_sched_reduce(s, tmp, acc, mine, dt, op));
        }
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (inplace && mine)
        DMPI_TRY(dmpi_sched_copy(s, acc, mine, dt, rbuf, mine, dt));
    return dmpi_sched_round(s);
}
