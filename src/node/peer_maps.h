/* This rank's mappings of its node peers' shareable blocks
 * (node/shareable.h). A block is opened through /proc/<pid>/fd/<fd>, which
 * takes the same ptrace permission as single copy, so it is tried only with
 * peers single copy works with; it is mapped read-only and kept for the
 * next message from the same block: at most DMPI_SHM_MAP_CACHE blocks, the
 * least recently used unmapped first. The cache is keyed by (local rank,
 * serial): a block its owner freed is never named again, so its mapping
 * costs only address space until it is evicted. */
#ifndef DMPI_NODE_PEER_MAPS_H
#define DMPI_NODE_PEER_MAPS_H

#include <stddef.h>
#include <stdint.h>

/* Byte off of block serial (file descriptor fd in its owner) of local rank
 * local, with n bytes of the block behind it; NULL if the block cannot be
 * mapped or is shorter: then dmpi_node_peers[local].map_failed is set and
 * that peer's blocks are not tried again. */
const char *dmpi_peer_map(int local, uint64_t serial, int fd, size_t off, size_t n);
/* Blocks mapped now (for tests and reports). */
int dmpi_peer_maps_held(void);
/* Unmaps everything. */
void dmpi_peer_maps_finalize(void);

#endif
