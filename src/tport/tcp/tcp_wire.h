/* The TCP transport's wire format, all in one place.
 *
 * A connection starts with the connector's hello (the job's key and its
 * world rank) and the acceptor's verdict. After that both sides send
 * frames: a 48-byte header, then len bytes of payload for EAGER and DATA.
 * Integers travel in host byte order: every rank of a job runs the same
 * build of dmpi, and the hello's magic rejects a peer of other endianness. */
#ifndef DMPI_TCP_WIRE_H
#define DMPI_TCP_WIRE_H

#include "p2p/request.h"
#include "tport/tport.h"
#include <assert.h>
#include <stdint.h>

#define TCP_KEY_BYTES 16
#define TCP_MAGIC 0x31504354494d5044ull    /* "DMPITCP1" read as a little-endian word */

typedef struct tcp_hello {
    uint64_t magic;
    uint8_t key[TCP_KEY_BYTES];        /* the job's key (PMI), proof of membership */
    int32_t rank;                      /* the connector's world rank */
    uint32_t size;                     /* the connector's world size */
} tcp_hello_t;
static_assert(sizeof(tcp_hello_t) == 32, "hello layout");

/* A connection from a process of another job (dynamic processes): the
 * acceptor's own key for such connections (which the connector learnt when
 * the two jobs connected), and the connector's id, by which the acceptor
 * knows it (or learns it, if its own job has not told it yet). */
#define TCP_MAGIC_DYN 0x32504354494d5044ull  /* "DMPITCP2" */
typedef struct tcp_hello_dyn {
    uint64_t magic;
    uint8_t key[TCP_KEY_BYTES];
    dmpi_proc_id_t from;
} tcp_hello_dyn_t;
static_assert(sizeof(tcp_hello_dyn_t) == 64, "dynamic hello layout");
static_assert(sizeof(tcp_hello_t) <= sizeof(tcp_hello_dyn_t), "a hello is read first");

enum { TCP_REJECT = 0, TCP_ACCEPT = 1 };
typedef struct tcp_verdict {
    uint64_t magic;
    uint32_t verdict;                  /* TCP_ACCEPT, or TCP_REJECT: the acceptor's own connection wins */
    uint32_t pad;
} tcp_verdict_t;
static_assert(sizeof(tcp_verdict_t) == 16, "verdict layout");

enum tcp_kind {
    TCP_EAGER = 1,   /* match header + the whole message (cookie: the sender's request if SYNC) */
    TCP_RTS,         /* rendezvous: match header, message length, the sender's request */
    TCP_CTS,         /* receiver asks for len bytes: cookie the send, cookie2 the receive */
    TCP_DATA,        /* len bytes of rendezvous data for the receive in cookie */
    TCP_SYNC_ACK,    /* a synchronous-mode eager message was matched: cookie the send */
};
enum { TCP_F_SYNC = 1 };

typedef struct tcp_frame {
    uint8_t kind, flags;
    uint8_t pad[6];
    dmpi_hdr_t m;                      /* EAGER, RTS */
    uint64_t len;
    uint64_t cookie, cookie2;
} tcp_frame_t;
#define TCP_FRAME_BYTES 48
static_assert(sizeof(tcp_frame_t) == TCP_FRAME_BYTES, "frame layout");

#endif
