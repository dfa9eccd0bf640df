/* Shared-memory protocols: eager through the receiver's queue (in pieces
 * when large), rendezvous with either a single copy by the receiver (cma,
 * or a plain copy out of its mapping of the sender's MPI_Alloc_mem block)
 * or a pipelined copy through the queue, and the control messages they
 * need. Thresholds and their measurements: docs/protocols.md. */
#include "tport/shm/shm.h"
#include "node/cma.h"
#include "node/node.h"
#include "node/peer_maps.h"
#include "node/segment.h"
#include "node/shareable.h"
#include "p2p/deliver.h"
#include "core/params.h"
#include "core/pvar.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern const dmpi_tport_t dmpi_tport_shm;
static shm_peer_t *peers;         /* indexed by local rank */

/* A control message: kind, the cookie of whoever acts on it, a length and
 * up to three 64-bit arguments (they fill the header's cache line). */
struct shm_ctl_item {
    shm_ctl_item_t *next;
    unsigned kind;
    uint64_t cookie, len, arg[3];
};
static_assert(SHM_HDR_BYTES + 3 * sizeof(uint64_t) == SHM_CELL, "control messages are one cache line");

/* What we poll while we have no queue (alone on the node, or finalized):
 * always empty, so that the poll needs no test of its own. */
static struct {
    shm_queue_ctl_t ctl;
    char cells[SHM_CELL];
} no_queue;
#define NO_QUEUE {no_queue.cells, &no_queue.ctl, SHM_CELL, 0, (uint64_t)SHM_TAG_EVEN << 8}

static struct {
    shm_rx_t rx;                 /* our inbound queue, shared by every local sender */
    size_t queues_at;            /* offset of the queues in the node segment */
    int nlocal, me;
    uint64_t queue_size;
    uint32_t frag_payload;       /* largest payload of one queue message */
    int npending;                /* peers with queued sends or control messages */
    size_t mapped_min;           /* smallest send named by its shareable block (SIZE_MAX: none) */
} S = {.rx = NO_QUEUE, .mapped_min = SIZE_MAX};

static inline shm_peer_t *peer_of_world(int world)
{
    return &peers[dmpi_world.local_of_world[world]];
}

static inline int local_of(const shm_peer_t *p) { return (int)(p - peers); }
static inline pid_t pid_of(const shm_peer_t *p) { return dmpi_node_peers[local_of(p)].pid; }
static inline bool cma_ok(const shm_peer_t *p) { return dmpi_node_peers[local_of(p)].cma_ok; }
static inline bool map_ok(const shm_peer_t *p)
{
    return cma_ok(p) && !dmpi_node_peers[local_of(p)].map_failed;
}

static inline uint32_t min_frag(size_t left)
{
    return left < S.frag_payload ? (uint32_t)left : S.frag_payload;
}

/* ---- sending ----------------------------------------------------------- */

static bool try_ctl(shm_peer_t *p, const shm_ctl_item_t *c)
{
    shm_hdr_t *h = shm_tx_reserve(&p->tx, sizeof c->arg);
    if (!h)
        return false;
    h->cookie = c->cookie;
    h->len = c->len;
    memcpy((char *)h + SHM_HDR_BYTES, c->arg, sizeof c->arg);
    shm_tx_publish(&p->tx, h, c->kind, 0, sizeof c->arg);
    return true;
}

static void send_ctl3(shm_peer_t *p, unsigned kind, uint64_t cookie, uint64_t len, uint64_t arg0, uint64_t arg1,
                      uint64_t arg2)
{
    shm_ctl_item_t c = {NULL, kind, cookie, len, {arg0, arg1, arg2}};
    if (!p->cq_head && try_ctl(p, &c))
        return;
    shm_ctl_item_t *q = malloc(sizeof *q);
    if (!q)
        dmpi_fatal("out of memory queueing a control message");
    *q = c;
    if (!p->cq_head && !p->sq_head)
        S.npending++;
    if (p->cq_tail)
        p->cq_tail->next = q;
    else
        p->cq_head = q;
    p->cq_tail = q;
}

static void send_ctl(shm_peer_t *p, unsigned kind, uint64_t cookie, uint64_t len, uint64_t arg)
{
    send_ctl3(p, kind, cookie, len, arg, 0, 0);
}

static void enqueue_send(shm_peer_t *p, dmpi_request_t *s)
{
    if (!p->cq_head && !p->sq_head)
        S.npending++;
    s->next = NULL;
    if (p->sq_tail)
        p->sq_tail->next = s;
    else
        p->sq_head = s;
    p->sq_tail = s;
}

/* Eager: the match header rides on the first piece, the rest follow it. */
static bool push_eager(shm_peer_t *p, dmpi_request_t *s)
{
    do {
        uint32_t n = min_frag(s->bytes - s->offset);
        shm_hdr_t *h = shm_tx_reserve(&p->tx, n);
        if (!h)
            return false;
        unsigned kind = SHM_EAGER_CONT, flags = 0;
        if (s->offset == 0) {
            kind = SHM_EAGER;
            flags = s->sync_pending ? SHM_F_SYNC : 0;
            h->m = s->hdr;
            h->len = s->bytes;
            h->cookie = (uint64_t)(uintptr_t)s;
        }
        if (n)
            dmpi_req_take(s, s->offset, (char *)h + SHM_HDR_BYTES, n);
        shm_tx_publish(&p->tx, h, kind, flags, n);
        s->offset += n;
    } while (s->offset < s->bytes);
    return true;
}

/* Average block of a noncontiguous type: single copy pays per block. */
static size_t avg_block(const dmpi_dtype_t *dt)
{
    size_t blocks = 0;
    for (int i = 0; i < dt->nruns; i++)
        blocks += dt->runs[i].count;
    return blocks ? dt->size / blocks : dt->size;
}

/* Whether noncontiguous data of dt is worth moving with iovec lists. */
static bool cma_layout_ok(shm_peer_t *p, const dmpi_dtype_t *dt)
{
    return cma_ok(p) &&
           (dmpi_params.shm_path == DMPI_PATH_CMA || avg_block(dt) >= dmpi_params.cma_block_min);
}

/* Whether s's data (of at least S.mapped_min bytes: the caller's compare)
 * lies in one of our shareable blocks (MPI_Alloc_mem memory), for the
 * receiver to copy straight out of its mapping of the block; ref says
 * where. Ordinary buffers stop at the range test. */
static bool mapped_ref(shm_peer_t *p, const dmpi_request_t *s, dmpi_shareable_ref_t *ref)
{
    return !s->nc && dmpi_shareable_near(s->buf) && map_ok(p) &&
           dmpi_shareable_find(s->buf, s->bytes, ref) && shm_map_loc_fits(ref->fd, ref->offset);
}

/* RTS payload: our buffer's address; for noncontiguous data also the
 * address of our datatype, whose runs the receiver reads to build its
 * iovec list of our buffer. For data in a shareable block: where it lies
 * in the block, and the block's serial number. */
static bool push_rts(shm_peer_t *p, dmpi_request_t *s)
{
    uint64_t arg[2] = {(uint64_t)(uintptr_t)s->buf, 0};
    unsigned flags = cma_ok(p) ? SHM_F_CAN_WRITE : 0;
    dmpi_shareable_ref_t ref;
    if (DMPI_UNLIKELY(s->bytes >= S.mapped_min) && mapped_ref(p, s, &ref)) {
        arg[0] = shm_map_loc(ref.fd, ref.offset);
        arg[1] = ref.serial;
        flags = SHM_F_MAPPED;
    } else if (s->nc) {
        bool layout = cma_layout_ok(p, s->dt);
        arg[0] = (uint64_t)(uintptr_t)s->ubuf;
        arg[1] = (uint64_t)(uintptr_t)s->dt;
        flags = layout ? SHM_F_LAYOUT : SHM_F_PACK_ONLY;
    }
    shm_hdr_t *h = shm_tx_reserve(&p->tx, sizeof arg);
    if (!h)
        return false;
    h->m = s->hdr;
    h->len = s->bytes;
    h->cookie = (uint64_t)(uintptr_t)s;
    memcpy((char *)h + SHM_HDR_BYTES, arg, sizeof arg);
    shm_tx_publish(&p->tx, h, SHM_RTS, flags, sizeof arg);
    return true;
}

/* Rendezvous data the receiver asked for with a CTS. */
static bool push_data(shm_peer_t *p, dmpi_request_t *s)
{
    shm_req_t *q = shm_req(s);
    while (s->offset < q->limit) {
        uint32_t n = min_frag(q->limit - s->offset);
        shm_hdr_t *h = shm_tx_reserve(&p->tx, n);
        if (!h)
            return false;
        h->cookie = q->peer_req;
        h->len = s->offset;
        dmpi_req_take(s, s->offset, (char *)h + SHM_HDR_BYTES, n);
        shm_tx_publish(&p->tx, h, SHM_DATA, 0, n);
        s->offset += n;
    }
    return true;
}

/* Pushes s as far as the queue allows; true when nothing is left to push. */
static bool push_send(shm_peer_t *p, dmpi_request_t *s)
{
    switch (shm_req(s)->stage) {
    case SHM_STAGE_EAGER: return push_eager(p, s);
    case SHM_STAGE_RTS: return push_rts(p, s);
    case SHM_STAGE_DATA: return push_data(p, s);
    }
    return true;
}

/* A rendezvous send completes once its data is out and the receiver sent
 * every final message (FIN, or a CTS for data to go through the queue). */
static void maybe_complete_rndv(dmpi_request_t *s)
{
    if (!s->data_pending && shm_req(s)->finals == 0)
        dmpi_req_complete(s);
}

/* What happens once a send has been handed over completely. */
static void after_push(dmpi_request_t *s)
{
    shm_req_t *q = shm_req(s);
    unsigned stage = q->stage;
    q->stage = SHM_STAGE_NONE;
    s->data_pending = 0;
    if (stage == SHM_STAGE_RTS)
        return;                     /* the receiver answers with FIN or CTS */
    if (stage == SHM_STAGE_DATA)
        maybe_complete_rndv(s);
    else if (!s->sync_pending)
        dmpi_req_complete(s);
}

static void push_peer(shm_peer_t *p)
{
    while (p->cq_head && try_ctl(p, p->cq_head)) {
        shm_ctl_item_t *c = p->cq_head;
        if (!(p->cq_head = c->next))
            p->cq_tail = NULL;
        free(c);
    }
    while (p->sq_head && push_send(p, p->sq_head)) {
        dmpi_request_t *s = p->sq_head;
        if (!(p->sq_head = s->next))
            p->sq_tail = NULL;
        s->next = NULL;
        after_push(s);
    }
    if (!p->cq_head && !p->sq_head)
        S.npending--;
}

static void start_send(dmpi_request_t *s, unsigned stage)
{
    shm_peer_t *p = peer_of_world(s->peer);
    shm_req_t *q = shm_req(s);
    s->offset = 0;
    s->data_pending = 1;
    q->stage = (uint8_t)stage;
    q->finals = stage == SHM_STAGE_RTS;
    dmpi_pv_sent(DMPI_PV_SHM, s->bytes);
    if (!p->sq_head && push_send(p, s)) {
        after_push(s);
        return;
    }
    enqueue_send(p, s);
}

static void shm_send_rndv(dmpi_request_t *s);

static void shm_send_eager(dmpi_request_t *s)
{
    dmpi_shareable_ref_t ref;
    if (DMPI_UNLIKELY(s->bytes >= S.mapped_min) && mapped_ref(peer_of_world(s->peer), s, &ref)) {
        shm_send_rndv(s);           /* the receiver copies it: no copy of ours (push_rts finds the block again) */
        return;
    }
    s->sync_pending = s->mode == DMPI_MODE_SYNC;
    start_send(s, SHM_STAGE_EAGER);
}

static void shm_send_rndv(dmpi_request_t *s)
{
    s->sync_pending = 0;            /* a rendezvous is matched before its data moves */
    start_send(s, SHM_STAGE_RTS);
}

/* The direct mode: a small contiguous message written straight into the
 * peer's queue, with no request. False if it must take the queued path. */
static bool shm_send_inline(int local, const dmpi_hdr_t *m, const void *buf, size_t bytes)
{
    shm_peer_t *p = &peers[local];
    if (p->sq_head || (DMPI_UNLIKELY(bytes >= S.mapped_min) && dmpi_shareable_near(buf)))
        return false;               /* the request path looks at the block */
    shm_hdr_t *h = shm_tx_reserve(&p->tx, bytes);
    if (!h)
        return false;
    h->m = *m;
    h->len = bytes;
    dmpi_copy((char *)h + SHM_HDR_BYTES, buf, bytes);
    shm_tx_publish(&p->tx, h, SHM_EAGER, 0, (uint32_t)bytes);
    dmpi_pv_sent(DMPI_PV_SHM, bytes);
    return true;
}

/* ---- receiving --------------------------------------------------------- */

static bool use_cma(shm_peer_t *p, size_t n)
{
    int path = dmpi_params.shm_path;
    return cma_ok(p) && (path == DMPI_PATH_CMA || (path == DMPI_PATH_AUTO && n >= dmpi_params.cma_min));
}

/* A single copy failed (the peer became undumpable, say): this message and
 * the ones after it take the copy path through the queue instead. */
static void cma_failed(shm_peer_t *p, int err)
{
    dmpi_node_cma_failed(local_of(p), err);
    dmpi_pv.cma_fallbacks++;
}

/* Reads n bytes of the sender's buffer at addr into r's buffer at off.
 * Returns 0 or the errno (the caller falls back to the queue). */
static int read_part(shm_peer_t *p, dmpi_request_t *r, size_t off, uint64_t addr, size_t n)
{
    int err = dmpi_cma_read(pid_of(p), r->buf + off, addr, n);
    if (err)
        cma_failed(p, err);
    return err;
}

/* Asks the sender for bytes [from, to) of its message through the queue: a
 * CTS carrying the range, our request and the start. The sender counts it
 * as one of its final messages. */
static void ask_for_data(shm_peer_t *p, dmpi_request_t *r, uint64_t cookie, size_t from, size_t to)
{
    send_ctl3(p, SHM_CTS, cookie, to, (uint64_t)(uintptr_t)r, from, 0);
}

/* Split single copy: the sender writes the second part of the message into
 * our buffer while we read the first part from its buffer, so two cores
 * copy at once. CTS_SPLIT: len = bytes to write, args = our buffer, our
 * request, offset. The sender waits for one final message from us (FIN, or
 * a CTS for what could not be copied), two if it could not write its part.
 * Whatever a failed copy left out comes through the queue, so nothing of
 * the message is lost. */
static bool split_copy(shm_peer_t *p, dmpi_request_t *r, dmpi_msg_t *m, size_t n)
{
    if (!dmpi_params.cma_split_min || n < dmpi_params.cma_split_min || !(m->tflags & SHM_F_CAN_WRITE))
        return false;
    size_t first = (n / 2) & ~(size_t)4095;
    shm_req_t *q = shm_req(r);
    r->offset = 0;
    r->expect = n;
    q->remote_addr = m->addr;
    q->limit = first;
    send_ctl3(p, SHM_CTS_SPLIT, m->cookie, n - first, (uint64_t)(uintptr_t)r->buf, (uint64_t)(uintptr_t)r, first);
    q->split_read_ok = read_part(p, r, 0, m->addr, first) == 0;
    if (q->split_read_ok) {
        send_ctl(p, SHM_FIN, m->cookie, 0, 0);
        dmpi_recv_advance(r, first);
    }
    return true;
}

/* Sender side of the split: write our part, then tell the receiver
 * (WRITTEN: len = bytes written, 0 if we could not; arg = offset). */
static void rx_cts_split(shm_peer_t *p, shm_hdr_t *h, const char *payload)
{
    uint64_t arg[3];
    memcpy(arg, payload, sizeof arg);
    dmpi_request_t *s = (dmpi_request_t *)(uintptr_t)h->cookie;
    uint64_t at = arg[2];
    int err = dmpi_cma_write(pid_of(p), arg[0] + at, s->buf + at, h->len);
    if (err) {
        cma_failed(p, err);
        shm_req(s)->finals = 2;     /* the receiver reads our part, or asks for it */
    }
    send_ctl3(p, SHM_WRITTEN, arg[1], err ? 0 : h->len, at, h->cookie, 0);
}

/* Receiver, end of a split: the sender's part is in, or it could not write
 * it and we read it ourselves. What is still missing (a failed read) is
 * asked for through the queue; the sender gets as many final messages as it
 * waits for. */
static void rx_written(shm_peer_t *p, shm_hdr_t *h, const char *payload)
{
    dmpi_request_t *r = (dmpi_request_t *)(uintptr_t)h->cookie;
    shm_req_t *q = shm_req(r);
    uint64_t arg[2];
    memcpy(arg, payload, sizeof arg);
    size_t first = arg[0], n = r->expect;
    uint64_t cookie = arg[1];
    bool written = h->len != 0, second_ok = written;
    int sent = q->split_read_ok, owed = written ? 1 : 2;
    if (!written)
        second_ok = read_part(p, r, first, q->remote_addr + first, n - first) == 0;
    size_t from = q->split_read_ok ? first : 0, to = second_ok ? first : n;
    if (from < to) {
        ask_for_data(p, r, cookie, from, to);
        sent++;
    }
    while (sent++ < owed)
        send_ctl(p, SHM_FIN, cookie, 0, 0);
    if (second_ok)
        dmpi_recv_advance(r, n - first);
}

/* Single copy when either side is noncontiguous: iovec lists on both
 * sides, the sender's built from its datatype's runs read from its memory. */
static int read_typed(shm_peer_t *p, dmpi_request_t *r, dmpi_msg_t *m, size_t n)
{
    const dmpi_dtype_t *ldt = dmpi_dtype_get(MPI_BYTE), *rdt = ldt;
    void *lbase = r->buf;
    if (r->nc) {
        ldt = r->dt;
        lbase = (void *)r->ubuf;
    }
    dmpi_dtype_t remote;
    dmpi_run_t *runs = NULL;
    int err = 0;
    pid_t pid = pid_of(p);
    if (m->tflags & SHM_F_LAYOUT) {
        err = dmpi_cma_read(pid, &remote, m->layout, sizeof remote);
        if (!err && !(runs = malloc((size_t)remote.nruns * sizeof *runs)))
            err = ENOMEM;
        if (!err)
            err = dmpi_cma_read(pid, runs, (uint64_t)(uintptr_t)remote.runs, (size_t)remote.nruns * sizeof *runs);
        remote.runs = runs;
        rdt = &remote;
    }
    if (!err)
        err = dmpi_cma_read_typed(pid, ldt, lbase, rdt, m->addr, 0, n);
    free(runs);
    return err;
}

/* Whether this match can be moved by single copy at all. */
static bool cma_possible(shm_peer_t *p, dmpi_request_t *r, dmpi_msg_t *m, size_t n)
{
    if (n == 0 || !use_cma(p, n) || (m->tflags & SHM_F_PACK_ONLY))
        return false;
    return !r->nc || cma_layout_ok(p, r->dt);
}

/* The sender's data lies in one of its shareable blocks: copied straight
 * out of our mapping of it (unpacked if our type is noncontiguous), then
 * FIN. Never split with the sender (CTS_SPLIT): its system call costs more
 * than the half copy it saves (docs/protocols.md). A block we cannot map
 * comes through the queue instead, and the sender is told to name no more
 * blocks to us. */
static void read_mapped(shm_peer_t *p, dmpi_request_t *r, dmpi_msg_t *m, size_t n)
{
    const char *src = NULL;
    if (n) {
        uint64_t loc = m->addr;
        src = dmpi_peer_map(local_of(p), m->layout, shm_map_loc_fd(loc), shm_map_loc_off(loc), n);
        if (!src) {
            r->offset = 0;
            r->expect = n;
            send_ctl3(p, SHM_CTS, m->cookie, n, (uint64_t)(uintptr_t)r, 0, SHM_CTS_NO_MAP);
            return;
        }
        dmpi_req_put(r, 0, src, n);
    }
    send_ctl(p, SHM_FIN, m->cookie, 0, 0);
    dmpi_req_complete(r);
}

static void shm_rndv_matched(dmpi_request_t *r, dmpi_msg_t *m)
{
    shm_peer_t *p = peer_of_world(m->peer);
    size_t n = r->st_bytes;             /* what fits: set by the matching layer */
    if (m->tflags & SHM_F_MAPPED) {
        read_mapped(p, r, m, n);
        return;
    }
    bool plain = !r->nc && !(m->tflags & (SHM_F_LAYOUT | SHM_F_PACK_ONLY));
    if (plain && n > 0 && use_cma(p, n) && split_copy(p, r, m, n))
        return;
    if (cma_possible(p, r, m, n)) {
        int err = plain ? dmpi_cma_read(pid_of(p), r->buf, m->addr, n) : read_typed(p, r, m, n);
        if (err == 0)
            n = 0;                      /* all moved */
        else
            cma_failed(p, err);         /* and the queue brings it */
    }
    if (n == 0) {
        send_ctl(p, SHM_FIN, m->cookie, 0, 0);
        dmpi_req_complete(r);
        return;
    }
    r->offset = 0;
    r->expect = n;
    ask_for_data(p, r, m->cookie, 0, n);
}

static void shm_sync_ack(int peer, uint64_t cookie)
{
    send_ctl(peer_of_world(peer), SHM_SYNC_ACK, cookie, 0, 0);
}

static void rx_eager_cont(shm_peer_t *p, const char *payload, uint32_t n)
{
    bool last = p->cont_off + n >= p->cont_len;
    if (p->cont_req)
        dmpi_recv_fill(p->cont_req, p->cont_off, payload, n);
    else
        dmpi_msg_fill(p->cont_msg, payload, n);
    p->cont_off += n;
    if (last) {
        p->cont_req = NULL;
        p->cont_msg = NULL;
    }
}

/* Sender: the receiver asks for bytes [start, len) through the queue
 * (payload: its request, start, and whether it could not map our block). */
static void rx_cts(shm_peer_t *p, shm_hdr_t *h, const char *payload)
{
    uint64_t arg[3];
    memcpy(arg, payload, sizeof arg);
    if (arg[2] & SHM_CTS_NO_MAP)
        dmpi_node_peers[local_of(p)].map_failed = true;
    dmpi_request_t *s = (dmpi_request_t *)(uintptr_t)h->cookie;
    shm_req_t *q = shm_req(s);
    q->peer_req = arg[0];
    q->limit = h->len;
    q->finals--;
    s->offset = arg[1];
    s->data_pending = 1;
    q->stage = SHM_STAGE_DATA;
    enqueue_send(p, s);
}

static void rx_one(shm_peer_t *p, shm_hdr_t *h, uint64_t w)
{
    const char *payload = (const char *)h + SHM_HDR_BYTES;
    uint32_t n = shm_word_bytes(w);
    dmpi_request_t *s;
    switch (shm_word_kind(w)) {
    case SHM_EAGER: {
        dmpi_pv_recvd(DMPI_PV_SHM, h->len);
        dmpi_msg_t *um = NULL;
        dmpi_request_t *r = DMPI_LIKELY(!(shm_word_flags(w) & SHM_F_SYNC))
                                ? dmpi_deliver_eager(&h->m, p->world, h->len, payload, n, &um)
                                : dmpi_deliver_eager_sync(&h->m, p->world, h->len, payload, n, h->cookie, &um);
        if (h->len > n) {
            p->cont_req = r;
            p->cont_msg = um;
            p->cont_off = n;
            p->cont_len = h->len;
        }
        break;
    }
    case SHM_EAGER_CONT:
        rx_eager_cont(p, payload, n);
        break;
    case SHM_RTS: {
        uint64_t rts[2];
        memcpy(rts, payload, sizeof rts);
        dmpi_pv_recvd(DMPI_PV_SHM, h->len);
        dmpi_deliver_rndv(&h->m, p->world, h->len, h->cookie, rts[0], rts[1], shm_word_flags(w));
        break;
    }
    case SHM_CTS_SPLIT:
        rx_cts_split(p, h, payload);
        break;
    case SHM_WRITTEN:
        rx_written(p, h, payload);
        break;
    case SHM_CTS:
        rx_cts(p, h, payload);
        break;
    case SHM_DATA:
        dmpi_recv_fill((dmpi_request_t *)(uintptr_t)h->cookie, h->len, payload, n);
        break;
    case SHM_FIN:
        s = (dmpi_request_t *)(uintptr_t)h->cookie;
        shm_req(s)->finals--;
        maybe_complete_rndv(s);
        break;
    case SHM_SYNC_ACK:
        s = (dmpi_request_t *)(uintptr_t)h->cookie;
        s->sync_pending = 0;
        if (!s->data_pending)
            dmpi_req_complete(s);
        break;
    default:
        dmpi_fatal("corrupt shared-memory message (kind %u) from local rank %d",
                   shm_word_kind(w), local_of(p));
    }
}

static shm_peer_t *sender_of(uint64_t w)
{
    uint32_t src = shm_word_src(w);
    if (DMPI_UNLIKELY(src >= (uint32_t)S.nlocal))
        dmpi_fatal("corrupt shared-memory message (word %#llx): no local rank %u sends to us",
                   (unsigned long long)w, src);
    return &peers[src];
}

/* Everything in our queue, from whichever sender, in the order it was
 * claimed. An empty poll reads one cell, however many ranks the node has. */
static int poll_queue(void)
{
    int did = 0;
    shm_hdr_t *h;
    uint64_t w;
    while (shm_rx_peek(&S.rx, &h, &w)) {
        if (shm_word_kind(w) == SHM_WRAP) {
            shm_rx_wrap(&S.rx);
            continue;
        }
        rx_one(sender_of(w), h, w);
        shm_rx_release(&S.rx, shm_cells_bytes(shm_word_bytes(w)));
        did++;
    }
    return did;
}

static int shm_progress(void)
{
    int did = poll_queue();
    if (S.npending)
        for (int i = 0; i < S.nlocal; i++) {
            shm_peer_t *p = &peers[i];
            if (p->sq_head || p->cq_head) {
                push_peer(p);
                did++;
            }
        }
    return did;
}

static bool shm_quiet(void) { return S.npending == 0; }

/* ---- set-up ------------------------------------------------------------ */

/* One queue per rank, 128 KiB whatever the node's size (DMPI_RING_SIZE
 * overrides), so the node's memory grows linearly with its ranks. */
static uint64_t choose_queue_size(void)
{
    uint64_t r = 4096;
    if (!dmpi_params.ring_size)
        return 128 << 10;
    while (r < dmpi_params.ring_size)
        r <<= 1;
    return r;
}

static shm_queue_ctl_t *queue_of(int local)
{
    return dmpi_node_at(S.queues_at + (size_t)local * shm_queue_stride(S.queue_size));
}

static void setup_peer(int i)
{
    shm_peer_t *p = &peers[i];
    shm_queue_ctl_t *q = queue_of(i);
    p->tx = shm_tx_make(q, S.queue_size, (uint32_t)S.me);
    p->world = dmpi_node_peers[i].world;
}

/* Before the node segment is made: room for every rank's queue. */
static int shm_plan(void)
{
    S.nlocal = dmpi_world.local_size;
    S.me = dmpi_world.local_rank;
    if (S.nlocal < 2)
        return 0;
    if ((unsigned)S.nlocal > SHM_MAX_LOCAL) {
        fprintf(stderr, "dmpi: %d ranks on one node; shared memory serves at most %u\n", S.nlocal, SHM_MAX_LOCAL);
        return -1;
    }
    S.queue_size = choose_queue_size();
    S.queues_at = dmpi_node_reserve(shm_queues_bytes((uint32_t)S.nlocal, S.queue_size));
    return 0;
}

/* Peers map our blocks only where single copy works (the same permission). */
static bool any_cma_peer(void)
{
    for (int i = 0; i < S.nlocal; i++)
        if (i != S.me && dmpi_node_peers[i].cma_ok)
            return true;
    return false;
}

static int shm_init(void)
{
    if (S.nlocal < 2)
        return 0;
    long long inline_max = -1, eager_max = -1;   /* -1: none (every message takes rendezvous) */
    uint64_t frag = dmpi_params.frag_size ? dmpi_params.frag_size : S.queue_size / 4;
    if (frag > S.queue_size / 2)
        frag = S.queue_size / 2;
    if (frag > SHM_FRAG_MAX)
        frag = SHM_FRAG_MAX;
    frag &= ~(uint64_t)(SHM_CELL - 1);
    if (frag < 2 * SHM_CELL)
        frag = 2 * SHM_CELL;
    S.frag_payload = (uint32_t)(frag - SHM_HDR_BYTES);
    switch (dmpi_params.shm_path) {
    case DMPI_PATH_AUTO:
        eager_max = (long long)dmpi_params.eager_limit;
        inline_max = (long long)(dmpi_params.eager_limit < S.frag_payload ? dmpi_params.eager_limit
                                                                             : S.frag_payload);
        break;
    case DMPI_PATH_EAGER:
        eager_max = LLONG_MAX;
        inline_max = S.frag_payload;
        break;
    default:                        /* copy or cma: every message takes rendezvous */
        break;
    }
    if (!(peers = calloc((size_t)S.nlocal, sizeof *peers)))
        return -1;
    S.rx = shm_rx_make(queue_of(S.me), S.queue_size);
    bool claim = strcmp(dmpi_params.transport, "tcp") != 0;   /* DMPI_TRANSPORT=tcp: every peer by TCP */
    /* Blocks peers can map only where this path reads them; a forced path
     * (DMPI_SHM_PATH) keeps its meaning for every buffer. */
    S.mapped_min = SIZE_MAX;
    if (claim && dmpi_params.shm_path == DMPI_PATH_AUTO && dmpi_params.shm_mapped_min && any_cma_peer() &&
        dmpi_shareable_enable())
        S.mapped_min = dmpi_params.shm_mapped_min;
    for (int i = 0; i < S.nlocal; i++)
        if (i != S.me) {
            setup_peer(i);
            if (claim)
                dmpi_tport_claim(peers[i].world, &dmpi_tport_shm, i, inline_max, eager_max);
        }
    if (S.me == 0)
        dmpi_verbose(1, "shm: %d local ranks, queue %llu bytes per rank, piece %u bytes, eager limit %zu, "
                        "cma from %zu bytes, path %d",
                     S.nlocal, (unsigned long long)S.queue_size, S.frag_payload, dmpi_params.eager_limit,
                     dmpi_params.cma_min, dmpi_params.shm_path);
    if (S.me == 0 && S.mapped_min != SIZE_MAX)
        dmpi_verbose(1, "shm: sends from MPI_Alloc_mem blocks are read from the receiver's mapping from %zu bytes",
                     S.mapped_min);
    return 0;
}

static void shm_finalize(void)
{
    if (!peers)
        return;
    for (int i = 0; i < S.nlocal; i++) {
        shm_ctl_item_t *c = peers[i].cq_head;
        while (c) {
            shm_ctl_item_t *n = c->next;
            free(c);
            c = n;
        }
    }
    free(peers);
    peers = NULL;
    dmpi_peer_maps_finalize();
    S.mapped_min = SIZE_MAX;
    S.npending = 0;
    S.rx = (shm_rx_t)NO_QUEUE;
}

const dmpi_tport_t dmpi_tport_shm = {
    .name = "shm",
    .plan = shm_plan,
    .init = shm_init,
    .finalize = shm_finalize,
    .progress = shm_progress,
    .quiet = shm_quiet,
    .send_inline = shm_send_inline,
    .send_eager = shm_send_eager,
    .send_rndv = shm_send_rndv,
    .rndv_matched = shm_rndv_matched,
    .sync_ack = shm_sync_ack,
};
