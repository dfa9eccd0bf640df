/* Algorithm: the nonblocking forms of the node-level collectives whose data
 * fit the slots (Ibarrier; Ibcast, Ireduce, Iallreduce, Igather, Iscatter,
 * Iallgather, Ialltoall within the copy limit): the flat algorithms of the
 * blocking calls, as steps that never wait. A call takes its phase at once
 * (so phases stay in call order on every rank) and does what it can; a
 * progress hook does the rest as the flags arrive. An operation still open
 * holds this rank's done flag below its phase (nc_set_done), so nobody
 * rewrites what it has yet to read.
 * Cost: as the blocking forms, plus one pass over the open operations per
 * progress call. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include "p2p/p2p.h"
#include <stdlib.h>
#include <string.h>

typedef struct nb {
    struct nb *next;             /* every open operation of this process */
    struct nb *snext;            /* the open operations of its communicator, in phase order */
    nc_state_t *s;
    dmpi_request_t *req;
    int kind;
    unsigned sig;                /* the collective's number, for the posts */
    const char *call;
    uint64_t t;
    int mode, root, i;
    bool exposed;
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount, bytes;
    dmpi_dtype_t *sdt, *rdt;
    dmpi_op_t *op;
} nb_t;

static nb_t *open_ops;

/* ---- the done watermark --------------------------------------------------- */

void nc_open_changed(nc_state_t *s)
{
    nb_t *first = s->open;
    s->open_lo = first ? first->t : UINT64_MAX;
}

/* ---- steps that never wait ------------------------------------------------ */

static bool done_all_reached(nc_state_t *s, uint64_t v)
{
    if (s->min_done >= v)
        return true;
    uint64_t lo = UINT64_MAX;
    for (int r = 0; r < s->n; r++) {
        if (r == s->me)
            continue;
        uint64_t d = atomic_load_explicit(&nc_rank(s, r)->done, memory_order_acquire);
        if (d < v)
            return false;
        lo = d < lo ? d : lo;
    }
    s->min_done = lo;
    return true;
}

/* Exposes once phase t - 2's readers are through; false until then. */
static bool try_expose(nb_t *b, const void *buf, size_t count, dmpi_dtype_t *dt, size_t bytes, int *err)
{
    if (b->exposed)
        return true;
    /* In phase order, as the slot's bookkeeping assumes (nc_slot_begin). */
    for (nb_t *o = b->s->open; o && o != b; o = o->snext)
        if (!o->exposed)
            return false;
    /* What nc_expose would wait for: never wait inside progress. */
    uint64_t before = b->t >= NC_DEPTH ? b->t - NC_DEPTH : 0;
    if (b->mode == NC_SLOT && bytes) {
        uint64_t slot = nc_slot_need(b->s, bytes);
        before = slot > before ? slot : before;
    }
    if (b->s->open_lo <= before || !done_all_reached(b->s, before))
        return false;
    nc_state_t *s = b->s;
    unsigned kind = s->kind;         /* a blocking call may be waiting in progress: keep its names */
    const char *call = s->call;
    s->kind = b->sig;
    s->call = b->call;
    *err = nc_expose(s, b->t, b->mode, buf, count, dt, bytes);
    s->kind = kind;
    s->call = call;
    b->exposed = true;
    return true;
}

/* Rank r's post of phase t has arrived (and is the size expected). */
static bool arrived(nb_t *b, int r, size_t bytes)
{
    nc_post_t *p = nc_post(b->s, r, b->t);
    if (atomic_load_explicit(&p->seq, memory_order_acquire) < b->t)
        return false;
    nc_state_t *s = b->s;
    unsigned kind = s->kind;
    const char *call = s->call;
    s->kind = b->sig;
    s->call = b->call;
    nc_wait_post(s, r, b->t, bytes);  /* returns at once; checks the size */
    s->kind = kind;
    s->call = call;
    return true;
}

/* ---- one step of each collective: true once it has finished --------------- */

static bool step_barrier(nb_t *b, int *err)
{
    (void)err;
    for (; b->i < b->s->n; b->i++) {
        nc_post_t *p = nc_post(b->s, b->i, b->t);
        if (b->i != b->s->me && atomic_load_explicit(&p->seq, memory_order_acquire) < b->t)
            return false;
    }
    return true;
}

static bool step_bcast(nb_t *b, int *err)
{
    nc_state_t *s = b->s;
    if (s->me == b->root)
        return try_expose(b, b->rbuf, b->rcount, b->rdt, b->bytes, err);
    if (!arrived(b, b->root, b->bytes))
        return false;
    *err = nc_pull(s, b->root, b->t, b->mode, 0, b->bytes, b->rbuf, b->rdt, 0);
    return true;
}

/* Ireduce (root >= 0) and Iallreduce (root -1): expose, then fold the
 * vectors from the highest rank down, each as its post arrives. */
static bool step_reduce(nb_t *b, int *err)
{
    nc_state_t *s = b->s;
    const void *mine = b->sbuf == MPI_IN_PLACE ? b->rbuf : b->sbuf;
    if (!try_expose(b, mine, b->rcount, b->rdt, b->bytes, err))
        return false;
    if (b->root >= 0 && s->me != b->root)
        return true;
    char *out = (char *)b->rbuf + b->rdt->true_lb;
    for (; b->i >= 0 && *err == MPI_SUCCESS; b->i--) {
        if (!arrived(b, b->i, b->bytes))
            return false;
        nc_post_t *p = nc_post(s, b->i, b->t);
        const char *src = b->mode == NC_INL ? (const char *)p->data : nc_slot_of(s, b->i, p);
        if (b->i == s->n - 1)
            memcpy(out, src, b->bytes);
        else
            *err = dmpi_op_apply(b->op, src - b->rdt->true_lb, b->rbuf, b->rcount, b->rdt);
    }
    return true;
}

static bool step_gather(nb_t *b, int *err)
{
    nc_state_t *s = b->s;
    if (s->me != b->root)
        return try_expose(b, b->sbuf, b->scount, b->sdt, b->bytes, err);
    for (; b->i < s->n && *err == MPI_SUCCESS; b->i++) {
        if (b->i == s->me)
            continue;
        if (!arrived(b, b->i, b->bytes))
            return false;
        *err = nc_pull(s, b->i, b->t, b->mode, 0, b->bytes, b->rbuf, b->rdt, (size_t)b->i * b->bytes);
    }
    return true;
}

static bool step_scatter(nb_t *b, int *err)
{
    nc_state_t *s = b->s;
    if (s->me == b->root)
        return try_expose(b, b->sbuf, (size_t)s->n * b->scount, b->sdt, (size_t)s->n * b->bytes, err);
    if (!arrived(b, b->root, (size_t)s->n * b->bytes))
        return false;
    *err = nc_pull(s, b->root, b->t, b->mode, (size_t)s->me * b->bytes, b->bytes, b->rbuf, b->rdt, 0);
    return true;
}

/* Iallgather (kind K_ALLGATHER) and Ialltoall: expose, then take each
 * other rank's block, starting after this rank. */
static bool step_exchange(nb_t *b, int *err, bool alltoall)
{
    nc_state_t *s = b->s;
    size_t n = (size_t)s->n, exposed = alltoall ? n * b->bytes : b->bytes;
    if (!b->exposed) {
        bool ok;
        if (b->sbuf != MPI_IN_PLACE)
            ok = try_expose(b, b->sbuf, alltoall ? n * b->scount : b->scount, b->sdt, exposed, err);
        else if (alltoall)
            ok = try_expose(b, b->rbuf, n * b->rcount, b->rdt, exposed, err);
        else
            ok = try_expose(b, nc_block(b->rbuf, (size_t)s->me, b->rcount, b->rdt), b->rcount, b->rdt, exposed, err);
        if (!ok)
            return false;
    }
    for (; b->i < s->n && *err == MPI_SUCCESS; b->i++) {
        int r = (s->me + b->i) % s->n;
        if (!arrived(b, r, exposed))
            return false;
        *err = nc_pull(s, r, b->t, b->mode, alltoall ? (size_t)s->me * b->bytes : 0, b->bytes, b->rbuf, b->rdt,
                       (size_t)r * b->bytes);
    }
    return true;
}

static bool step(nb_t *b, int *err)
{
    switch (b->kind) {
    case NB_BARRIER: return step_barrier(b, err);
    case NB_BCAST: return step_bcast(b, err);
    case NB_REDUCE: return step_reduce(b, err);
    case NB_GATHER: return step_gather(b, err);
    case NB_SCATTER: return step_scatter(b, err);
    case NB_ALLGATHER: return step_exchange(b, err, false);
    default: return step_exchange(b, err, true);
    }
}

/* ---- life of an operation ------------------------------------------------- */

static void finish(nb_t *b, int err)
{
    nc_state_t *s = b->s;
    for (nb_t **p = &s->open; *p; p = &(*p)->snext)
        if (*p == b) {
            *p = b->snext;
            break;
        }
    nc_open_changed(s);
    nc_set_done(s, b->t);
    dmpi_request_t *r = b->req;
    dmpi_req_set_empty_status(r, err);
    if (b->sdt)
        dmpi_dtype_release(b->sdt);
    if (b->rdt)
        dmpi_dtype_release(b->rdt);
    if (b->op)
        dmpi_op_release(b->op);
    dmpi_comm_release(s->comm);
    free(b);
    dmpi_req_complete(r);
}

/* Advances b; true once it has finished (and is gone). */
static bool advance(nb_t *b)
{
    int err = MPI_SUCCESS;
    if (!step(b, &err) && err == MPI_SUCCESS)
        return false;
    finish(b, err);
    return true;
}

static int nb_progress(void)
{
    int did = 0;
    for (nb_t **p = &open_ops; *p;) {
        nb_t *b = *p, *next = b->next;
        if (advance(b)) {
            *p = next;
            did++;
        } else {
            p = &b->next;
        }
    }
    if (!open_ops)
        dmpi_progress_remove_hook(nb_progress);
    return did;
}

int nc_start(nc_state_t *s, const nc_nb_args_t *a, dmpi_request_t **req)
{
    nb_t *b = calloc(1, sizeof *b);
    dmpi_request_t *r = b ? dmpi_req_alloc(DMPI_REQ_COLL) : NULL;
    if (!r) {
        free(b);
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a request", s->call);
    }
    *b = (nb_t){.s = s, .req = r, .kind = a->kind, .sig = s->kind, .call = s->call, .t = nc_next(s),
                .mode = a->mode, .root = a->root, .sbuf = a->sbuf, .rbuf = a->rbuf, .scount = a->scount,
                .rcount = a->rcount, .bytes = a->bytes, .sdt = a->sdt, .rdt = a->rdt, .op = a->op};
    if (b->sdt)
        dmpi_dtype_retain(b->sdt);
    if (b->rdt)
        dmpi_dtype_retain(b->rdt);
    if (b->op)
        dmpi_op_retain(b->op);
    dmpi_comm_retain(s->comm);
    /* Operations that expose nothing here count as exposed (try_expose
     * keeps exposures in phase order). */
    b->exposed = b->kind == NB_BARRIER || (b->kind == NB_BCAST && s->me != b->root) ||
                 (b->kind == NB_GATHER && s->me == b->root) || (b->kind == NB_SCATTER && s->me != b->root);
    if (b->kind == NB_REDUCE)
        b->i = s->n - 1;
    else if (b->kind == NB_ALLGATHER || b->kind == NB_ALLTOALL)
        b->i = 1;                    /* this rank's own block is copied below */
    /* The phase is open from now: the done flag stays below it. */
    nb_t **tail = &s->open;
    while (*tail)
        tail = &(*tail)->snext;
    *tail = b;
    nc_open_changed(s);
    int err = MPI_SUCCESS;
    if (b->kind == NB_BARRIER)
        nc_publish(nc_post(s, s->me, b->t), b->t);   /* arrival; no data, no reuse wait */
    else if (a->local_copy)
        err = nc_copy_local(s, a->lsrc, a->lscount, a->lsdt, a->ldst, a->ldcount, a->lddt);
    *req = r;
    if (err != MPI_SUCCESS) {
        finish(b, err);              /* the error goes in the request's status */
        return MPI_SUCCESS;
    }
    if (advance(b))
        return MPI_SUCCESS;          /* finished already */
    if (!open_ops)
        dmpi_progress_add_hook(nb_progress);
    b->next = open_ops;
    open_ops = b;
    return MPI_SUCCESS;
}
