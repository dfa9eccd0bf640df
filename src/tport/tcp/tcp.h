/* TCP transport between ranks that do not share a node (or between all
 * ranks, with DMPI_TRANSPORT=tcp): nonblocking sockets polled by the
 * progress engine through epoll, one connection per pair made on first
 * use, eager messages copied, rendezvous data written from and read into
 * the user's buffers (iovec lists for noncontiguous data). Nothing outside
 * tport/tcp/ names it; it is reached through dmpi_tport_tcp. */
#ifndef DMPI_TCP_H
#define DMPI_TCP_H

#include "tport/tport.h"
#include "tport/tcp/tcp_wire.h"
#include <stdbool.h>
#include <stddef.h>

/* One frame waiting to be written, with its payload: bytes of our own
 * (copy), or bytes of a send's data from off (s, for DATA). */
typedef struct tcp_out {
    struct tcp_out *next;
    tcp_frame_t f;
    size_t sent;                 /* bytes of frame + payload written */
    size_t len;                  /* payload bytes */
    char *copy;
    dmpi_request_t *s;
    size_t off;
} tcp_out_t;

/* A socket: a connection being made or accepted, or a peer's connection. */
typedef struct tcp_sock {
    int fd;
    int peer;                    /* world rank; -1 until an accepted hello names it */
    int state;                   /* TCP_S_* */
    size_t got;                  /* bytes of hello or verdict read */
    union {
        tcp_hello_t hello;
        tcp_hello_dyn_t dyn;
        tcp_verdict_t verdict;
    } in;
} tcp_sock_t;

enum { TCP_S_CONNECTING, TCP_S_AWAIT_VERDICT, TCP_S_AWAIT_HELLO, TCP_S_READY };

typedef struct tcp_peer {
    tcp_sock_t *sock;            /* the connection, once ready */
    tcp_sock_t *dialing;         /* our own attempt, until it is accepted or loses */
    tcp_out_t *oq_head, *oq_tail;
    bool want_out;               /* EPOLLOUT is on: the socket was full */
    /* receiving */
    char *rx;                    /* frames read ahead */
    size_t rx_fill, rx_at;
    dmpi_request_t *direct;      /* DATA read straight into this receive ... */
    size_t direct_left;          /* ... this many bytes more */
    unsigned data_owed;          /* DATA frames asked for (CTS sent) and not yet begun */
    bool foreign;                /* a process of another job, reached at id */
    dmpi_proc_id_t id;
} tcp_peer_t;

/* tcp_conn.c: connections. */
int tcp_conn_listen(void);                     /* bind and listen; 0 or -1 */
int tcp_conn_publish(void);                    /* rank 0: the job's key into PMI */
/* Processes of other jobs: our id (address, port, a key of our own for
 * their connections), set once TCP listens. */
int tcp_conn_dyn_start(dmpi_proc_id_t *me);
void tcp_port_close_all(void);                 /* tcp_port.c: at finalize */
extern struct sockaddr_in tcp_listen_addr;     /* where we listen (after tcp_conn_listen) */

/* tcp_addr.c: where peers listen, one key-space entry per node. */
int tcp_addr_publish(const struct sockaddr_in *me);   /* before the PMI barrier of tcp_init */
void tcp_addr_of(int peer, struct sockaddr_in *sa);   /* after it */
void tcp_addr_finalize(void);
int tcp_conn_read_key(void);                   /* after a PMI barrier */
void tcp_conn_dial(int peer);                  /* start our connection to peer */
void tcp_conn_event(tcp_sock_t *k, unsigned events);
void tcp_conn_accept_all(void);
void tcp_conn_close(tcp_sock_t *k);          /* freed by the next tcp_conn_reap */
void tcp_conn_reap(void);
void tcp_conn_finalize(void);
int tcp_epoll_fd(void);
void tcp_epoll_mod(tcp_sock_t *k, bool out);

/* tcp.c, called by tcp_conn.c */
extern tcp_peer_t *tcp_peers;
extern int tcp_npeers;                         /* entries of tcp_peers */
void tcp_peer_ready(int peer);                 /* its connection is up: push what waits */
#define TCP_LISTEN_TAG ((void *)1)

#endif
