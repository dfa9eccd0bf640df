/* Algorithm: recursive-doubling inclusive scan. At distance 1, 2, 4, ...
 * each rank trades the reduction of its aligned group of ranks (the
 * "partial") with rank ^ distance; a rank above its partner adds the
 * received partial in front of both its partial and its result, a rank
 * below appends it to its partial only. Lower ranks' data always stays the
 * left operand, so non-commutative ops are fine. Cost: ceil(log2 p) rounds
 * of n bytes. The partial alternates between two scratch vectors, so no
 * step copies data. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_scan_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                                 dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int p = c->size, me = c->rank;
    if (count == 0)
        return MPI_SUCCESS;
    void *part = dmpi_coll_tmpbuf(s, count, dt), *other = dmpi_coll_tmpbuf(s, count, dt);
    if (!part || !other)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a scan of %zu elements", count);
    if (sbuf != MPI_IN_PLACE)
        DMPI_TRY(dmpi_sched_copy(s, sbuf, count, dt, rbuf, count, dt));
    DMPI_TRY(dmpi_sched_copy(s, rbuf, count, dt, part, count, dt));   /* after the first copy */
    DMPI_TRY(dmpi_sched_round(s));
    for (int m = 1; m < p; m *= 2) {
        int peer = me ^ m;
        if (peer >= p)
            continue;
        DMPI_TRY(dmpi_sched_send(s, part, count, dt, peer));
        DMPI_TRY(dmpi_sched_recv(s, other, count, dt, peer));
        if (peer < me) {
            DMPI_TRY(dmpi_sched_reduce(s, other, part, count, dt, op));
            DMPI_TRY(dmpi_sched_reduce(s, other, rbuf, count, dt, op));
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
