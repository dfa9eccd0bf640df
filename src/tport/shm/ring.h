/* Per-receiver queues: many senders, one receiver (format in shm_wire.h).
 * Inline: these are the fast path of every message on a node. */
#ifndef DMPI_SHM_RING_H
#define DMPI_SHM_RING_H

#include "tport/shm/shm_wire.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct shm_tx {          /* this rank's side of a peer's queue, as one of its senders */
    char *cells;
    shm_queue_ctl_t *ctl;
    uint64_t size;               /* power of two */
    uint64_t seen_consumed;      /* last value read from ctl->consumed */
    uint64_t src;                /* our local rank, in its place in the word */
    uint64_t word;               /* the reserved message's word so far: our rank and its lap's tag */
} shm_tx_t;

typedef struct shm_rx {          /* this rank's own queue, as its receiver */
    char *cells;
    shm_queue_ctl_t *ctl;
    uint64_t size;
    uint64_t tail;               /* bytes ever consumed */
    uint64_t tag;                /* the tail's lap's tag, in its place in the word */
} shm_rx_t;

static inline shm_tx_t shm_tx_make(shm_queue_ctl_t *q, uint64_t size, uint32_t src)
{
    return (shm_tx_t){(char *)(q + 1), q, size, 0, shm_word(0, 0, 0, src, 0), 0};
}
static inline shm_rx_t shm_rx_make(shm_queue_ctl_t *q, uint64_t size)
{
    return (shm_rx_t){(char *)(q + 1), q, size, 0, shm_word(0, SHM_TAG_EVEN, 0, 0, 0)};
}

static inline shm_hdr_t *shm_cell(char *cells, uint64_t size, uint64_t pos)
{
    return (shm_hdr_t *)(cells + (pos & (size - 1)));
}

/* Whether the receiver has consumed everything a lap before `end`. The
 * cached count is a lower bound, so it is read again only when it says no. */
static inline bool shm_tx_has_room(shm_tx_t *t, uint64_t end)
{
    if (end <= t->seen_consumed + t->size)
        return true;
    t->seen_consumed = atomic_load_explicit(&t->ctl->consumed, memory_order_acquire);
    return end <= t->seen_consumed + t->size;
}

/* The rare claim that reaches the end of the queue: a WRAP marker takes the
 * rest of the lap and the message starts the next one, all in one claim.
 * Even a message that would end exactly at the end is moved, so the tail
 * starts a lap only behind a WRAP (and the receiver turns its tag there). */
static __attribute__((noinline, unused)) shm_hdr_t *shm_tx_reserve_wrap(shm_tx_t *t, uint64_t need)
{
    uint64_t head = atomic_load_explicit(&t->ctl->head, memory_order_relaxed), skip;
    do {
        uint64_t pos = head & (t->size - 1);
        skip = pos + need >= t->size ? t->size - pos : 0;
        if (!shm_tx_has_room(t, head + skip + need))
            return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&t->ctl->head, &head, head + skip + need,
                                                    memory_order_relaxed, memory_order_relaxed));
    if (skip) {
        atomic_store_explicit(&shm_cell(t->cells, t->size, head)->word,
                              t->src | shm_word(SHM_WRAP, shm_lap_tag(head, t->size), 0, 0, 0), memory_order_release);
        head += skip;
    }
    t->word = t->src | shm_word(0, shm_lap_tag(head, t->size), 0, 0, 0);
    return shm_cell(t->cells, t->size, head);
}

/* Claims room for a message with `payload` bytes among all senders (one
 * compare-and-swap; the head's line stays with the sender while it is the
 * only one) and returns its header, word not yet set, or NULL when the queue
 * is full. Publish it with shm_tx_publish at once: the receiver reads in
 * claim order and waits for it. */
static inline shm_hdr_t *shm_tx_reserve(shm_tx_t *t, uint64_t payload)
{
    uint64_t need = shm_cells_bytes(payload);
    uint64_t head = atomic_load_explicit(&t->ctl->head, memory_order_relaxed);
    do {
        if (DMPI_UNLIKELY((head & (t->size - 1)) + need >= t->size))
            return shm_tx_reserve_wrap(t, need);
        if (!shm_tx_has_room(t, head + need))
            return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&t->ctl->head, &head, head + need, memory_order_relaxed,
                                                    memory_order_relaxed));
    t->word = t->src | shm_word(0, shm_lap_tag(head, t->size), 0, 0, 0);
    return shm_cell(t->cells, t->size, head);
}

static inline void shm_tx_publish(shm_tx_t *t, shm_hdr_t *h, unsigned kind, unsigned flags, uint32_t payload)
{
    atomic_store_explicit(&h->word, t->word | shm_word(kind, 0, flags, 0, payload), memory_order_release);
}

/* Whether the tail holds this lap's header: then *h is it, *w its word. */
static inline bool shm_rx_peek(shm_rx_t *r, shm_hdr_t **h, uint64_t *w)
{
    *h = shm_cell(r->cells, r->size, r->tail);
    *w = atomic_load_explicit(&(*h)->word, memory_order_acquire);
    return !((*w ^ r->tag) & SHM_W_TAG);
}

/* Consumes `bytes` at the tail: a message, or (shm_rx_wrap) the cells a WRAP skips. The
 * first word of each cell after the first (payload bytes, an older header)
 * is zeroed if it carries the next lap's tag, so that lap cannot take it
 * for a header; the words are in cache, just read, and rarely match. */
static inline void shm_rx_release(shm_rx_t *r, uint64_t bytes)
{
    for (uint64_t off = SHM_CELL; off < bytes; off += SHM_CELL) {
        _Atomic uint64_t *w = &shm_cell(r->cells, r->size, r->tail + off)->word;
        if (((atomic_load_explicit(w, memory_order_relaxed) ^ r->tag) & SHM_W_TAG) == SHM_W_TAG_FLIP)
            atomic_store_explicit(w, 0, memory_order_relaxed);
    }
    r->tail += bytes;
    atomic_store_explicit(&r->ctl->consumed, r->tail, memory_order_release);
}

/* A WRAP at the tail: skips the rest of the lap, and the next lap's headers
 * carry the other tag. */
static inline void shm_rx_wrap(shm_rx_t *r)
{
    shm_rx_release(r, r->size - (r->tail & (r->size - 1)));
    r->tag ^= SHM_W_TAG_FLIP;
}

#endif
