/* The origin's side of Put, Get, the accumulates and Compare_and_swap.
 *
 * Memory this rank can address (its own, or a peer's part of a window
 * mapped here) is read and written at once with the pack engine; a peer
 * on this node whose memory is not mapped here (Win_create) is read and
 * written by single copy (process_vm_readv/writev), with both layouts as
 * iovec lists. Accumulates take the target's accumulate lock on a node
 * (rma/direct.c); across nodes only the target runs accumulates on its
 * memory, which keeps them atomic. Everything else is a command to the
 * target (rma/am.c): small data rides inline, larger data follows as one
 * message sent straight from the origin buffer, and results come back on
 * a reply tag straight into the origin's result buffer. */
#include "rma/rma_internal.h"
#include "node/cma.h"
#include "node/node.h"
#include "p2p/p2p.h"
#include "core/pvar.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* What an operation names at the target. */
typedef struct target_ref {
    int rank;
    uint64_t addr;               /* byte offset in the window, or an address (dynamic) */
    int64_t lo;                  /* bytes touched: [addr + lo, addr + lo + span) */
    uint64_t span;
    size_t bytes;                /* packed bytes of the target data */
    int count;
    dmpi_dtype_t *dt;
} target_ref_t;

/* Finds the target bytes and checks them against the target's window
 * (the target checks dynamic windows itself). */
static int resolve(struct rma_state *st, const char *fn, int target, MPI_Aint tdisp, int tcount, dmpi_dtype_t *tdt,
                   target_ref_t *t)
{
    dmpi_win_t *w = st->win;
    *t = (target_ref_t){.rank = target, .count = tcount, .dt = tdt, .bytes = (size_t)tcount * tdt->size};
    bool dyn = w->flavor == MPI_WIN_FLAVOR_DYNAMIC;
    t->addr = dyn ? (uint64_t)tdisp : (uint64_t)tdisp * (uint64_t)st->peers[target].disp_unit;
    if (tcount > 0) {
        int64_t first = tdt->true_lb, last = (int64_t)(tcount - 1) * tdt->extent + tdt->true_lb;
        t->lo = first < last ? first : last;
        t->span = (uint64_t)((first < last ? last : first) - t->lo + tdt->true_extent);
    }
    if (dyn || !t->span)
        return MPI_SUCCESS;
    int64_t from = (int64_t)t->addr + t->lo;
    if (from < 0 || (uint64_t)from + t->span > (uint64_t)st->peers[target].size)
        return dmpi_err(MPI_ERR_RMA_RANGE, "%s: target bytes [%ld, %ld) lie outside the %ld bytes of rank %d's "
                        "window (target_disp %ld, disp_unit %ld)", fn, (long)from, (long)(from + (int64_t)t->span),
                        (long)st->peers[target].size, target, (long)tdisp, (long)st->peers[target].disp_unit);
    return MPI_SUCCESS;
}

/* The target memory if this rank can address it (NULL: send a command). */
static char *addressable(struct rma_state *st, const target_ref_t *t, bool accumulate)
{
    if (t->rank == st->rank) {
        if (st->win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
            return NULL;            /* its regions are checked on the command path */
        return (char *)st->win->base + t->addr;
    }
    if ((accumulate && !st->ctl) || !st->peers[t->rank].shared)
        return NULL;
    return (char *)st->peers[t->rank].shared + t->addr;
}

/* A peer of a window on this node that single copy reaches: its local
 * rank, or -1 (then commands carry the operation). */
static int cma_peer(const struct rma_state *st, int target)
{
    if (!st->ctl || st->win->flavor == MPI_WIN_FLAVOR_DYNAMIC || !dmpi_node_peers)
        return -1;
    int local = dmpi_world.local_of_world[dmpi_comm_world_rank(st->win->comm, target)];
    return local >= 0 && dmpi_node_peers[local].cma_ok ? local : -1;
}

/* Where a target's bytes are in its address space. */
static uint64_t remote_addr(const struct rma_state *st, const target_ref_t *t)
{
    return st->peers[t->rank].base + t->addr;
}

/* One single copy to or from a peer; false if it failed (not tried again
 * with that peer: the caller sends a command instead). */
static bool cma_move(const struct rma_state *st, int local, const target_ref_t *t, const dmpi_dtype_t *ldt,
                     void *lbuf, bool write)
{
    pid_t pid = dmpi_node_peers[local].pid;
    int e = write ? dmpi_cma_write_typed(pid, ldt, lbuf, t->dt, remote_addr(st, t), 0, t->bytes)
                  : dmpi_cma_read_typed(pid, ldt, lbuf, t->dt, remote_addr(st, t), 0, t->bytes);
    if (e)
        dmpi_node_cma_failed(local, e);
    return e == 0;
}

/* The target layout part of a command. */
static void describe_target(am_cmd_t *c, const target_ref_t *t)
{
    const dmpi_dtype_t *dt = t->dt;
    c->addr = t->addr;
    c->lo = t->lo;
    c->span = t->span;
    c->count = (uint64_t)t->count;
    c->bytes = t->bytes;
    c->size = dt->size;
    c->extent = dt->extent;
    c->true_lb = dt->true_lb;
    c->basic = dt->basic;
    c->tdt = dt->predefined ? dt->handle : MPI_DATATYPE_NULL;
    c->nruns = dt->predefined || dt->contig ? 0 : dt->nruns;
}

static int no_mem(const char *fn) { return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn); }

/* Sends command c (layout described) with payload: ocount of odt at obuf
 * (plus a second payload of the same size at obuf2, for CAS). Small ones
 * ride inline; larger data follows from the origin buffer itself. */
static int send_cmd(struct rma_state *st, const char *fn, am_cmd_t *c, const target_ref_t *t, const void *obuf,
                    int ocount, dmpi_dtype_t *odt, const void *obuf2, rma_pend_t *p)
{
    size_t rb = am_runs_bytes(c), pb = obuf ? (size_t)ocount * odt->size : 0, pb2 = obuf2 ? pb : 0;
    const void *xbuf = NULL;
    int xcount = 0;
    dmpi_dtype_t *xdt = NULL;
    if (rb + pb + pb2 <= AM_INLINE_MAX)
        c->inline_bytes = rb + pb + pb2;
    else if (rb + pb > INT_MAX)
        return dmpi_err(MPI_ERR_COUNT, "%s: a one-sided operation moves at most %d bytes at a time (this one: %lu)",
                        fn, INT_MAX, (unsigned long)(rb + pb));
    else if (rb <= AM_INLINE_MAX) {     /* the data follows from the origin buffer */
        c->inline_bytes = rb;
        c->extra_bytes = pb;
        xbuf = obuf;
        xcount = ocount;
        xdt = odt;
    } else {                            /* a layout too long to ride inline: all in one data message */
        char *all = malloc(rb + pb);
        if (!all)
            return no_mem(fn);
        memcpy(all, t->dt->runs, rb);
        if (pb)
            dmpi_dtype_pack(odt, (size_t)ocount, obuf, all + rb);
        p->tmp = all;
        c->extra_bytes = rb + pb;
        xbuf = all;
        xcount = (int)(rb + pb);
        xdt = dmpi_dtype_get(MPI_BYTE);
    }
    c->runs_inline = c->inline_bytes >= rb;
    char *msg = rma_am_msg(c);
    if (!msg)
        return no_mem(fn);
    char *inl = msg + sizeof *c;        /* what rides inline, written straight into the message */
    if (c->runs_inline)
        memcpy(inl, t->dt->runs, rb);
    if (c->inline_bytes > rb && pb)
        dmpi_dtype_pack(odt, (size_t)ocount, obuf, inl + rb);
    if (c->inline_bytes > rb && pb2)
        dmpi_dtype_pack(odt, (size_t)ocount, obuf2, inl + rb + pb);
    return rma_am_send(st, t->rank, msg, xbuf, xcount, xdt, p);
}

/* An R-form request for an operation complete at once, or one that
 * completes with p. */
static int make_request(dmpi_request_t **req, rma_pend_t *p)
{
    if (!req)
        return MPI_SUCCESS;
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RMA);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    dmpi_req_set_empty_status(r, MPI_SUCCESS);
    if (p)
        p->user = r;
    else
        dmpi_req_complete(r);
    *req = r;
    return MPI_SUCCESS;
}

/* Starts an operation's pend; after the sends, finish_op adds it. */
static void finish_op(struct rma_state *st, rma_pend_t *p, int target, bool acked)
{
    rma_pend_add(st, p);
    if (!acked || st->win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        st->dirty[target] = 1;      /* remote completion needs a FLUSH (dynamic: for range errors) */
}

static int type_mismatch(const char *fn, size_t ob, size_t tb)
{
    return dmpi_err(MPI_ERR_TYPE, "%s: the origin data is %lu bytes but the target data %lu: their type "
                    "signatures must match", fn, (unsigned long)ob, (unsigned long)tb);
}

/* Put (write) or Get: the checks, then the data moved at once if this rank
 * reaches the target memory (*done); otherwise the caller sends a command. */
static int move_direct(struct rma_state *st, const char *fn, bool write, void *obuf, int ocount, dmpi_dtype_t *odt,
                       int target, MPI_Aint tdisp, int tcount, dmpi_dtype_t *tdt, bool request, target_ref_t *t,
                       bool *done)
{
    int err;
    if ((err = rma_check_access(st, target, fn, request)) || (err = resolve(st, fn, target, tdisp, tcount, tdt, t)))
        return err;
    size_t ob = (size_t)ocount * odt->size;
    if (ob != t->bytes)
        return type_mismatch(fn, ob, t->bytes);
    char *mem = t->bytes ? addressable(st, t, false) : NULL;
    int local = mem || !t->bytes ? -1 : cma_peer(st, target);
    *done = mem || !t->bytes || (local >= 0 && cma_move(st, local, t, odt, obuf, write));
    if (mem && write)
        rma_copy_typed(obuf, ocount, odt, mem, tcount, tdt);
    else if (mem)
        rma_copy_typed(mem, tcount, tdt, obuf, ocount, odt);
    return MPI_SUCCESS;
}

int rma_put(const char *fn, const void *obuf, int ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp, int tcount,
            dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req)
{
    dmpi_pv.rma_puts++;
    struct rma_state *st = w->st;
    target_ref_t t;
    bool done;
    int err = move_direct(st, fn, true, (void *)obuf, ocount, odt, target, tdisp, tcount, tdt, req != NULL, &t,
                          &done);
    if (err != MPI_SUCCESS || done)
        return err != MPI_SUCCESS ? err : make_request(req, NULL);
    rma_pend_t *p = rma_pend_new(st, target);
    if (!p)
        return no_mem(fn);
    am_cmd_t c = {.kind = AM_PUT};
    describe_target(&c, &t);
    err = send_cmd(st, fn, &c, &t, obuf, ocount, odt, NULL, p);
    if (err == MPI_SUCCESS)
        err = make_request(req, p);
    finish_op(st, p, target, false);
    return err;
}

int rma_get(const char *fn, void *obuf, int ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp, int tcount,
            dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req)
{
    dmpi_pv.rma_gets++;
    struct rma_state *st = w->st;
    target_ref_t t;
    bool done;
    int err = move_direct(st, fn, false, obuf, ocount, odt, target, tdisp, tcount, tdt, req != NULL, &t, &done);
    if (err != MPI_SUCCESS || done)
        return err != MPI_SUCCESS ? err : make_request(req, NULL);
    rma_pend_t *p = rma_pend_new(st, target);
    if (!p)
        return no_mem(fn);
    am_cmd_t c = {.kind = AM_GET, .reply_tag = rma_am_tag(st)};
    describe_target(&c, &t);
    err = dmpi_irecv(obuf, ocount, odt, target, c.reply_tag, w->comm, &p->parts[0]);
    if (err == MPI_SUCCESS) {
        p->nparts = 1;
        err = send_cmd(st, fn, &c, &t, NULL, 0, NULL, NULL, p);
    }
    if (err == MPI_SUCCESS)
        err = make_request(req, p);
    finish_op(st, p, target, true);
    return err;
}

/* Accumulate on this rank's own memory, now (the target is the caller). */
static int acc_here(char *mem, const void *obuf, int ocount, dmpi_dtype_t *odt, void *rbuf, int rcount,
                    dmpi_dtype_t *rdt, const target_ref_t *t, dmpi_op_t *op, const char *fn)
{
    /* Contiguous origin and result buffers are used in place (Fetch_and_op:
     * no copy, no allocation); others go through packed copies. */
    bool pack_in = op->kind != DMPI_OP_NO_OP && !odt->contig, pack_old = rbuf && !rdt->contig;
    void *in = op->kind == DMPI_OP_NO_OP ? NULL : (char *)obuf + odt->true_lb;
    void *old = rbuf ? (char *)rbuf + rdt->true_lb : NULL;
    if ((pack_in && !(in = malloc(t->bytes))) || (pack_old && !(old = malloc(t->bytes)))) {
        if (pack_in)
            free(in);
        return no_mem(fn);
    }
    if (pack_in)
        dmpi_dtype_pack(odt, (size_t)ocount, obuf, in);
    rma_apply(op, t->dt->basic, t->dt, (size_t)t->count, mem, in, old);
    if (pack_old)
        dmpi_dtype_unpack(rdt, (size_t)rcount, old, rbuf, t->bytes);
    if (pack_in)
        free(in);
    if (pack_old)
        free(old);
    return MPI_SUCCESS;
}

/* Accumulate on a peer's memory by single copy, under its accumulate
 * lock: read the target data, combine, write it back. *done false: single
 * copy failed before anything changed (the caller sends a command). */
static int acc_cma(struct rma_state *st, int local, const void *obuf, int ocount, dmpi_dtype_t *odt, void *rbuf,
                   int rcount, dmpi_dtype_t *rdt, const target_ref_t *t, dmpi_op_t *op, const char *fn, bool *done)
{
    dmpi_dtype_t *bytes = dmpi_dtype_get(MPI_BYTE);
    bool no_op = op->kind == DMPI_OP_NO_OP;
    char *cur = malloc(t->bytes), *in = no_op ? NULL : malloc(t->bytes), *old = rbuf ? malloc(t->bytes) : NULL;
    if (!cur || (!no_op && !in) || (rbuf && !old)) {
        free(cur);
        free(in);
        free(old);
        return no_mem(fn);
    }
    if (in)
        dmpi_dtype_pack(odt, (size_t)ocount, obuf, in);
    rma_acc_lock(st, t->rank);
    *done = cma_move(st, local, t, bytes, cur, false);
    if (*done) {
        if (old)
            memcpy(old, cur, t->bytes);
        if (in) {
            rma_apply_packed(op, t->dt->basic, in, cur, t->bytes);
            if (!cma_move(st, local, t, bytes, cur, true))
                dmpi_fatal("%s: single copy to rank %d failed halfway through an accumulate", fn, t->rank);
        }
    }
    rma_acc_unlock(st, t->rank);
    if (*done && old)
        dmpi_dtype_unpack(rdt, (size_t)rcount, old, rbuf, t->bytes);
    free(cur);
    free(in);
    free(old);
    return MPI_SUCCESS;
}

int rma_acc(const char *fn, const void *obuf, int ocount, dmpi_dtype_t *odt, void *rbuf, int rcount, dmpi_dtype_t *rdt,
            int target, MPI_Aint tdisp, int tcount, dmpi_dtype_t *tdt, struct dmpi_op *op, dmpi_win_t *w,
            dmpi_request_t **req)
{
    dmpi_pv.rma_accs++;
    struct rma_state *st = w->st;
    target_ref_t t;
    int err;
    if ((err = rma_check_access(st, target, fn, req != NULL)) ||
        (err = resolve(st, fn, target, tdisp, tcount, tdt, &t)))
        return err;
    bool no_op = op->kind == DMPI_OP_NO_OP;
    if (!no_op && (size_t)ocount * odt->size != t.bytes)
        return type_mismatch(fn, (size_t)ocount * odt->size, t.bytes);
    if (rbuf && (size_t)rcount * rdt->size != t.bytes)
        return dmpi_err(MPI_ERR_TYPE, "%s: the result buffer holds %lu bytes but the target data is %lu", fn,
                        (unsigned long)((size_t)rcount * rdt->size), (unsigned long)t.bytes);
    if (!t.bytes)
        return make_request(req, NULL);
    char *mem = addressable(st, &t, true);
    if (mem) {
        rma_acc_lock(st, target);
        err = acc_here(mem, obuf, ocount, odt, rbuf, rcount, rdt, &t, op, fn);
        rma_acc_unlock(st, target);
        return err != MPI_SUCCESS ? err : make_request(req, NULL);
    }
    int local = cma_peer(st, target);
    if (local >= 0) {
        bool done = false;
        if ((err = acc_cma(st, local, obuf, ocount, odt, rbuf, rcount, rdt, &t, op, fn, &done)))
            return err;
        if (done)
            return make_request(req, NULL);
    }
    rma_pend_t *p = rma_pend_new(st, target);
    if (!p)
        return no_mem(fn);
    am_cmd_t c = {.kind = rbuf ? AM_GACC : AM_ACC, .op = op->handle};
    describe_target(&c, &t);
    c.basic = tdt->basic;
    if (rbuf) {
        c.reply_tag = rma_am_tag(st);
        err = dmpi_irecv(rbuf, rcount, rdt, target, c.reply_tag, w->comm, &p->parts[0]);
        if (err == MPI_SUCCESS)
            p->nparts = 1;
    }
    if (err == MPI_SUCCESS)
        err = send_cmd(st, fn, &c, &t, no_op ? NULL : obuf, ocount, odt, NULL, p);
    if (err == MPI_SUCCESS)
        err = make_request(req, p);
    finish_op(st, p, target, rbuf != NULL);
    return err;
}

int dmpi_rma_cas(const void *obuf, const void *cbuf, void *rbuf, dmpi_dtype_t *dt, int target, MPI_Aint tdisp,
                 dmpi_win_t *w)
{
    const char *fn = "MPI_Compare_and_swap";
    dmpi_pv.rma_cas++;
    struct rma_state *st = w->st;
    target_ref_t t;
    int err;
    if ((err = rma_check_access(st, target, fn, false)) || (err = resolve(st, fn, target, tdisp, 1, dt, &t)))
        return err;
    char *mem = addressable(st, &t, true);
    if (mem) {
        rma_acc_lock(st, target);
        rma_cas(mem, obuf, cbuf, rbuf, dt->size);
        rma_acc_unlock(st, target);
        return MPI_SUCCESS;
    }
    int local = cma_peer(st, target);
    if (local >= 0) {
        char cur[64];               /* CAS types are at most 16 bytes */
        bool ok;
        rma_acc_lock(st, target);
        if ((ok = cma_move(st, local, &t, dmpi_dtype_get(MPI_BYTE), cur, false))) {
            memcpy(rbuf, cur, dt->size);
            if (memcmp(cur, cbuf, dt->size) == 0 &&
                !cma_move(st, local, &t, dmpi_dtype_get(MPI_BYTE), (void *)obuf, true))
                dmpi_fatal("%s: single copy to rank %d failed halfway through", fn, target);
        }
        rma_acc_unlock(st, target);
        if (ok)
            return MPI_SUCCESS;
    }
    rma_pend_t *p = rma_pend_new(st, target);
    if (!p)
        return no_mem(fn);
    am_cmd_t c = {.kind = AM_CAS, .reply_tag = rma_am_tag(st)};
    describe_target(&c, &t);
    err = dmpi_irecv(rbuf, 1, dt, target, c.reply_tag, w->comm, &p->parts[0]);
    if (err == MPI_SUCCESS) {
        p->nparts = 1;
        err = send_cmd(st, fn, &c, &t, obuf, 1, dt, cbuf, p);
    }
    finish_op(st, p, target, true);
    return err;
}
