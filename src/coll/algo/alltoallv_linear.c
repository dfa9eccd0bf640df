/* Algorithm: linear exchange (alltoall, alltoallv, alltoallw). Every
 * receive and send is posted at once, in pairwise order (receives from
 * r - 1, r - 2, ..., then sends to r + 1, r + 2, ...) so that no rank is
 * everybody's first partner; empty directions send no message. The own
 * block is a local copy. Cost: one round, each block moves once; up to
 * 2(p - 1) requests in flight. The choice for sparse patterns (a rank
 * with few partners pays only for those, in one round) and for small
 * blocks on few ranks. Interoperates with pairwise and throttled. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_alltoallv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err = MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int from = (r - k + p) % p;
        void *rb;
        size_t rn;
        dmpi_dtype_t *rdt;
        if (dmpi_move_rblock(m, from, &rb, &rn, &rdt))
            err = dmpi_sched_recv(s, rb, rn, rdt, from);
    }
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int to = (r + k) % p;
        const void *sb;
        size_t sn;
        dmpi_dtype_t *sdt;
        if (dmpi_move_sblock(m, to, &sb, &sn, &sdt))
            err = dmpi_sched_send(s, sb, sn, sdt, to);
    }
    if (err == MPI_SUCCESS)
        err = dmpi_move_self_copy(s, c, m);
    return err;
}
