/* Pieces the reduction algorithms share: typed scratch buffers, the fold
 * of non-power-of-two communicators, and recursive halving / doubling over
 * blocks of a vector (Rabenseifner's reduce-scatter and allgather). */
#include "coll/coll.h"
#include "core/op.h"

void *dmpi_coll_tmpbuf(dmpi_sched_t *s, size_t count, const dmpi_dtype_t *dt)
{
    if (count == 0)
        return dmpi_sched_tmp(s, 0);
    /* Elements sit at i * extent; their data spans [true_lb, true_lb +
     * true_extent) from there. A negative extent lays them out downwards. */
    MPI_Aint span = (MPI_Aint)(count - 1) * dt->extent;
    MPI_Aint low = dt->true_lb + (span < 0 ? span : 0);
    size_t bytes = (size_t)dt->true_extent + (size_t)(span < 0 ? -span : span);
    char *p = dmpi_sched_tmp(s, bytes);
    return p ? p - low : NULL;
}

size_t *dmpi_coll_blocks(dmpi_sched_t *s, size_t count, int n)
{
    size_t *d = dmpi_sched_tmp(s, (size_t)(n + 1) * sizeof *d);
    if (!d)
        return NULL;
    size_t q = count / (size_t)n, r = count % (size_t)n;
    for (int j = 0; j <= n; j++)
        d[j] = (size_t)j * q + ((size_t)j < r ? (size_t)j : r);
    return d;
}

dmpi_fold_t dmpi_fold(int rank, int size)
{
    dmpi_fold_t f;
    f.pof2 = 1;
    while (f.pof2 * 2 <= size)
        f.pof2 *= 2;
    f.rem = size - f.pof2;
    if (rank < 2 * f.rem)
        f.newrank = rank % 2 ? rank / 2 : -1;
    else
        f.newrank = rank - f.rem;
    return f;
}

int dmpi_fold_rank(const dmpi_fold_t *f, int newrank)
{
    return newrank < f->rem ? 2 * newrank + 1 : newrank + f->rem;
}

/* Halving with the largest distance first, so that newrank j keeps block j:
 * at distance m a newrank shares the 2m blocks starting at its own index
 * rounded down to 2m with its partner, keeps its half and reduces into it
 * what the partner sends of that half. */
int dmpi_halving_reduce_scatter(dmpi_sched_t *s, const dmpi_fold_t *f, void *acc, void *tmp, const size_t *bdisp,
                                dmpi_dtype_t *dt, dmpi_op_t *op)
{
    int me = f->newrank;
    for (int m = f->pof2 / 2; m >= 1; m /= 2) {
        int peer = me ^ m, lo = me & ~(2 * m - 1), mid = lo + m;
        int keep = me < peer ? lo : mid, give = me < peer ? mid : lo;
        size_t kn = bdisp[keep + m] - bdisp[keep], gn = bdisp[give + m] - bdisp[give];
        int dst = dmpi_fold_rank(f, peer);
        if (gn)
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(acc, bdisp[give], dt), gn, dt, dst));
        if (kn) {
            void *in = dmpi_coll_at(tmp, bdisp[keep], dt);
            DMPI_TRY(dmpi_sched_recv(s, in, kn, dt, dst));
            DMPI_TRY(dmpi_sched_reduce(s, in, dmpi_coll_at(acc, bdisp[keep], dt), kn, dt, op));
        }
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}

/* At distance m (1, 2, 4, ...) a newrank holds the m blocks starting at
 * its index rounded down to m, and trades them for its partner's. */
int dmpi_doubling_allgather(dmpi_sched_t *s, const dmpi_fold_t *f, void *acc, const size_t *bdisp,
                            dmpi_dtype_t *dt)
{
    int me = f->newrank;
    for (int m = 1; m < f->pof2; m *= 2) {
        int peer = me ^ m, mine = me & ~(m - 1), theirs = peer & ~(m - 1);
        size_t mn = bdisp[mine + m] - bdisp[mine], tn = bdisp[theirs + m] - bdisp[theirs];
        int dst = dmpi_fold_rank(f, peer);
        if (mn)
            DMPI_TRY(dmpi_sched_send(s, dmpi_coll_at(acc, bdisp[mine], dt), mn, dt, dst));
        if (tn)
            DMPI_TRY(dmpi_sched_recv(s, dmpi_coll_at(acc, bdisp[theirs], dt), tn, dt, dst));
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}
