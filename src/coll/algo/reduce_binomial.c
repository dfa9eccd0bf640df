/* Algorithm: binomial-tree reduce. Relative rank vr receives the partial
 * results of vr + 1, vr + 2, vr + 4, ... (those below the next set bit of
 * vr), one per round, combining each as (its own, the lower ranks) op
 * (the received, higher ranks), then sends its result to vr - lowbit(vr).
 * For a commutative op the tree is rooted at the root; for any other it is
 * rooted at rank 0 (vr = rank), which keeps the combination in rank order,
 * and rank 0 sends the result to the root at the end. Cost: ceil(log2 p)
 * rounds (one more for a non-commutative op with root != 0), n bytes per
 * round on the way up: best for short vectors. Two scratch vectors
 * alternate as the running result, so no step copies data. */
#include "coll/coll.h"
#include "core/op.h"

int dmpi_reduce_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    int p = c->size, me = c->rank;
    int top = dmpi_op_commutative(op) ? root : 0;
    int vr = (me - top + p) % p;
    const void *cur = sbuf == MPI_IN_PLACE ? rbuf : sbuf;   /* my running result */
    void *t[2] = {NULL, NULL};
    if (count == 0)
        return MPI_SUCCESS;

    for (int mask = 1; mask < p; mask <<= 1) {
        if (vr & mask) {
            DMPI_TRY(dmpi_sched_send(s, cur, count, dt, (vr - mask + top) % p));
            DMPI_TRY(dmpi_sched_round(s));
            break;
        }
        if ((vr | mask) >= p)
            continue;
        void *in = cur == t[0] ? t[1] : t[0];   /* the vector not holding cur */
        if (!in) {
            in = dmpi_coll_tmpbuf(s, count, dt);
            if (!in)
                return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduction of %zu elements", count);
            t[t[0] ? 1 : 0] = in;
        }
        DMPI_TRY(dmpi_sched_recv(s, in, count, dt, ((vr | mask) + top) % p));
        DMPI_TRY(dmpi_sched_reduce(s, cur, in, count, dt, op));
        DMPI_TRY(dmpi_sched_round(s));
        cur = in;
    }

    if (me == top && top == root) {
        if (cur != rbuf)
            DMPI_TRY(dmpi_sched_copy(s, cur, count, dt, rbuf, count, dt));
    } else if (me == top) {
        DMPI_TRY(dmpi_sched_send(s, cur, count, dt, root));
    } else if (me == root) {
        DMPI_TRY(dmpi_sched_recv(s, rbuf, count, dt, top));
    }
    return dmpi_sched_round(s);
}
