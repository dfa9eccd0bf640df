/* Shared-memory transport between ranks of one node. */
#ifndef DMPI_SHM_H
#define DMPI_SHM_H

#include "tport/tport.h"
#include "tport/shm/ring.h"
#include <string.h>
#include <sys/types.h>

typedef struct shm_ctl_item shm_ctl_item_t;

typedef struct shm_peer {
    shm_tx_t tx;
    dmpi_request_t *sq_head, *sq_tail;  /* sends waiting for ring room, in order */
    shm_ctl_item_t *cq_head, *cq_tail;  /* control messages waiting for room */
    shm_rx_t rx;
    dmpi_request_t *cont_req;           /* eager message still arriving on rx ... */
    dmpi_msg_t *cont_msg;               /* ... into a receive or an unexpected buffer */
    size_t cont_off, cont_len;
    pid_t pid;
    bool cma_ok;
    int world;
} shm_peer_t;

extern shm_peer_t *dmpi_shm_peers;      /* indexed by local rank */
extern long long dmpi_shm_direct_max;   /* largest direct-mode send; -1 = none */

int dmpi_shm_init(void);
void dmpi_shm_finalize(void);
int dmpi_shm_progress(void);
bool dmpi_shm_quiet(void);              /* nothing waits to be pushed */

/* Direct mode: a small contiguous message written straight into the peer's
 * ring, with no request. False if it must take the queued path. */
static inline bool dmpi_shm_send_direct(int local_peer, uint32_t ctx, int src, int tag,
                                        const void *buf, size_t bytes)
{
    shm_peer_t *p = &dmpi_shm_peers[local_peer];
    if ((long long)bytes > dmpi_shm_direct_max || p->sq_head)
        return false;
    shm_hdr_t *h = shm_tx_reserve(&p->tx, bytes);
    if (!h)
        return false;
    h->ctx = ctx;
    h->src = src;
    h->tag = tag;
    h->len = bytes;
    if (bytes)
        memcpy((char *)h + SHM_HDR_BYTES, buf, bytes);
    shm_tx_publish(&p->tx, h, SHM_EAGER, 0, (uint32_t)bytes);
    return true;
}

#endif
