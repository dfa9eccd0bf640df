/* Algorithm: ring allreduce, for very long vectors and commutative ops.
 * The vector is cut into p blocks. Reduce-scatter: in step i (0 .. p-2)
 * rank r sends block r - i to r + 1 and adds block r - i - 1, received
 * from r - 1, into its own copy; after p - 1 steps block r + 1 is complete
 * at rank r. Allgather: p - 1 more steps pass the complete blocks around
 * the ring. Every element is reduced along one path, so all ranks get the
 * same bits. Cost: 2(p-1) rounds, 2n(p-1)/p bytes per rank, every rank
 * busy in every round and no folding for non-powers of two; the rounds
 * make it worth it only when n/p is large. The caller checks that the op
 * is commutative. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_allreduce_ring(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                        dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
    if (count == 0)
        return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE) {
        DMPI_TRY(dmpi_sched_copy(s, sbuf, count, dt, rbuf, count, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (p == 1)
        return MPI_SUCCESS;
    size_t *bd = dmpi_coll_blocks(s, count, p);
    void *tmp = dmpi_coll_tmpbuf(s, bd ? bd[1] : 0, dt);   /* block 0 is the largest */
    if (!bd || !tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an allreduce of %zu elements", count);
    for (int i = 0; i < p - 1; i++) {
        int sb = (r - i + p) % p, rb = (r - i - 1 + p) % p;
        size_t sn = bd[sb + 1] - bd[sb], rn = bd[rb + 1] - bd[rb];
        if (sn)
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(rbuf, bd[sb], dt), sn, dt, right));
        if (rn) {
            DMPI_TRY(dmpi_sched_recv(s, tmp, rn, dt, left));
            DMPI_TRY(dmpi_sched_reduce(s, tmp, dmpi_coll_at(rbuf, bd[rb], dt), rn, dt, op));
        }
        DMPI_TRY(dmpi_sched_round(s));
    }
    for (int i = 0; i < p - 1; i++) {
        int sb = (r + 1 - i + p) % p, rb = (r - i + p) % p;
        size_t sn = bd[sb + 1] - bd[sb], rn = bd[rb + 1] - bd[rb];
        if (sn)
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(rbuf, bd[sb], dt), sn, dt, right));
        if (rn)
            DMPI_TRY(dmpi_sched_recv(s, dmpi_coll_at(rbuf, bd[rb], dt), rn, dt, left));
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}
