/* Algorithm: dissemination barrier. In round k (k = 1, 2, 4, ...) each rank
 * signals rank + k and waits for rank - k; after ceil(log2 p) rounds every
 * rank has heard, directly or not, from every other. */
#include "coll/coll.h"
#include "p2p/p2p.h"

int dmpi_barrier_dissemination(dmpi_comm_t *c)
{
    dmpi_comm_t cc = dmpi_coll_view(c);  /* never matches user traffic */
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    for (int k = 1; k < c->size; k <<= 1) {
        int to = (c->rank + k) % c->size, from = (c->rank - k + c->size) % c->size;
        dmpi_request_t *s;
        int err = dmpi_isend(NULL, 0, byte, to, DMPI_TAG_BARRIER, &cc, DMPI_MODE_STANDARD, &s);
        if (err != MPI_SUCCESS)
            return err;
        err = dmpi_recv(NULL, 0, byte, from, DMPI_TAG_BARRIER, &cc, MPI_STATUS_IGNORE);
        int err2 = dmpi_wait(s, NULL, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS || err2 != MPI_SUCCESS)
            return err != MPI_SUCCESS ? err : err2;
    }
    return MPI_SUCCESS;
}
