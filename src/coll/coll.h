/* Collective operations. Each communicator will carry a table of collective
 * functions chosen by select.c; algorithms live one per file in algo/. */
#ifndef DMPI_COLL_H
#define DMPI_COLL_H

#include "core/dmpi.h"

/* Tags of the library's own collective traffic, on a communicator's
 * collective context. Negative, so that they never meet the user's tag of
 * MPI_Comm_create_group, which travels there too. (-1 is MPI_ANY_TAG.) */
enum { DMPI_TAG_BARRIER = -2, DMPI_TAG_CTXID = -3, DMPI_TAG_GATHER = -4, DMPI_TAG_BCAST = -5 };

/* The same communicator, addressed on its collective context. */
static inline dmpi_comm_t dmpi_coll_view(const dmpi_comm_t *c)
{
    dmpi_comm_t v = *c;
    v.ctx = c->ctx + 1;
    return v;
}

/* Small collectives the library uses itself (coll/internal.c), over the
 * processes `members` (ranks in c, n of them; this process is members[me]). */
int dmpi_coll_band(dmpi_comm_t *c, const int *members, int n, int me, int tag, uint32_t *words, int nwords);
/* Every rank of c contributes k ints; all[] gets size*k ints in rank order. */
int dmpi_coll_allgather_ints(dmpi_comm_t *c, const int *mine, int k, int *all);

int dmpi_coll_barrier(dmpi_comm_t *c);

/* Algorithms */
int dmpi_barrier_dissemination(dmpi_comm_t *c);

#endif
