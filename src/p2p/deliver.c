/* Delivery from transports into matching (p2p/deliver.h). */
#include "p2p/deliver.h"
#include "p2p/p2p.h"
#include <stdlib.h>
#include <string.h>

static void matched_status(dmpi_request_t *r, int src, int tag, size_t len)
{
    r->st_source = src;
    r->st_tag = tag;
    if (DMPI_LIKELY(len <= r->bytes)) {
        r->st_bytes = len;
        r->st_error = MPI_SUCCESS;
        return;
    }
    r->st_bytes = r->bytes;
    r->st_error = dmpi_err(MPI_ERR_TRUNCATE,
                           "message truncated: %zu bytes arrived from rank %d with tag %d, "
                           "but the receive buffer holds %zu bytes", len, src, tag, r->bytes);
}

void dmpi_recv_advance(dmpi_request_t *r, size_t n)
{
    r->offset += n;
    if (r->offset >= r->expect)
        dmpi_req_complete(r);
}

void dmpi_recv_fill(dmpi_request_t *r, size_t off, const void *data, size_t n)
{
    if (off < r->bytes && n)
        dmpi_req_put(r, off, data, n <= r->bytes - off ? n : r->bytes - off);
    r->offset += n;
    if (r->offset >= r->expect)
        dmpi_req_complete_inline(r);
}

/* The whole of m is here and r matched it: copy out, complete, free m. */
static void finish_from_msg(dmpi_request_t *r, dmpi_msg_t *m)
{
    if (r->st_bytes)
        dmpi_req_put(r, 0, m->data, r->st_bytes);
    dmpi_msg_free(m);
    dmpi_req_complete(r);
}

void dmpi_msg_fill(dmpi_msg_t *m, const void *data, size_t n)
{
    if (n)
        memcpy(m->data + m->arrived, data, n);
    m->arrived += n;
    if (m->arrived == m->len && m->waiter)
        finish_from_msg(m->waiter, m);
}

/* A heap copy of the header fields in h, with room for `bytes` of data. */
static dmpi_msg_t *msg_copy(const dmpi_msg_t *h, size_t bytes)
{
    dmpi_msg_t *m = dmpi_msg_alloc(bytes);
    char *data = m->data;
    *m = *h;
    m->data = data;
    return m;
}

/* An unexpected message, queued in arrival order. */
static dmpi_msg_t *queue_unexpected(dmpi_matchq_t *q, const dmpi_msg_t *h, size_t bytes)
{
    dmpi_msg_t *m = msg_copy(h, bytes);
    dmpi_mq_add_unexp(q, m);
    return m;
}

/* ---- order: sequence numbers per (context id, source) ------------------ */

static uint32_t *seq_slot_grow(dmpi_matchq_t *q, int src)
{
    int n = q->nseq ? q->nseq : 16;
    while (n <= src)
        n *= 2;
    uint32_t *s = realloc(q->seq_in, (size_t)n * sizeof *s);
    if (!s)
        dmpi_fatal("out of memory for the message order of %d ranks", n);
    memset(s + q->nseq, 0, (size_t)(n - q->nseq) * sizeof *s);
    q->seq_in = s;
    q->nseq = n;
    return &s[src];
}

/* True if h is the next message from its source (counted as taken), or
 * unsequenced; false if messages sent before it are still on their way. */
static inline bool in_order(dmpi_matchq_t *q, const dmpi_hdr_t *h)
{
    uint32_t *next = DMPI_LIKELY(h->src < q->nseq) ? &q->seq_in[h->src] : seq_slot_grow(q, h->src);
    if (DMPI_LIKELY(h->seq == *next)) {
        (*next)++;
        return true;
    }
    return h->seq == DMPI_SEQ_NONE;
}

/* A message that arrived early: held, data and all, until its turn. */
static dmpi_msg_t *hold_early(dmpi_matchq_t *q, const dmpi_msg_t *h, size_t bytes)
{
    dmpi_msg_t *m = msg_copy(h, bytes);
    m->prev = NULL;
    m->next = q->early;
    q->early = m;
    return m;
}

/* m's turn has come: to the first matching posted receive, or queued as
 * unexpected. */
static void deliver_held(dmpi_matchq_t *q, dmpi_msg_t *m)
{
    dmpi_request_t *r = dmpi_mq_take_posted(q, m->src, m->tag);
    if (r)
        dmpi_recv_from_msg(r, m);
    else
        dmpi_mq_add_unexp(q, m);
}

/* After a message from src was taken in order: the ones held for it. */
static void release_early(dmpi_matchq_t *q, int src)
{
    for (bool found = true; found && q->early;) {
        found = false;
        for (dmpi_msg_t **pp = &q->early; *pp; pp = &(*pp)->next) {
            dmpi_msg_t *m = *pp;
            if (m->src == src && m->seq == q->seq_in[src]) {
                *pp = m->next;
                m->next = NULL;
                q->seq_in[src]++;
                deliver_held(q, m);
                found = true;
                break;
            }
        }
    }
}

/* ---- arrival ------------------------------------------------------------- */

/* An eager message no receive takes now: buffered, with the `have` bytes
 * that came with it, as unexpected or (early) held for its turn. */
static dmpi_msg_t *buffer_eager(dmpi_matchq_t *q, bool early, const dmpi_hdr_t *h, int peer, size_t len,
                                const void *data, size_t have, bool sync, uint64_t cookie)
{
    dmpi_msg_t m = {.ctx = h->ctx, .src = h->src, .tag = h->tag, .peer = peer, .seq = h->seq, .len = len,
                    .proto = DMPI_MSG_EAGER, .sync = sync, .cookie = cookie, .arrived = have};
    dmpi_msg_t *b = early ? hold_early(q, &m, len) : queue_unexpected(q, &m, len);
    if (have)
        memcpy(b->data, data, have);
    return b;
}

static DMPI_ALWAYS_INLINE dmpi_request_t *eager_arrived(dmpi_matchq_t *q, const dmpi_hdr_t *h, int peer, size_t len,
                                     const void *data, size_t have, bool sync, uint64_t cookie, dmpi_msg_t **um)
{
    dmpi_request_t *r = dmpi_mq_take_posted(q, h->src, h->tag);
    if (r) {
        matched_status(r, h->src, h->tag, len);
        r->offset = 0;
        r->expect = len;
        dmpi_recv_fill(r, 0, data, have);
        /* after the copy: on the self path the ack completes the send,
         * which frees the buffer data points into */
        if (sync)
            dmpi_tport_peers[peer].t->sync_ack(peer, cookie);
        return r;
    }
    *um = buffer_eager(q, false, h, peer, len, data, have, sync, cookie);
    return NULL;
}

static DMPI_ALWAYS_INLINE dmpi_request_t *deliver_eager(const dmpi_hdr_t *h, int peer, size_t len, const void *data,
                                            size_t have, bool sync, uint64_t cookie, dmpi_msg_t **um)
{
    dmpi_matchq_t *q = dmpi_mq(h->ctx);
    if (DMPI_UNLIKELY(!in_order(q, h))) {
        *um = buffer_eager(q, true, h, peer, len, data, have, sync, cookie);
        return NULL;
    }
    dmpi_request_t *r = eager_arrived(q, h, peer, len, data, have, sync, cookie, um);
    if (DMPI_UNLIKELY(q->early != NULL))
        release_early(q, h->src);
    return r;
}

dmpi_request_t *dmpi_deliver_eager(const dmpi_hdr_t *h, int peer, size_t len, const void *data, size_t have,
                                   dmpi_msg_t **um)
{
    return deliver_eager(h, peer, len, data, have, false, 0, um);
}

dmpi_request_t *dmpi_deliver_eager_sync(const dmpi_hdr_t *h, int peer, size_t len, const void *data, size_t have,
                                        uint64_t cookie, dmpi_msg_t **um)
{
    return deliver_eager(h, peer, len, data, have, true, cookie, um);
}

void dmpi_deliver_rndv(const dmpi_hdr_t *h, int peer, size_t len, uint64_t cookie, uint64_t addr,
                       uint64_t layout, unsigned tflags)
{
    dmpi_matchq_t *q = dmpi_mq(h->ctx);
    dmpi_msg_t m = {.ctx = h->ctx, .src = h->src, .tag = h->tag, .peer = peer, .seq = h->seq, .len = len,
                    .proto = DMPI_MSG_RNDV, .tflags = (uint8_t)tflags, .cookie = cookie, .addr = addr,
                    .layout = layout};
    if (!in_order(q, h)) {
        hold_early(q, &m, 0);
        return;
    }
    dmpi_request_t *r = dmpi_mq_take_posted(q, h->src, h->tag);
    if (!r)
        queue_unexpected(q, &m, 0);
    else {
        matched_status(r, h->src, h->tag, len);
        dmpi_tport_peers[peer].t->rndv_matched(r, &m);
    }
    if (q->early)
        release_early(q, h->src);
}

void dmpi_recv_from_msg(dmpi_request_t *r, dmpi_msg_t *m)
{
    matched_status(r, m->src, m->tag, m->len);
    if (m->proto == DMPI_MSG_RNDV) {
        dmpi_tport_peers[m->peer].t->rndv_matched(r, m);
        dmpi_msg_free(m);
        return;
    }
    if (m->sync)
        dmpi_tport_peers[m->peer].t->sync_ack(m->peer, m->cookie);
    if (m->arrived < m->len) {
        m->waiter = r;              /* the rest is still on its way */
        return;
    }
    finish_from_msg(r, m);
}
