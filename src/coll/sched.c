/* The schedule engine (see sched.h): rounds of communication followed by
 * local steps, advanced by the progress engine. */
#include "coll/sched_internal.h"
#include "coll/coll.h"
#include "core/op.h"
#include "p2p/p2p.h"
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dmpi_sched_active;

/* Scratch buffers are recycled between collectives: a large malloc gets
 * fresh pages from the kernel every time, and faulting them in costs more
 * than the copies made into them. A few freed buffers wait here. */
#define CACHED_SCRATCH 4
#define SCRATCH_MIN (64u << 10)         /* smaller ones come cheaply from malloc */
#define SCRATCH_MAX (16u << 20)
static scratch_t cached[CACHED_SCRATCH];
static int ncached;

static scratch_t scratch_get(size_t bytes)
{
    int best = -1;
    for (int i = 0; i < ncached; i++)
        if (cached[i].cap >= bytes && (best < 0 || cached[i].cap < cached[best].cap))
            best = i;
    if (best >= 0) {
        scratch_t b = cached[best];
        cached[best] = cached[--ncached];
        return b;
    }
    scratch_t b = {malloc(bytes ? bytes : 1), bytes ? bytes : 1};
    return b;
}

static void scratch_put(scratch_t b)
{
    if (b.cap < SCRATCH_MIN || b.cap > SCRATCH_MAX) {
        free(b.p);
        return;
    }
    if (ncached < CACHED_SCRATCH) {
        cached[ncached++] = b;
        return;
    }
    int small = 0;                       /* keep the largest ones */
    for (int i = 1; i < ncached; i++)
        if (cached[i].cap < cached[small].cap)
            small = i;
    if (cached[small].cap < b.cap) {
        free(cached[small].p);
        cached[small] = b;
    } else {
        free(b.p);
    }
}
static dmpi_sched_t *active_head;

/* Schedules take tags DMPI_TAG_SCHED_FIRST (coll.h) and down, cycling:
 * blocking collectives from one span, nonblocking ones from the next, each
 * from its own per-communicator sequence. A rank may start a nonblocking
 * collective and then block in another one while a peer blocks first: the
 * blocking ones still meet each other (mpi4py's Iagree test does this). */
#define SCHED_TAG_SPAN DMPI_TAG_SPAN

static int take_tag(dmpi_comm_t *c, bool blocking)
{
    if (c->coll_tag != DMPI_TAG_NONE)
        return c->coll_tag;
    c = c->obj;
    if (blocking)
        return DMPI_TAG_SCHED_FIRST - (int)(c->coll_seq++ % SCHED_TAG_SPAN);
    return DMPI_TAG_SCHED_FIRST - SCHED_TAG_SPAN - (int)(c->icoll_seq++ % SCHED_TAG_SPAN);
}

/* Freed schedules kept for the next collective: small blocking
 * collectives then allocate nothing. */
#define SPARES 4
static dmpi_sched_t *spare[SPARES];
static int nspare;

int dmpi_sched_new(dmpi_comm_t *c, dmpi_sched_t **out)
{
    dmpi_sched_t *s = nspare ? spare[--nspare] : malloc(sizeof *s);
    if (!s)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
    memset(s, 0, offsetof(dmpi_sched_t, small_steps));   /* the inline arrays are filled as used */
    s->view = dmpi_coll_view(c);
    s->name = "a collective operation";
    dmpi_comm_retain(c);            /* MPI_Comm_free may come before the schedule ends */
    s->steps = s->small_steps;
    s->cap = SMALL_STEPS;
    s->round_end = s->small_rounds;
    s->rcap = SMALL_STEPS;
    *out = s;
    return MPI_SUCCESS;
}

void dmpi_sched_set_name(dmpi_sched_t *s, const char *name) { s->name = name; }

void dmpi_sched_map(dmpi_sched_t *s, const int *map) { s->map = map; }

void dmpi_sched_local(dmpi_sched_t *s, bool on)
{
    if (on && !s->lview.obj)
        s->lview = dmpi_coll_view(s->view.obj->local_comm);
    s->local = on;
}

void dmpi_sched_free(dmpi_sched_t *s)
{
    for (int i = 0; i < s->ntmps; i++)
        scratch_put(s->tmps[i]);
    for (int i = 0; i < s->nsteps; i++) {
        step_t *t = &s->steps[i];
        if (t->req)
            dmpi_req_free(t->req);
        if (t->dt)
            dmpi_dtype_release(t->dt);
        if (t->ddt)
            dmpi_dtype_release(t->ddt);
        if (t->op)
            dmpi_op_release(t->op);
    }
    free(s->tmps);
    dmpi_comm_release(&s->view);
    if (s->steps != s->small_steps)
        free(s->steps);
    if (s->round_end != s->small_rounds)
        free(s->round_end);
    if (nspare < SPARES)
        spare[nspare++] = s;
    else
        free(s);
}

static step_t *add_step(dmpi_sched_t *s, int kind)
{
    if (s->nsteps == s->cap) {
        int cap = 2 * s->cap;
        step_t *steps = realloc(s->steps == s->small_steps ? NULL : s->steps, (size_t)cap * sizeof *steps);
        if (!steps)
            return NULL;
        if (s->steps == s->small_steps)
            memcpy(steps, s->small_steps, sizeof s->small_steps);
        s->steps = steps;
        s->cap = cap;
    }
    step_t *t = &s->steps[s->nsteps++];
    memset(t, 0, sizeof *t);
    t->kind = (uint8_t)kind;
    return t;
}

static int oom(void) { return dmpi_err(MPI_ERR_NO_MEM, "out of memory building a collective schedule"); }

/* The user may free a type or an op as soon as a nonblocking collective
 * has started: the schedule holds its own references. */
static void hold(step_t *t)
{
    if (t->dt)
        dmpi_dtype_retain(t->dt);
    if (t->ddt)
        dmpi_dtype_retain(t->ddt);
    if (t->op)
        dmpi_op_retain(t->op);
}

static int add_message(dmpi_sched_t *s, int kind, const void *src, void *dst, size_t count, dmpi_dtype_t *dt,
                       int peer)
{
    step_t *t = add_step(s, kind);
    if (!t)
        return oom();
    t->local = s->local;
    t->src = src;
    t->dst = dst;
    t->count = count;
    t->dt = dt;
    t->peer = s->map ? s->map[peer] : peer;
    hold(t);
    return MPI_SUCCESS;
}

/* Point-to-point messages carry int counts. One of more than INT_MAX bytes
 * (DMPI_COLL_MESSAGE_MAX, lower only to test this; sender and receiver see
 * the same byte count, whatever their types) travels as pieces of at most
 * PIECE bytes of its packed data, each a message of MPI_BYTE: straight from
 * and into the buffer when the type is contiguous, else through scratch
 * memory packed when the round starts (STEP_PACK) or unpacked after it (a
 * copy step). */
#define PIECE ((size_t)1 << 30)

size_t dmpi_sched_message_max = INT_MAX;

static size_t message_max(void) { return dmpi_sched_message_max; }

static int add_pieces(dmpi_sched_t *s, int kind, char *at, size_t bytes, int peer)
{
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    size_t piece = message_max() < PIECE ? message_max() : PIECE;
    for (size_t off = 0; off < bytes; off += piece) {
        size_t n = bytes - off < piece ? bytes - off : piece;
        DMPI_TRY(add_message(s, kind, at + off, at + off, n, byte, peer));
    }
    return MPI_SUCCESS;
}

static int huge_message(dmpi_sched_t *s, int kind, const void *buf, size_t count, dmpi_dtype_t *dt, int peer)
{
    size_t bytes = count * dt->size;
    if (dt->contig)
        return add_pieces(s, kind, (char *)buf + dt->true_lb, bytes, peer);
    char *tmp = dmpi_sched_tmp(s, bytes);
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    if (!tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for the %zu bytes of a collective message", bytes);
    if (kind == STEP_SEND) {
        step_t *t = add_step(s, STEP_PACK);
        if (!t)
            return oom();
        *t = (step_t){.kind = STEP_PACK, .src = buf, .count = count, .dt = dt, .dst = tmp, .dcount = bytes,
                      .ddt = byte};
        hold(t);
        s->packs = true;
        return add_pieces(s, kind, tmp, bytes, peer);
    }
    DMPI_TRY(add_pieces(s, kind, tmp, bytes, peer));
    return dmpi_sched_copy(s, tmp, bytes, byte, (void *)buf, count, dt);
}

int dmpi_sched_send(dmpi_sched_t *s, const void *buf, size_t count, dmpi_dtype_t *dt, int peer)
{
    if (DMPI_UNLIKELY(count > INT_MAX || count * dt->size > message_max()))
        return dt->size ? huge_message(s, STEP_SEND, buf, count, dt, peer)
                        : add_message(s, STEP_SEND, buf, NULL, 0, dt, peer);
    return add_message(s, STEP_SEND, buf, NULL, count, dt, peer);
}

int dmpi_sched_recv(dmpi_sched_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int peer)
{
    if (DMPI_UNLIKELY(count > INT_MAX || count * dt->size > message_max()))
        return dt->size ? huge_message(s, STEP_RECV, buf, count, dt, peer)
                        : add_message(s, STEP_RECV, NULL, buf, 0, dt, peer);
    return add_message(s, STEP_RECV, NULL, buf, count, dt, peer);
}

int dmpi_sched_reduce(dmpi_sched_t *s, const void *in, void *inout, size_t count, dmpi_dtype_t *dt,
                      dmpi_op_t *op)
{
    step_t *t = add_step(s, STEP_REDUCE);
    if (!t)
        return oom();
    t->src = in;
    t->dst = inout;
    t->count = count;
    t->dt = dt;
    t->op = op;
    hold(t);
    return MPI_SUCCESS;
}

int dmpi_sched_copy(dmpi_sched_t *s, const void *src, size_t scount, dmpi_dtype_t *sdt, void *dst,
                    size_t dcount, dmpi_dtype_t *ddt)
{
    step_t *t = add_step(s, STEP_COPY);
    if (!t)
        return oom();
    t->src = src;
    t->count = scount;
    t->dt = sdt;
    t->dst = dst;
    t->dcount = dcount;
    t->ddt = ddt;
    hold(t);
    return MPI_SUCCESS;
}

int dmpi_sched_round(dmpi_sched_t *s)
{
    if (s->nrounds == s->rcap) {
        int cap = 2 * s->rcap;
        int *r = realloc(s->round_end == s->small_rounds ? NULL : s->round_end, (size_t)cap * sizeof *r);
        if (!r)
            return oom();
        if (s->round_end == s->small_rounds)
            memcpy(r, s->small_rounds, sizeof s->small_rounds);
        s->round_end = r;
        s->rcap = cap;
    }
    s->round_end[s->nrounds++] = s->nsteps;
    return MPI_SUCCESS;
}

void *dmpi_sched_tmp(dmpi_sched_t *s, size_t bytes)
{
    if (s->ntmps == s->tcap) {
        int cap = s->tcap ? 2 * s->tcap : 4;
        scratch_t *t = realloc(s->tmps, (size_t)cap * sizeof *t);
        if (!t)
            return NULL;
        s->tmps = t;
        s->tcap = cap;
    }
    scratch_t b = scratch_get(bytes);
    if (b.p)
        s->tmps[s->ntmps++] = b;
    return b.p;
}

/* Copy between two typed buffers through the packed stream. */
static int local_copy(const step_t *t)
{
    size_t sbytes = t->count * t->dt->size, dbytes = t->dcount * t->ddt->size;
    size_t n = sbytes < dbytes ? sbytes : dbytes;
    if (n == 0)
        return MPI_SUCCESS;
    if (t->dt->contig) {
        dmpi_dtype_unpack_range(t->ddt, t->dst, 0, n, (const char *)t->src + t->dt->true_lb);
        return MPI_SUCCESS;
    }
    if (t->ddt->contig) {
        dmpi_dtype_pack_range(t->dt, t->src, 0, n, (char *)t->dst + t->ddt->true_lb);
        return MPI_SUCCESS;
    }
    void *tmp = malloc(n);
    if (!tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory copying %zu bytes in a collective", n);
    dmpi_dtype_pack_range(t->dt, t->src, 0, n, tmp);
    dmpi_dtype_unpack_range(t->ddt, t->dst, 0, n, tmp);
    free(tmp);
    return MPI_SUCCESS;
}

static int round_start(dmpi_sched_t *s)
{
    return s->round ? s->round_end[s->round - 1] : 0;
}

/* Starts the communication of the current round: receives first, so the
 * peers' messages find them posted; then sends, small ones in the direct
 * mode (complete at once, no request). */
static void start_round(dmpi_sched_t *s)
{
    int end = s->round_end[s->round];
    for (int i = round_start(s); DMPI_UNLIKELY(s->packs) && i < end; i++)
        if (s->steps[i].kind == STEP_PACK) {
            int err = local_copy(&s->steps[i]);
            if (err != MPI_SUCCESS && s->err == MPI_SUCCESS)
                s->err = err;
        }
    for (int pass = STEP_RECV; pass >= STEP_SEND; pass--)
        for (int i = round_start(s); i < end; i++) {
            step_t *t = &s->steps[i];
            int err = MPI_SUCCESS;
            if (t->kind != pass)
                continue;
            dmpi_comm_t *v = t->local ? &s->lview : &s->view;
            int tag = t->local ? s->tag - DMPI_TAG_INTER_SHIFT : s->tag;
            if (t->kind == STEP_RECV)
                err = dmpi_irecv(t->dst, (int)t->count, t->dt, t->peer, tag, v, &t->req);
            else if (!dmpi_send_try_direct(t->src, (int)t->count, t->dt, t->peer, tag, v))
                err = dmpi_isend(t->src, (int)t->count, t->dt, t->peer, tag, v, DMPI_MODE_STANDARD, &t->req);
            if (err != MPI_SUCCESS && s->err == MPI_SUCCESS)
                s->err = err;
        }
    s->started = true;
}

/* True once the current round's communication is complete (its requests
 * are freed then). */
/* A collective message of another size than the schedule expects: the
 * ranks called the collective with different counts or types (or called
 * different collectives). Their schedules no longer fit together, and a
 * rank that returned an error would leave the others waiting for messages
 * that never come: the job ends, on every rank, with this message. */
static void size_mismatch(dmpi_sched_t *s, const step_t *t)
{
    size_t want = t->count * t->dt->size, got = t->req->st_bytes;
    char arrived[64];
    if (dmpi_err_class_of(t->req->st_error) == MPI_ERR_TRUNCATE)
        snprintf(arrived, sizeof arrived, "a longer one arrived");
    else
        snprintf(arrived, sizeof arrived, "%zu arrived", got);
    dmpi_fatal("%s on %s: rank %d expected a message of %zu bytes from rank %d, but %s; the ranks called the "
               "collective with different counts or datatypes, or called different collectives",
               s->name, s->view.name[0] ? s->view.name : "a communicator", s->view.rank, want, t->peer, arrived);
}

static bool round_done(dmpi_sched_t *s)
{
    int end = s->round_end[s->round];
    for (int i = round_start(s); i < end; i++)
        if (s->steps[i].req && !s->steps[i].req->done)
            return false;
    for (int i = round_start(s); i < end; i++) {
        step_t *t = &s->steps[i];
        if (!t->req)
            continue;
        if (t->kind == STEP_RECV &&
            (t->req->st_bytes != t->count * t->dt->size || t->req->st_error != MPI_SUCCESS))
            size_mismatch(s, t);
        if (t->req->st_error != MPI_SUCCESS && s->err == MPI_SUCCESS)
            s->err = t->req->st_error;
        dmpi_req_free(t->req);
        t->req = NULL;
    }
    return true;
}

void dmpi_sched_local_steps(dmpi_sched_t *s, int k)
{
    for (int i = k ? s->round_end[k - 1] : 0; i < s->round_end[k]; i++) {
        step_t *t = &s->steps[i];
        int err = MPI_SUCCESS;
        if (t->kind == STEP_REDUCE)
            err = dmpi_op_apply(t->op, t->src, t->dst, t->count, t->dt);
        else if (t->kind == STEP_COPY)
            err = local_copy(t);
        if (err != MPI_SUCCESS && s->err == MPI_SUCCESS)
            s->err = err;
    }
}

static void unlink_active(dmpi_sched_t *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        active_head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    if (!--dmpi_sched_active)
        dmpi_progress_remove_hook(dmpi_sched_progress);
}

/* Runs rounds as far as they go; true once all are done. */
static bool run_rounds(dmpi_sched_t *s)
{
    while (s->round < s->nrounds) {
        if (!s->started)
            start_round(s);
        if (!round_done(s))
            return false;
        dmpi_sched_local_steps(s, s->round);
        s->round++;
        s->started = false;
    }
    return true;
}

static bool rounds_done(void *s) { return run_rounds(s); }

/* What a blocking collective waits for, for the hang report: "MPI_Allreduce
 * on MPI_COMM_WORLD, round 2 of 3: a receive from rank 1". */
static void describe_wait(void *arg, char *buf, size_t len)
{
    dmpi_sched_t *s = arg;
    int n = snprintf(buf, len, "%s on %s, round %d of %d", s->name, s->view.name[0] ? s->view.name : "a communicator",
                     s->round + 1, s->nrounds);
    const char *sep = ": ";
    for (int i = round_start(s); i < s->round_end[s->round] && n > 0 && (size_t)n < len; i++) {
        const step_t *t = &s->steps[i];
        if (t->req && !t->req->done) {
            n += snprintf(buf + n, len - (size_t)n, "%s%s rank %d", sep,
                          t->kind == STEP_RECV ? "a receive from" : "a send to", t->peer);
            sep = ", ";
        }
    }
}

/* A started schedule: moves it as far as it can go; true when it completed
 * (its request is complete, the schedule freed). */
static bool advance(dmpi_sched_t *s)
{
    if (!run_rounds(s))
        return false;
    dmpi_request_t *r = s->req;
    dmpi_req_set_empty_status(r, s->err);
    unlink_active(s);
    s->req = NULL;
    if (!s->kept)
        dmpi_sched_free(s);
    dmpi_req_complete(r);            /* a kept schedule goes with its request, perhaps now */
    return true;
}

/* Ends the last round if steps were added after the last dmpi_sched_round. */
int dmpi_sched_close_rounds(dmpi_sched_t *s)
{
    if (s->nrounds == 0 || s->round_end[s->nrounds - 1] != s->nsteps)
        return dmpi_sched_round(s);
    return MPI_SUCCESS;
}

/* While a capture is open (dmpi_sched_capture), the next schedule given to
 * dmpi_sched_start lands here instead of starting. */
static bool capturing;
static dmpi_sched_t *captured;

void dmpi_sched_capture(void)
{
    capturing = true;
    captured = NULL;
}

dmpi_sched_t *dmpi_sched_captured(void)
{
    dmpi_sched_t *s = captured;
    capturing = false;
    captured = NULL;
    return s;
}

/* Puts s, with a fresh tag, on the active list as r's schedule and runs it as far as it goes. */
static void launch(dmpi_sched_t *s, dmpi_request_t *r)
{
    s->tag = take_tag(&s->view, false);
    s->req = r;
    s->prev = NULL;
    s->next = active_head;
    if (active_head)
        active_head->prev = s;
    active_head = s;
    if (!dmpi_sched_active++)
        dmpi_progress_add_hook(dmpi_sched_progress);
    advance(s);
}

int dmpi_sched_start(dmpi_sched_t *s, dmpi_request_t **out)
{
    int err = dmpi_sched_close_rounds(s);
    if (err != MPI_SUCCESS) {
        dmpi_sched_free(s);
        return err;
    }
    if (capturing && !captured) {
        captured = s;
        *out = NULL;
        return MPI_SUCCESS;
    }
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_COLL);
    if (!r) {
        dmpi_sched_free(s);
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    }
    r->comm = NULL;
    *out = r;
    launch(s, r);
    return MPI_SUCCESS;
}

int dmpi_sched_keep(dmpi_sched_t *s)
{
    s->kept = true;
    return dmpi_sched_close_rounds(s);
}

void dmpi_sched_restart(dmpi_sched_t *s, dmpi_request_t *r)
{
    s->round = 0;
    s->started = false;
    s->err = MPI_SUCCESS;
    launch(s, r);
}

/* Blocking: no request and no place in the active list; the wait itself
 * drives the rounds (other schedules still advance through the hook). */
int dmpi_sched_run(dmpi_sched_t *s)
{
    int err = dmpi_sched_close_rounds(s);
    s->tag = take_tag(&s->view, true);
    if (err == MPI_SUCCESS) {
        dmpi_progress_until_described(rounds_done, s, describe_wait);
        err = s->err;
    }
    dmpi_sched_free(s);
    return err;
}

int dmpi_sched_progress(void)
{
    int did = 0;
    for (dmpi_sched_t *s = active_head, *next; s; s = next) {
        next = s->next;
        did += advance(s);
    }
    return did;
}
