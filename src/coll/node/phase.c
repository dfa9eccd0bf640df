/* The moves node-level collectives are made of (node_coll.h): expose,
 * wait for a post, pull, and the waits on the done flags. */
#include "coll/node/node_coll.h"
#include "core/lock.h"
#include "core/params.h"
#include "node/cma.h"
#include "node/node.h"
#include "p2p/p2p.h"
#include <sched.h>
#include <stdio.h>
#include <string.h>

int nc_mode(const nc_state_t *s, size_t bytes)
{
    if (bytes <= NC_INLINE)
        return NC_INL;
    if (bytes <= s->copy)
        return NC_SLOT;
    return s->cma_all ? NC_CMA : NC_NONE;
}

/* ---- waiting --------------------------------------------------------------- */

typedef struct flag_wait {
    nc_state_t *s;
    _Atomic uint64_t *w;
    uint64_t v;
    const char *flag;
    int rank;
} flag_wait_t;

static bool flag_reached(void *arg)
{
    flag_wait_t *f = arg;
    return atomic_load_explicit(f->w, memory_order_acquire) >= f->v;
}

static void describe_flag(void *arg, char *buf, size_t len)
{
    flag_wait_t *f = arg;
    dmpi_comm_t *c = f->s->comm;
    snprintf(buf, len, "%s on %s (node-level, phase %llu: rank %d's %s flag is at %llu)",
             f->s->call ? f->s->call : "a collective", c->name[0] ? c->name : "a communicator",
             (unsigned long long)f->v, f->rank, f->flag, (unsigned long long)atomic_load(f->w));
}

/* Slow path: spins briefly on the flag alone (a peer a few hundred
 * nanoseconds behind), then waits in the progress engine, which spins
 * DMPI_SPIN_COUNT polls, yields the core after that when the node is
 * oversubscribed, lets other threads in, and reports a hang naming the
 * flag. */
static void wait_slow(nc_state_t *s, _Atomic uint64_t *w, uint64_t v, const char *flag, int rank)
{
    /* No pause: it would add its own latency to the flag's. Oversubscribed,
     * the rank we wait for may need this core: only a few polls. */
    /* With threads, straight to the general wait, which lets the others
     * in: they may hold what this rank's peers wait for. */
    int spins = dmpi_lock_on ? 0 : dmpi_world.oversubscribed ? 16 : 256;
    for (int i = 0; i < spins; i++)
        if (atomic_load_explicit(w, memory_order_acquire) >= v)
            return;
    /* Oversubscribed, the rank we wait for most likely waits for this
     * core: give it at once (the general wait below yields only after
     * DMPI_SPIN_COUNT idle polls). */
    for (int i = 0; dmpi_world.oversubscribed && !dmpi_lock_on && i < 64; i++) {
        if (atomic_load_explicit(w, memory_order_acquire) >= v)
            return;
        dmpi_progress();
        sched_yield();
    }
    flag_wait_t f = {s, w, v, flag, rank};
    dmpi_progress_until_described(flag_reached, &f, describe_flag);
}

void nc_wait_ge(nc_state_t *s, _Atomic uint64_t *w, uint64_t v, const char *flag, int rank)
{
    if (DMPI_LIKELY(atomic_load_explicit(w, memory_order_acquire) >= v))
        return;
    wait_slow(s, w, v, flag, rank);
}

void nc_wait_done(nc_state_t *s, int r, uint64_t v)
{
    nc_wait_ge(s, &nc_rank(s, r)->done, v, "done", r);
}

void nc_wait_done_all(nc_state_t *s, uint64_t v)
{
    if (s->min_done >= v)
        return;
    uint64_t lo = UINT64_MAX;
    for (int r = 0; r < s->n; r++) {
        if (r == s->me)
            continue;
        nc_wait_done(s, r, v);
        uint64_t d = atomic_load_explicit(&nc_rank(s, r)->done, memory_order_acquire);
        lo = d < lo ? d : lo;
    }
    s->min_done = lo;
}

/* A rank that returned an error would leave the others waiting for flags
 * that never come: the job ends, on every rank that sees it, with this. */
static void mismatch(nc_state_t *s, int r, uint64_t expected, uint64_t got)
{
    dmpi_comm_t *c = s->comm;
    if (got >> 56 != expected >> 56)
        dmpi_fatal("%s on %s: rank %d called a different collective than rank %d; collectives must be called in "
                   "the same order on every rank", s->call, c->name[0] ? c->name : "a communicator", r, s->me);
    dmpi_fatal("%s on %s: rank %d expected %llu bytes from rank %d, but it gave %llu; the ranks called the "
               "collective with different counts or datatypes", s->call, c->name[0] ? c->name : "a communicator",
               s->me, (unsigned long long)(expected & NC_BYTES_MASK), r, (unsigned long long)(got & NC_BYTES_MASK));
}

nc_post_t *nc_wait_post(nc_state_t *s, int r, uint64_t t, size_t bytes)
{
    nc_post_t *p = nc_post(s, r, t);
    nc_wait_ge(s, &p->seq, t, "data", r);
    if (DMPI_UNLIKELY(p->bytes != nc_sig(s, bytes)))
        mismatch(s, r, nc_sig(s, bytes), p->bytes);
    /* A rank that sends many times in a row is ahead: its next post is
     * likely written already, and fetching it now overlaps the miss with
     * this call's work. */
    __builtin_prefetch(nc_post(s, r, t + 1));
    return p;
}

nc_post_t *nc_wait_post_any(nc_state_t *s, int r, uint64_t t)
{
    nc_post_t *p = nc_post(s, r, t);
    nc_wait_ge(s, &p->seq, t, "data", r);
    if (DMPI_UNLIKELY(p->bytes >> 56 != s->kind))
        mismatch(s, r, nc_sig(s, 0), p->bytes);
    return p;
}

/* ---- exposing ------------------------------------------------------------- */

static bool own_reads_done(void *arg)
{
    const nc_own_wait_t *w = arg;
    return w->s->open_lo > w->before;
}

static void describe_own(void *arg, char *buf, size_t len)
{
    const nc_own_wait_t *w = arg;
    snprintf(buf, len, "%s: this rank's own nonblocking collective of phase %llu, which reads this rank's data",
             w->s->call ? w->s->call : "a collective", (unsigned long long)w->s->open_lo);
}

/* Waits until phase `before` is read by all: every rank's done, and this
 * rank's own open operations. */
static void reads_done(nc_state_t *s, uint64_t before)
{
    nc_wait_done_all(s, before);
    if (DMPI_UNLIKELY(s->open_lo <= before)) {
        nc_own_wait_t w = {s, before};
        dmpi_progress_until_described(own_reads_done, &w, describe_own);
    }
}

nc_post_t *nc_post_begin(nc_state_t *s, uint64_t t)
{
    reads_done(s, t >= NC_DEPTH ? t - NC_DEPTH : 0);
    return nc_post(s, s->me, t);
}

/* The ring's bytes an exposure takes: whole cache lines, at least one. */
static size_t ring_len(size_t bytes) { return bytes ? (bytes + 63) & ~(size_t)63 : 64; }

/* Where the next exposure of len ring bytes goes. */
static size_t ring_place(const nc_state_t *s, size_t len)
{
    return s->ring_head + len <= s->slot ? s->ring_head : 0;
}

/* The lines it takes were last written a lap ago or more: the latest of
 * those phases must be read by all. (Lines, not coarser pieces: small
 * exposures that share a piece would each wait for the one before.) */
uint64_t nc_slot_need(const nc_state_t *s, size_t bytes)
{
    size_t len = ring_len(bytes), off = ring_place(s, len);
    uint64_t need = 0;
    for (size_t l = off / 64; l < (off + len) / 64; l++)
        need = s->ring_phase[l] > need ? s->ring_phase[l] : need;
    return need;
}

size_t nc_slot_begin(nc_state_t *s, uint64_t t, size_t bytes)
{
    assert(bytes <= s->slot);
    reads_done(s, nc_slot_need(s, bytes));
    size_t len = ring_len(bytes), off = ring_place(s, len);
    for (size_t l = off / 64; l < (off + len) / 64; l++)
        s->ring_phase[l] = t;
    s->ring_head = off + len;
    return off;
}

char *nc_expose_begin(nc_state_t *s, uint64_t t, int mode, size_t bytes, nc_post_t **post)
{
    nc_post_t *p = *post = nc_post_begin(s, t);
    p->bytes = nc_sig(s, bytes);
    if (mode == NC_INL)
        return (char *)p->data;
    if (mode != NC_SLOT)
        return NULL;
    p->addr = nc_slot_begin(s, t, bytes);
    return nc_slot_of(s, s->me, p);
}

int nc_expose(nc_state_t *s, uint64_t t, int mode, const void *buf, size_t count, dmpi_dtype_t *dt, size_t bytes)
{
    nc_post_t *p;
    char *at = nc_expose_begin(s, t, bytes ? mode : NC_INL, bytes, &p);
    if (bytes && at && dt->contig) {
        dmpi_copy(at, (const char *)buf + dt->true_lb, bytes);
    } else if (bytes && at) {
        dmpi_dtype_pack(dt, count, buf, at);
    } else if (bytes && mode == NC_CMA) {
        if (dt->contig) {
            p->addr = (uint64_t)(uintptr_t)((const char *)buf + dt->true_lb);
        } else {
            void *tmp = nc_xtmp(s, bytes);
            if (!tmp)
                return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory to pack %zu bytes", s->call, bytes);
            dmpi_dtype_pack(dt, count, buf, tmp);
            p->addr = (uint64_t)(uintptr_t)tmp;
        }
    }
    nc_publish(p, t);
    return MPI_SUCCESS;
}

/* ---- pulling -------------------------------------------------------------- */

static void copy_out(const char *src, size_t n, void *base, dmpi_dtype_t *dt, size_t dfirst)
{
    if (!dt)
        dmpi_copy((char *)base + dfirst, src, n);
    else if (dt->contig)
        dmpi_copy((char *)base + dt->true_lb + dfirst, src, n);
    else
        dmpi_dtype_unpack_range(dt, base, dfirst, n, src);
}

static int cma_failed(nc_state_t *s, int r, int err)
{
    dmpi_node_cma_failed(s->local[r], err);
    return dmpi_err(MPI_ERR_OTHER, "%s: reading rank %d's buffer with process_vm_readv failed (%s); set "
                                   "DMPI_SHM_PATH=copy if the ranks cannot read each other's memory",
                    s->call, r, strerror(err));
}

int nc_pull(nc_state_t *s, int r, uint64_t t, int mode, size_t first, size_t n, void *base, dmpi_dtype_t *dt,
            size_t dfirst)
{
    if (n == 0)
        return MPI_SUCCESS;
    nc_post_t *p = nc_post(s, r, t);
    if (mode == NC_INL) {
        copy_out((const char *)p->data + first, n, base, dt, dfirst);
        return MPI_SUCCESS;
    }
    if (mode == NC_SLOT) {
        size_t bytes = p->bytes & NC_BYTES_MASK;
        const char *src = nc_slot_of(s, r, p);
        copy_out(src + first, n, base, dt, dfirst);
        /* As for the next post (nc_wait_post): the next exposure of the
         * same size most likely follows this one in the ring. */
        size_t next = p->addr + ring_len(bytes);
        if (next + bytes <= s->slot) {
            __builtin_prefetch(nc_ring(s, r) + next);
            __builtin_prefetch(nc_ring(s, r) + next + 64);
        }
        return MPI_SUCCESS;
    }
    uint64_t addr = p->addr + first;
    int err;
    if (!dt || dt->contig)
        err = dmpi_cma_read(s->pid[r], (char *)base + (dt ? dt->true_lb : 0) + dfirst, addr, n);
    else
        err = dmpi_cma_read_typed(s->pid[r], dt, base, dmpi_dtype_get(MPI_BYTE), addr - dfirst, dfirst, n);
    return err ? cma_failed(s, r, err) : MPI_SUCCESS;
}
