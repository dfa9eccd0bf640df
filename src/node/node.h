/* Node services shared by point-to-point, collectives and one-sided
 * communication: which ranks share this node, the node's shared segment
 * (node/segment.h) and single copy between their address spaces
 * (node/cma.h), verified once per peer by really doing one. */
#ifndef DMPI_NODE_NODE_H
#define DMPI_NODE_NODE_H

#include "core/dmpi.h"
#include <sys/types.h>

typedef struct dmpi_node_peer {
    pid_t pid;
    bool cma_ok;                 /* single copy works with this rank (cleared if a copy ever fails) */
    bool map_failed;             /* mapping a shareable block failed between us (node/peer_maps.h) */
    int world;
} dmpi_node_peer_t;

/* Indexed by local rank; NULL with one rank on the node. */
extern dmpi_node_peer_t *dmpi_node_peers;

/* After the clients reserved their areas: makes the segment, publishes this
 * rank's pid and probe word, and checks single copy with every peer. */
int dmpi_node_init(void);
void dmpi_node_finalize(void);
/* A single copy with local rank i failed (err): it is not tried again. */
void dmpi_node_cma_failed(int i, int err);

#endif
