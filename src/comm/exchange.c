/* The exchanges that communicator construction makes, as calls of the
 * real collectives on the parent communicator (each one a schedule on its
 * collective context, with its own tag). */
#include "comm/comm.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "comm/ctx_agree.h"
#include "core/lock.h"
#include "core/op.h"
#include "p2p/p2p.h"

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
    dmpi_ctx_agreement_t a;
    /* Views of one parent with different tags (Comm_create_group, from
     * groups) may agree at once in threads: the tag orders them the same
     * way everywhere, after idups and before the untagged ones. */
    uint32_t serial = c->coll_tag != DMPI_TAG_NONE && c->coll_tag >= 0 ? 0x80000000u | (uint32_t)c->coll_tag
                                                                        : DMPI_CTX_AGREE_BLOCKING;
    dmpi_ctx_agree_begin(&a, c->ctx, serial);
    int done = 0;
    while (done == 0) {
        dmpi_ctx_agree_offer(&a);
        int err = dmpi_comm_and_words(c, a.buf, DMPI_CTX_AGREE_WORDS);
        done = err != MPI_SUCCESS ? err : dmpi_ctx_agree_result(&a, pair);
        if (done == 0) {
            dmpi_progress();        /* the agreements we wait for finish through progress, */
            if (dmpi_lock_on)
                dmpi_lock_yield();  /* or in other threads, which need the lock to get on */
        }
    }
    dmpi_ctx_agree_end(&a);
    return done == 1 ? MPI_SUCCESS : done;
}
