/* The node's shared-memory segment: one per node and job, created by local
 * rank 0, mapped by every rank of the node, unlinked as soon as all have it
 * mapped (nothing stays in /dev/shm). Its layout:
 *
 *   [segment header: one page][per-rank control blocks][areas reserved by clients]
 *
 * Clients (the shared-memory transport's rings today; node-level collectives
 * and shared windows next) reserve their areas before the segment is made,
 * and find them at the offset they were given. */
#ifndef DMPI_NODE_SEGMENT_H
#define DMPI_NODE_SEGMENT_H

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define NODE_SEG_MAGIC 0x646d70692d6e6f64ull   /* "dmpi-nod" */

typedef struct node_rank_ctl {
    _Atomic int32_t pid;
    int32_t ready;
    uint64_t probe_addr;         /* address of a word peers read to test cross-memory attach */
    uint64_t cpus[12];           /* the CPUs this rank may run on, 0 .. 767 (its affinity) */
    uint32_t cpus_above;         /* how many above 767 */
    uint32_t tcp_addr;           /* where TCP listens (network order; tport/tcp/tcp_addr.c) */
    _Atomic uint32_t tcp_port;   /* ... and its port, non-zero once both are there */
    char pad[128 - 16 - 96 - 4 - 8];
} node_rank_ctl_t;
static_assert(sizeof(node_rank_ctl_t) == 128, "rank control is two cache lines");

typedef struct node_seg_hdr {
    uint64_t magic;
    uint32_t local_size;
    uint32_t pad0;
    uint64_t total_size;
    _Atomic uint32_t attached;
    uint32_t pad1;
    _Atomic uint64_t coll_bytes;   /* shared memory the node's collectives hold now (coll/node) */
    char pad[4096 - 40];
} node_seg_hdr_t;
static_assert(sizeof(node_seg_hdr_t) == 4096, "segment header is one page");

/* Before dmpi_node_segment_open: room for a client, page aligned; returns
 * its offset in the segment. */
size_t dmpi_node_reserve(size_t bytes);
/* Collective over the node's ranks (PMI barriers): local rank 0 creates the
 * segment with every reservation made so far, the others map it, and once
 * all have it, it is unlinked. 0, or -1 after printing why. */
int dmpi_node_segment_open(void);
void dmpi_node_segment_close(void);
/* The mapped segment (NULL before open or with one rank on the node). */
extern node_seg_hdr_t *dmpi_node_seg;
static inline void *dmpi_node_at(size_t offset) { return (char *)dmpi_node_seg + offset; }
static inline node_rank_ctl_t *dmpi_node_rank_ctl(int local_rank)
{
    return (node_rank_ctl_t *)(dmpi_node_seg + 1) + local_rank;
}

#endif
