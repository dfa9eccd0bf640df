/* Transports: how this rank reaches each peer. Each transport fills one
 * ops table; the point-to-point layer calls through it and nothing else,
 * so a network transport plugs in beside shared memory. Transports hand
 * what arrives to the matching layer through p2p/deliver.h, the one way
 * they call up.
 *
 * Every message carries a header of (context id, source rank in the
 * communicator, tag, length, sequence number); the sequence number counts
 * the messages from one source on one context id, so that matching keeps
 * MPI's non-overtaking rule even when messages from one peer travel by
 * different transports or paths and arrive out of order. */
#ifndef DMPI_TPORT_H
#define DMPI_TPORT_H

#include "p2p/request.h"
#include <time.h>

struct dmpi_msg;
struct dmpi_proc_id;

typedef struct dmpi_tport {
    const char *name;
    /* Start-up, in two steps: plan reserves what the transport needs of the
     * node segment (before it is made), init claims the peers it reaches
     * (dmpi_tport_claim). 0, or -1 after printing why. */
    int (*plan)(void);
    int (*init)(void);
    void (*finalize)(void);
    /* One pass: receive what arrived, push what waits; nonzero if anything
     * happened. quiet: nothing waits to be pushed. */
    int (*progress)(void);
    bool (*quiet)(void);
    /* The direct mode: a small contiguous message (at most the peer's
     * inline_max bytes) sent at once with no request; false if it cannot go
     * now (the caller then takes the request path). */
    bool (*send_inline)(int peer, const dmpi_hdr_t *h, const void *buf, size_t bytes);
    /* Start sending s (peer, header, data, mode set). eager: the data goes
     * with the header; rndv: the header goes first and the receiver gets
     * the data once it matched (rndv_matched). The transport completes s. */
    void (*send_eager)(dmpi_request_t *s);
    void (*send_rndv)(dmpi_request_t *s);
    /* A receive r matched rendezvous message m: move the data into r (a get
     * by the receiver, or ask the sender to put it) and complete r. */
    void (*rndv_matched)(dmpi_request_t *r, struct dmpi_msg *m);
    /* A synchronous-mode eager message from peer was matched. */
    void (*sync_ack)(int peer, uint64_t cookie);
    /* Optional: sleep up to seconds, waking early when something arrives
     * (a network transport's poll); false if it does not (then the caller
     * sleeps). */
    bool (*nap)(double seconds);
    /* Processes of other jobs (tport/procs.c): dyn_start makes this process
     * reachable by them and fills in where (*me's addr, port, key);
     * dyn_add claims process number proc, described by id. Only TCP has them. */
    int (*dyn_start)(struct dmpi_proc_id *me);
    int (*dyn_add)(int proc, const struct dmpi_proc_id *id);
} dmpi_tport_t;

/* How this rank reaches one peer (indexed by world rank). */
typedef struct dmpi_tport_peer {
    const dmpi_tport_t *t;
    long long inline_max;        /* largest send_inline; -1: none */
    long long eager_max;         /* largest eager message; -1: every message takes rendezvous */
    int index;                   /* the transport's own number for the peer (shm: local rank) */
} dmpi_tport_peer_t;
extern dmpi_tport_peer_t *dmpi_tport_peers;

/* Every transport compiled in, in order of preference. */
extern const dmpi_tport_t *const dmpi_tports[];

/* Called by a transport's init for each peer it reaches; the first
 * transport to claim a peer keeps it. */
void dmpi_tport_claim(int world, const dmpi_tport_t *t, int index, long long inline_max, long long eager_max);

int dmpi_tport_plan(void);       /* every transport's plan */
int dmpi_tport_init(void);       /* every transport's init; then every peer must be claimed */
void dmpi_tport_finalize(void);
bool dmpi_tport_quiet(void);
/* What one progress pass costs, in passes over shared memory alone (a
 * few cache lines, tens of nanoseconds): 1, or more while a transport's
 * pass is a system call. A waiting rank spins this much less before it
 * yields its core. */
extern unsigned dmpi_tport_poll_cost;
/* A waiting rank's sleep: in a transport that can be woken, else nanosleep. */
void dmpi_tport_nap(double seconds);
/* seconds as a struct timespec, for the naps' sleeps */
static inline struct timespec dmpi_tport_timespec(double seconds)
{
    return (struct timespec){(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
}

/* ---- processes of other jobs (dynamic processes, tport/procs.c) --------
 * MPI_Comm_spawn, connect/accept and join bring in processes of other jobs
 * (other MPI_COMM_WORLDs). Each gets a process number after the world's
 * ranks, used wherever a world rank is (groups, peer_world_of, the peer
 * tables), and is always reached by TCP; a process of this job keeps its
 * world rank. A process is named across jobs by its id: */
typedef struct dmpi_proc_id {
    uint64_t job;                /* hash of its job's key-space name */
    int32_t rank;                /* its world rank there */
    uint32_t addr, port;         /* where it listens for other jobs (network order) */
    uint8_t key[16];             /* what a connection to it must show */
    uint32_t pad;
} dmpi_proc_id_t;
#define DMPI_PROC_ID_INTS ((int)(sizeof(dmpi_proc_id_t) / sizeof(int)))
extern int dmpi_tport_nprocs;    /* world ranks and processes of other jobs */
/* This process's id; the first call makes it reachable by other jobs
 * (TCP starts listening if it did not). 0, or -1 after saying why. */
int dmpi_tport_my_id(dmpi_proc_id_t *id);
/* The process number of id: its world rank in this job, else a number
 * given on first sight. -1 if it cannot be reached (said why). */
int dmpi_tport_proc(const dmpi_proc_id_t *id);
void dmpi_tport_procs_finalize(void);
/* An order of processes that every job sees alike: (job, rank). */
bool dmpi_tport_proc_before(int a, int b);
/* Process numbers mean something in one job only; between jobs (and in
 * every exchange that names processes) a process is DMPI_PROC_NAME_WORDS
 * words: its job and rank. named: its number here, -1 if unknown here. */
#define DMPI_PROC_NAME_WORDS 3
void dmpi_tport_proc_name(int proc, uint32_t *w);
int dmpi_tport_proc_named(const uint32_t *w);
/* Ports (MPI_Open_port): a listening socket named
 * "dmpi-port:<address>:<port>:<secret>". 0, or -1 with why in err. */
int dmpi_tport_port_open(char *name, size_t len, char *err, size_t errlen);
int dmpi_tport_port_close(const char *name);                 /* -1: not an open port here */
/* A connection waiting on our port name: 1 and *fd (nonblocking), 0 none
 * yet, -1 not an open port of this process. */
int dmpi_tport_port_try_accept(const char *name, int *fd);
/* Connects to a port: 0 and *fd (nonblocking, connected), or -1 with why
 * in err. *secret: the 16 bytes the acceptor checks. */
int dmpi_tport_port_dial(const char *name, int *fd, uint8_t *secret, char *err, size_t errlen);
/* The secret of one of our open ports (-1: not one). */
int dmpi_tport_port_secret(const char *name, uint8_t *secret);

#endif
