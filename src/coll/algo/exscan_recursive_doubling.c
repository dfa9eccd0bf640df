/* Algorithm: recursive-doubling exclusive scan. As the inclusive scan, at
 * distance 1, 2, 4, ... each rank trades the reduction of its aligned group
 * (the "partial") with rank ^ distance, but the result starts empty: the
 * first partial received from below becomes the result, later ones are
 * added in front of it. Rank 0's receive buffer is not touched, as the
 * standard leaves it undefined. Lower ranks' data always stays the left
 * operand, so non-commutative ops are fine. Cost: ceil(log2 p) rounds of
 * n bytes. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_exscan_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                                   dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, me = c->rank;
    bool have = false;           /* rbuf holds a result yet */
    if (count == 0 || p == 1)
        return MPI_SUCCESS;
    void *part = dmpi_coll_tmpbuf(s, count, dt), *other = dmpi_coll_tmpbuf(s, count, dt);
    if (!part || !other)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an exscan of %zu elements", count);
    DMPI_TRY(dmpi_sched_copy(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dt, part, count, dt));
    DMPI_TRY(dmpi_sched_round(s));
    for (int m = 1; m < p; m *= 2) {
        int peer = me ^ m;
        if (peer >= p)
            continue;
        DMPI_TRY(dmpi_sched_send(s, part, count, dt, peer));
        DMPI_TRY(dmpi_sched_recv(s, other, count, dt, peer));
        if (peer < me) {
            DMPI_TRY(dmpi_sched_reduce(s, other, part, count, dt, op));
            if (have)
                DMPI_TRY(dmpi_sched_reduce(s, other, rbuf, count, dt, op));
            else
                DMPI_TRY(dmpi_sched_copy(s, other, count, dt, rbuf, count, dt));
            have = true;
        } else {
            DMPI_TRY(dmpi_sched_reduce(s, part, other, count, dt, op));
            void *t = part;
            part = other;
            other = t;
        }
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}
