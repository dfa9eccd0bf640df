/* Carrying out operations on this rank's window memory: finding the target
 * bytes (and refusing what lies outside the window), rebuilding the target
 * layout a command ships, applying an accumulate element by element, and
 * the lock of the memory. The active-message handlers (rma/am.c) and the
 * origin's own operations on local or mapped memory (rma/ops.c) share them. */
#include "rma/rma_internal.h"
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* Whether [lo, hi) lies inside an attached region of a dynamic window. */
static bool in_regions(const struct rma_state *st, uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < st->nregions; i++)
        if (lo >= st->regions[i].base && hi <= st->regions[i].base + st->regions[i].size)
            return true;
    return false;
}

char *rma_target_mem(struct rma_state *st, uint64_t addr, int64_t lo, uint64_t span, int *err)
{
    dmpi_win_t *w = st->win;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        uintptr_t a = (uintptr_t)addr + (uintptr_t)lo;
        if (span && !in_regions(st, a, a + span)) {
            *err = dmpi_err(MPI_ERR_RMA_RANGE, "one-sided operation: bytes [%#lx, %#lx) of rank %d are not in "
                            "memory attached to the dynamic window", (unsigned long)a, (unsigned long)(a + span),
                            st->rank);
            return NULL;
        }
        return (char *)(uintptr_t)addr;
    }
    if (span && ((int64_t)addr + lo < 0 || (uint64_t)((int64_t)addr + lo) + span > (uint64_t)w->size)) {
        *err = dmpi_err(MPI_ERR_RMA_RANGE, "one-sided operation: bytes [%ld, %ld) lie outside the %ld bytes of "
                        "rank %d's window", (long)((int64_t)addr + lo), (long)((int64_t)addr + lo + (int64_t)span),
                        (long)w->size, st->rank);
        return NULL;
    }
    return (char *)w->base + addr;
}

void rma_layout(const am_cmd_t *cmd, const dmpi_run_t *runs, dmpi_dtype_t *tmp)
{
    if (cmd->tdt != MPI_DATATYPE_NULL) {
        *tmp = *dmpi_dtype_get(cmd->tdt);
        return;
    }
    memset(tmp, 0, sizeof *tmp);
    tmp->handle = MPI_DATATYPE_NULL;
    tmp->size = cmd->size;
    tmp->extent = cmd->extent;
    tmp->true_lb = cmd->true_lb;
    tmp->contig = cmd->nruns == 0;
    tmp->committed = true;
    tmp->nruns = cmd->nruns;
    tmp->runs = (dmpi_run_t *)runs;
    tmp->basic = cmd->basic;
}

void *rma_must_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        dmpi_fatal("one-sided communication: out of memory for %lu bytes", (unsigned long)n);
    return p;
}

void rma_apply_packed(dmpi_op_t *op, MPI_Datatype basic, const void *in, void *inout, size_t bytes)
{
    dmpi_dtype_t *bdt = dmpi_dtype_get(basic);
    size_t n = bytes / bdt->size;
    if (bdt->contig) {
        dmpi_op_apply(op, in, inout, n, bdt);
        return;
    }
    /* A pair type with a gap (MPI_DOUBLE_INT ...): the op works on its layout. */
    char *a = rma_must_alloc(n * (size_t)bdt->extent), *b = rma_must_alloc(n * (size_t)bdt->extent);
    dmpi_dtype_unpack(bdt, n, in, b, bytes);
    dmpi_dtype_unpack(bdt, n, inout, a, bytes);
    dmpi_op_apply(op, b, a, n, bdt);
    dmpi_dtype_pack(bdt, n, a, inout);
    free(a);
    free(b);
}

void rma_apply(dmpi_op_t *op, MPI_Datatype basic, const dmpi_dtype_t *tdt, size_t count, char *base,
               const void *in, void *old)
{
    dmpi_dtype_t *bdt = dmpi_dtype_get(basic);
    size_t total = count * tdt->size, done = 0;
    if (!bdt->contig) {
        char *cur = rma_must_alloc(total);
        dmpi_dtype_pack_range(tdt, base, 0, total, cur);
        if (old)
            memcpy(old, cur, total);
        if (in) {
            rma_apply_packed(op, basic, in, cur, total);
            dmpi_dtype_unpack_range(tdt, base, 0, total, cur);
        }
        free(cur);
        return;
    }
    struct iovec iov[64];
    while (done < total) {
        size_t covered = 0;
        int n = dmpi_dtype_iov(tdt, base, done, total - done, iov, 64, &covered);
        size_t at = done;
        for (int i = 0; i < n; i++) {
            if (old)
                memcpy((char *)old + at, iov[i].iov_base, iov[i].iov_len);
            if (in)
                dmpi_op_apply(op, (const char *)in + at, iov[i].iov_base, iov[i].iov_len / bdt->size, bdt);
            at += iov[i].iov_len;
        }
        if (!covered)
            break;
        done += covered;
    }
}

void rma_cas(char *mem, const void *in, const void *cmp, void *old, size_t n)
{
    memcpy(old, mem, n);
    if (memcmp(mem, cmp, n) == 0)
        memcpy(mem, in, n);
}

bool rma_lock_try(struct rma_state *st, int origin, int type)
{
    rma_lock_t *l = &st->lock;
    if (l->excl >= 0)
        return false;
    if (type == MPI_LOCK_EXCLUSIVE) {
        if (l->shared)
            return false;
        l->excl = origin;
        return true;
    }
    l->shared++;
    return true;
}

void rma_lock_release(struct rma_state *st, int origin)
{
    rma_lock_t *l = &st->lock;
    if (l->excl == origin)
        l->excl = -1;
    else if (l->shared > 0)
        l->shared--;
}

void rma_copy_typed(const void *src, int scount, const dmpi_dtype_t *sdt, void *dst, int dcount,
                    const dmpi_dtype_t *ddt)
{
    size_t n = (size_t)scount * sdt->size;
    (void)dcount;
    if (sdt->contig && ddt->contig) {
        char *d = (char *)dst + ddt->true_lb;
        const char *s = (const char *)src + sdt->true_lb;
        if (d + n <= s || s + n <= d)
            dmpi_copy(d, s, n);     /* small ones inline: a Put of 8 bytes is this copy */
        else
            memmove(d, s, n);
        return;
    }
    char *tmp = rma_must_alloc(n);
    dmpi_dtype_pack(sdt, (size_t)scount, src, tmp);
    dmpi_dtype_unpack_range(ddt, dst, 0, n, tmp);
    free(tmp);
}
