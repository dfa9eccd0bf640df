/* Partitioned point-to-point (MPI-4 chapter 4), built on ordinary messages.
 *
 * Matching: Psend_init sends one SETUP message (the user's tag, the send's
 * partitioning, its tag base) on the communicator's collective context.
 * Setups from one source arrive in the order of its Psend_init calls; each
 * is paired with the first Precv_init still waiting for one with that source
 * and tag, so the k-th Psend_init of (comm, dest, tag) pairs with the k-th
 * Precv_init of (comm, source, tag), as MPI orders them. The pairing holds for
 * every later start.
 *
 * Data: sender partition i travels as its own message(s) with tag
 * (tag base - i), so partitions marked ready out of order arrive out of order
 * and are matched each with its own receive. A partition over 1 GiB moves as
 * several messages of whole elements, in order on one tag. Both sides cut
 * the stream of bytes by the sender's partitioning ("pieces"); the receiver's
 * partition j has arrived once every piece that overlaps its bytes has. So the
 * two sides may cut the same data into different numbers of partitions. A
 * piece that starts or ends inside an element of a noncontiguous receive
 * type lands in a staging buffer and is unpacked when it is complete.
 *
 * Each round (Start .. Wait) posts one receive per piece, and the sender one
 * send per piece as partitions become ready; messages of one tag from one
 * source match in order, so a sender a round ahead is harmless. A progress
 * hook settles the pieces and completes the requests. */
#include "p2p/part.h"
#include "p2p/p2p.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t tag;                 /* the user's tag */
    int32_t tag_base;            /* partition i travels with tag_base - i */
    int32_t partitions;
    int32_t unused;
    uint64_t part_bytes;         /* bytes of one sender partition */
    uint64_t chunk_bytes;        /* ... moved as messages of this many (the last of a partition may be less) */
} part_setup_t;

#define CHUNK_MAX ((size_t)1 << 30)

typedef struct dmpi_part {
    dmpi_request_t *req;
    /* links[ACTIVE]: started and not complete; links[WAITING]: a receive whose setup has not come */
    struct { struct dmpi_part *next, *prev; } links[2];
    dmpi_comm_t view;            /* the communicator, on its collective context */
    bool send, matched, on_active, waiting, orphan;
    int partitions;              /* this side's */
    MPI_Count count;             /* elements per partition, this side */
    size_t own_bytes;            /* this side's total bytes */
    /* the sender's cut of the data: np partitions of pb bytes, each moved as nc pieces of cb bytes */
    int np;
    size_t pb, cb, nc, ce;       /* ce: elements per piece (send) */
    int tag_base;
    size_t npieces;
    size_t cursor;               /* pieces below it are settled: completion checks from here */
    dmpi_request_t **sub;        /* per piece: its message in flight, or NULL */
    uint8_t *settled;            /* per piece: done in this round */
    void **stage;                /* receive: per piece, a staging buffer or NULL */
    uint8_t *ready;              /* send: per partition, marked ready in this round */
    int nready;
    int first_err;
    dmpi_request_t *setup_req;   /* send: the setup message, until it is sent */
} part_t;

typedef struct setup_msg {
    struct setup_msg *next;
    uint32_t ctx;
    int src;
    part_setup_t s;
} setup_msg_t;

static part_t *active_head, *waiting_head;
static setup_msg_t *setups_head;     /* arrived, in order, not yet paired */
static bool hooked, in_hook;
static int next_tag_base = DMPI_TAG_PART_DATA_FIRST;

enum { ACTIVE, WAITING };

/* At the tail: receives wait in the order of their init calls. */
static void list_add(part_t **head, int w, part_t *p)
{
    p->links[w].next = NULL;
    p->links[w].prev = NULL;
    if (!*head) {
        *head = p;
        return;
    }
    part_t *t = *head;
    while (t->links[w].next)
        t = t->links[w].next;
    t->links[w].next = p;
    p->links[w].prev = t;
}

static void list_remove(part_t **head, int w, part_t *p)
{
    if (p->links[w].prev)
        p->links[w].prev->links[w].next = p->links[w].next;
    else
        *head = p->links[w].next;
    if (p->links[w].next)
        p->links[w].next->links[w].prev = p->links[w].prev;
    p->links[w].next = p->links[w].prev = NULL;
}

static int part_progress(void);

static void ensure_hook(void)
{
    if (!hooked) {
        dmpi_progress_add_hook(part_progress);
        hooked = true;
    }
}

/* ---- pieces: the sender's cut of the byte stream ------------------------- */

static size_t piece_offset(const part_t *p, size_t k) { return (k / p->nc) * p->pb + (k % p->nc) * p->cb; }

static size_t piece_len(const part_t *p, size_t k)
{
    size_t c = k % p->nc;
    return p->pb - c * p->cb < p->cb ? p->pb - c * p->cb : p->cb;
}

static size_t piece_at(const part_t *p, size_t off) { return (off / p->pb) * p->nc + (off % p->pb) / p->cb; }

static int set_layout(part_t *p, int np, size_t pb, size_t cb)
{
    p->np = np;
    p->pb = pb;
    p->cb = cb;
    p->nc = pb == 0 ? 1 : (pb + cb - 1) / cb;     /* empty partitions still travel: one empty message each */
    p->npieces = (size_t)np * p->nc;
    p->sub = calloc(p->npieces ? p->npieces : 1, sizeof *p->sub);
    p->settled = calloc(p->npieces ? p->npieces : 1, 1);
    if (!p->send)
        p->stage = calloc(p->npieces ? p->npieces : 1, sizeof *p->stage);
    if (!p->sub || !p->settled || (!p->send && !p->stage))
        return dmpi_err(MPI_ERR_NO_MEM, "cannot allocate the state of %zu partition messages", p->npieces);
    return MPI_SUCCESS;
}

/* Piece k's message is complete: account for it (unpacking a staged one). */
static void settle(part_t *p, size_t k)
{
    dmpi_request_t *s = p->sub[k];
    if (p->stage && p->stage[k]) {
        size_t off = piece_offset(p, k);
        dmpi_request_t *r = p->req;
        if (s->st_error == MPI_SUCCESS)
            dmpi_dtype_unpack_range(r->dt, (void *)r->ubuf, off, s->st_bytes, p->stage[k]);
        free(p->stage[k]);
        p->stage[k] = NULL;
    }
    int err = dmpi_finish(s, NULL, MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS && p->first_err == MPI_SUCCESS)
        p->first_err = err;
    p->sub[k] = NULL;
    p->settled[k] = 1;
}

static bool try_settle(part_t *p, size_t k)
{
    if (!p->settled[k] && p->sub[k] && dmpi_req_is_done(p->sub[k]))
        settle(p, k);
    return p->settled[k];
}

static void fail_piece(part_t *p, size_t k, int err)
{
    if (p->first_err == MPI_SUCCESS)
        p->first_err = err;
    p->settled[k] = 1;
}

/* ---- both: the request --------------------------------------------------- */

/* An inactive persistent request of either side, with its state; partition
 * messages travel on the communicator's collective context, as coll/coll.h's
 * dmpi_coll_view does it. NULL: out of memory. */
static dmpi_request_t *new_part(const void *buf, int partitions, MPI_Count count, dmpi_dtype_t *dt, int rank,
                                int tag, dmpi_comm_t *c)
{
    part_t *p = calloc(1, sizeof *p);
    dmpi_request_t *r = p ? dmpi_req_alloc(DMPI_REQ_PART) : NULL;
    if (!r) {
        free(p);
        return NULL;
    }
    r->ubuf = buf;
    r->dt = dt;
    r->rank = rank;
    r->tag = tag;
    r->comm = c;
    r->ctx = c->ctx;
    r->persistent = 1;
    r->done = 1;
    r->part = p;
    dmpi_req_hold_type(r);
    dmpi_req_hold_comm(r);
    p->req = r;
    p->partitions = partitions;
    p->count = count;
    p->view = *c;
    p->view.ctx = c->ctx + 1;
    p->view.seq_out = c->seq_out ? c->seq_out + c->peer_size : NULL;
    return r;
}

/* ---- the sender ---------------------------------------------------------- */

int dmpi_psend_init(const void *buf, int partitions, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag,
                    dmpi_comm_t *c, dmpi_request_t **out)
{
    dmpi_request_t *r = new_part(buf, partitions, count, dt, dest, tag, c);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a partitioned send");
    part_t *p = r->part;
    p->send = true;
    size_t pb = (size_t)count * dt->size, cb = 0;
    if (pb) {
        p->ce = CHUNK_MAX / dt->size ? CHUNK_MAX / dt->size : 1;
        if (p->ce > (size_t)count)
            p->ce = (size_t)count;
        cb = p->ce * dt->size;
    }
    int err = set_layout(p, partitions, pb, cb);
    p->ready = calloc(partitions ? (size_t)partitions : 1, 1);
    if (err == MPI_SUCCESS && !p->ready)
        err = dmpi_err(MPI_ERR_NO_MEM, "cannot allocate the state of %d partitions", partitions);
    if (err == MPI_SUCCESS && dest != MPI_PROC_NULL) {
        if (next_tag_base - DMPI_TAG_PART_DATA_LAST < partitions)
            next_tag_base = DMPI_TAG_PART_DATA_FIRST;    /* wrapped: the oldest tags are long done */
        if (DMPI_TAG_PART_DATA_FIRST - DMPI_TAG_PART_DATA_LAST < partitions)
            err = dmpi_err(MPI_ERR_COUNT, "MPI_Psend_init: %d partitions are more than the %d this library "
                           "can tell apart", partitions, DMPI_TAG_PART_DATA_FIRST - DMPI_TAG_PART_DATA_LAST);
        else {
            p->tag_base = next_tag_base;
            next_tag_base -= partitions ? partitions : 1;
            part_setup_t s = {tag, p->tag_base, partitions, 0, pb, cb};
            err = dmpi_isend_copy(&s, (int)sizeof s, dmpi_dtype_get(MPI_BYTE), dest, DMPI_TAG_PART_SETUP,
                                  &p->view, &p->setup_req);
        }
    }
    if (err != MPI_SUCCESS) {
        r->part = NULL;
        dmpi_req_free(r);
        free(p->sub);
        free(p->settled);
        free(p->ready);
        free(p);
        return err;
    }
    p->own_bytes = (size_t)partitions * pb;
    ensure_hook();
    *out = r;
    return MPI_SUCCESS;
}

int dmpi_pready(dmpi_request_t *r, int i, const char *fn)
{
    part_t *p = r->part;
    if (p->ready[i])
        return dmpi_err(MPI_ERR_ARG, "%s: partition %d is already marked ready in this round", fn, i);
    p->ready[i] = 1;
    p->nready++;
    if (r->rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    MPI_Aint extent = r->dt->extent;
    const char *base = (const char *)r->ubuf + (MPI_Aint)i * (MPI_Aint)p->count * extent;
    for (size_t c = 0; c < p->nc; c++) {
        size_t k = (size_t)i * p->nc + c;
        size_t n = (size_t)p->count - c * p->ce < p->ce ? (size_t)p->count - c * p->ce : p->ce;
        int err = dmpi_isend(base + (MPI_Aint)(c * p->ce) * extent, (int)n, r->dt, r->rank, p->tag_base - i,
                             &p->view, DMPI_MODE_STANDARD, &p->sub[k]);
        if (err != MPI_SUCCESS) {
            p->sub[k] = NULL;
            fail_piece(p, k, err);
        }
    }
    return MPI_SUCCESS;
}

/* ---- the receiver -------------------------------------------------------- */

/* The receive of piece k of this round, into its place in the user's buffer. */
static int post_piece(part_t *p, size_t k)
{
    dmpi_request_t *r = p->req;
    dmpi_dtype_t *dt = r->dt, *byte = dmpi_dtype_get(MPI_BYTE);
    size_t off = piece_offset(p, k), len = piece_len(p, k);
    size_t n = off >= p->own_bytes ? 0 : (len < p->own_bytes - off ? len : p->own_bytes - off);
    char *ubuf = (char *)r->ubuf;
    if (n > INT_MAX)             /* one element of the sender's type is over 2 GiB */
        return dmpi_err(MPI_ERR_COUNT, "partitioned receive: a piece of %zu bytes is more than one message can "
                        "carry", n);
    if (dt->contig || n == 0)   /* n < len: the message is longer, and the receive reports MPI_ERR_TRUNCATE */
        return dmpi_irecv(ubuf + dt->true_lb + (n ? off : 0), (int)n, byte, r->rank, p->tag_base - (int)(k / p->nc),
                          &p->view, &p->sub[k]);
    if (off % dt->size == 0 && n % dt->size == 0)
        return dmpi_irecv(ubuf + (MPI_Aint)(off / dt->size) * dt->extent, (int)(n / dt->size), dt, r->rank,
                          p->tag_base - (int)(k / p->nc), &p->view, &p->sub[k]);
    p->stage[k] = malloc(n);
    if (!p->stage[k])
        return dmpi_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes to stage a partition", n);
    return dmpi_irecv(p->stage[k], (int)n, byte, r->rank, p->tag_base - (int)(k / p->nc), &p->view, &p->sub[k]);
}

static void post_round(part_t *p)
{
    for (size_t k = 0; k < p->npieces; k++) {
        int err = post_piece(p, k);
        if (err != MPI_SUCCESS) {
            p->sub[k] = NULL;
            fail_piece(p, k, err);
        }
    }
}

int dmpi_precv_init(void *buf, int partitions, MPI_Count count, dmpi_dtype_t *dt, int source, int tag,
                    dmpi_comm_t *c, dmpi_request_t **out)
{
    dmpi_request_t *r = new_part(buf, partitions, count, dt, source, tag, c);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a partitioned receive");
    part_t *p = r->part;
    p->own_bytes = (size_t)partitions * (size_t)count * dt->size;
    if (source != MPI_PROC_NULL) {
        p->waiting = true;
        list_add(&waiting_head, WAITING, p);
    }
    ensure_hook();
    *out = r;
    return MPI_SUCCESS;
}

/* Takes every setup that arrived on the contexts of waiting receives. */
static void take_setups(void)
{
    for (part_t *p = waiting_head; p; p = p->links[WAITING].next) {
        dmpi_matchq_t *q = dmpi_mq(p->view.ctx);
        dmpi_msg_t *m;
        while (q->unexp_head && (m = dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, DMPI_TAG_PART_SETUP, false))) {
            setup_msg_t *e = calloc(1, sizeof *e);
            if (!e)
                return;
            e->ctx = p->view.ctx;
            e->src = m->src;
            MPI_Status st;
            dmpi_recv(&e->s, (int)sizeof e->s, dmpi_dtype_get(MPI_BYTE), e->src, DMPI_TAG_PART_SETUP, &p->view, &st);
            setup_msg_t **link = &setups_head;
            while (*link)
                link = &(*link)->next;
            *link = e;
        }
    }
}

static void destroy(part_t *p);

/* Pairs arrived setups with waiting receives, first come first paired. */
static void pair_setups(void)
{
    take_setups();
    for (setup_msg_t **link = &setups_head; *link;) {
        setup_msg_t *e = *link;
        part_t *p = waiting_head;
        while (p && !(p->view.ctx == e->ctx && p->req->rank == e->src && p->req->tag == e->s.tag))
            p = p->links[WAITING].next;
        if (!p) {
            link = &e->next;
            continue;
        }
        *link = e->next;
        list_remove(&waiting_head, WAITING, p);
        p->waiting = false;
        p->matched = true;
        p->tag_base = e->s.tag_base;
        int err = set_layout(p, e->s.partitions, (size_t)e->s.part_bytes, (size_t)e->s.chunk_bytes);
        free(e);
        if (p->orphan) {
            destroy(p);
            continue;
        }
        if (err != MPI_SUCCESS) {
            p->first_err = err;
            p->npieces = 0;
        } else if (p->req->active && !p->req->done) {
            post_round(p);
        }
    }
}

bool dmpi_parrived(dmpi_request_t *r, int j)
{
    part_t *p = r->part;
    if (r->rank == MPI_PROC_NULL || r->done)
        return true;
    dmpi_progress();             /* pairs the setup, posts the round's receives, settles */
    if (r->done)
        return true;
    if (!p->matched)
        return false;
    size_t lo = (size_t)j * ((size_t)p->count * r->dt->size), hi = lo + (size_t)p->count * r->dt->size;
    size_t total = (size_t)p->np * p->pb;
    if (hi > total)
        hi = total;
    if (total == 0)              /* the sender's empty partitions: the one that falls on j says */
        return try_settle(p, (size_t)j * p->npieces / (size_t)p->partitions);
    if (lo >= hi)
        return true;
    for (size_t k = piece_at(p, lo), last = piece_at(p, hi - 1); k <= last; k++)
        if (!try_settle(p, k))
            return false;
    return true;
}

/* ---- both ------------------------------------------------------------------ */

int dmpi_part_count(const dmpi_request_t *r) { return r->part->partitions; }
bool dmpi_part_is_send(const dmpi_request_t *r) { return r->part->send; }

int dmpi_part_start(dmpi_request_t *r)
{
    part_t *p = r->part;
    r->active = 1;
    r->done = 0;
    r->cancelled = 0;
    p->first_err = MPI_SUCCESS;
    p->cursor = 0;
    if (p->settled)              /* a receive not yet paired has no pieces yet */
        memset(p->settled, 0, p->npieces ? p->npieces : 1);
    if (p->send) {
        memset(p->ready, 0, p->partitions ? (size_t)p->partitions : 1);
        p->nready = 0;
    }
    if (r->rank == MPI_PROC_NULL) {
        if (p->send)
            dmpi_req_set_empty_status(r, MPI_SUCCESS);
        else
            dmpi_req_set_proc_null_status(r);
        r->done = 1;
        return MPI_SUCCESS;
    }
    if (!p->send && p->matched)
        post_round(p);
    p->on_active = true;
    list_add(&active_head, ACTIVE, p);
    return MPI_SUCCESS;
}

/* The round is over once every piece is settled (and, sending, every partition was marked ready). */
static bool round_done(part_t *p)
{
    if (p->send ? p->nready < p->partitions : !p->matched)
        return false;
    /* Stops at the first piece still in flight: a pass costs O(1) while waiting,
     * and the round is over only once that one is done anyway. */
    while (p->cursor < p->npieces && try_settle(p, p->cursor))
        p->cursor++;
    return p->cursor == p->npieces;
}

static void complete(part_t *p)
{
    dmpi_request_t *r = p->req;
    list_remove(&active_head, ACTIVE, p);
    p->on_active = false;
    if (p->send) {
        dmpi_req_set_empty_status(r, p->first_err);
    } else {
        size_t sent = (size_t)p->np * p->pb;
        r->st_source = r->rank;
        r->st_tag = r->tag;
        r->st_error = p->first_err;
        r->st_bytes = sent < p->own_bytes ? sent : p->own_bytes;
        if (sent > p->own_bytes && r->st_error == MPI_SUCCESS)
            r->st_error = dmpi_err(MPI_ERR_TRUNCATE, "partitioned receive: %zu bytes sent, room for %zu", sent,
                                   p->own_bytes);
    }
    r->done = 1;
    if (r->free_on_done)
        destroy(p);
}

static int part_progress(void)
{
    if (in_hook || (!active_head && !waiting_head))
        return 0;
    in_hook = true;
    int did = 0;
    if (waiting_head)
        pair_setups();
    for (part_t *p = active_head, *next; p; p = next) {
        next = p->links[ACTIVE].next;
        if (round_done(p)) {
            complete(p);
            did++;
        }
    }
    in_hook = false;
    return did;
}

static void destroy(part_t *p)
{
    dmpi_request_t *r = p->req;
    if (p->on_active)
        list_remove(&active_head, ACTIVE, p);
    if (p->waiting)
        list_remove(&waiting_head, WAITING, p);
    if (p->setup_req)
        dmpi_wait(p->setup_req, NULL, MPI_STATUS_IGNORE);   /* a small eager message: it leaves at once */
    for (size_t k = 0; p->stage && k < p->npieces; k++)
        free(p->stage[k]);
    free(p->stage);
    free(p->sub);
    free(p->settled);
    free(p->ready);
    free(p);
    r->part = NULL;
    dmpi_req_free(r);
}

int dmpi_part_release(dmpi_request_t *r)
{
    part_t *p = r->part;
    if (r->active && !r->done) {
        r->persistent = 0;
        r->free_on_done = 1;     /* complete() destroys it */
        return MPI_SUCCESS;
    }
    if (p->waiting) {            /* never paired: it still takes its setup when that comes, then goes */
        p->orphan = true;
        r->persistent = 0;
        return MPI_SUCCESS;
    }
    destroy(p);
    return MPI_SUCCESS;
}
