/* Algorithm: intercommunicator barrier, broadcast, reduce, gather(v) and
 * scatter(v), as MPICH builds them.
 * - Barrier: a barrier of the local group, the two leaders exchange an
 *   empty message, each leader broadcasts one byte in its group. Cost: two
 *   local log p phases and one message between the groups.
 * - Bcast: the root sends to the remote group's leader, which broadcasts
 *   in its group. Cost: one message plus a local broadcast.
 * - Reduce: the other group reduces to its leader (rank order, so any op),
 *   which sends the result to the root. Cost: a local reduce plus one message.
 * - Gather(v), Scatter(v): the root receives from (sends to) every remote
 *   rank at once, straight into (from) its buffer; empty blocks send
 *   nothing (both ends know). Cost: one round, remote size messages at the root. */
#include "coll/inter.h"
#include "coll/select.h"
#include "core/op.h"

int dmpi_inter_barrier(dmpi_sched_t *s, dmpi_comm_t *c)
{
    dmpi_comm_t *lc = c->local_comm;
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    char *flag = dmpi_sched_tmp(s, 1);
    if (!flag)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an intercommunicator barrier");
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_barrier_dissemination(s, lc));
    dmpi_sched_local(s, false);
    if (lc->rank == 0) {
        DMPI_TRY(dmpi_sched_send(s, NULL, 0, byte, 0));
        DMPI_TRY(dmpi_sched_recv(s, NULL, 0, byte, 0));
        DMPI_TRY(dmpi_sched_round(s));
    }
    /* a byte, not an empty message: the broadcast sends nothing for no data */
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_bcast_binomial(s, lc, flag, 1, byte, 0));
    dmpi_sched_local(s, false);
    return MPI_SUCCESS;
}

int dmpi_inter_bcast(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return dmpi_sched_send(s, buf, count, dt, 0);
    dmpi_comm_t *lc = c->local_comm;
    if (lc->rank == 0) {
        DMPI_TRY(dmpi_sched_recv(s, buf, count, dt, root));
        DMPI_TRY(dmpi_sched_round(s));
    }
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_coll_bcast_build(s, lc, buf, count, dt, 0));
    dmpi_sched_local(s, false);
    return MPI_SUCCESS;
}

int dmpi_inter_reduce(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return dmpi_sched_recv(s, rbuf, count, dt, 0);
    dmpi_comm_t *lc = c->local_comm;
    void *acc = NULL;
    if (lc->rank == 0 && !(acc = dmpi_coll_tmpbuf(s, count, dt)))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduction of %zu elements", count);
    dmpi_sched_local(s, true);
    DMPI_TRY(dmpi_coll_reduce_build(s, lc, sbuf, acc, count, dt, op, 0));
    dmpi_sched_local(s, false);
    return lc->rank == 0 ? dmpi_sched_send(s, acc, count, dt, root) : MPI_SUCCESS;
}

int dmpi_inter_gather(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    if (m->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (m->root != MPI_ROOT)
        return m->scount * m->sdt->size > 0 ? dmpi_sched_send(s, m->sbuf, m->scount, m->sdt, m->root) : MPI_SUCCESS;
    for (int j = 0; j < c->peer_size; j++) {
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_rblock(m, j, &rb, &n, &dt))
            DMPI_TRY(dmpi_sched_recv(s, rb, n, dt, j));
    }
    return MPI_SUCCESS;
}

int dmpi_inter_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    if (m->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (m->root != MPI_ROOT)
        return m->rcount * m->rdt->size > 0 ? dmpi_sched_recv(s, m->rbuf, m->rcount, m->rdt, m->root) : MPI_SUCCESS;
    for (int j = 0; j < c->peer_size; j++) {
        const void *sb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_sblock(m, j, &sb, &n, &dt))
            DMPI_TRY(dmpi_sched_send(s, sb, n, dt, j));
    }
    return MPI_SUCCESS;
}
