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
    uint64_t pos;                /* where the reserved message starts (absolute) */
    uint32_t src;                /* our local rank, in every word we publish */
} shm_tx_t;

typedef struct shm_rx {          /* this rank's own queue, as its receiver */
    char *cells;
    shm_queue_ctl_t *ctl;
    uint64_t size;
    uint64_t tail;               /* bytes ever consumed */
} shm_rx_t;

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

/* Claims room for a message with `payload` bytes among all senders (one
 * compare-and-swap; the head's line stays with the sender while it is the
 * only one) and returns its header, word not yet set, or NULL when the queue
 * is full. Publish it with shm_tx_publish at once: the receiver reads in
 * order and waits for it. A message that would cross the end is moved to
 * the start behind a WRAP marker, all in one claim. */
static inline shm_hdr_t *shm_tx_reserve(shm_tx_t *t, uint64_t payload)
{
    uint64_t need = shm_cells_bytes(payload), skip;
    uint64_t head = atomic_load_explicit(&t->ctl->head, memory_order_relaxed);
    do {
        uint64_t pos = head & (t->size - 1);
        skip = pos + need > t->size ? t->size - pos : 0;
        if (!shm_tx_has_room(t, head + skip + need))
            return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&t->ctl->head, &head, head + skip + need,
                                                    memory_order_relaxed, memory_order_relaxed));
    if (skip) {
        atomic_store_explicit(&shm_cell(t->cells, t->size, head)->word,
                              shm_word(SHM_WRAP, shm_lap_tag(head, t->size), 0, t->src, 0), memory_order_release);
        head += skip;
    }
    t->pos = head;
    return shm_cell(t->cells, t->size, head);
}

static inline void shm_tx_publish(shm_tx_t *t, shm_hdr_t *h, unsigned kind, unsigned flags, uint32_t payload)
{
    atomic_store_explicit(&h->word, shm_word(kind, shm_lap_tag(t->pos, t->size), flags, t->src, payload),
                          memory_order_release);
}

/* The word at the tail if it is this lap's header, else 0. */
static inline uint64_t shm_rx_peek(shm_rx_t *r, shm_hdr_t **h)
{
    *h = shm_cell(r->cells, r->size, r->tail);
    uint64_t w = atomic_load_explicit(&(*h)->word, memory_order_acquire);
    return shm_word_tag(w) == shm_lap_tag(r->tail, r->size) ? w : 0;
}

/* Consumes `bytes` at the tail: a message, or the cells a WRAP skips. The
 * first word of each cell after the first (payload bytes, an older header)
 * is zeroed if it carries the next lap's tag, so that lap cannot take it
 * for a header; the words are in cache, just read, and rarely match. */
static inline void shm_rx_release(shm_rx_t *r, uint64_t bytes)
{
    unsigned next = shm_lap_tag(r->tail + r->size, r->size);
    for (uint64_t off = SHM_CELL; off < bytes; off += SHM_CELL) {
        _Atomic uint64_t *w = &shm_cell(r->cells, r->size, r->tail + off)->word;
        if (shm_word_tag(atomic_load_explicit(w, memory_order_relaxed)) == next)
            atomic_store_explicit(w, 0, memory_order_relaxed);
    }
    r->tail += bytes;
    atomic_store_explicit(&r->ctl->consumed, r->tail, memory_order_release);
}

/* What a WRAP at the tail skips: the rest of the lap. */
static inline uint64_t shm_rx_wrap_bytes(const shm_rx_t *r) { return r->size - (r->tail & (r->size - 1)); }

#endif
