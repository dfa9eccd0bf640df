/* Algorithm: binomial-tree broadcast. Ranks are numbered relative to the
 * root (vr = rank - root mod p); vr receives the whole message from
 * vr - 2^k, where 2^k is its lowest set bit, then sends it on to vr + 2^j
 * for every 2^j < 2^k (all at once). Cost: ceil(log2 p) rounds, each rank
 * receives n bytes once and the root sends n bytes log2 p times: best for
 * short messages, where the number of rounds is what counts. The data moves
 * typed, straight from and to the user's buffer. */
#include "coll/coll.h"

int dmpi_bcast_binomial(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root)
{
    int p = c->size, vr = (c->rank - root + p) % p, mask = 1;
    if (p == 1 || count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    while (mask < p) {
        if (vr & mask) {
            DMPI_TRY(dmpi_sched_recv(s, buf, count, dt, (vr - mask + root) % p));
            DMPI_TRY(dmpi_sched_round(s));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p)
            DMPI_TRY(dmpi_sched_send(s, buf, count, dt, (vr + mask + root) % p));
    return dmpi_sched_round(s);
}
