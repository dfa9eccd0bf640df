/* Buffered sends. Each message in flight holds a region of a buffer (a
 * small header, then the packed data). In a buffer the program attached,
 * regions are kept in address order and placed first-fit; the header is far
 * below MPI_BSEND_OVERHEAD. An MPI_BUFFER_AUTOMATIC buffer gives each
 * message a region of its own from malloc. A send uses its communicator's
 * buffer if one is attached (MPI_Comm_attach_buffer), else that of the
 * session it derives from (MPI_Session_attach_buffer), else the process's.
 * Regions are numbered per buffer, so a flush waits for exactly the
 * messages that were in the buffer when it was called. */
#include "p2p/bsend.h"
#include "p2p/p2p.h"
#include "core/session.h"
#include <stdlib.h>
#include <string.h>

typedef struct dmpi_bbuf bbuf_t;

typedef struct region {
    struct region *next;
    bbuf_t *owner;
    uint64_t seq;                /* the message's number in its buffer */
    size_t size;                 /* header and data, rounded up */
    char data[] __attribute__((aligned(16)));
} region_t;

/* A nonblocking flush: complete once no region numbered below seq is left. */
typedef struct flush {
    struct flush *next;
    dmpi_request_t *req;
    uint64_t seq;
} flush_t;

struct dmpi_bbuf {
    char *base;                  /* the program's buffer (NULL if automatic) */
    size_t cap;
    bool automatic;
    size_t auto_size;            /* the size given with MPI_BUFFER_AUTOMATIC, returned by detach */
    region_t *used;              /* program's buffer: in address order; automatic: newest first */
    uint64_t next_seq;
    flush_t *flushes;
};

static bbuf_t *proc_buf;         /* MPI_Buffer_attach's */
static size_t in_flight;         /* regions of every buffer, for MPI_Finalize */

#define ROUND16(n) (((n) + 15) & ~(size_t)15)

static bbuf_t **slot(dmpi_comm_t *c) { return c ? &c->obj->bsend_buf : &proc_buf; }

static const char *whose(const dmpi_comm_t *c) { return c ? "the communicator" : "the process"; }

static int attach(const char *fn, bbuf_t **s, const char *owner, void *buf, size_t size)
{
    if (*s)
        return dmpi_err(MPI_ERR_BUFFER, "%s: a buffer is already attached to %s (detach it first)", fn, owner);
    bbuf_t *b = calloc(1, sizeof *b);
    if (!b)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory attaching a buffer");
    if (buf == MPI_BUFFER_AUTOMATIC) {
        b->automatic = true;
        b->auto_size = size;
    } else {
        b->base = buf;
        b->cap = size;
    }
    *s = b;
    return MPI_SUCCESS;
}

static bool buffer_empty(void *arg) { return ((bbuf_t *)arg)->used == NULL; }

static int detach(bbuf_t **s, void *addr_out, size_t *size_out)
{
    bbuf_t *b = *s;
    if (!b) {
        *(void **)addr_out = NULL;
        *size_out = 0;
        return MPI_SUCCESS;
    }
    dmpi_progress_until(buffer_empty, b);
    *(void **)addr_out = b->automatic ? MPI_BUFFER_AUTOMATIC : b->base;
    *size_out = b->automatic ? b->auto_size : b->cap;
    *s = NULL;
    free(b);
    return MPI_SUCCESS;
}

int dmpi_buffer_attach_to(const char *fn, dmpi_comm_t *c, void *buf, size_t size)
{
    return attach(fn, slot(c), whose(c), buf, size);
}

int dmpi_buffer_detach_from(dmpi_comm_t *c, void *addr_out, size_t *size_out)
{
    return detach(slot(c), addr_out, size_out);
}

int dmpi_session_buffer_attach(const char *fn, dmpi_session_t *s, void *buf, size_t size)
{
    return attach(fn, &s->bsend_buf, "the session", buf, size);
}

int dmpi_session_buffer_detach(dmpi_session_t *s, void *addr_out, size_t *size_out)
{
    return detach(&s->bsend_buf, addr_out, size_out);
}

void dmpi_session_buffer_drop(dmpi_session_t *s)
{
    void *addr;
    size_t size;
    detach(&s->bsend_buf, &addr, &size);
}

int dmpi_buffer_attach(void *buf, size_t size) { return dmpi_buffer_attach_to("MPI_Buffer_attach", NULL, buf, size); }

int dmpi_buffer_detach(void *addr_out, size_t *size_out) { return dmpi_buffer_detach_from(NULL, addr_out, size_out); }

size_t dmpi_buffer_attached_size(void)
{
    const bbuf_t *b = proc_buf;
    return !b ? 0 : b->automatic ? b->auto_size : b->cap;
}

static void flush(bbuf_t *b)
{
    if (b)
        dmpi_progress_until(buffer_empty, b);
}

int dmpi_buffer_flush(dmpi_comm_t *c)
{
    flush(*slot(c));
    return MPI_SUCCESS;
}

int dmpi_session_buffer_flush(dmpi_session_t *s)
{
    flush(s->bsend_buf);
    return MPI_SUCCESS;
}

/* Whether a region numbered below seq is still in b. */
static bool older_in_flight(const bbuf_t *b, uint64_t seq)
{
    for (const region_t *r = b->used; r; r = r->next)
        if (r->seq < seq)
            return true;
    return false;
}

/* hold: the communicator whose buffer b is (it, and so b, stays while the
 * flush waits), or NULL. A session's buffer outlives its flushes: detaching
 * it, and so MPI_Session_finalize, waits until it is empty, which completes
 * them all. */
static int iflush(bbuf_t *b, dmpi_comm_t *hold, dmpi_request_t **out)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_BFLUSH);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    dmpi_req_set_empty_status(r, MPI_SUCCESS);
    if (!b || !b->used) {
        r->done = 1;
        *out = r;
        return MPI_SUCCESS;
    }
    flush_t *f = malloc(sizeof *f);
    if (!f) {
        dmpi_req_free(r);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a buffer flush");
    }
    if (hold) {
        r->comm = hold;
        dmpi_req_hold_comm(r);
    }
    *f = (flush_t){b->flushes, r, b->next_seq};
    b->flushes = f;
    *out = r;
    return MPI_SUCCESS;
}

int dmpi_buffer_iflush(dmpi_comm_t *c, dmpi_request_t **out) { return iflush(*slot(c), c, out); }

int dmpi_session_buffer_iflush(dmpi_session_t *s, dmpi_request_t **out) { return iflush(s->bsend_buf, NULL, out); }

/* A region left b: completes the flushes that waited for it. */
static void settle_flushes(bbuf_t *b)
{
    for (flush_t **link = &b->flushes; *link;) {
        flush_t *f = *link;
        if (older_in_flight(b, f->seq)) {
            link = &f->next;
            continue;
        }
        *link = f->next;
        dmpi_req_complete(f->req);
        free(f);
    }
}

/* First fit in the program's buffer, keeping address order. */
static region_t *place(bbuf_t *b, size_t need)
{
    char *start = b->base + ((16 - ((uintptr_t)b->base & 15)) & 15);
    char *end = b->base + b->cap;
    char *cursor = start;
    region_t **link = &b->used;
    for (region_t *r = b->used; r; link = &r->next, r = r->next) {
        if ((size_t)((char *)r - cursor) >= need)
            break;
        cursor = (char *)r + r->size;
    }
    if (cursor > end || (size_t)(end - cursor) < need)
        return NULL;
    region_t *n = (region_t *)cursor;
    n->size = need;
    n->next = *link;
    *link = n;
    return n;
}

static region_t *alloc_region(bbuf_t *b, size_t bytes)
{
    size_t need = ROUND16(sizeof(region_t) + bytes);
    region_t *r = NULL;
    if (b->automatic) {
        if ((r = aligned_alloc(16, need))) {
            r->size = need;
            r->next = b->used;
            b->used = r;
        }
    } else {
        r = place(b, need);
        /* Space held by messages still in flight frees as they complete. */
        for (int tries = 0; !r && b->used && tries < 10000; tries++) {
            dmpi_progress();
            r = place(b, need);
        }
    }
    if (r) {
        r->owner = b;
        r->seq = b->next_seq++;
        in_flight++;
    }
    return r;
}

void dmpi_bsend_release(void *region)
{
    region_t *r = region;
    bbuf_t *b = r->owner;
    for (region_t **link = &b->used; *link; link = &(*link)->next)
        if (*link == r) {
            *link = r->next;
            break;
        }
    in_flight--;
    if (b->automatic)
        free(r);
    if (b->flushes)
        settle_flushes(b);
}

int dmpi_bsend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    size_t bytes = (size_t)count * dt->size;
    const dmpi_session_t *ses = c->obj->session;
    bbuf_t *b = c->obj->bsend_buf ? c->obj->bsend_buf : ses && ses->bsend_buf ? ses->bsend_buf : proc_buf;
    region_t *r = b ? alloc_region(b, bytes) : NULL;
    if (!r && b && b->automatic)
        return dmpi_err(MPI_ERR_NO_MEM, "buffered send of %zu bytes: out of memory for its automatic buffer", bytes);
    if (!r)
        return dmpi_err(MPI_ERR_BUFFER,
                        "buffered send of %zu bytes does not fit in the %s buffer (%zu bytes%s); "
                        "attach a larger one, counting MPI_BSEND_OVERHEAD per message",
                        bytes, b == proc_buf ? "attached" : b == c->obj->bsend_buf ? "communicator's" : "session's",
                        b ? b->cap : 0, b ? "" : ": none attached");
    dmpi_dtype_pack(dt, (size_t)count, buf, r->data);
    dmpi_request_t *s = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!s) {
        dmpi_bsend_release(r);
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    }
    dmpi_send_fill(s, r->data, 0, dmpi_dtype_get(MPI_BYTE), dest, tag, c, DMPI_MODE_STANDARD);
    s->bsend_region = r;         /* released, and s freed, when the send completes */
    s->free_on_done = 1;
    return dmpi_start_send_bytes(s, bytes);
}

int dmpi_bsend_start(dmpi_request_t *p)
{
    int err = dmpi_bsend(p->ubuf, p->ucount, p->dt, p->rank, p->tag, p->comm);
    p->st_error = MPI_SUCCESS;
    dmpi_req_complete(p);        /* complete once the data sits in the buffer */
    return err;
}

static bool nothing_in_flight(void *arg)
{
    (void)arg;
    return in_flight == 0;
}

void dmpi_bsend_finalize(void)
{
    if (in_flight)
        dmpi_progress_until(nothing_in_flight, NULL);
}
