/* Algorithm: dissemination barrier. In round k (k = 1, 2, 4, ...) each rank
 * signals rank + k and waits for rank - k; after ceil(log2 p) rounds every
 * rank has heard, directly or not, from every other. Cost: ceil(log2 p)
 * rounds of one empty message each way; no rank is a bottleneck. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_barrier_dissemination(dmpi_sched_t *s, dmpi_comm_t *c)
{
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    int p = c->size, err = MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k <<= 1) {
        if ((err = dmpi_sched_recv(s, NULL, 0, byte, (c->rank - k + p) % p)) ||
            (err = dmpi_sched_send(s, NULL, 0, byte, (c->rank + k) % p)))
            break;
        err = dmpi_sched_round(s);
    }
    return err;
}
