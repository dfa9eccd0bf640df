/* The per-pair shared-memory ring (tport/shm/ring.h; format at the top of
 * tport/shm/shm_wire.h), tested in ordinary memory without a segment:
 *   1. boundaries: the one-spare-cell rule, the largest message, a message
 *      ending exactly at the end of the ring, a WRAP marker, and that a piece
 *      of half a ring (shm.c's cap) fits an empty ring at any position;
 *   2. one thread against a model: random sizes 0..ring/4 and random
 *      producer/consumer bias, so the ring wraps and fills many times; every
 *      header field and payload byte checked, and reserve must return NULL
 *      exactly when the model says the ring is full (and then write nothing);
 *   3. two threads streaming a million messages with sequence numbers,
 *      random sizes and random stalls on both sides;
 *   4. the same with every payload byte (and every byte of the fresh ring)
 *      0x01, so a stale word where the next message starts would look like a
 *      valid header: the consumer must never see a message nobody published.
 * The consumer side follows shm.c's poll_peer: on SHM_WRAP it releases to the
 * end of the ring. */
#include <stddef.h>                 /* ring.h uses NULL without including it */
#include "tport/shm/ring.h"
#include "unit.h"
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

/* Payload sources: a pattern (a message starts at an offset that depends on
 * its sequence number) and all 0x01 bytes. */
#define PATTERN_LEN (1 << 17)
static unsigned char pattern[PATTERN_LEN];
static unsigned char ones_buf[PATTERN_LEN];

static const unsigned char *payload_of(uint64_t seq, int ones) { return ones ? ones_buf : pattern + seq % 251; }

typedef struct ring {
    char *mem;                   /* control line, then the cells */
    uint64_t size;
    shm_tx_t tx;
    shm_rx_t rx;
} ring_t;

/* A ring as a fresh segment holds it, except that every cell byte but the
 * first word of cell 0 (which must start as zero) is `fill`. */
static void ring_init(ring_t *g, uint64_t size, int fill)
{
    g->mem = aligned_alloc(SHM_CELL, SHM_CELL + size);
    if (!g->mem) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(g->mem, 0, SHM_CELL);
    memset(g->mem + SHM_CELL, fill, size);
    memset(g->mem + SHM_CELL, 0, sizeof(uint64_t));
    g->size = size;
    g->tx = (shm_tx_t){g->mem + SHM_CELL, (shm_ring_ctl_t *)g->mem, size, 0, 0};
    g->rx = (shm_rx_t){g->mem + SHM_CELL, (shm_ring_ctl_t *)g->mem, size, 0};
}

static void ring_free(ring_t *g) { free(g->mem); }

static uint64_t word_at(ring_t *g, uint64_t pos)
{
    return atomic_load_explicit(&shm_cell(g->tx.cells, g->size, pos)->word, memory_order_relaxed);
}

/* Consumes one message the way poll_peer does: 0 if the ring is empty,
 * else its word (WRAP markers are released and skipped). */
static uint64_t consume_one(ring_t *g, shm_hdr_t **h)
{
    uint64_t w;
    while ((w = shm_rx_peek(&g->rx, h)) != 0 && shm_word_kind(w) == SHM_WRAP)
        shm_rx_release(&g->rx, g->size - (g->rx.tail & (g->size - 1)));
    if (w)
        shm_rx_release(&g->rx, shm_cells_bytes(shm_word_bytes(w)));
    return w;
}

/* Reserves and publishes a message with `n` payload bytes; false if no room. */
static bool put(ring_t *g, uint32_t n, unsigned kind, uint64_t cookie)
{
    shm_hdr_t *h = shm_tx_reserve(&g->tx, n);
    if (!h)
        return false;
    h->cookie = cookie;
    shm_tx_publish(&g->tx, h, kind, 0, n);
    return true;
}

/* ---- 1. boundaries ------------------------------------------------------ */

static void test_spare_cell_rule(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0);
    /* One-cell messages (payload <= 24 bytes): all cells but one. */
    uint64_t n = 0;
    shm_hdr_t *h;
    while ((h = shm_tx_reserve(&g.tx, 24)) != NULL && n <= size / SHM_CELL) {
        memset((char *)h + SHM_HDR_BYTES, 0x5a, 24);
        h->cookie = n++;
        shm_tx_publish(&g.tx, h, SHM_EAGER, 0, 24);
    }
    CHECK(n == size / SHM_CELL - 1, "ring %llu: %llu one-cell messages fit, want %llu",
          (unsigned long long)size, (unsigned long long)n, (unsigned long long)(size / SHM_CELL - 1));
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "a full ring still takes an empty message");

    /* Consuming one makes room for exactly one more. */
    uint64_t w = consume_one(&g, &h);
    CHECK(w == shm_word(SHM_EAGER, 0, 24) && h->cookie == 0, "first message back: word %#llx cookie %llu",
          (unsigned long long)w, (unsigned long long)h->cookie);
    h = shm_tx_reserve(&g.tx, 24);
    CHECK(h != NULL, "no room after one message was consumed");
    if (h) {
        h->cookie = n++;
        shm_tx_publish(&g.tx, h, SHM_EAGER, 0, 24);
    }
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "room for two after one message was consumed");
    CHECK(shm_tx_reserve(&g.tx, 25) == NULL, "a two-cell message fits a full ring");

    /* Everything comes back in order, then the ring reads as empty. */
    uint64_t got = 1, bad = 0;
    while (got <= n && (w = consume_one(&g, &h)) != 0) {
        if (w != shm_word(SHM_EAGER, 0, 24) || h->cookie != got)
            NOTE(bad, "message %llu: word %#llx cookie %llu", (unsigned long long)got, (unsigned long long)w,
                 (unsigned long long)h->cookie);
        got++;
    }
    CHECK(bad == 0 && got == n, "drained %llu of %llu messages, %llu wrong", (unsigned long long)got,
          (unsigned long long)n, (unsigned long long)bad);
    CHECK(atomic_load(&g.tx.ctl->consumed) == g.rx.tail && g.rx.tail == g.tx.head,
          "after draining: consumed %llu, tail %llu, head %llu", (unsigned long long)atomic_load(&g.tx.ctl->consumed),
          (unsigned long long)g.rx.tail, (unsigned long long)g.tx.head);
    ring_free(&g);
}

static void test_largest_message(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0);
    uint32_t most = (uint32_t)(size - SHM_CELL - SHM_HDR_BYTES);   /* all cells but the spare one */
    CHECK(shm_tx_reserve(&g.tx, most + 1) == NULL, "ring %llu: a message of %u bytes fits an empty ring",
          (unsigned long long)size, most + 1);
    shm_hdr_t *h = shm_tx_reserve(&g.tx, most);
    CHECK(h == (shm_hdr_t *)g.tx.cells, "the largest message (%u bytes) does not fit an empty ring", most);
    if (!h) {
        ring_free(&g);
        return;
    }
    for (uint32_t i = 0; i < most; i++)
        ((unsigned char *)h)[SHM_HDR_BYTES + i] = (unsigned char)(i * 13 + 1);
    CHECK(word_at(&g, size - SHM_CELL) == 0, "the spare cell after the largest message is not zero");
    shm_tx_publish(&g.tx, h, SHM_EAGER_CONT, 3, most);
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "room beside the largest message");
    shm_hdr_t *r;
    uint64_t w = consume_one(&g, &r);
    uint32_t bad = 0;
    for (uint32_t i = 0; r == h && i < most; i++)
        bad += ((unsigned char *)r)[SHM_HDR_BYTES + i] != (unsigned char)(i * 13 + 1);
    CHECK(w == shm_word(SHM_EAGER_CONT, 3, most) && r == h && bad == 0,
          "largest message back: word %#llx, %u bad bytes", (unsigned long long)w, bad);
    ring_free(&g);
}

/* Positions are absolute byte counts; cells are 64 bytes. */
static void test_end_and_wrap(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0xee);
    shm_hdr_t *h, *r;
    /* Move to size - 128 with one message of size - 128 bytes of cells. */
    uint32_t n0 = (uint32_t)(size - 2 * SHM_CELL - SHM_HDR_BYTES);
    CHECK(put(&g, n0, SHM_EAGER, 1) && consume_one(&g, &r) == shm_word(SHM_EAGER, 0, n0), "setup message");
    CHECK(g.tx.head == size - 2 * SHM_CELL && g.rx.tail == g.tx.head, "setup: head %llu",
          (unsigned long long)g.tx.head);
    if (g.tx.head != size - 2 * SHM_CELL) {
        ring_free(&g);
        return;
    }

    /* A two-cell message (payload 88) ends exactly at the end: no WRAP. */
    h = shm_tx_reserve(&g.tx, 88);
    CHECK(h == shm_cell(g.tx.cells, size, size - 2 * SHM_CELL), "message ending at the end was moved");
    if (!h) {
        ring_free(&g);
        return;
    }
    CHECK(word_at(&g, 0) == 0, "cell 0 (the next start) is not zeroed before publishing");
    h->cookie = 77;
    shm_tx_publish(&g.tx, h, SHM_RTS, 1, 88);
    CHECK(g.tx.head == size, "head after a message ending at the end: %llu", (unsigned long long)g.tx.head);
    uint64_t w = shm_rx_peek(&g.rx, &r);
    CHECK(w == shm_word(SHM_RTS, 1, 88) && r == h && r->cookie == 77, "message ending at the end: word %#llx",
          (unsigned long long)w);
    shm_rx_release(&g.rx, shm_cells_bytes(88));
    CHECK(shm_rx_peek(&g.rx, &r) == 0 && r == (shm_hdr_t *)g.rx.cells, "ring not empty at position 0");

    /* Again to size - 128, then a three-cell message (payload 152): it cannot
     * end at the end, so a WRAP marker takes the last two cells. */
    CHECK(put(&g, n0, SHM_EAGER, 2) && consume_one(&g, &r) == shm_word(SHM_EAGER, 0, n0), "second setup");
    h = shm_tx_reserve(&g.tx, 152);
    CHECK(h == (shm_hdr_t *)g.tx.cells, "a message that does not fit before the end is not at cell 0");
    if (!h) {
        ring_free(&g);
        return;
    }
    CHECK(word_at(&g, size - 2 * SHM_CELL) == shm_word(SHM_WRAP, 0, 0), "no WRAP marker: %#llx",
          (unsigned long long)word_at(&g, size - 2 * SHM_CELL));
    CHECK(word_at(&g, 0) == 0 && word_at(&g, 3 * SHM_CELL) == 0, "cell 0 or the spare cell is not zero");
    h->cookie = 78;
    shm_tx_publish(&g.tx, h, SHM_CTS, 0, 152);
    CHECK(g.tx.head == 2 * size + 3 * SHM_CELL, "head after the wrap: %llu", (unsigned long long)g.tx.head);
    w = shm_rx_peek(&g.rx, &r);
    CHECK(shm_word_kind(w) == SHM_WRAP, "consumer does not see the WRAP marker: %#llx", (unsigned long long)w);
    shm_rx_release(&g.rx, size - (g.rx.tail & (size - 1)));
    w = shm_rx_peek(&g.rx, &r);
    CHECK(w == shm_word(SHM_CTS, 0, 152) && r->cookie == 78, "message after the wrap: word %#llx",
          (unsigned long long)w);
    shm_rx_release(&g.rx, shm_cells_bytes(152));
    CHECK(shm_rx_peek(&g.rx, &r) == 0, "ring not empty after the wrapped message");
    CHECK(atomic_load(&g.rx.ctl->consumed) == g.tx.head, "consumed %llu != head %llu",
          (unsigned long long)atomic_load(&g.rx.ctl->consumed), (unsigned long long)g.tx.head);

    /* A WRAP needs room too: at size - 128 with the consumer far behind,
     * a message that would wrap must not fit where one ending at the end does. */
    ring_free(&g);
    ring_init(&g, size, 0);
    CHECK(put(&g, n0, SHM_EAGER, 3), "no room for a message of size - 128 in an empty ring");
    /* unconsumed: size - 128 in use */
    CHECK(shm_tx_reserve(&g.tx, 25) == NULL, "room for two cells although only two (one the spare) are free");
    CHECK(consume_one(&g, &r) == shm_word(SHM_EAGER, 0, n0), "third setup");   /* empty, head at size - 128 */
    uint64_t hd = g.tx.head;
    h = shm_tx_reserve(&g.tx, n0);
    /* needs size - 128 bytes of cells: does not fit before the end, so it
     * wraps (128 bytes skipped) and needs 128 + size - 128 + 64 > size. */
    CHECK(h == NULL && g.tx.head == hd, "a message that must wrap fits although skip + cells + spare > ring");
    h = shm_tx_reserve(&g.tx, (uint32_t)(size - 3 * SHM_CELL - SHM_HDR_BYTES));
    CHECK(h == (shm_hdr_t *)g.tx.cells, "the largest message that can wrap from size-128 does not fit");
    ring_free(&g);
}

/* shm.c caps a piece at half the ring: such a piece must fit an empty ring
 * wherever the ring's position is (else a sender would wait forever). */
static void test_half_ring_always_fits(uint64_t size)
{
    uint32_t half = (uint32_t)(size / 2 - SHM_HDR_BYTES);
    int bad = 0;
    for (uint64_t pos = 0; pos < size; pos += SHM_CELL) {
        ring_t g;
        ring_init(&g, size, 0);
        shm_hdr_t *r;
        if (pos && !(put(&g, (uint32_t)(pos - SHM_HDR_BYTES), SHM_EAGER, 0) && consume_one(&g, &r)))
            NOTE(bad, "ring %llu: cannot move to %llu", (unsigned long long)size, (unsigned long long)pos);
        else if (!put(&g, half, SHM_EAGER, 1) || consume_one(&g, &r) != shm_word(SHM_EAGER, 0, half) ||
                 r->cookie != 1)
            NOTE(bad, "ring %llu: a %u-byte piece does not fit the empty ring at %llu", (unsigned long long)size,
                 half, (unsigned long long)pos);
        ring_free(&g);
    }
    CHECK(bad == 0, "ring %llu: %d positions where half a ring does not fit an empty ring",
          (unsigned long long)size, bad);
}

/* ---- 2. one thread against a model ------------------------------------- */

typedef struct sent {
    uint64_t seq;
    uint64_t wrap_at;            /* absolute position of a WRAP marker before it, or UINT64_MAX */
    uint64_t start;              /* absolute position of its header */
    uint32_t n;
    unsigned kind, flags;
} sent_t;

static uint32_t pick_size(uint64_t *rng, uint64_t size)
{
    uint64_t r = unit_rand(rng);
    uint32_t max = (uint32_t)(size / 4), n;
    switch (r & 7) {
    case 0: case 1: case 2:
        return (uint32_t)((r >> 8) % (max + 1));
    case 3: case 4:
        return (uint32_t)((r >> 8) % 100);
    case 5: case 6:    /* payloads that fill their last cell exactly, or one byte more or less */
        n = (uint32_t)(24 + SHM_CELL * ((r >> 8) % (max / SHM_CELL)) + (r >> 40) % 3) - 1;
        return n > max ? max : n;
    default:
        return (r >> 8) & 1 ? max : 0;
    }
}

static void fill_header(shm_hdr_t *h, uint64_t seq, uint32_t n)
{
    h->m.ctx = (uint32_t)(seq * 3 + 1);
    h->m.src = (int32_t)(seq ^ 0x5a5a);
    h->m.tag = -(int32_t)(seq % 100000);
    h->m.seq = (uint32_t)(seq >> 3);
    h->len = seq * 1000003u + n;
    h->cookie = ~seq;
}

static int header_ok(const shm_hdr_t *h, uint64_t seq, uint32_t n)
{
    return h->m.ctx == (uint32_t)(seq * 3 + 1) && h->m.src == (int32_t)(seq ^ 0x5a5a) &&
           h->m.tag == -(int32_t)(seq % 100000) && h->m.seq == (uint32_t)(seq >> 3) &&
           h->len == seq * 1000003u + n && h->cookie == ~seq;
}

/* ones: the fresh ring and every payload byte are 0x01. */
static void test_single_thread(uint64_t size, int ones, uint64_t nmsg, uint64_t seed)
{
    ring_t g;
    ring_init(&g, size, ones ? 0x01 : 0);
    uint64_t cap = size / SHM_CELL + 1, qh = 0, qt = 0;
    sent_t *q = calloc(cap, sizeof *q);
    char *snap = malloc(SHM_CELL + size);
    uint64_t mhead = 0, mtail = 0;       /* the model's bytes written and consumed */
    uint64_t produced = 0, consumed = 0, fulls = 0, wraps = 0, rng = seed;
    uint64_t bad_null = 0, bad_pos = 0, bad_zero = 0, bad_wrapword = 0, bad_untouched = 0, bad_head = 0;
    uint64_t bad_word = 0, bad_hdr = 0, bad_data = 0, bad_empty = 0, bad_tail = 0;
    int bias = 50;
    bool desync = false;

    for (uint64_t steps = 0; consumed < nmsg && !desync; steps++) {
        if (steps > 100 * nmsg) {
            NOTE(bad_word, "no progress after %llu steps", (unsigned long long)steps);
            desync = true;
            break;
        }
        if ((unit_rand(&rng) & 511) == 0)
            bias = (int)(unit_rand(&rng) % 101);     /* from only consuming to only producing */
        if (produced < nmsg && (int)(unit_rand(&rng) % 100) < bias) {
            uint32_t n = pick_size(&rng, size);
            uint64_t need = shm_cells_bytes(n);
            uint64_t pos = mhead & (size - 1);
            uint64_t skip = pos + need > size ? size - pos : 0;
            bool fits = mhead + skip + need + SHM_CELL <= mtail + size;
            bool check_untouched = !fits && fulls % 64 == 0;   /* the copy is costly: sample */
            if (check_untouched)
                memcpy(snap, g.mem, SHM_CELL + size);
            shm_hdr_t *h = shm_tx_reserve(&g.tx, n);
            if ((h != NULL) != fits) {
                NOTE(bad_null, "reserve(%u) at head %llu tail %llu: %s, model says %s", n,
                     (unsigned long long)mhead, (unsigned long long)mtail, h ? "room" : "NULL",
                     fits ? "room" : "full");
                if (h) {
                    desync = true;
                    break;
                }
            }
            if (!h) {
                fulls++;
                if (check_untouched && memcmp(snap, g.mem, SHM_CELL + size) != 0)
                    NOTE(bad_untouched, "reserve(%u) returned NULL but changed the ring", n);
                if (g.tx.head != mhead)
                    NOTE(bad_head, "failed reserve moved head to %llu", (unsigned long long)g.tx.head);
                continue;
            }
            uint64_t start = mhead + skip;
            if (h != shm_cell(g.tx.cells, size, start))
                NOTE(bad_pos, "message %llu at %td, want %llu", (unsigned long long)produced,
                     (char *)h - g.tx.cells, (unsigned long long)(start & (size - 1)));
            if (word_at(&g, start + need) != 0)
                NOTE(bad_zero, "cell after message %llu not zero before publishing", (unsigned long long)produced);
            if (skip && word_at(&g, mhead) != shm_word(SHM_WRAP, 0, 0))
                NOTE(bad_wrapword, "no WRAP marker at %llu", (unsigned long long)pos);
            sent_t *e = &q[qt++ % cap];
            *e = (sent_t){produced, skip ? mhead : UINT64_MAX, start, n, 1 + (unsigned)(produced % 7),
                          (unsigned)(unit_rand(&rng) & 0xff)};
            fill_header(h, produced, n);
            memcpy((char *)h + SHM_HDR_BYTES, payload_of(produced, ones), n);
            shm_tx_publish(&g.tx, h, e->kind, e->flags, n);
            mhead = start + need;
            if (g.tx.head != mhead)
                NOTE(bad_head, "head %llu after publishing, want %llu", (unsigned long long)g.tx.head,
                     (unsigned long long)mhead);
            produced++;
            continue;
        }

        shm_hdr_t *h;
        uint64_t w = shm_rx_peek(&g.rx, &h);
        if (qh == qt) {
            if (w != 0)
                NOTE(bad_empty, "empty ring at %llu reads word %#llx", (unsigned long long)mtail,
                     (unsigned long long)w);
            continue;
        }
        sent_t *e = &q[qh % cap];
        if (e->wrap_at != UINT64_MAX) {
            if (mtail != e->wrap_at || w != shm_word(SHM_WRAP, 0, 0)) {
                NOTE(bad_word, "at %llu: word %#llx, want WRAP at %llu", (unsigned long long)mtail,
                     (unsigned long long)w, (unsigned long long)e->wrap_at);
                desync = true;
                break;
            }
            shm_rx_release(&g.rx, size - (g.rx.tail & (size - 1)));
            mtail = e->start;
            e->wrap_at = UINT64_MAX;
            wraps++;
        } else {
            if (mtail != e->start || w != shm_word(e->kind, e->flags, e->n) ||
                h != shm_cell(g.rx.cells, size, e->start)) {
                NOTE(bad_word, "message %llu at %llu: word %#llx, want %#llx", (unsigned long long)e->seq,
                     (unsigned long long)mtail, (unsigned long long)w,
                     (unsigned long long)shm_word(e->kind, e->flags, e->n));
                desync = true;
                break;
            }
            if (!header_ok(h, e->seq, e->n))
                NOTE(bad_hdr, "message %llu: header fields differ", (unsigned long long)e->seq);
            if (memcmp((char *)h + SHM_HDR_BYTES, payload_of(e->seq, ones), e->n) != 0)
                NOTE(bad_data, "message %llu: payload differs", (unsigned long long)e->seq);
            shm_rx_release(&g.rx, shm_cells_bytes(shm_word_bytes(w)));
            mtail += shm_cells_bytes(e->n);
            qh++;
            consumed++;
        }
        if (g.rx.tail != mtail || atomic_load(&g.rx.ctl->consumed) != mtail)
            NOTE(bad_tail, "tail %llu consumed %llu, want %llu", (unsigned long long)g.rx.tail,
                 (unsigned long long)atomic_load(&g.rx.ctl->consumed), (unsigned long long)mtail);
    }
    shm_hdr_t *h;
    uint64_t w = shm_rx_peek(&g.rx, &h);
    const char *mode = ones ? "0x01 payloads" : "patterned payloads";
    CHECK(!desync && consumed == nmsg, "ring %llu, %s: stream broke after %llu of %llu messages",
          (unsigned long long)size, mode, (unsigned long long)consumed, (unsigned long long)nmsg);
    CHECK(w == 0, "ring %llu, %s: drained ring reads word %#llx", (unsigned long long)size, mode,
          (unsigned long long)w);
    CHECK(bad_null == 0, "reserve disagreed with the model about room %llu times", (unsigned long long)bad_null);
    CHECK(bad_untouched == 0 && bad_head == 0, "failed reserve changed the ring (%llu) or head (%llu)",
          (unsigned long long)bad_untouched, (unsigned long long)bad_head);
    CHECK(bad_pos == 0 && bad_wrapword == 0, "%llu misplaced messages, %llu missing WRAP markers",
          (unsigned long long)bad_pos, (unsigned long long)bad_wrapword);
    CHECK(bad_zero == 0, "%llu times the next start cell was not zeroed", (unsigned long long)bad_zero);
    CHECK(bad_word == 0 && bad_hdr == 0 && bad_data == 0, "%llu bad words, %llu bad headers, %llu bad payloads",
          (unsigned long long)bad_word, (unsigned long long)bad_hdr, (unsigned long long)bad_data);
    CHECK(bad_empty == 0, "%llu times an empty ring showed a message", (unsigned long long)bad_empty);
    CHECK(bad_tail == 0, "%llu times tail/consumed went wrong", (unsigned long long)bad_tail);
    CHECK(wraps > nmsg / 200 && fulls > nmsg / 100, "the pattern did not exercise the ring: %llu wraps, %llu fulls",
          (unsigned long long)wraps, (unsigned long long)fulls);
    free(q);
    free(snap);
    ring_free(&g);
}

/* ---- 3 and 4. two threads ----------------------------------------------- */

typedef struct stream {
    ring_t g;
    uint64_t nmsg;
    int ones;
    _Atomic int stop;            /* the consumer found an error: both sides end */
    _Atomic int timed_out;       /* a side waited past the deadline */
    double deadline;
    uint64_t full_waits, empty_polls, wraps, errors;
} stream_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Called now and then while a side waits: false once it should give up. */
static bool keep_waiting(stream_t *s, uint64_t spins)
{
    if (spins % 64 == 0)
        sched_yield();
    if (atomic_load_explicit(&s->stop, memory_order_relaxed))
        return false;
    if (spins % 4096 == 0 && now() > s->deadline) {
        atomic_store(&s->timed_out, 1);
        atomic_store(&s->stop, 1);
        return false;
    }
    return true;
}

/* Both sides derive a message's size and kind from its sequence number. */
static uint32_t stream_size(uint64_t seq, uint64_t size)
{
    uint64_t x = seq * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    uint32_t max = (uint32_t)(size / 4);
    switch (x & 3) {
    case 0: return (uint32_t)((x >> 8) % (max + 1));
    case 1: return (uint32_t)((x >> 8) % 64);
    case 2: return (uint32_t)((x >> 8) % (max < 512 ? max + 1 : 513));
    default: return (uint32_t)((x >> 8) % 25);
    }
}

static unsigned stream_kind(uint64_t seq) { return 1 + (unsigned)(seq % 7); }       /* never WRAP */
static unsigned stream_flags(uint64_t seq) { return (unsigned)((seq >> 3) & 0xff); }

/* Now and then a side pauses: a spin, a yield or a short sleep. */
static void maybe_stall(uint64_t *rng)
{
    uint64_t r = unit_rand(rng);
    if (r & 0xfff)
        return;
    r >>= 12;
    if ((r & 3) == 0) {
        struct timespec ts = {0, (long)(10000 + (r >> 2) % 100000)};
        nanosleep(&ts, NULL);
    } else if ((r & 3) == 1) {
        sched_yield();
    } else {
        for (volatile uint64_t i = 0; i < (r >> 2) % 20000; i++)
            ;
    }
}

static void *producer(void *arg)
{
    stream_t *s = arg;
    uint64_t rng = 0x1234567 ^ s->nmsg;
    for (uint64_t seq = 0; seq < s->nmsg; seq++) {
        uint32_t n = stream_size(seq, s->g.size);
        shm_hdr_t *h;
        uint64_t spins = 0;
        while (!(h = shm_tx_reserve(&s->g.tx, n))) {
            s->full_waits += spins == 0;
            if (!keep_waiting(s, ++spins))
                return NULL;
        }
        h->m.ctx = (uint32_t)seq;
        h->m.src = (int32_t)(seq >> 7);
        h->m.tag = (int32_t)(seq * 7);
        h->m.seq = 0;
        h->len = n;
        h->cookie = seq;
        char *p = (char *)h + SHM_HDR_BYTES;
        if (s->ones) {
            memcpy(p, ones_buf, n);
        } else {
            /* sequence number first, then a pattern that depends on it */
            memcpy(p, pattern + 8 + seq % 251, n);
            memcpy(p, &seq, n < 8 ? n : 8);
        }
        shm_tx_publish(&s->g.tx, h, stream_kind(seq), stream_flags(seq), n);
        maybe_stall(&rng);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    stream_t *s = arg;
    uint64_t rng = 0x7654321 ^ s->nmsg, seq = 0, spins = 0;
    while (seq < s->nmsg) {
        shm_hdr_t *h;
        uint64_t w = shm_rx_peek(&s->g.rx, &h);
        if (w == 0) {
            s->empty_polls++;
            if (!keep_waiting(s, ++spins))
                return NULL;
            continue;
        }
        spins = 0;
        if (shm_word_kind(w) == SHM_WRAP && w == shm_word(SHM_WRAP, 0, 0)) {
            shm_rx_release(&s->g.rx, s->g.size - (s->g.rx.tail & (s->g.size - 1)));
            s->wraps++;
            continue;
        }
        uint32_t n = stream_size(seq, s->g.size);
        const char *p = (const char *)h + SHM_HDR_BYTES;
        const char *why = NULL;
        if (w != shm_word(stream_kind(seq), stream_flags(seq), n))
            why = "word";
        else if (h->cookie != seq || h->m.ctx != (uint32_t)seq || h->m.src != (int32_t)(seq >> 7) ||
                 h->m.tag != (int32_t)(seq * 7) || h->len != n)
            why = "header fields";
        else if (s->ones ? memcmp(p, ones_buf, n) != 0
                         : (memcmp(p, &seq, n < 8 ? n : 8) != 0 ||
                            (n > 8 && memcmp(p + 8, pattern + 8 + seq % 251 + 8, n - 8) != 0)))
            why = "payload";
        if (why) {
            fprintf(stderr, "  stream%s: message %llu: bad %s (word %#llx, want %#llx, cookie %llu)\n",
                    s->ones ? " (0x01)" : "", (unsigned long long)seq, why, (unsigned long long)w,
                    (unsigned long long)shm_word(stream_kind(seq), stream_flags(seq), n),
                    (unsigned long long)h->cookie);
            s->errors++;
            atomic_store(&s->stop, 1);
            return NULL;
        }
        shm_rx_release(&s->g.rx, shm_cells_bytes(n));
        seq++;
        maybe_stall(&rng);
    }
    return NULL;
}

static void test_stream(uint64_t size, uint64_t nmsg, int ones)
{
    stream_t s = {.nmsg = nmsg, .ones = ones, .deadline = now() + 10};
    ring_init(&s.g, size, ones ? 0x01 : 0);
    pthread_t tp, tc;
    pthread_create(&tc, NULL, consumer, &s);
    pthread_create(&tp, NULL, producer, &s);
    pthread_join(tp, NULL);
    pthread_join(tc, NULL);
    shm_hdr_t *h;
    uint64_t w = shm_rx_peek(&s.g.rx, &h);
    const char *mode = ones ? "0x01 payloads" : "sequenced payloads";
    CHECK(s.errors == 0 && !atomic_load(&s.stop), "stream of %llu (%s, ring %llu): %s",
          (unsigned long long)nmsg, mode, (unsigned long long)size,
          atomic_load(&s.timed_out) ? "no progress for 10 s" : "consumer found errors");
    CHECK(w == 0, "stream (%s): ring not empty after the last message: word %#llx", mode, (unsigned long long)w);
    CHECK(s.g.rx.tail == s.g.tx.head, "stream (%s): tail %llu != head %llu", mode,
          (unsigned long long)s.g.rx.tail, (unsigned long long)s.g.tx.head);
    CHECK(s.wraps > 100 && s.full_waits > 0, "stream (%s) did not exercise the ring: %llu wraps, %llu full waits",
          mode, (unsigned long long)s.wraps, (unsigned long long)s.full_waits);
    printf("stream (%s, ring %llu): %llu messages, %llu wraps, %llu full waits, %llu empty polls\n", mode,
           (unsigned long long)size, (unsigned long long)nmsg, (unsigned long long)s.wraps,
           (unsigned long long)s.full_waits, (unsigned long long)s.empty_polls);
    ring_free(&s.g);
}

/* test_ring [MESSAGES [--streams]]: MESSAGES per two-thread stream (default
 * a million); --streams runs only the two-thread tests (for ThreadSanitizer). */
int main(int argc, char **argv)
{
    uint64_t nstream = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    bool streams_only = argc > 2 && strcmp(argv[2], "--streams") == 0;
    unit_watchdog(60);
    for (size_t i = 0; i < PATTERN_LEN; i++) {
        pattern[i] = (unsigned char)(i * 7 + (i >> 8) * 13 + 1);
        ones_buf[i] = 1;
    }

    static const uint64_t sizes[] = {4096, 8192, 65536};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !streams_only; i++) {
        unit_phase = "boundaries";
        test_spare_cell_rule(sizes[i]);
        test_largest_message(sizes[i]);
        test_end_and_wrap(sizes[i]);
        test_half_ring_always_fits(sizes[i]);
    }
    if (!streams_only) {
        unit_phase = "single thread against the model";
        test_single_thread(4096, 0, 200000, 1);
        test_single_thread(4096, 1, 200000, 2);
        test_single_thread(65536, 0, 50000, 3);
        test_single_thread(8192, 1, 100000, 4);
    }
    unit_phase = "two-thread stream";
    test_stream(8192, nstream, 0);
    unit_phase = "two-thread stream of 0x01 payloads";
    test_stream(4096, nstream / 4, 1);
    return unit_summary("test_ring");
}
