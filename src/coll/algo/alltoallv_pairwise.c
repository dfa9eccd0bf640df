/* Algorithm: pairwise exchange (alltoall, alltoallv, alltoallw). At step k
 * (1 .. p - 1) rank r sends its block for r + k and receives the block from
 * r - k, and waits for both before the next step, so every rank has one
 * partner each way at a time and no rank is flooded. An empty direction
 * sends no message, and a step empty both ways is left out altogether: a
 * rank with few partners pays only for those. The own block is a local
 * copy. Cost: up to p - 1 rounds, each block moves once: the choice for
 * large blocks. Interoperates with linear and throttled (see coll.h). */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_alltoallv_pairwise(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank;
    int err = dmpi_move_self_copy(s, c, m);
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int to = (r + k) % p, from = (r - k + p) % p;
        const void *sb;
        void *rb;
        size_t sn, rn;
        dmpi_dtype_t *sdt, *rdt;
        size_t sbytes = dmpi_move_sblock(m, to, &sb, &sn, &sdt), rbytes = dmpi_move_rblock(m, from, &rb, &rn, &rdt);
        if (!sbytes && !rbytes)
            continue;
        if (rbytes)
            err = dmpi_sched_recv(s, rb, rn, rdt, from);
        if (err == MPI_SUCCESS && sbytes)
            err = dmpi_sched_send(s, sb, sn, sdt, to);
        if (err == MPI_SUCCESS)
            err = dmpi_sched_round(s);
    }
    return err;
}
