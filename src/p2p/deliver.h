/* Delivery from transports into matching: the one way a transport calls up
 * into the point-to-point layer. A transport hands over each message's
 * header as it arrives; matching keeps MPI's order by the header's
 * sequence number, whatever order messages arrive in. */
#ifndef DMPI_P2P_DELIVER_H
#define DMPI_P2P_DELIVER_H

#include "p2p/match.h"
#include "tport/tport.h"

/* An eager message (or its first piece, `have` of len bytes) arrived. The
 * rest of it goes to the receive returned, or, if NULL, to the message
 * buffer *um (unexpected, or arrived early), with the functions below. */
dmpi_request_t *dmpi_deliver_eager(const dmpi_hdr_t *h, int peer, size_t len, const void *data, size_t have,
                                   dmpi_msg_t **um);
/* The same for a synchronous-mode message: the sender waits for
 * sync_ack(peer, cookie) once it is matched. */
dmpi_request_t *dmpi_deliver_eager_sync(const dmpi_hdr_t *h, int peer, size_t len, const void *data, size_t have,
                                        uint64_t cookie, dmpi_msg_t **um);
/* A rendezvous announcement arrived (tflags, addr and layout are the
 * transport's own, kept for its rndv_matched). */
void dmpi_deliver_rndv(const dmpi_hdr_t *h, int peer, size_t len, uint64_t cookie, uint64_t addr,
                       uint64_t layout, unsigned tflags);
/* A receive that gets its data in parts (not copied here): n more bytes are in. */
void dmpi_recv_advance(dmpi_request_t *r, size_t n);
/* Bytes for a receive that is getting its data piecewise (off counts every
 * byte the sender sends; what lies past the buffer is dropped). The receive
 * completes once r->expect bytes have arrived. */
void dmpi_recv_fill(dmpi_request_t *r, size_t off, const void *data, size_t n);
/* Bytes arriving into a buffered message. */
void dmpi_msg_fill(dmpi_msg_t *m, const void *data, size_t n);

/* Inside p2p/: a posted receive matched unexpected message m (unlinked). */
void dmpi_recv_from_msg(dmpi_request_t *r, dmpi_msg_t *m);

#endif
