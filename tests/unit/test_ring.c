/* The per-receiver shared-memory queue (tport/shm/ring.h; format at the top
 * of tport/shm/shm_wire.h), tested in ordinary memory without a segment:
 *   1. boundaries: every cell but a lap's last (a WRAP's) usable, the largest
 *      message, a message ending exactly at the end (moved behind a WRAP), a
 *      WRAP marker and its room, and
 *      that a piece of half a queue (shm.c's cap) fits an empty queue at any
 *      position;
 *   2. stale words: a header of the previous lap, payload bytes and cells
 *      skipped by a WRAP that carry the next lap's tag are never read as a
 *      header (no one zeroes the next cell before publishing);
 *   3. one thread against a model: random sizes 0..queue/4 and random
 *      producer/consumer bias, so the queue wraps and fills many times; every
 *      header field and payload byte checked, and reserve must return NULL
 *      exactly when the model says the queue is full (and then write nothing);
 *   4. two threads streaming a million messages with random sizes and stalls;
 *   5. three producer threads and one consumer (the queue's real use: every
 *      local rank sends into it): each producer's messages arrive complete
 *      and in its order.
 * 3-5 run also with "hostile" payloads and a fresh queue whose bytes are all
 * lap tags, so a stale word anywhere would look like a header.
 * The consumer side follows shm.c's poll_queue: on SHM_WRAP it releases to
 * the end of the queue. */
#include <stddef.h>
#include "tport/shm/ring.h"
#include "unit.h"
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

/* Payload sources: a pattern (a message starts at an offset that depends on
 * its sequence number) and hostile bytes: 64-byte blocks of one lap tag or
 * the other, so the first word of every cell carries a lap's tag. */
#define PATTERN_LEN (1 << 17)
static unsigned char pattern[PATTERN_LEN];
static unsigned char hostile_buf[PATTERN_LEN + 256];

static const unsigned char *payload_of(uint64_t seq, int hostile)
{
    return hostile ? hostile_buf + seq % 128 : pattern + seq % 251;
}

#define TEST_SRC 7               /* the sender's rank in single-producer tests */

typedef struct ring {
    char *mem;                   /* control lines, then the cells */
    uint64_t size;
    shm_tx_t tx;
    shm_rx_t rx;
} ring_t;

/* A queue as a fresh segment holds it (all zero), or with hostile != 0 every
 * cell byte SHM_TAG_ODD: words that are wrong for lap 0 but right for lap 1. */
static void ring_init(ring_t *g, uint64_t size, int hostile)
{
    g->mem = aligned_alloc(SHM_CELL, sizeof(shm_queue_ctl_t) + size);
    if (!g->mem) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(g->mem, 0, sizeof(shm_queue_ctl_t));
    memset(g->mem + sizeof(shm_queue_ctl_t), hostile ? SHM_TAG_ODD : 0, size);
    g->size = size;
    shm_queue_ctl_t *q = (shm_queue_ctl_t *)g->mem;
    g->tx = shm_tx_make(q, size, TEST_SRC);
    g->rx = shm_rx_make(q, size);
}

static void ring_free(ring_t *g) { free(g->mem); }

static uint64_t word_at(ring_t *g, uint64_t pos)
{
    return atomic_load_explicit(&shm_cell(g->tx.cells, g->size, pos)->word, memory_order_relaxed);
}

static uint64_t head_of(ring_t *g) { return atomic_load(&g->tx.ctl->head); }

/* The word a message published at absolute position pos carries. */
static uint64_t word_for(ring_t *g, uint64_t pos, unsigned kind, unsigned flags, uint32_t n)
{
    return shm_word(kind, shm_lap_tag(pos, g->size), flags, TEST_SRC, n);
}

/* The word at the tail if it is a header of this lap, else 0. */
static uint64_t peek(shm_rx_t *r, shm_hdr_t **h)
{
    uint64_t w;
    return shm_rx_peek(r, h, &w) ? w : 0;
}

/* Consumes one message the way poll_queue does: 0 if the queue is empty,
 * else its word (WRAP markers are released and skipped). */
static uint64_t consume_one(ring_t *g, shm_hdr_t **h)
{
    uint64_t w;
    while ((w = peek(&g->rx, h)) != 0 && shm_word_kind(w) == SHM_WRAP)
        shm_rx_wrap(&g->rx);
    if (w)
        shm_rx_release(&g->rx, shm_cells_bytes(shm_word_bytes(w)));
    return w;
}

/* Reserves and publishes a message with `n` payload bytes; false if no room. */
static bool put_fill(ring_t *g, uint32_t n, unsigned kind, uint64_t cookie, const void *payload)
{
    shm_hdr_t *h = shm_tx_reserve(&g->tx, n);
    if (!h)
        return false;
    h->cookie = cookie;
    if (payload)
        memcpy((char *)h + SHM_HDR_BYTES, payload, n);
    shm_tx_publish(&g->tx, h, kind, 0, n);
    return true;
}
static bool put(ring_t *g, uint32_t n, unsigned kind, uint64_t cookie) { return put_fill(g, n, kind, cookie, NULL); }

/* ---- 1. boundaries ------------------------------------------------------ */

/* One-cell messages: every cell but the last of the lap, which only ever
 * holds a WRAP marker (a message never ends exactly at the end). */
static void test_fill(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0);
    uint64_t n = 0, cells = size / SHM_CELL;
    shm_hdr_t *h;
    while (n <= cells && put(&g, 24, SHM_EAGER, n))
        n++;
    CHECK(n == cells - 1, "queue %llu: %llu one-cell messages fit, want %llu", (unsigned long long)size,
          (unsigned long long)n, (unsigned long long)(cells - 1));
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "a full queue still takes an empty message");
    uint64_t w = consume_one(&g, &h);
    CHECK(w == word_for(&g, 0, SHM_EAGER, 0, 24) && h->cookie == 0, "first message back: word %#llx",
          (unsigned long long)w);
    CHECK(put(&g, 24, SHM_EAGER, n), "no room after one message was consumed");   /* behind a WRAP */
    n++;
    CHECK(word_at(&g, size - SHM_CELL) == word_for(&g, size - SHM_CELL, SHM_WRAP, 0, 0), "no WRAP in the last cell");
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "room for two after one message was consumed");
    uint64_t got = 1, bad = 0;
    while (got <= n && (w = consume_one(&g, &h)) != 0) {
        uint64_t at = got < cells - 1 ? got * SHM_CELL : size;
        if (w != word_for(&g, at, SHM_EAGER, 0, 24) || h->cookie != got)
            NOTE(bad, "message %llu: word %#llx cookie %llu", (unsigned long long)got, (unsigned long long)w,
                 (unsigned long long)h->cookie);
        got++;
    }
    CHECK(bad == 0 && got == n, "drained %llu of %llu messages, %llu wrong", (unsigned long long)got,
          (unsigned long long)n, (unsigned long long)bad);
    CHECK(atomic_load(&g.rx.ctl->consumed) == g.rx.tail && g.rx.tail == head_of(&g),
          "after draining: tail %llu, head %llu", (unsigned long long)g.rx.tail, (unsigned long long)head_of(&g));
    ring_free(&g);
}

static void test_largest_message(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0);
    uint32_t most = (uint32_t)(size - SHM_CELL - SHM_HDR_BYTES);    /* all cells but the lap's last */
    CHECK(shm_tx_reserve(&g.tx, most + 1) == NULL, "queue %llu: %u bytes fit an empty queue", (unsigned long long)size,
          most + 1);
    CHECK(head_of(&g) == 0, "a claim that cannot fit moved the head");
    shm_hdr_t *h = shm_tx_reserve(&g.tx, most);
    CHECK(h == (shm_hdr_t *)g.tx.cells, "the largest message (%u bytes) does not fit an empty queue", most);
    if (!h) {
        ring_free(&g);
        return;
    }
    for (uint32_t i = 0; i < most; i++)
        ((unsigned char *)h)[SHM_HDR_BYTES + i] = (unsigned char)(i * 13 + 1);
    shm_tx_publish(&g.tx, h, SHM_EAGER_CONT, 3, most);
    CHECK(shm_tx_reserve(&g.tx, 0) == NULL, "room beside the largest message");
    shm_hdr_t *r;
    uint64_t w = consume_one(&g, &r);
    uint32_t bad = 0;
    for (uint32_t i = 0; r == h && i < most; i++)
        bad += ((unsigned char *)r)[SHM_HDR_BYTES + i] != (unsigned char)(i * 13 + 1);
    CHECK(w == word_for(&g, 0, SHM_EAGER_CONT, 3, most) && r == h && bad == 0,
          "largest message back: word %#llx, %u bad bytes", (unsigned long long)w, bad);
    CHECK(peek(&g.rx, &r) == 0, "queue not empty after the largest message");
    ring_free(&g);
}

static void test_end_and_wrap(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 1);
    shm_hdr_t *h, *r;
    uint32_t n0 = (uint32_t)(size - 2 * SHM_CELL - SHM_HDR_BYTES);   /* moves the queue to size - 128 */
    CHECK(put(&g, n0, SHM_EAGER, 1) && consume_one(&g, &r) == word_for(&g, 0, SHM_EAGER, 0, n0), "setup message");
    /* A one-cell message at size - 128 ends before the end: it stays. */
    h = shm_tx_reserve(&g.tx, 24);
    CHECK(h == shm_cell(g.tx.cells, size, size - 2 * SHM_CELL), "a message that fits before the end was moved");
    if (!h) {
        ring_free(&g);
        return;
    }
    h->cookie = 77;
    shm_tx_publish(&g.tx, h, SHM_RTS, 1, 24);
    CHECK(consume_one(&g, &r) == word_for(&g, size - 2 * SHM_CELL, SHM_RTS, 1, 24) && r == h && r->cookie == 77,
          "message before the end back");
    /* At size - 64 one would end exactly at the end: moved behind a WRAP. */
    h = shm_tx_reserve(&g.tx, 24);
    CHECK(h == (shm_hdr_t *)g.tx.cells, "a message ending exactly at the end was not moved to the next lap");
    if (!h) {
        ring_free(&g);
        return;
    }
    CHECK(word_at(&g, size - SHM_CELL) == word_for(&g, size - SHM_CELL, SHM_WRAP, 0, 0), "no WRAP marker: %#llx",
          (unsigned long long)word_at(&g, size - SHM_CELL));
    h->cookie = 78;
    shm_tx_publish(&g.tx, h, SHM_CTS, 0, 24);
    CHECK(head_of(&g) == size + SHM_CELL, "head after the wrap: %llu", (unsigned long long)head_of(&g));
    uint64_t w = peek(&g.rx, &r);
    CHECK(shm_word_kind(w) == SHM_WRAP, "consumer does not see the WRAP marker: %#llx", (unsigned long long)w);
    shm_rx_wrap(&g.rx);
    w = peek(&g.rx, &r);
    CHECK(w == word_for(&g, size, SHM_CTS, 0, 24) && r->cookie == 78, "message after the wrap: word %#llx",
          (unsigned long long)w);
    shm_rx_release(&g.rx, shm_cells_bytes(24));
    CHECK(peek(&g.rx, &r) == 0, "queue not empty after the wrapped message");

    /* Lap 1 to size - 128, then three cells: a WRAP of lap 1 takes the last two. */
    CHECK(put(&g, n0 - SHM_CELL, SHM_EAGER, 2) && consume_one(&g, &r) == word_for(&g, size + SHM_CELL, SHM_EAGER, 0,
                                                                                n0 - SHM_CELL),
          "second setup");
    h = shm_tx_reserve(&g.tx, 152);
    CHECK(h == (shm_hdr_t *)g.tx.cells, "a message that does not fit before the end is not at cell 0");
    if (!h) {
        ring_free(&g);
        return;
    }
    CHECK(word_at(&g, size - 2 * SHM_CELL) == word_for(&g, 2 * size - 2 * SHM_CELL, SHM_WRAP, 0, 0),
          "no WRAP marker of lap 1: %#llx", (unsigned long long)word_at(&g, size - 2 * SHM_CELL));
    h->cookie = 79;
    shm_tx_publish(&g.tx, h, SHM_DATA, 0, 152);
    CHECK(consume_one(&g, &r) == word_for(&g, 2 * size, SHM_DATA, 0, 152) && r->cookie == 79, "lap 2 message back");
    CHECK(peek(&g.rx, &r) == 0 && g.rx.tail == 2 * size + 3 * SHM_CELL, "queue not empty after the lap-2 message");

    /* A WRAP needs room too: skip + cells must fit behind the consumer. */
    ring_free(&g);
    ring_init(&g, size, 0);
    CHECK(put(&g, n0, SHM_EAGER, 3), "no room for a message of size - 128 in an empty queue");
    CHECK(shm_tx_reserve(&g.tx, 129 - SHM_HDR_BYTES) == NULL, "three cells fit where two are free");
    CHECK(consume_one(&g, &r) != 0, "third setup");
    uint64_t hd = head_of(&g);
    CHECK(shm_tx_reserve(&g.tx, n0 + SHM_CELL) == NULL && head_of(&g) == hd,
          "a message that must wrap fits although skip + cells > queue");
    h = shm_tx_reserve(&g.tx, (uint32_t)(size - 2 * SHM_CELL - SHM_HDR_BYTES));
    CHECK(h == (shm_hdr_t *)g.tx.cells, "the largest message that can wrap from size - 128 does not fit");
    ring_free(&g);
}

/* shm.c caps a piece at half the queue: such a piece must fit an empty
 * queue wherever its position is (else a sender would wait forever). */
static void test_half_always_fits(uint64_t size)
{
    uint32_t half = (uint32_t)(size / 2 - SHM_HDR_BYTES);
    int bad = 0;
    for (uint64_t pos = 0; pos < size; pos += SHM_CELL) {
        ring_t g;
        ring_init(&g, size, 0);
        shm_hdr_t *r;
        if (pos && !(put(&g, (uint32_t)(pos - SHM_HDR_BYTES), SHM_EAGER, 0) && consume_one(&g, &r)))
            NOTE(bad, "queue %llu: cannot move to %llu", (unsigned long long)size, (unsigned long long)pos);
        else if (!put(&g, half, SHM_EAGER, 1) || shm_word_bytes(consume_one(&g, &r)) != half || r->cookie != 1)
            NOTE(bad, "queue %llu: a %u-byte piece does not fit the empty queue at %llu", (unsigned long long)size,
                 half, (unsigned long long)pos);
        ring_free(&g);
    }
    CHECK(bad == 0, "queue %llu: %d positions where half a queue does not fit an empty queue",
          (unsigned long long)size, bad);
}

/* ---- 2. stale words ------------------------------------------------------ */

/* Moves the queue (empty) to absolute position `to` with one message. */
static void move_to(ring_t *g, uint64_t to)
{
    shm_hdr_t *r;
    uint64_t at = head_of(g);
    CHECK(to - at >= SHM_CELL && put(g, (uint32_t)(to - at - SHM_HDR_BYTES), SHM_EAGER, 0) && consume_one(g, &r) &&
              head_of(g) == to && g->rx.tail == to,
          "cannot move the queue from %llu to %llu", (unsigned long long)at, (unsigned long long)to);
}

/* Nothing is zeroed ahead of the sender: what lies where the next message
 * will start is the previous lap's. */
static void test_stale_words(uint64_t size)
{
    ring_t g;
    ring_init(&g, size, 0);
    shm_hdr_t *r;
    uint64_t cells = size / SHM_CELL, bad = 0;
    /* Lap 0: one-cell messages everywhere, the last behind a WRAP; lap 1
     * then starts over lap 0's headers. */
    for (uint64_t i = 0; i < cells; i++)
        CHECK(put(&g, 8, SHM_EAGER, i) && consume_one(&g, &r) != 0, "lap 0, message %llu", (unsigned long long)i);
    CHECK(g.rx.tail == size + SHM_CELL, "lap 0 ended at %llu", (unsigned long long)g.rx.tail);
    CHECK(word_at(&g, SHM_CELL) == word_for(&g, SHM_CELL, SHM_EAGER, 0, 8), "lap 0's header was changed");
    CHECK(peek(&g.rx, &r) == 0, "lap 1 reads lap 0's header as a message");

    /* Lap 1: a message over cells 1 .. last - 1 whose payload puts lap 0's and
     * lap 2's tag into the first word of every cell. */
    uint32_t n = (uint32_t)(size - 2 * SHM_CELL - SHM_HDR_BYTES);
    unsigned char *evil = malloc(n);
    memset(evil, SHM_TAG_EVEN, n);
    CHECK(put_fill(&g, n, SHM_EAGER, 1, evil), "lap 1: the big message");
    for (uint64_t c = 2; c < cells - 1; c++)
        if (shm_word_tag(word_at(&g, c * SHM_CELL)) != SHM_TAG_EVEN)
            NOTE(bad, "cell %llu does not look like a lap-2 header before the release", (unsigned long long)c);
    CHECK(consume_one(&g, &r) == word_for(&g, size + SHM_CELL, SHM_EAGER, 0, n), "lap 1: the big message back");
    for (uint64_t c = 2; c < cells - 1; c++)
        if (word_at(&g, c * SHM_CELL) != 0)
            NOTE(bad, "cell %llu: the release left %#llx", (unsigned long long)c,
                 (unsigned long long)word_at(&g, c * SHM_CELL));
    CHECK(bad == 0, "%llu payload words carrying the next lap's tag survived the release", (unsigned long long)bad);

    /* Lap 2, before anything is published there: every cell lap 1 has passed reads as empty. */
    shm_rx_t lap2 = g.rx;
    lap2.tag ^= SHM_W_TAG_FLIP;
    for (uint64_t c = 0; c < cells - 1; c++) {
        lap2.tail = 2 * size + c * SHM_CELL;
        if (peek(&lap2, &r) != 0)
            NOTE(bad, "lap 2 position %llu reads a message", (unsigned long long)c);
    }
    CHECK(bad == 0, "%llu stale words read as lap-2 headers", (unsigned long long)bad);

    /* Cells a WRAP skips: lap-2 headers in the last cells must be gone by lap 4. */
    CHECK(put(&g, 8, SHM_EAGER, 2) && consume_one(&g, &r), "to lap 2");
    move_to(&g, 3 * size - 5 * SHM_CELL);
    for (int i = 0; i < 4; i++)
        CHECK(put(&g, 8, SHM_EAGER, 3) && consume_one(&g, &r), "lap 2 header near the end");
    CHECK(put(&g, 8, SHM_EAGER, 4) && consume_one(&g, &r) && g.rx.tail == 3 * size + SHM_CELL, "to lap 3");
    move_to(&g, 4 * size - 5 * SHM_CELL);
    CHECK(put(&g, 6 * SHM_CELL - SHM_HDR_BYTES, SHM_EAGER, 5) && consume_one(&g, &r) &&
              g.rx.tail == 4 * size + 6 * SHM_CELL,
          "lap 3: a message that wraps");
    for (uint64_t c = cells - 4; c < cells; c++)
        CHECK(word_at(&g, c * SHM_CELL) == 0, "cell %llu skipped by the WRAP still holds %#llx",
              (unsigned long long)c, (unsigned long long)word_at(&g, c * SHM_CELL));
    free(evil);
    ring_free(&g);
}

/* ---- 3. one thread against a model ------------------------------------- */

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

static void test_single_thread(uint64_t size, int hostile, uint64_t nmsg, uint64_t seed)
{
    ring_t g;
    ring_init(&g, size, hostile);
    uint64_t cap = size / SHM_CELL + 1, qh = 0, qt = 0;
    sent_t *q = calloc(cap, sizeof *q);
    char *snap = malloc(sizeof(shm_queue_ctl_t) + size);
    uint64_t mhead = 0, mtail = 0;
    uint64_t produced = 0, consumed = 0, fulls = 0, wraps = 0, rng = seed;
    uint64_t bad_null = 0, bad_pos = 0, bad_wrapword = 0, bad_untouched = 0, bad_head = 0;
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
            bias = (int)(unit_rand(&rng) % 101);
        if (produced < nmsg && (int)(unit_rand(&rng) % 100) < bias) {
            uint32_t n = pick_size(&rng, size);
            uint64_t need = shm_cells_bytes(n);
            uint64_t pos = mhead & (size - 1);
            uint64_t skip = pos + need >= size ? size - pos : 0;
            bool fits = mhead + skip + need <= mtail + size;
            bool check_untouched = !fits && fulls % 64 == 0;
            if (check_untouched)
                memcpy(snap, g.mem, sizeof(shm_queue_ctl_t) + size);
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
                if (check_untouched && memcmp(snap, g.mem, sizeof(shm_queue_ctl_t) + size) != 0)
                    NOTE(bad_untouched, "reserve(%u) returned NULL but changed the queue", n);
                if (head_of(&g) != mhead)
                    NOTE(bad_head, "failed reserve moved head to %llu", (unsigned long long)head_of(&g));
                continue;
            }
            uint64_t start = mhead + skip;
            if (h != shm_cell(g.tx.cells, size, start))
                NOTE(bad_pos, "message %llu at %td, want %llu", (unsigned long long)produced,
                     (char *)h - g.tx.cells, (unsigned long long)(start & (size - 1)));
            if (skip && word_at(&g, mhead) != word_for(&g, mhead, SHM_WRAP, 0, 0))
                NOTE(bad_wrapword, "no WRAP marker at %llu", (unsigned long long)pos);
            sent_t *e = &q[qt++ % cap];
            *e = (sent_t){produced, skip ? mhead : UINT64_MAX, start, n, 1 + (unsigned)(produced % 7),
                          (unsigned)(unit_rand(&rng) & 0xff)};
            fill_header(h, produced, n);
            memcpy((char *)h + SHM_HDR_BYTES, payload_of(produced, hostile), n);
            shm_tx_publish(&g.tx, h, e->kind, e->flags, n);
            mhead = start + need;
            if (head_of(&g) != mhead)
                NOTE(bad_head, "head %llu after publishing, want %llu", (unsigned long long)head_of(&g),
                     (unsigned long long)mhead);
            produced++;
            continue;
        }

        shm_hdr_t *h;
        uint64_t w = peek(&g.rx, &h);
        if (qh == qt) {
            if (w != 0)
                NOTE(bad_empty, "empty queue at %llu reads word %#llx", (unsigned long long)mtail,
                     (unsigned long long)w);
            continue;
        }
        sent_t *e = &q[qh % cap];
        if (e->wrap_at != UINT64_MAX) {
            if (mtail != e->wrap_at || w != word_for(&g, mtail, SHM_WRAP, 0, 0)) {
                NOTE(bad_word, "at %llu: word %#llx, want WRAP at %llu", (unsigned long long)mtail,
                     (unsigned long long)w, (unsigned long long)e->wrap_at);
                desync = true;
                break;
            }
            shm_rx_wrap(&g.rx);
            mtail = e->start;
            e->wrap_at = UINT64_MAX;
            wraps++;
        } else {
            uint64_t want = word_for(&g, e->start, e->kind, e->flags, e->n);
            if (mtail != e->start || w != want || h != shm_cell(g.rx.cells, size, e->start)) {
                NOTE(bad_word, "message %llu at %llu: word %#llx, want %#llx", (unsigned long long)e->seq,
                     (unsigned long long)mtail, (unsigned long long)w, (unsigned long long)want);
                desync = true;
                break;
            }
            if (!header_ok(h, e->seq, e->n))
                NOTE(bad_hdr, "message %llu: header fields differ", (unsigned long long)e->seq);
            if (memcmp((char *)h + SHM_HDR_BYTES, payload_of(e->seq, hostile), e->n) != 0)
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
    uint64_t w = peek(&g.rx, &h);
    const char *mode = hostile ? "hostile payloads" : "patterned payloads";
    CHECK(!desync && consumed == nmsg, "queue %llu, %s: stream broke after %llu of %llu messages",
          (unsigned long long)size, mode, (unsigned long long)consumed, (unsigned long long)nmsg);
    CHECK(w == 0, "queue %llu, %s: drained queue reads word %#llx", (unsigned long long)size, mode,
          (unsigned long long)w);
    CHECK(bad_null == 0, "reserve disagreed with the model about room %llu times", (unsigned long long)bad_null);
    CHECK(bad_untouched == 0 && bad_head == 0, "failed reserve changed the queue (%llu) or head (%llu)",
          (unsigned long long)bad_untouched, (unsigned long long)bad_head);
    CHECK(bad_pos == 0 && bad_wrapword == 0, "%llu misplaced messages, %llu missing WRAP markers",
          (unsigned long long)bad_pos, (unsigned long long)bad_wrapword);
    CHECK(bad_word == 0 && bad_hdr == 0 && bad_data == 0, "%llu bad words, %llu bad headers, %llu bad payloads",
          (unsigned long long)bad_word, (unsigned long long)bad_hdr, (unsigned long long)bad_data);
    CHECK(bad_empty == 0, "%llu times an empty queue showed a message", (unsigned long long)bad_empty);
    CHECK(bad_tail == 0, "%llu times tail/consumed went wrong", (unsigned long long)bad_tail);
    CHECK(wraps > nmsg / 200 && fulls > nmsg / 100, "the pattern did not exercise the queue: %llu wraps, %llu fulls",
          (unsigned long long)wraps, (unsigned long long)fulls);
    free(q);
    free(snap);
    ring_free(&g);
}

/* ---- 4 and 5. threads ----------------------------------------------------- */

#define MAX_PRODUCERS 4

typedef struct stream {
    ring_t g;
    int nprod;
    uint64_t nmsg;               /* per producer */
    int hostile;
    _Atomic int stop;            /* a side found an error or timed out: all end */
    _Atomic int timed_out;
    double deadline;
    uint64_t full_waits[MAX_PRODUCERS], empty_polls, wraps, errors;
} stream_t;

typedef struct producer_arg {
    stream_t *s;
    int id;
} producer_arg_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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

/* Both sides derive a message's size and kind from (producer, sequence). */
static uint32_t stream_size(int id, uint64_t seq, uint64_t size)
{
    uint64_t x = (seq + ((uint64_t)id << 40)) * 0x9e3779b97f4a7c15ull;
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

/* A producer has its own sender side (rank id, its cached consumed count)
 * of the one queue. */
static void *producer(void *arg)
{
    producer_arg_t *a = arg;
    stream_t *s = a->s;
    shm_tx_t tx = shm_tx_make(s->g.tx.ctl, s->g.size, (uint32_t)a->id);
    uint64_t rng = 0x1234567 ^ s->nmsg ^ (uint64_t)a->id;
    for (uint64_t seq = 0; seq < s->nmsg; seq++) {
        uint32_t n = stream_size(a->id, seq, s->g.size);
        shm_hdr_t *h;
        uint64_t spins = 0;
        while (!(h = shm_tx_reserve(&tx, n))) {
            s->full_waits[a->id] += spins == 0;
            if (!keep_waiting(s, ++spins))
                return NULL;
        }
        h->m.ctx = (uint32_t)seq;
        h->m.src = a->id;
        h->m.tag = (int32_t)(seq * 7);
        h->m.seq = 0;
        h->len = n;
        h->cookie = seq;
        char *p = (char *)h + SHM_HDR_BYTES;
        if (s->hostile) {
            memcpy(p, payload_of(seq, 1), n);
        } else {
            memcpy(p, pattern + 8 + seq % 251, n);
            memcpy(p, &seq, n < 8 ? n : 8);
        }
        shm_tx_publish(&tx, h, stream_kind(seq), stream_flags(seq), n);
        maybe_stall(&rng);
    }
    return NULL;
}

static const char *check_message(stream_t *s, uint64_t w, const shm_hdr_t *h, int id, uint64_t seq)
{
    uint32_t n = stream_size(id, seq, s->g.size);
    const char *p = (const char *)h + SHM_HDR_BYTES;
    if (shm_word_kind(w) != stream_kind(seq) || shm_word_flags(w) != stream_flags(seq) || shm_word_bytes(w) != n)
        return "word";
    if (h->cookie != seq || h->m.ctx != (uint32_t)seq || h->m.src != id || h->m.tag != (int32_t)(seq * 7) ||
        h->len != n)
        return "header fields";
    if (s->hostile ? memcmp(p, payload_of(seq, 1), n) != 0
                   : (memcmp(p, &seq, n < 8 ? n : 8) != 0 ||
                      (n > 8 && memcmp(p + 8, pattern + 8 + seq % 251 + 8, n - 8) != 0)))
        return "payload";
    return NULL;
}

static void *consumer(void *arg)
{
    stream_t *s = arg;
    uint64_t rng = 0x7654321 ^ s->nmsg, next[MAX_PRODUCERS] = {0}, left = s->nmsg * (uint64_t)s->nprod, spins = 0;
    while (left) {
        shm_hdr_t *h;
        uint64_t w = peek(&s->g.rx, &h);
        if (w == 0) {
            s->empty_polls++;
            if (!keep_waiting(s, ++spins))
                return NULL;
            continue;
        }
        spins = 0;
        if (shm_word_kind(w) == SHM_WRAP) {
            shm_rx_wrap(&s->g.rx);
            s->wraps++;
            continue;
        }
        uint32_t id = shm_word_src(w);
        const char *why = id < (uint32_t)s->nprod ? check_message(s, w, h, (int)id, next[id]) : "sender";
        if (why) {
            fprintf(stderr, "  stream%s: producer %u, message %llu: bad %s (word %#llx, cookie %llu)\n",
                    s->hostile ? " (hostile)" : "", id, (unsigned long long)(id < MAX_PRODUCERS ? next[id] : 0),
                    why, (unsigned long long)w, (unsigned long long)h->cookie);
            s->errors++;
            atomic_store(&s->stop, 1);
            return NULL;
        }
        shm_rx_release(&s->g.rx, shm_cells_bytes(shm_word_bytes(w)));
        next[id]++;
        left--;
        maybe_stall(&rng);
    }
    return NULL;
}

static void test_stream(uint64_t size, int nprod, uint64_t nmsg, int hostile)
{
    stream_t s = {.nprod = nprod, .nmsg = nmsg, .hostile = hostile, .deadline = now() + 20};
    ring_init(&s.g, size, hostile);
    pthread_t tp[MAX_PRODUCERS], tc;
    producer_arg_t args[MAX_PRODUCERS];
    pthread_create(&tc, NULL, consumer, &s);
    for (int i = 0; i < nprod; i++) {
        args[i] = (producer_arg_t){&s, i};
        pthread_create(&tp[i], NULL, producer, &args[i]);
    }
    for (int i = 0; i < nprod; i++)
        pthread_join(tp[i], NULL);
    pthread_join(tc, NULL);
    shm_hdr_t *h;
    uint64_t w = peek(&s.g.rx, &h), full_waits = 0;
    for (int i = 0; i < nprod; i++)
        full_waits += s.full_waits[i];
    const char *mode = hostile ? "hostile payloads" : "sequenced payloads";
    CHECK(s.errors == 0 && !atomic_load(&s.stop), "%d producers x %llu messages (%s, queue %llu): %s", nprod,
          (unsigned long long)nmsg, mode, (unsigned long long)size,
          atomic_load(&s.timed_out) ? "no progress for 20 s" : "consumer found errors");
    CHECK(w == 0, "stream (%s): queue not empty after the last message: word %#llx", mode, (unsigned long long)w);
    CHECK(s.g.rx.tail == head_of(&s.g), "stream (%s): tail %llu != head %llu", mode, (unsigned long long)s.g.rx.tail,
          (unsigned long long)head_of(&s.g));
    CHECK(s.wraps > 100 && full_waits > 0, "stream (%s) did not exercise the queue: %llu wraps, %llu full waits", mode,
          (unsigned long long)s.wraps, (unsigned long long)full_waits);
    printf("stream (%d producers, %s, queue %llu): %llu messages each, %llu wraps, %llu full waits, %llu empty polls\n",
           nprod, mode, (unsigned long long)size, (unsigned long long)nmsg, (unsigned long long)s.wraps,
           (unsigned long long)full_waits, (unsigned long long)s.empty_polls);
    ring_free(&s.g);
}

/* test_ring [MESSAGES [--streams]]: MESSAGES per two-thread stream (default
 * a million); --streams runs only the threaded tests (for ThreadSanitizer). */
int main(int argc, char **argv)
{
    uint64_t nstream = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    bool streams_only = argc > 2 && strcmp(argv[2], "--streams") == 0;
    unit_watchdog(60);
    for (size_t i = 0; i < PATTERN_LEN; i++)
        pattern[i] = (unsigned char)(i * 7 + (i >> 8) * 13 + 1);
    for (size_t i = 0; i < sizeof hostile_buf; i++)
        hostile_buf[i] = (i / SHM_CELL) & 1 ? SHM_TAG_ODD : SHM_TAG_EVEN;

    static const uint64_t sizes[] = {4096, 8192, 65536};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !streams_only; i++) {
        unit_phase = "boundaries";
        test_fill(sizes[i]);
        test_largest_message(sizes[i]);
        test_end_and_wrap(sizes[i]);
        test_half_always_fits(sizes[i]);
        unit_phase = "stale words";
        test_stale_words(sizes[i]);
    }
    if (!streams_only) {
        unit_phase = "single thread against the model";
        test_single_thread(4096, 0, 200000, 1);
        test_single_thread(4096, 1, 200000, 2);
        test_single_thread(65536, 0, 50000, 3);
        test_single_thread(8192, 1, 100000, 4);
    }
    unit_phase = "two-thread stream";
    test_stream(8192, 1, nstream, 0);
    unit_phase = "two-thread stream of hostile payloads";
    test_stream(4096, 1, nstream / 4, 1);
    unit_phase = "three producers, one consumer";
    test_stream(8192, 3, nstream / 3, 0);
    unit_phase = "three producers, one consumer, hostile payloads";
    test_stream(4096, 3, nstream / 6, 1);
    return unit_summary("test_ring");
}
