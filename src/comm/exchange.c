/* The exchanges that communicator construction makes, as calls of the
 * real collectives on the parent communicator (each one a schedule on its
 * collective context, with its own tag). */
#include "comm/comm.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "core/ctxid.h"
#include "core/op.h"

int dmpi_comm_and_words(dmpi_comm_t *c, uint32_t *words, int n)
{
    return c->coll->allreduce(c, MPI_IN_PLACE, words, (size_t)n, dmpi_dtype_get(MPI_UINT32_T),
                               dmpi_op_get(MPI_BAND), NULL);
}

int dmpi_comm_bcast_words(dmpi_comm_t *c, int root, uint32_t *words, int n)
{
    return c->coll->bcast(c, words, (size_t)n, dmpi_dtype_get(MPI_UINT32_T), root, NULL);
}

int dmpi_comm_allgather_ints(dmpi_comm_t *c, const int *mine, int k, int *all)
{
    dmpi_dtype_t *ints = dmpi_dtype_get(MPI_INT);
    return c->coll->allgather(c, mine, (size_t)k, ints, all, (size_t)k, ints, NULL);
}

int dmpi_comm_agree_pair(dmpi_comm_t *c, int *pair)
{
    uint32_t mask[DMPI_CTX_WORDS];
    dmpi_ctx_free_mask(mask);
    int err = dmpi_comm_and_words(c, mask, DMPI_CTX_WORDS);
    if (err != MPI_SUCCESS)
        return err;
    if ((*pair = dmpi_ctx_lowest(mask)) < 0)
        return dmpi_err(MPI_ERR_OTHER, "all %d communicator context ids are in use; free some communicators",
                        DMPI_CTX_PAIRS);
    return MPI_SUCCESS;
}
