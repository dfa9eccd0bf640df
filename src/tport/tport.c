/* Transport set-up and the hand-off from transports to the matching layer. */
#include "tport/tport.h"
#include "tport/shm/shm.h"
#include <stdlib.h>
#include <string.h>

const dmpi_tport_t **dmpi_tport_of;

int dmpi_tport_init(void)
{
    dmpi_tport_of = calloc((size_t)dmpi_world.size, sizeof *dmpi_tport_of);
    if (!dmpi_tport_of)
        return -1;
    for (int w = 0; w < dmpi_world.size; w++) {
        if (w == dmpi_world.rank)
            dmpi_tport_of[w] = &dmpi_tport_self;
        else if (dmpi_world.local_of_world[w] >= 0)
            dmpi_tport_of[w] = &dmpi_tport_shm;
    }
    return dmpi_shm_init();
}

int dmpi_tport_finalize(void)
{
    dmpi_shm_finalize();
    free(dmpi_tport_of);
    dmpi_tport_of = NULL;
    return 0;
}

int dmpi_tport_progress(void)
{
    return dmpi_shm_progress();
}

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
    if (r->offset >= r->tx_limit)
        dmpi_req_complete(r);
}

void dmpi_recv_fill(dmpi_request_t *r, size_t off, const void *data, size_t n)
{
    if (off < r->bytes && n)
        dmpi_req_put(r, off, data, n <= r->bytes - off ? n : r->bytes - off);
    r->offset += n;
    if (r->offset >= r->tx_limit)
        dmpi_req_complete(r);
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

/* An unexpected message: a heap copy of the header fields in h, with room
 * for `bytes` of data, queued in arrival order. */
static dmpi_msg_t *queue_unexpected(dmpi_matchq_t *q, const dmpi_msg_t *h, size_t bytes)
{
    dmpi_msg_t *m = dmpi_msg_alloc(bytes);
    char *data = m->data;
    *m = *h;
    m->data = data;
    dmpi_mq_add_unexp(q, m);
    return m;
}

dmpi_request_t *dmpi_deliver_eager(uint32_t ctx, int src, int tag, int peer, size_t len,
                                   const void *data, size_t have, bool sync, uint64_t cookie,
                                   dmpi_msg_t **um)
{
    dmpi_matchq_t *q = dmpi_mq(ctx);
    dmpi_request_t *r = dmpi_mq_take_posted(q, src, tag);
    if (r) {
        matched_status(r, src, tag, len);
        r->offset = 0;
        r->tx_limit = len;
        dmpi_recv_fill(r, 0, data, have);
        /* after the copy: on the self path the ack completes the send,
         * which frees the buffer data points into */
        if (sync)
            dmpi_tport_of[peer]->sync_ack(peer, cookie);
        return r;
    }
    dmpi_msg_t h = {.ctx = ctx, .src = src, .tag = tag, .peer = peer, .len = len, .proto = DMPI_MSG_EAGER,
                    .sync = sync, .cookie = cookie, .arrived = have};
    dmpi_msg_t *m = queue_unexpected(q, &h, len);
    if (have)
        memcpy(m->data, data, have);
    *um = m;
    return NULL;
}

void dmpi_deliver_rndv(uint32_t ctx, int src, int tag, int peer, size_t len,
                       uint64_t cookie, uint64_t addr, uint64_t layout, unsigned tflags)
{
    dmpi_matchq_t *q = dmpi_mq(ctx);
    dmpi_request_t *r = dmpi_mq_take_posted(q, src, tag);
    dmpi_msg_t m = {.ctx = ctx, .src = src, .tag = tag, .peer = peer, .len = len,
                    .proto = DMPI_MSG_RNDV, .tflags = (uint8_t)tflags, .cookie = cookie, .addr = addr,
                    .layout = layout};
    if (!r) {
        queue_unexpected(q, &m, 0);
        return;
    }
    matched_status(r, src, tag, len);
    dmpi_tport_of[peer]->rndv_matched(r, &m);
}

void dmpi_recv_from_msg(dmpi_request_t *r, dmpi_msg_t *m)
{
    matched_status(r, m->src, m->tag, m->len);
    if (m->proto == DMPI_MSG_RNDV) {
        dmpi_tport_of[m->peer]->rndv_matched(r, m);
        dmpi_msg_free(m);
        return;
    }
    if (m->sync)
        dmpi_tport_of[m->peer]->sync_ack(m->peer, m->cookie);
    if (m->arrived < m->len) {
        m->waiter = r;              /* the rest is still on its way */
        return;
    }
    finish_from_msg(r, m);
}
