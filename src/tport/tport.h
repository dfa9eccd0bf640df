/* Transports: how this rank reaches each peer. Each one fills the small ops
 * table below; the point-to-point layer calls through it, except for the
 * direct-mode shared-memory send, which it calls by name (p2p/send.c). */
#ifndef DMPI_TPORT_H
#define DMPI_TPORT_H

#include "p2p/match.h"

typedef struct dmpi_tport {
    const char *name;
    /* Start sending s (peer, ctx, tag, buf, bytes, mode set). The transport
     * completes it with dmpi_req_complete. */
    void (*send)(dmpi_request_t *s);
    /* A receive matched rendezvous message m: move the data into r and
     * complete r; tell the sender. m is freed by the transport. */
    void (*rndv_matched)(dmpi_request_t *r, dmpi_msg_t *m);
    /* A synchronous-mode message from peer was matched. */
    void (*sync_ack)(int peer, uint64_t cookie);
} dmpi_tport_t;

extern const dmpi_tport_t **dmpi_tport_of;          /* indexed by world rank */
extern const dmpi_tport_t dmpi_tport_self, dmpi_tport_shm;

int dmpi_tport_init(void);
int dmpi_tport_finalize(void);
/* One pass over every transport: receive what arrived, push what waits.
 * Returns nonzero if anything happened. */
int dmpi_tport_progress(void);

/* Delivery into the matching layer, shared by all transports. */
/* An eager message (or its first piece of `have` bytes) arrived. Returns the
 * receive it was delivered to, or NULL if it was queued as unexpected (*um). */
dmpi_request_t *dmpi_deliver_eager(uint32_t ctx, int src, int tag, int peer, size_t len,
                                   const void *data, size_t have, bool sync, uint64_t cookie,
                                   dmpi_msg_t **um);
/* A rendezvous announcement arrived: matched now, or queued as unexpected. */
void dmpi_deliver_rndv(uint32_t ctx, int src, int tag, int peer, size_t len,
                       uint64_t cookie, uint64_t addr, uint64_t layout, unsigned tflags);
/* A receive that gets its data in parts (not copied here): n more bytes are in. */
void dmpi_recv_advance(dmpi_request_t *r, size_t n);
/* Bytes for a receive that is getting its data piecewise (off counts every
 * byte the sender sends; what lies past the buffer is dropped). The receive
 * completes once r->tx_limit bytes have arrived. */
void dmpi_recv_fill(dmpi_request_t *r, size_t off, const void *data, size_t n);
/* A posted receive matched unexpected message m (already unlinked). */
void dmpi_recv_from_msg(dmpi_request_t *r, dmpi_msg_t *m);
/* Bytes arriving into a buffered unexpected message. */
void dmpi_msg_fill(dmpi_msg_t *m, const void *data, size_t n);

#endif
