/* Algorithm: intercommunicator allgather(v), alltoall(v, w), allreduce and
 * reduce-scatter(_block), as MPICH builds them.
 * - Allgather(v): every rank sends its block to the remote leader, which
 *   receives the remote group's blocks straight into its buffer; each
 *   leader then broadcasts them in its group (the v form: every nonempty
 *   block down one binomial tree, so each rank may have its own
 *   displacements). Cost: one round between the groups, a local broadcast.
 * - Alltoall(v, w): every receive from and send to the remote ranks posted
 *   at once, starting with a different partner at each rank; empty
 *   directions send nothing. Cost: one round, each block moves once.
 * - Allreduce: each group reduces to its leader (rank order, so any op),
 *   the leaders swap their results, each broadcasts the remote result in
 *   its group. Cost: a local reduce, one exchange, a local broadcast.
 * - Reduce_scatter(_block): the same local reduce of the whole vector,
 *   the swap, then the leader scatters the remote result over its group
 *   by the group's recvcounts. */
#include "coll/inter.h"
#include "coll/select.h"
#include "core/op.h"

static int no_memory(size_t count)
{
    return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an intercommunicator collective of %zu elements", count);
}

/* The nonempty receive blocks of m, from the leader (local rank 0) down a
 * binomial tree, all blocks of a level in one round. */
static int bcast_blocks(dmpi_sched_t *s, dmpi_comm_t *lc, const dmpi_move_t *m, int nblocks)
{
    int p = lc->size, me = lc->rank, mask = 1;
    for (; mask < p; mask <<= 1)
        if (me & mask) {
            for (int j = 0; j < nblocks; j++) {
                void *rb;
                size_t n;
                dmpi_dtype_t *dt;
                if (dmpi_move_rblock(m, j, &rb, &n, &dt))
                    DMPI_TRY(dmpi_sched_recv(s, rb, n, dt, me - mask));
            }
            DMPI_TRY(dmpi_sched_round(s));
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < p)
            for (int j = 0; j < nblocks; j++) {
                void *rb;
                size_t n;
                dmpi_dtype_t *dt;
                if (dmpi_move_rblock(m, j, &rb, &n, &dt))
                    DMPI_TRY(dmpi_sched_send(s, rb, n, dt, me + mask));
            }
    return dmpi_sched_round(s);
}

int dmpi_inter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    dmpi_comm_t *lc = c->local_comm;
    int q = c->peer_size;
    if (m->scount * m->sdt->size > 0)
        DMPI_TRY(dmpi_sched_send(s, m->sbuf, m->scount, m->sdt, 0));
    for (int j = 0; lc->rank == 0 && j < q; j++) {
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_rblock(m, j, &rb, &n, &dt))
            DMPI_TRY(dmpi_sched_recv(s, rb, n, dt, j));
    }
    DMPI_TRY(dmpi_sched_round(s));
    dmpi_sched_local(s, true);
    DMPI_TRY(m->rcounts ? bcast_blocks(s, lc, m, q)
                        : dmpi_coll_bcast_build(s, lc, m->rbuf, (size_t)q * m->rcount, m->rdt, 0));
    dmpi_sched_local(s, false);
    return MPI_SUCCESS;
}

int dmpi_inter_alltoall(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int q = c->peer_size;
    for (int k = 0; k < q; k++) {
        int j = (c->rank + k) % q;
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_rblock(m, j, &rb, &n, &dt))
            DMPI_TRY(dmpi_sched_recv(s, rb, n, dt, j));
    }
    for (int k = 0; k < q; k++) {
        int j = (c->rank + k) % q;
        const void *sb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_sblock(m, j, &sb, &n, &dt))
            DMPI_TRY(dmpi_sched_send(s, sb, n, dt, j));
    }
    return dmpi_sched_round(s);
}

/* The local group's vectors of count elements reduced into *acc at the
 * leader (scratch; NULL elsewhere), and the leaders' swap: the remote
 * group's result lands in `into` at the leader. */
static int reduce_and_swap(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *into, size_t count,
                           dmpi_dtype_t *dt, dmpi_op_t *op)
{
    dmpi_comm_t *lc = c->local_comm;
    void *acc = NULL;
    if (lc->rank == 0 && !(acc = dmpi_coll_tmpbuf(s, count, dt)))
        return no_memory(count);
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_coll_reduce_build(s, lc, sbuf, acc, count, dt, op, 0));
    dmpi_sched_local(s, false);
    if (lc->rank != 0)
        return MPI_SUCCESS;
    DMPI_TRY(dmpi_sched_send(s, acc, count, dt, 0));
    DMPI_TRY(dmpi_sched_recv(s, into, count, dt, 0));
    return dmpi_sched_round(s);
}

int dmpi_inter_allreduce(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         dmpi_dtype_t *dt, dmpi_op_t *op)
{
    DMPI_TRY(reduce_and_swap(s, c, sbuf, rbuf, count, dt, op));
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_coll_bcast_build(s, c->local_comm, rbuf, count, dt, 0));
    dmpi_sched_local(s, false);
    return MPI_SUCCESS;
}

int dmpi_inter_reduce_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                              dmpi_dtype_t *dt, dmpi_op_t *op)
{
    dmpi_comm_t *lc = c->local_comm;
    int p = lc->size;
    size_t total = 0;
    for (int i = 0; i < p; i++)
        total += (size_t)counts[i];
    void *res = NULL;
    MPI_Aint *displs = NULL;
    if (lc->rank == 0) {
        if (!(res = dmpi_coll_tmpbuf(s, total, dt)) || !(displs = dmpi_sched_tmp(s, (size_t)p * sizeof *displs)))
            return no_memory(total);
        MPI_Aint d = 0;
        for (int i = 0; i < p; d += (MPI_Aint)counts[i++])
            displs[i] = d;
    }
    DMPI_TRY(reduce_and_swap(s, c, sbuf, res, total, dt, op));
    dmpi_move_t m = {.sbuf = res, .scounts = counts, .sdispls = displs, .sdt = dt, .rbuf = rbuf,
                     .rcount = (size_t)counts[lc->rank], .rdt = dt, .root = 0};
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_scatterv_linear(s, lc, &m));
    dmpi_sched_local(s, false);
    return MPI_SUCCESS;
}
