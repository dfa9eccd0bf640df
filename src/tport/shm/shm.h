/* Shared-memory transport between ranks of one node: one inbound queue per
 * rank in the node segment, and single copy (node/cma.h) for large messages.
 * Nothing outside tport/shm/ names it; it is reached through dmpi_tport_shm. */
#ifndef DMPI_SHM_H
#define DMPI_SHM_H

#include "tport/tport.h"
#include "tport/shm/ring.h"
#include <string.h>

typedef struct shm_ctl_item shm_ctl_item_t;

typedef struct shm_peer {
    shm_tx_t tx;                        /* into this peer's queue */
    dmpi_request_t *sq_head, *sq_tail;  /* sends waiting for queue room, in order */
    shm_ctl_item_t *cq_head, *cq_tail;  /* control messages waiting for room */
    dmpi_request_t *cont_req;           /* eager message from this peer still arriving ... */
    struct dmpi_msg *cont_msg;          /* ... into a receive or a message buffer */
    size_t cont_off, cont_len;
    int world;
    char pad[128 - sizeof(shm_tx_t) - 8 * sizeof(void *) - sizeof(int)];
} shm_peer_t;
static_assert(sizeof(shm_peer_t) == 128, "a power of two: finding a sender's entry is a shift");

/* The transport's state in a request (dmpi_request_t.tport_priv). */
typedef struct shm_req {
    uint8_t stage;               /* send: what is still to be put in the queue (SHM_STAGE_*) */
    uint8_t split_read_ok;       /* recv, split copy: our part was read */
    uint8_t finals;              /* send, rendezvous: FINs or CTSs still to come from the receiver */
    uint64_t peer_req;           /* send: the receive that DATA pieces are for */
    uint64_t limit;              /* send: DATA up to this offset; recv, split: where the sender's part starts */
    uint64_t remote_addr;        /* recv, split: the sender's buffer */
} shm_req_t;
static_assert(sizeof(shm_req_t) <= sizeof(((dmpi_request_t *)0)->tport_priv), "shm request state fits");
static inline shm_req_t *shm_req(dmpi_request_t *r) { return (shm_req_t *)r->tport_priv; }

enum { SHM_STAGE_NONE, SHM_STAGE_EAGER, SHM_STAGE_RTS, SHM_STAGE_DATA };

#endif
