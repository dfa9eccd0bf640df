/* Algorithm: scatter-allgather broadcast (van de Geijn), for long messages.
 * The n bytes of the message (its packed stream) are cut into p chunks of
 * ceil(n/p) bytes; a binomial tree rooted at the root scatters them, so
 * that relative rank vr holds chunk vr (a subtree's chunks travel
 * together), then a ring allgather passes every chunk around. Cost:
 * log2 p + p - 1 rounds, and every rank receives about 2n(p-1)/p bytes
 * instead of n log2 p at the root for the binomial tree. A contiguous type
 * is cut in its own buffer; any other is packed at the root into scratch
 * space and unpacked at the end by the others. */
#include "coll/coll.h"

typedef struct {
    dmpi_sched_t *s;
    char *bytes;                 /* the packed stream */
    size_t n, chunk;
    int p, root;
    dmpi_dtype_t *byte;
} plan_t;

/* Chunks [first, first + k) of relative ranks, clipped to the stream. */
static size_t span_len(const plan_t *pl, int first, int k)
{
    size_t lo = (size_t)first * pl->chunk, hi = (size_t)(first + k) * pl->chunk;
    if (hi > pl->n)
        hi = pl->n;
    return lo < hi ? hi - lo : 0;
}

static int xfer(const plan_t *pl, bool send, int first, int k, int vpeer)
{
    size_t len = span_len(pl, first, k);
    int peer = (vpeer + pl->root) % pl->p;
    char *at = pl->bytes + (size_t)first * pl->chunk;
    if (!len)
        return MPI_SUCCESS;
    return send ? dmpi_sched_send(pl->s, at, len, pl->byte, peer) : dmpi_sched_recv(pl->s, at, len, pl->byte, peer);
}

int dmpi_bcast_scatter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt,
                                 int root)
{
    int p = c->size, vr = (c->rank - root + p) % p;
    plan_t pl = {s, NULL, count * dt->size, 0, p, root, dmpi_dtype_get(MPI_BYTE)};
    if (p == 1 || pl.n == 0)
        return MPI_SUCCESS;
    pl.chunk = (pl.n + (size_t)p - 1) / (size_t)p;
    if (dt->contig) {
        pl.bytes = (char *)buf + dt->true_lb;
    } else {
        if (!(pl.bytes = dmpi_sched_tmp(s, pl.n)))
            return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of a broadcast", pl.n);
        if (vr == 0) {
            DMPI_TRY(dmpi_sched_copy(s, buf, count, dt, pl.bytes, pl.n, pl.byte));
            DMPI_TRY(dmpi_sched_round(s));
        }
    }

    /* Scatter: vr gets chunks [vr, vr + lowbit(vr)) from vr - lowbit(vr). */
    int mask = 1;
    while (mask < p && !(vr & mask))
        mask <<= 1;
    if (vr) {
        DMPI_TRY(xfer(&pl, false, vr, mask, vr - mask));
        DMPI_TRY(dmpi_sched_round(s));
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p)
            DMPI_TRY(xfer(&pl, true, vr + mask, mask, vr + mask));
    DMPI_TRY(dmpi_sched_round(s));

    /* Ring allgather: in step i pass chunk vr - i on to the right. */
    for (int i = 0; i < p - 1; i++) {
        DMPI_TRY(xfer(&pl, true, (vr - i + p) % p, 1, (vr + 1) % p));
        DMPI_TRY(xfer(&pl, false, (vr - i - 1 + 2 * p) % p, 1, (vr - 1 + p) % p));
        DMPI_TRY(dmpi_sched_round(s));
    }
    if (!dt->contig && vr != 0) {
        DMPI_TRY(dmpi_sched_copy(s, pl.bytes, pl.n, pl.byte, buf, count, dt));
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}
