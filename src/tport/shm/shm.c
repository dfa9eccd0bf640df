/* Shared-memory protocols: eager through the per-pair ring (in pieces when
 * large), rendezvous with either a single copy by the receiver (cma) or a
 * pipelined copy through the ring, and the control messages they need.
 * Thresholds and their measurements: docs/protocols.md. */
#include "tport/shm/shm.h"
#include "tport/shm/segment.h"
#include "tport/smsc/cma.h"
#include "core/params.h"
#include "pmi/pmi.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

shm_peer_t *dmpi_shm_peers;
long long dmpi_shm_direct_max = -1;

/* A control message: kind, the cookie of whoever acts on it, a length and
 * up to three 64-bit arguments (they fill the header's cache line). */
struct shm_ctl_item {
    shm_ctl_item_t *next;
    unsigned kind;
    uint64_t cookie, len, arg[3];
};
static_assert(SHM_HDR_BYTES + 3 * sizeof(uint64_t) == SHM_CELL, "control messages are one cache line");

static struct {
    shm_seg_hdr_t *seg;
    size_t seg_bytes;
    int nlocal, me;
    uint64_t ring_size;
    uint32_t frag_payload;       /* largest payload of one ring message */
    int npending;                /* peers with queued sends or control messages */
} S;

static inline shm_peer_t *peer_of_world(int world)
{
    return &dmpi_shm_peers[dmpi_world.local_of_world[world]];
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
            h->ctx = s->ctx;
            h->src = s->comm->rank;
            h->tag = s->tag;
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
    return p->cma_ok &&
           (dmpi_params.shm_path == DMPI_PATH_CMA || avg_block(dt) >= dmpi_params.cma_block_min);
}

/* RTS payload: our buffer's address; for noncontiguous data also the
 * address of our datatype, whose runs the receiver reads to build its
 * iovec list of our buffer. */
static bool push_rts(shm_peer_t *p, dmpi_request_t *s)
{
    uint64_t arg[2] = {(uint64_t)(uintptr_t)s->buf, 0};
    unsigned flags = p->cma_ok ? SHM_F_CAN_WRITE : 0;
    if (s->nc) {
        bool layout = cma_layout_ok(p, s->dt);
        arg[0] = (uint64_t)(uintptr_t)s->ubuf;
        arg[1] = (uint64_t)(uintptr_t)s->dt;
        flags = layout ? SHM_F_LAYOUT : SHM_F_PACK_ONLY;
    }
    shm_hdr_t *h = shm_tx_reserve(&p->tx, sizeof arg);
    if (!h)
        return false;
    h->ctx = s->ctx;
    h->src = s->comm->rank;
    h->tag = s->tag;
    h->len = s->bytes;
    h->cookie = (uint64_t)(uintptr_t)s;
    memcpy((char *)h + SHM_HDR_BYTES, arg, sizeof arg);
    shm_tx_publish(&p->tx, h, SHM_RTS, flags, sizeof arg);
    return true;
}

/* Rendezvous data the receiver asked for with a CTS. */
static bool push_data(shm_peer_t *p, dmpi_request_t *s)
{
    while (s->offset < s->tx_limit) {
        uint32_t n = min_frag(s->tx_limit - s->offset);
        shm_hdr_t *h = shm_tx_reserve(&p->tx, n);
        if (!h)
            return false;
        h->cookie = s->peer_cookie;
        h->len = s->offset;
        dmpi_req_take(s, s->offset, (char *)h + SHM_HDR_BYTES, n);
        shm_tx_publish(&p->tx, h, SHM_DATA, 0, n);
        s->offset += n;
    }
    return true;
}

/* Pushes s as far as the ring allows; true when nothing is left to push. */
static bool push_send(shm_peer_t *p, dmpi_request_t *s)
{
    switch (s->tx_stage) {
    case DMPI_TX_EAGER: return push_eager(p, s);
    case DMPI_TX_RTS: return push_rts(p, s);
    case DMPI_TX_DATA: return push_data(p, s);
    }
    return true;
}

/* What happens once a send has been handed over completely. */
static void after_push(dmpi_request_t *s)
{
    unsigned stage = s->tx_stage;
    s->tx_stage = DMPI_TX_NONE;
    if (stage == DMPI_TX_RTS)
        return;                     /* completes on FIN, or after its DATA */
    s->data_pending = 0;
    if (!s->sync_pending)
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

static void shm_send(dmpi_request_t *s)
{
    shm_peer_t *p = peer_of_world(s->peer);
    int path = dmpi_params.shm_path;
    bool eager = path == DMPI_PATH_EAGER || (path == DMPI_PATH_AUTO && s->bytes <= dmpi_params.eager_limit);
    s->offset = 0;
    s->data_pending = 1;
    s->sync_pending = eager && s->mode == DMPI_MODE_SYNC;
    s->tx_stage = eager ? DMPI_TX_EAGER : DMPI_TX_RTS;
    if (!p->sq_head && push_send(p, s)) {
        after_push(s);
        return;
    }
    enqueue_send(p, s);
}

/* ---- receiving --------------------------------------------------------- */

static bool use_cma(shm_peer_t *p, size_t n)
{
    int path = dmpi_params.shm_path;
    return p->cma_ok && (path == DMPI_PATH_CMA || (path == DMPI_PATH_AUTO && n >= dmpi_params.cma_min));
}

static void cma_failed(shm_peer_t *p, int err)
{
    dmpi_verbose(1, "cross-memory copy with local rank %d failed (%s); using the copy path",
                 (int)(p - dmpi_shm_peers), strerror(err));
    p->cma_ok = false;
}

/* Reads n bytes of the sender's buffer at addr into r's buffer at off; a
 * failure becomes r's error. Returns 0 or the errno. */
static int read_part(shm_peer_t *p, dmpi_request_t *r, size_t off, uint64_t addr, size_t n)
{
    int err = dmpi_cma_read(p->pid, r->buf + off, addr, n);
    if (err)
        r->st_error = dmpi_err(MPI_ERR_OTHER, "cross-memory read of %zu bytes from local rank %d failed: %s", n,
                               (int)(p - dmpi_shm_peers), strerror(err));
    return err;
}

/* Split single copy: the sender writes the second part of the message into
 * our buffer while we read the first part from its buffer, so two cores
 * copy at once. We complete when both parts are in (WRITTEN); the sender
 * completes on our FIN, which follows its CTS_SPLIT through the ring.
 * CTS_SPLIT: len = bytes to write, args = our buffer, our request, offset. */
static bool split_copy(shm_peer_t *p, dmpi_request_t *r, dmpi_msg_t *m, size_t n)
{
    if (!dmpi_params.cma_split_min || n < dmpi_params.cma_split_min || !(m->tflags & SHM_F_CAN_WRITE))
        return false;
    size_t first = (n / 2) & ~(size_t)4095;
    r->offset = 0;
    r->tx_limit = n;
    r->peer_cookie = m->addr;           /* in case the sender cannot write after all */
    send_ctl3(p, SHM_CTS_SPLIT, m->cookie, n - first, (uint64_t)(uintptr_t)r->buf, (uint64_t)(uintptr_t)r, first);
    int err = read_part(p, r, 0, m->addr, first);
    if (err)
        cma_failed(p, err);
    send_ctl(p, SHM_FIN, m->cookie, 0, 0);
    dmpi_recv_advance(r, first);
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
    int err = dmpi_cma_write(p->pid, arg[0] + at, s->buf + at, h->len);
    if (err) {
        cma_failed(p, err);
        s->sync_pending = 1;            /* the receiver reads our part too: wait for a second FIN */
    }
    send_ctl3(p, SHM_WRITTEN, arg[1], err ? 0 : h->len, at, h->cookie, 0);
}

/* Receiver: the sender's part is in, or it could not write it: then read
 * it ourselves and send the sender the FIN it still waits for. */
static void rx_written(shm_peer_t *p, shm_hdr_t *h, const char *payload)
{
    dmpi_request_t *r = (dmpi_request_t *)(uintptr_t)h->cookie;
    size_t n = h->len;
    if (n == 0) {
        uint64_t arg[2];
        memcpy(arg, payload, sizeof arg);
        n = r->tx_limit - arg[0];
        read_part(p, r, arg[0], r->peer_cookie + arg[0], n);
        send_ctl(p, SHM_FIN, arg[1], 0, 0);
    }
    dmpi_recv_advance(r, n);
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
    if (m->tflags & SHM_F_LAYOUT) {
        err = dmpi_cma_read(p->pid, &remote, m->layout, sizeof remote);
        if (!err && !(runs = malloc((size_t)remote.nruns * sizeof *runs)))
            err = ENOMEM;
        if (!err)
            err = dmpi_cma_read(p->pid, runs, (uint64_t)(uintptr_t)remote.runs, (size_t)remote.nruns * sizeof *runs);
        remote.runs = runs;
        rdt = &remote;
    }
    if (!err)
        err = dmpi_cma_read_typed(p->pid, ldt, lbase, rdt, m->addr, 0, n);
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

static void shm_rndv_matched(dmpi_request_t *r, dmpi_msg_t *m)
{
    shm_peer_t *p = peer_of_world(m->peer);
    size_t n = r->st_bytes;             /* what fits: set by the matching layer */
    bool plain = !r->nc && !(m->tflags & (SHM_F_LAYOUT | SHM_F_PACK_ONLY));
    if (plain && n > 0 && use_cma(p, n) && split_copy(p, r, m, n))
        return;
    if (cma_possible(p, r, m, n)) {
        int err = plain ? dmpi_cma_read(p->pid, r->buf, m->addr, n) : read_typed(p, r, m, n);
        if (err == 0)
            n = 0;                      /* all moved */
        else
            cma_failed(p, err);
    }
    if (n == 0) {
        send_ctl(p, SHM_FIN, m->cookie, 0, 0);
        dmpi_req_complete(r);
        return;
    }
    r->offset = 0;
    r->tx_limit = n;
    send_ctl(p, SHM_CTS, m->cookie, n, (uint64_t)(uintptr_t)r);
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

static void rx_one(shm_peer_t *p, shm_hdr_t *h, uint64_t w)
{
    const char *payload = (const char *)h + SHM_HDR_BYTES;
    uint32_t n = shm_word_bytes(w);
    dmpi_request_t *s;
    switch (shm_word_kind(w)) {
    case SHM_EAGER: {
        dmpi_msg_t *um = NULL;
        dmpi_request_t *r = dmpi_deliver_eager(h->ctx, h->src, h->tag, p->world, h->len, payload, n,
                                               shm_word_flags(w) & SHM_F_SYNC, h->cookie, &um);
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
        dmpi_deliver_rndv(h->ctx, h->src, h->tag, p->world, h->len, h->cookie, rts[0], rts[1], shm_word_flags(w));
        break;
    }
    case SHM_CTS_SPLIT:
        rx_cts_split(p, h, payload);
        break;
    case SHM_WRITTEN:
        rx_written(p, h, payload);
        break;
    case SHM_CTS:
        s = (dmpi_request_t *)(uintptr_t)h->cookie;
        memcpy(&s->peer_cookie, payload, sizeof s->peer_cookie);
        s->tx_limit = h->len;
        s->offset = 0;
        s->tx_stage = DMPI_TX_DATA;
        enqueue_send(p, s);
        break;
    case SHM_DATA:
        dmpi_recv_fill((dmpi_request_t *)(uintptr_t)h->cookie, h->len, payload, n);
        break;
    case SHM_FIN:
        s = (dmpi_request_t *)(uintptr_t)h->cookie;
        if (s->sync_pending) {          /* a split whose second part the receiver reads */
            s->sync_pending = 0;
            break;
        }
        s->data_pending = 0;
        dmpi_req_complete(s);
        break;
    case SHM_SYNC_ACK:
        s = (dmpi_request_t *)(uintptr_t)h->cookie;
        s->sync_pending = 0;
        if (!s->data_pending)
            dmpi_req_complete(s);
        break;
    default:
        dmpi_fatal("corrupt shared-memory message (kind %u) from local rank %d",
                   shm_word_kind(w), (int)(p - dmpi_shm_peers));
    }
}

static int poll_peer(shm_peer_t *p)
{
    int did = 0;
    shm_hdr_t *h;
    uint64_t w;
    while ((w = shm_rx_peek(&p->rx, &h)) != 0) {
        if (shm_word_kind(w) == SHM_WRAP) {
            shm_rx_release(&p->rx, p->rx.size - (p->rx.tail & (p->rx.size - 1)));
            continue;
        }
        rx_one(p, h, w);
        shm_rx_release(&p->rx, shm_cells_bytes(shm_word_bytes(w)));
        did++;
    }
    return did;
}

int dmpi_shm_progress(void)
{
    int did = 0;
    for (int i = 0; i < S.nlocal; i++)
        if (i != S.me)
            did += poll_peer(&dmpi_shm_peers[i]);
    if (S.npending)
        for (int i = 0; i < S.nlocal; i++) {
            shm_peer_t *p = &dmpi_shm_peers[i];
            if (p->sq_head || p->cq_head) {
                push_peer(p);
                did++;
            }
        }
    return did;
}

bool dmpi_shm_quiet(void) { return S.npending == 0; }

/* ---- set-up ------------------------------------------------------------ */

static uint64_t choose_ring_size(int nlocal)
{
    if (dmpi_params.ring_size) {
        uint64_t r = 4096;
        while (r < dmpi_params.ring_size)
            r <<= 1;
        return r;
    }
    /* 128 KiB per pair, halved until all rings fit in 64 MiB, at least 16 KiB. */
    uint64_t pairs = (uint64_t)nlocal * (uint64_t)(nlocal - 1), r = 128 << 10;
    while (r > (16 << 10) && pairs * r > (64ull << 20))
        r >>= 1;
    return r;
}

static void setup_peer(int i)
{
    shm_peer_t *p = &dmpi_shm_peers[i];
    char *rings = (char *)S.seg + shm_rings_offset((uint32_t)S.nlocal);
    uint64_t stride = shm_ring_stride(S.ring_size);
    char *out = rings + shm_ring_index((uint32_t)S.nlocal, (uint32_t)S.me, (uint32_t)i) * stride;  /* me -> i */
    char *in = rings + shm_ring_index((uint32_t)S.nlocal, (uint32_t)i, (uint32_t)S.me) * stride;   /* i -> me */
    p->tx = (shm_tx_t){out + SHM_CELL, (shm_ring_ctl_t *)out, S.ring_size, 0, 0};
    p->rx = (shm_rx_t){in + SHM_CELL, (shm_ring_ctl_t *)in, S.ring_size, 0};
    for (int w = 0; w < dmpi_world.size; w++)
        if (dmpi_world.local_of_world[w] == i)
            p->world = w;
}

static void verify_cma(void)
{
    shm_rank_ctl_t *ctl = (shm_rank_ctl_t *)(S.seg + 1);
    int failed = 0;
    for (int i = 0; i < S.nlocal; i++) {
        if (i == S.me)
            continue;
        shm_peer_t *p = &dmpi_shm_peers[i];
        p->pid = atomic_load(&ctl[i].pid);
        p->cma_ok = dmpi_params.shm_path != DMPI_PATH_COPY && dmpi_cma_verify(p->pid, ctl[i].probe_addr);
        failed += !p->cma_ok && dmpi_params.shm_path != DMPI_PATH_COPY;
    }
    if (failed)
        dmpi_verbose(1, "cross-memory attach is not permitted to %d local peers; large messages use the "
                        "pipelined copy path (check /proc/sys/kernel/yama/ptrace_scope)", failed);
}

int dmpi_shm_init(void)
{
    S.nlocal = dmpi_world.local_size;
    S.me = dmpi_world.local_rank;
    if (S.nlocal < 2)
        return 0;
    S.ring_size = choose_ring_size(S.nlocal);
    uint64_t frag = dmpi_params.frag_size ? dmpi_params.frag_size : S.ring_size / 4;
    if (frag > S.ring_size / 2)
        frag = S.ring_size / 2;
    frag &= ~(uint64_t)(SHM_CELL - 1);
    if (frag < 2 * SHM_CELL)
        frag = 2 * SHM_CELL;
    S.frag_payload = (uint32_t)(frag - SHM_HDR_BYTES);
    switch (dmpi_params.shm_path) {
    case DMPI_PATH_AUTO:
        dmpi_shm_direct_max = (long long)(dmpi_params.eager_limit < S.frag_payload ? dmpi_params.eager_limit
                                                                                    : S.frag_payload);
        break;
    case DMPI_PATH_EAGER: dmpi_shm_direct_max = S.frag_payload; break;
    default: dmpi_shm_direct_max = -1; break;
    }

    S.seg = dmpi_shm_segment_open(S.me, S.nlocal, S.ring_size, &S.seg_bytes);
    if (!S.seg)
        return -1;
    shm_rank_ctl_t *ctl = (shm_rank_ctl_t *)(S.seg + 1);
    ctl[S.me].probe_addr = dmpi_cma_probe_addr();
    atomic_store(&ctl[S.me].pid, (int32_t)getpid());
    atomic_fetch_add(&S.seg->attached, 1);
    if (dmpi_pmi_barrier() != 0)
        return -1;
    if (S.me == 0)
        dmpi_shm_segment_unlink();      /* every rank has it mapped now */
    if (atomic_load(&S.seg->attached) != (uint32_t)S.nlocal) {
        fprintf(stderr, "dmpi: not every rank on the node mapped the shared memory\n");
        return -1;
    }
    dmpi_shm_peers = calloc((size_t)S.nlocal, sizeof *dmpi_shm_peers);
    if (!dmpi_shm_peers)
        return -1;
    for (int i = 0; i < S.nlocal; i++)
        if (i != S.me)
            setup_peer(i);
    verify_cma();
    if (S.me == 0)
        dmpi_verbose(1, "shm: %d local ranks, ring %llu bytes per pair, piece %u bytes, eager limit %zu, "
                        "cma from %zu bytes, path %d, segment %zu bytes",
                     S.nlocal, (unsigned long long)S.ring_size, S.frag_payload, dmpi_params.eager_limit,
                     dmpi_params.cma_min, dmpi_params.shm_path, S.seg_bytes);
    return 0;
}

void dmpi_shm_finalize(void)
{
    if (!S.seg)
        return;
    for (int i = 0; i < S.nlocal; i++) {
        shm_ctl_item_t *c = dmpi_shm_peers[i].cq_head;
        while (c) {
            shm_ctl_item_t *n = c->next;
            free(c);
            c = n;
        }
    }
    free(dmpi_shm_peers);
    dmpi_shm_peers = NULL;
    dmpi_shm_segment_close(S.seg, S.seg_bytes);
    S.seg = NULL;
    S.npending = 0;
}

const dmpi_tport_t dmpi_tport_shm = {
    .name = "shm",
    .send = shm_send,
    .rndv_matched = shm_rndv_matched,
    .sync_ack = shm_sync_ack,
};
