/* Algorithm: throttled linear exchange (alltoall, alltoallv, alltoallw).
 * The exchanges of the linear algorithm, in the same pairwise order (step
 * k: receive from r - k, send to r + k), posted in batches of `window`
 * nonempty steps; a batch starts when the previous one is complete. Steps
 * empty both ways are skipped and do not count. Bounds the requests and
 * unexpected messages in flight when many ranks exchange small blocks.
 * Cost: ceil(nonempty steps / window) rounds, each block moves once.
 * Interoperates with pairwise and linear: whatever each rank runs, every
 * rank handles its steps in increasing k, so the lowest pending step is
 * always posted at both ends. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_alltoallv_throttled(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m, int window)
{
    int p = c->size, r = c->rank, batch = 0;
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
        if (err == MPI_SUCCESS && ++batch == window) {
            err = dmpi_sched_round(s);
            batch = 0;
        }
    }
    return err;
}
