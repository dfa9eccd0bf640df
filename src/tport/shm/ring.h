/* Per-pair single-producer single-consumer rings (format in shm_wire.h).
 * Inline: these are the fast path of every message on a node. */
#ifndef DMPI_SHM_RING_H
#define DMPI_SHM_RING_H

#include "tport/shm/shm_wire.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct shm_tx {          /* this rank's side of ring me -> peer */
    char *cells;
    shm_ring_ctl_t *ctl;
    uint64_t size;               /* power of two */
    uint64_t head;               /* bytes ever written */
    uint64_t seen_consumed;      /* last value read from ctl->consumed */
} shm_tx_t;

typedef struct shm_rx {          /* this rank's side of ring peer -> me */
    char *cells;
    shm_ring_ctl_t *ctl;
    uint64_t size;
    uint64_t tail;               /* bytes ever consumed */
} shm_rx_t;

static inline shm_hdr_t *shm_cell(char *cells, uint64_t size, uint64_t pos)
{
    return (shm_hdr_t *)(cells + (pos & (size - 1)));
}

static inline bool shm_tx_has_room(shm_tx_t *t, uint64_t bytes)
{
    if (t->head + bytes + SHM_CELL <= t->seen_consumed + t->size)
        return true;
    t->seen_consumed = atomic_load_explicit(&t->ctl->consumed, memory_order_acquire);
    return t->head + bytes + SHM_CELL <= t->seen_consumed + t->size;
}

/* Room for a message with `payload` bytes: returns its header (word not yet
 * set) or NULL when the ring is full. Publish with shm_tx_publish. */
static inline shm_hdr_t *shm_tx_reserve(shm_tx_t *t, uint64_t payload)
{
    uint64_t need = shm_cells_bytes(payload);
    uint64_t pos = t->head & (t->size - 1);
    uint64_t skip = pos + need > t->size ? t->size - pos : 0;
    if (!shm_tx_has_room(t, skip + need))
        return NULL;
    if (skip) {
        atomic_store_explicit(&shm_cell(t->cells, t->size, 0)->word, 0, memory_order_relaxed);
        atomic_store_explicit(&shm_cell(t->cells, t->size, pos)->word, shm_word(SHM_WRAP, 0, 0),
                              memory_order_release);
        t->head += skip;
    }
    atomic_store_explicit(&shm_cell(t->cells, t->size, t->head + need)->word, 0, memory_order_relaxed);
    return shm_cell(t->cells, t->size, t->head);
}

static inline void shm_tx_publish(shm_tx_t *t, shm_hdr_t *h, unsigned kind, unsigned flags, uint32_t payload)
{
    atomic_store_explicit(&h->word, shm_word(kind, flags, payload), memory_order_release);
    t->head += shm_cells_bytes(payload);
}

static inline uint64_t shm_rx_peek(shm_rx_t *r, shm_hdr_t **h)
{
    *h = shm_cell(r->cells, r->size, r->tail);
    return atomic_load_explicit(&(*h)->word, memory_order_acquire);
}

static inline void shm_rx_release(shm_rx_t *r, uint64_t bytes)
{
    r->tail += bytes;
    atomic_store_explicit(&r->ctl->consumed, r->tail, memory_order_release);
}

#endif
