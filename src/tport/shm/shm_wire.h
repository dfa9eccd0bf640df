/* The per-pair ring format, all in one place.
 *
 * The rings live in the transport's area of the node segment
 * (node/segment.h): rings s -> r for all pairs s != r.
 * Ring s -> r: one control cache line written only by the receiver r
 * (bytes consumed), then ring_size bytes of 64-byte cells. Messages are
 * contiguous runs of cells: a 40-byte header, then payload. The header's
 * first word is stored last, with release order: the receiver polls that word.
 * The sender keeps one spare cell beyond every message and zeroes its first
 * word before publishing, so the cell where the next message will start
 * never holds a stale value that could look like a header. */
#ifndef DMPI_SHM_WIRE_H
#define DMPI_SHM_WIRE_H

#include "p2p/request.h"
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>

#define SHM_CELL 64

enum shm_kind {
    SHM_EAGER = 1,     /* match header + first piece of the data */
    SHM_EAGER_CONT,    /* next piece of the eager message before it on this ring */
    SHM_RTS,           /* rendezvous: match header, length, sender buffer address */
    SHM_CTS,           /* receiver asks for the data through the ring (copy path) */
    SHM_DATA,          /* a piece of rendezvous data, for the receive named in cookie */
    SHM_FIN,           /* receiver has read the data itself (cma): sender may complete */
    SHM_SYNC_ACK,      /* a synchronous-mode eager message was matched */
    SHM_CTS_SPLIT,     /* receiver reads the first part itself; asks the sender to write the rest */
    SHM_WRITTEN,       /* sender wrote its part into the receiver's buffer (cma) */
    SHM_WRAP,          /* skip to the start of the ring */
};

enum {
    SHM_F_SYNC = 1,       /* EAGER: acknowledge the match */
    SHM_F_CAN_WRITE = 2,  /* RTS: the sender may write into the receiver (cma verified) */
    SHM_F_LAYOUT = 4,     /* RTS: noncontiguous data; payload: base address, address of its datatype */
    SHM_F_PACK_ONLY = 8,  /* RTS: noncontiguous data to be sent through the ring only */
};

/* word: kind in bits 0-7, flags in 8-15, payload bytes of this piece in 32-63 */
typedef struct shm_hdr {
    _Atomic uint64_t word;
    dmpi_hdr_t m;            /* EAGER/RTS: the match header (context, source, tag, sequence) */
    uint64_t len;            /* EAGER/RTS: message bytes. CTS: bytes accepted. DATA: offset */
    uint64_t cookie;         /* request id of whoever must act on this */
} shm_hdr_t;
#define SHM_HDR_BYTES 40
static_assert(sizeof(shm_hdr_t) == SHM_HDR_BYTES, "shm header layout");
static_assert(SHM_HDR_BYTES + 24 == SHM_CELL, "first cell carries 24 bytes of payload");

static inline uint64_t shm_word(unsigned kind, unsigned flags, uint32_t bytes)
{
    return (uint64_t)kind | ((uint64_t)flags << 8) | ((uint64_t)bytes << 32);
}
static inline unsigned shm_word_kind(uint64_t w) { return (unsigned)(w & 0xff); }
static inline unsigned shm_word_flags(uint64_t w) { return (unsigned)((w >> 8) & 0xff); }
static inline uint32_t shm_word_bytes(uint64_t w) { return (uint32_t)(w >> 32); }
static inline uint64_t shm_cells_bytes(uint64_t payload)
{
    return (SHM_HDR_BYTES + payload + SHM_CELL - 1) & ~(uint64_t)(SHM_CELL - 1);
}

typedef struct shm_ring_ctl {
    _Atomic uint64_t consumed;   /* written by the receiver only */
    char pad[SHM_CELL - 8];
} shm_ring_ctl_t;
static_assert(sizeof(shm_ring_ctl_t) == SHM_CELL, "ring control is one cache line");

static inline uint64_t shm_ring_stride(uint64_t ring_size) { return sizeof(shm_ring_ctl_t) + ring_size; }
/* Rings exist for ordered pairs of different ranks: s -> r is number
 * s * (L - 1) + (r < s ? r : r - 1). */
static inline uint64_t shm_ring_index(uint32_t local_size, uint32_t s, uint32_t r)
{
    return (uint64_t)s * (local_size - 1) + (r < s ? r : r - 1);
}
static inline uint64_t shm_rings_bytes(uint32_t local_size, uint64_t ring_size)
{
    return (uint64_t)local_size * (local_size - 1) * shm_ring_stride(ring_size);
}

#endif
