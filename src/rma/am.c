/* Active messages of one-sided communication, over point-to-point on the
 * window's private communicator, so they work over every transport.
 *
 * Each rank keeps one receive of commands posted (any source, RMA_TAG_CMD).
 * A command that arrives is carried out at once when nothing of its origin
 * waits before it and it needs no data message; otherwise it joins the
 * list of waiting commands, and the data message's receive is posted right
 * away (data messages of one origin then match in the order they were
 * sent). The progress hook runs waiting commands in arrival order per
 * origin, so acknowledgements (UNLOCK, FLUSH) and COMPLETE come after
 * everything their origin sent before them. */
#include "rma/rma_internal.h"
#include "p2p/p2p.h"
#include <stdlib.h>
#include <string.h>

#define CMD_BUF (sizeof(am_cmd_t) + AM_INLINE_MAX)

static dmpi_dtype_t *bytes_t(void) { return dmpi_dtype_get(MPI_BYTE); }

int rma_am_tag(struct rma_state *st)
{
    if (st->next_tag < RMA_TAG_REPLY || st->next_tag >= (1 << 30))
        st->next_tag = RMA_TAG_REPLY;
    return st->next_tag++;
}

static int post_cmd_recv(struct rma_state *st)
{
    return dmpi_irecv(st->cmd_buf, (int)CMD_BUF, bytes_t(), MPI_ANY_SOURCE, RMA_TAG_CMD, st->win->comm, &st->cmd_req);
}

int rma_am_open(struct rma_state *st)
{
    if (!(st->cmd_buf = malloc(CMD_BUF)))
        return dmpi_err(MPI_ERR_NO_MEM, "one-sided communication: out of memory for a window");
    return post_cmd_recv(st);
}

void rma_am_close(struct rma_state *st)
{
    if (st->cmd_req) {
        dmpi_cancel(st->cmd_req);
        dmpi_progress_wait(st->cmd_req);
        dmpi_req_free(st->cmd_req);
        st->cmd_req = NULL;
    }
    free(st->cmd_buf);
    st->cmd_buf = NULL;
}

char *rma_am_msg(const am_cmd_t *cmd)
{
    char *msg = malloc(sizeof *cmd + cmd->inline_bytes);
    if (msg)
        memcpy(msg, cmd, sizeof *cmd);
    return msg;
}

int rma_am_send(struct rma_state *st, int target, char *msg, const void *xbuf, int xcount, dmpi_dtype_t *xdt,
                rma_pend_t *p)
{
    size_t n = sizeof(am_cmd_t) + ((const am_cmd_t *)msg)->inline_bytes;
    p->tmp2 = msg;
    dmpi_comm_t *c = st->win->comm;
    int err = dmpi_isend(msg, (int)n, bytes_t(), target, RMA_TAG_CMD, c, DMPI_MODE_STANDARD, &p->parts[p->nparts]);
    if (err != MPI_SUCCESS)
        return err;
    p->nparts++;
    if (xcount > 0) {
        err = dmpi_isend(xbuf, xcount, xdt, target, RMA_TAG_DATA, c, DMPI_MODE_STANDARD, &p->parts[p->nparts]);
        if (err != MPI_SUCCESS)
            return err;
        p->nparts++;
    }
    return MPI_SUCCESS;
}

int rma_am_sync_start(struct rma_state *st, int target, int kind, int lock_type, bool ack, rma_pend_t **out)
{
    rma_pend_t *p = rma_pend_new(st, target);
    if (!p)
        return dmpi_err(MPI_ERR_NO_MEM, "one-sided communication: out of memory");
    am_cmd_t c = {.kind = (uint8_t)kind, .lock_type = (uint8_t)lock_type, .tdt = MPI_DATATYPE_NULL};
    int err = MPI_SUCCESS;
    if (ack) {
        if (!(p->tmp = calloc(1, sizeof(am_ack_t))))
            err = dmpi_err(MPI_ERR_NO_MEM, "one-sided communication: out of memory");
        else {
            c.reply_tag = rma_am_tag(st);
            err = dmpi_irecv(p->tmp, sizeof(am_ack_t), bytes_t(), target, c.reply_tag, st->win->comm,
                             &p->parts[p->nparts]);
            if (err == MPI_SUCCESS)
                p->nparts++;
        }
    }
    char *msg = err == MPI_SUCCESS ? rma_am_msg(&c) : NULL;
    if (err == MPI_SUCCESS && !msg)
        err = dmpi_err(MPI_ERR_NO_MEM, "one-sided communication: out of memory for a command");
    if (err == MPI_SUCCESS)
        err = rma_am_send(st, target, msg, NULL, 0, NULL, p);
    if (err != MPI_SUCCESS) {
        rma_pend_add(st, p);        /* what started finishes in the background */
        return err;
    }
    if (!ack)
        rma_pend_add(st, p);
    else
        *out = p;
    return MPI_SUCCESS;
}

static bool parts_done(void *arg) { return rma_pend_done(arg); }

int rma_am_sync_finish(struct rma_state *st, rma_pend_t *p)
{
    (void)st;
    if (!rma_pend_done(p))
        dmpi_progress_until(parts_done, p);
    int err = ((am_ack_t *)p->tmp)->err;
    for (int i = 0; i < p->nparts && err == MPI_SUCCESS; i++)
        err = p->parts[i]->st_error;
    rma_pend_free(p);
    return err;
}

/* ---- the target's side ------------------------------------------------------ */

/* Sends a reply (data or acknowledgement) to origin; an owned buffer is
 * freed once sent. */
static void reply(struct rma_state *st, int origin, int tag, const void *buf, size_t n, void *owned)
{
    rma_pend_t *p = rma_pend_new(st, origin);
    if (!p || dmpi_isend(buf, (int)n, bytes_t(), origin, tag, st->win->comm, DMPI_MODE_STANDARD, &p->parts[0]) !=
                  MPI_SUCCESS) {
        /* Out of memory here leaves the origin waiting: say why, since it cannot. */
        dmpi_fatal("one-sided communication: rank %d cannot send a reply to rank %d (out of memory)", st->rank,
                   origin);
    }
    p->nparts = 1;
    p->tmp = owned;
    p->next = st->replies;
    st->replies = p;
}

static void ack(struct rma_state *st, int origin, int tag)
{
    am_ack_t *a = rma_must_alloc(sizeof *a);
    a->err = st->err_for[origin];
    st->err_for[origin] = MPI_SUCCESS;
    reply(st, origin, tag, a, sizeof *a, a);
}

static void note_error(struct rma_state *st, int origin, int err)
{
    if (st->err_for[origin] == MPI_SUCCESS)
        st->err_for[origin] = err;
}

/* Where the runs and the payload of a command message lie. */
static const dmpi_run_t *cmd_runs(const am_cmd_t *c) { return (const dmpi_run_t *)(c + 1); }
static const char *cmd_payload(const am_cmd_t *c) { return (const char *)(c + 1) + am_runs_bytes(c); }

/* The target memory of c, or NULL after noting the error for origin. */
static char *target_mem(struct rma_state *st, int origin, const am_cmd_t *c)
{
    int err = MPI_SUCCESS;
    char *m = rma_target_mem(st, c->addr, c->lo, c->span, &err);
    if (!m)
        note_error(st, origin, err);
    return m;
}

static void exec_get(struct rma_state *st, int origin, const am_cmd_t *c, bool acc)
{
    dmpi_dtype_t lay;
    rma_layout(c, cmd_runs(c), &lay);
    char *mem = target_mem(st, origin, c);
    if (!mem) {
        reply(st, origin, c->reply_tag, NULL, 0, NULL);
        return;
    }
    if (!acc && lay.contig) {
        reply(st, origin, c->reply_tag, mem + lay.true_lb, c->bytes, NULL);
        return;
    }
    char *out = rma_must_alloc(c->bytes);
    if (acc) {
        dmpi_op_t *op = dmpi_op_get(c->op);
        rma_acc_lock(st, st->rank);
        rma_apply(op, c->basic, &lay, c->count, mem, op->kind == DMPI_OP_NO_OP ? NULL : cmd_payload(c), out);
        rma_acc_unlock(st, st->rank);
    } else
        dmpi_dtype_pack_range(&lay, mem, 0, c->bytes, out);
    reply(st, origin, c->reply_tag, out, c->bytes, out);
}

static void exec_cas(struct rma_state *st, int origin, const am_cmd_t *c)
{
    char *mem = target_mem(st, origin, c);
    size_t n = c->size;
    char *old = rma_must_alloc(n);
    if (!mem) {
        reply(st, origin, c->reply_tag, old, 0, old);
        return;
    }
    const char *in = cmd_payload(c);     /* the new value, then the one to compare with */
    rma_acc_lock(st, st->rank);
    rma_cas(mem, in, in + n, old, n);
    rma_acc_unlock(st, st->rank);
    reply(st, origin, c->reply_tag, old, n, old);
}

/* Carries out a command whose data is all in msg (or already in place:
 * direct). false: it cannot run yet (a lock held by another). */
static bool exec(struct rma_state *st, int origin, const am_cmd_t *c, bool direct)
{
    dmpi_dtype_t lay;
    char *mem;
    switch (c->kind) {
    case AM_PUT:
        if (!direct && (mem = target_mem(st, origin, c))) {
            rma_layout(c, cmd_runs(c), &lay);
            dmpi_dtype_unpack_range(&lay, mem, 0, c->bytes, cmd_payload(c));
        }
        return true;
    case AM_GET:
        exec_get(st, origin, c, false);
        return true;
    case AM_ACC:
        if ((mem = target_mem(st, origin, c))) {
            rma_layout(c, cmd_runs(c), &lay);
            rma_acc_lock(st, st->rank);
            rma_apply(dmpi_op_get(c->op), c->basic, &lay, c->count, mem, cmd_payload(c), NULL);
            rma_acc_unlock(st, st->rank);
        }
        return true;
    case AM_GACC:
        exec_get(st, origin, c, true);
        return true;
    case AM_CAS:
        exec_cas(st, origin, c);
        return true;
    case AM_LOCK:
        if (!rma_lock_try(st, origin, c->lock_type))
            return false;
        ack(st, origin, c->reply_tag);
        return true;
    case AM_UNLOCK:
        rma_lock_release(st, origin);
        ack(st, origin, c->reply_tag);
        return true;
    case AM_FLUSH:
        ack(st, origin, c->reply_tag);
        return true;
    case AM_POST:
        st->posts[origin]++;
        return true;
    case AM_COMPLETE:
        st->completes++;
        return true;
    }
    return true;
}

/* A put of contiguous target data whose data all follows lands straight in the window. */
static bool lands_in_place(const am_cmd_t *c, const dmpi_dtype_t *lay)
{
    return c->kind == AM_PUT && c->runs_inline && c->inline_bytes <= am_runs_bytes(c) && lay->contig;
}

static void enqueue(struct rma_state *st, int origin, const char *msg, size_t n)
{
    const am_cmd_t *c = (const am_cmd_t *)msg;
    dmpi_dtype_t lay;
    if (c->runs_inline)
        rma_layout(c, cmd_runs(c), &lay);
    bool direct = c->extra_bytes && c->runs_inline && lands_in_place(c, &lay);
    rma_in_t *in = rma_must_alloc(sizeof *in);
    *in = (rma_in_t){.origin = origin, .msg = rma_must_alloc(n + (direct ? 0 : c->extra_bytes))};
    memcpy(in->msg, msg, n);
    if (c->extra_bytes) {
        void *dst = in->msg + n;
        int err = MPI_SUCCESS;
        if (direct) {
            char *mem = rma_target_mem(st, c->addr, c->lo, c->span, &err);
            if (mem)
                dst = mem + lay.true_lb;
            else {
                note_error(st, origin, err);    /* the data is drained into a buffer of its own */
                free(in->msg);
                in->msg = rma_must_alloc(n + c->extra_bytes);
                memcpy(in->msg, msg, n);
                dst = in->msg + n;
            }
        }
        in->direct = direct;
        if (dmpi_irecv(dst, (int)c->extra_bytes, bytes_t(), origin, RMA_TAG_DATA, st->win->comm, &in->data_req) !=
            MPI_SUCCESS)
            dmpi_fatal("one-sided communication: cannot receive the data of rank %d", origin);
    }
    if (st->in_tail)
        st->in_tail->next = in;
    else
        st->in_head = in;
    st->in_tail = in;
    st->queued[origin]++;
}

static void on_command(struct rma_state *st, const char *msg, size_t n, int origin)
{
    const am_cmd_t *c = (const am_cmd_t *)msg;
    if (st->queued[origin] == 0 && c->extra_bytes == 0 && exec(st, origin, c, false))
        return;
    enqueue(st, origin, msg, n);
}

/* Runs the waiting commands that can run, in order per origin. */
static int run_waiting(struct rma_state *st)
{
    int did = 0;
    memset(st->blocked, 0, (size_t)st->size);
    rma_in_t **pp = &st->in_head, *last = NULL;
    while (*pp) {
        rma_in_t *in = *pp;
        int o = in->origin;
        if (!st->blocked[o] && (!in->data_req || in->data_req->done) &&
            exec(st, o, (const am_cmd_t *)in->msg, in->direct)) {
            *pp = in->next;
            st->queued[o]--;
            if (in->data_req)
                dmpi_req_free(in->data_req);
            free(in->msg);
            free(in);
            did = 1;
            continue;
        }
        st->blocked[o] = 1;
        last = in;
        pp = &in->next;
    }
    st->in_tail = last;
    return did;
}

static int window_progress(struct rma_state *st)
{
    int did = 0;
    while (st->cmd_req && st->cmd_req->done) {
        dmpi_request_t *r = st->cmd_req;
        int origin = r->st_source, err = r->st_error;
        size_t n = r->st_bytes;
        dmpi_req_free(r);
        st->cmd_req = NULL;
        if (err == MPI_SUCCESS)
            on_command(st, st->cmd_buf, n, origin);
        if (post_cmd_recv(st) != MPI_SUCCESS)
            dmpi_fatal("one-sided communication: cannot post the receive of commands");
        did = 1;
    }
    if (st->in_head)
        did |= run_waiting(st);
    if (st->pend)
        rma_pend_reap(st);
    if (st->replies)
        rma_pend_reap_list(&st->replies);   /* a failed reply cannot be reported here */
    return did;
}

int rma_progress(void)
{
    int did = 0;
    for (struct rma_state *st = rma_windows; st; st = st->next_win) {
        if (st->in_progress)
            continue;
        st->in_progress = 1;
        did |= window_progress(st);
        st->in_progress = 0;
    }
    return did;
}

/* Waits until the replies this rank sends are all gone (Win_free). */
static bool replies_gone(void *arg)
{
    struct rma_state *st = arg;
    return !st->replies && !st->in_head;
}

void rma_am_drain(struct rma_state *st)
{
    if (!replies_gone(st))
        dmpi_progress_until(replies_gone, st);
}
