/* The shared-memory queue format, all in one place.
 *
 * Every rank r owns one inbound queue in the transport's area of the node
 * segment (node/segment.h), shared by all its local senders: two control
 * cache lines (head: bytes ever reserved, advanced by senders with a
 * compare-and-swap; consumed: bytes ever consumed, written by r only), then
 * queue_size bytes of 64-byte cells. One queue per receiver keeps memory
 * linear in the node's ranks, and a poll reads one cell however many ranks
 * there are. Messages are contiguous runs of cells: a 40-byte header, then
 * payload. The header's first word (the sender's local rank in it, since a
 * queue has many senders) is stored last, with release order: the receiver
 * polls that word at its tail.
 *
 * A message that would reach the end of the queue starts the next lap,
 * behind a WRAP marker in the cells left (so a lap always ends in a WRAP).
 *
 * Nobody zeroes the next cell. A header word carries the tag of its lap
 * (how often the queue has wrapped, odd or even), so a header left from the
 * previous lap is stale. A cell that ends up inside a message's payload or
 * behind a WRAP marker may hold any bytes; when the receiver releases such a
 * cell it zeroes its first word if that word carries the next lap's tag.
 * So when the receiver reaches a cell, it holds the current lap's header,
 * or a word whose tag is not the current lap's. */
#ifndef DMPI_SHM_WIRE_H
#define DMPI_SHM_WIRE_H

#include "p2p/request.h"
#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SHM_CELL 64

enum shm_kind {
    SHM_EAGER = 1,     /* match header + first piece of the data */
    SHM_EAGER_CONT,    /* next piece of the eager message before it from this sender */
    SHM_RTS,           /* rendezvous: match header, length, sender buffer address (or its place in a mapped block) */
    SHM_CTS,           /* receiver asks for the data through the queue (copy path) */
    SHM_DATA,          /* a piece of rendezvous data, for the receive named in cookie */
    SHM_FIN,           /* receiver has read the data itself (cma): sender may complete */
    SHM_SYNC_ACK,      /* a synchronous-mode eager message was matched */
    SHM_CTS_SPLIT,     /* receiver reads the first part itself; asks the sender to write the rest */
    SHM_WRITTEN,       /* sender wrote its part into the receiver's buffer (cma) */
    SHM_WRAP,          /* skip to the start of the queue */
};

enum {
    SHM_F_SYNC = 1,       /* EAGER: acknowledge the match */
    SHM_F_CAN_WRITE = 2,  /* RTS: the sender may write into the receiver (cma verified) */
    SHM_F_LAYOUT = 4,     /* RTS: noncontiguous data; payload: base address, address of its datatype */
    SHM_F_PACK_ONLY = 8,  /* RTS: noncontiguous data to be sent through the queue only */
    SHM_F_MAPPED = 16,    /* RTS: the data lies in a block the receiver can map (node/shareable.h);
                           * payload: shm_map_loc of it, the block's serial number */
};

/* A MAPPED RTS's first payload word: the block's file descriptor in the
 * sender above the data's offset in the block. */
#define SHM_MAP_OFF_BITS 40
static inline bool shm_map_loc_fits(int fd, uint64_t off)
{
    return fd >= 0 && (uint64_t)fd < ((uint64_t)1 << (64 - SHM_MAP_OFF_BITS)) &&
           off < ((uint64_t)1 << SHM_MAP_OFF_BITS);
}
static inline uint64_t shm_map_loc(int fd, uint64_t off) { return (uint64_t)fd << SHM_MAP_OFF_BITS | off; }
static inline int shm_map_loc_fd(uint64_t loc) { return (int)(loc >> SHM_MAP_OFF_BITS); }
static inline uint64_t shm_map_loc_off(uint64_t loc) { return loc & (((uint64_t)1 << SHM_MAP_OFF_BITS) - 1); }

/* CTS, third argument: the receiver could not map the sender's block; the
 * sender names no more blocks to it. */
#define SHM_CTS_NO_MAP 1

/* Lap tags: neither is 0 (a zeroed cell) and they differ from each other. */
#define SHM_TAG_EVEN 0x5au
#define SHM_TAG_ODD 0xa5u
#define SHM_MAX_LOCAL 65536u              /* local ranks: 16 bits of the word */
#define SHM_MAX_PIECE ((1u << 24) - 1)    /* payload bytes of one message: 24 bits */
#define SHM_FRAG_MAX (8u << 20)           /* cells of one message, at most */

/* word: kind in bits 0-7, lap tag in 8-15, flags in 16-23, the sender's
 * local rank in 24-39, payload bytes of this piece in 40-63 */
typedef struct shm_hdr {
    _Atomic uint64_t word;
    dmpi_hdr_t m;            /* EAGER/RTS: the match header (context, source, tag, sequence) */
    uint64_t len;            /* EAGER/RTS: message bytes. CTS: bytes accepted. DATA: offset */
    uint64_t cookie;         /* request id of whoever must act on this */
} shm_hdr_t;
#define SHM_HDR_BYTES 40
static_assert(sizeof(shm_hdr_t) == SHM_HDR_BYTES, "shm header layout");
static_assert(SHM_HDR_BYTES + 24 == SHM_CELL, "first cell carries 24 bytes of payload");
static_assert(SHM_FRAG_MAX - SHM_HDR_BYTES <= SHM_MAX_PIECE, "a piece's bytes fit the word");
static_assert(SHM_WRAP < 256 && SHM_F_MAPPED < 256, "kind and flags take a byte each");

/* The tag of the lap that absolute position pos lies in (size: a power of two). */
static inline unsigned shm_lap_tag(uint64_t pos, uint64_t size) { return pos & size ? SHM_TAG_ODD : SHM_TAG_EVEN; }

static inline uint64_t shm_word(unsigned kind, unsigned tag, unsigned flags, uint32_t src, uint32_t bytes)
{
    return (uint64_t)kind | ((uint64_t)tag << 8) | ((uint64_t)flags << 16) | ((uint64_t)src << 24) |
           ((uint64_t)bytes << 40);
}
/* The tag's bits in the word, and what turns one lap's tag into the other's. */
#define SHM_W_TAG ((uint64_t)0xff << 8)
#define SHM_W_TAG_FLIP ((uint64_t)(SHM_TAG_EVEN ^ SHM_TAG_ODD) << 8)
static_assert((SHM_TAG_EVEN ^ SHM_TAG_ODD) == 0xff, "the tags differ in every bit: a flip is an xor");
static inline unsigned shm_word_kind(uint64_t w) { return (unsigned)(w & 0xff); }
static inline unsigned shm_word_tag(uint64_t w) { return (unsigned)((w >> 8) & 0xff); }
static inline unsigned shm_word_flags(uint64_t w) { return (unsigned)((w >> 16) & 0xff); }
static inline uint32_t shm_word_src(uint64_t w) { return (uint32_t)((w >> 24) & 0xffff); }
static inline uint32_t shm_word_bytes(uint64_t w) { return (uint32_t)(w >> 40); }
static inline uint64_t shm_cells_bytes(uint64_t payload)
{
    return (SHM_HDR_BYTES + payload + SHM_CELL - 1) & ~(uint64_t)(SHM_CELL - 1);
}

typedef struct shm_queue_ctl {
    _Atomic uint64_t head;       /* bytes ever reserved: senders only (compare-and-swap) */
    char pad0[SHM_CELL - 8];
    _Atomic uint64_t consumed;   /* bytes ever consumed: the receiver only */
    char pad1[SHM_CELL - 8];
} shm_queue_ctl_t;
static_assert(sizeof(shm_queue_ctl_t) == 2 * SHM_CELL, "queue control: one cache line per writer");

/* Queue of local rank r: at r * shm_queue_stride(size) in the transport's area. */
static inline uint64_t shm_queue_stride(uint64_t queue_size) { return sizeof(shm_queue_ctl_t) + queue_size; }
static inline uint64_t shm_queues_bytes(uint32_t local_size, uint64_t queue_size)
{
    return (uint64_t)local_size * shm_queue_stride(queue_size);
}

#endif
