/* Where each rank listens, through the launcher's key space with one entry
 * per node rather than per rank: the node's ranks leave their address in
 * the node segment, local rank 0 puts them all under "dmpi-tcp-n<node>-<k>"
 * (TCP_ADDR_CHUNK ranks a key: "10.0.0.5:4711,4712,10.0.0.6:4713" -- a port
 * alone shares the address before it), and a rank reads each node's keys
 * once, on its first connection there. The launcher serves a handful of
 * keys instead of one per rank, and a rank that talks to a whole node asks
 * once instead of once per peer. */
#include "tport/tcp/tcp.h"
#include "core/params.h"
#include "node/segment.h"
#include "pmi/pmi.h"
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TCP_ADDR_CHUNK 32        /* ranks per key: 32 x "255.255.255.255:65535," fit in a value */
#define LEADER_WAIT 60.0         /* seconds local rank 0 waits for the node's addresses */

typedef struct { uint32_t addr, port; } addr_entry_t;   /* network order; port 0: unknown */

static addr_entry_t *known;      /* per world rank, filled a chunk at a time */
static unsigned char *chunk_read;   /* per (node, chunk): asked the key space already */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Alone on the node (no segment): the node's key holds just us. */
static int put_node_alone(const struct sockaddr_in *me)
{
    char key[48], val[64], a[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &me->sin_addr, a, sizeof a);
    snprintf(key, sizeof key, "dmpi-tcp-n%d-0", dmpi_world.node_id);
    snprintf(val, sizeof val, "%s:%u", a, ntohs(me->sin_port));
    return dmpi_pmi_put(key, val);
}

/* Local rank 0: waits for every local rank's address, then puts the keys. */
static int put_node(void)
{
    int n = dmpi_world.local_size;
    double deadline = now_s() + LEADER_WAIT;
    for (int l = 0; l < n; l++) {
        node_rank_ctl_t *c = dmpi_node_rank_ctl(l);
        while (!atomic_load_explicit(&c->tcp_port, memory_order_acquire)) {
            if (now_s() > deadline) {
                fprintf(stderr, "dmpi: tcp: local rank %d of node %d never said where it listens\n", l,
                        dmpi_world.node_id);
                return -1;
            }
            sched_yield();
        }
    }
    for (int k = 0; k * TCP_ADDR_CHUNK < n; k++) {
        char key[48], val[DMPI_PMI_VAL_MAX];
        size_t len = 0;
        uint32_t prev = 0;
        for (int l = k * TCP_ADDR_CHUNK; l < n && l < (k + 1) * TCP_ADDR_CHUNK; l++) {
            node_rank_ctl_t *c = dmpi_node_rank_ctl(l);
            uint32_t addr = c->tcp_addr;
            unsigned port = ntohs((uint16_t)atomic_load_explicit(&c->tcp_port, memory_order_relaxed));
            char a[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &addr, a, sizeof a);
            if (l == k * TCP_ADDR_CHUNK || addr != prev)
                len += (size_t)snprintf(val + len, sizeof val - len, "%s%s:%u", len ? "," : "", a, port);
            else
                len += (size_t)snprintf(val + len, sizeof val - len, ",%u", port);
            prev = addr;
        }
        snprintf(key, sizeof key, "dmpi-tcp-n%d-%d", dmpi_world.node_id, k);
        if (dmpi_pmi_put(key, val) != 0)
            return -1;
    }
    dmpi_verbose(2, "tcp: node %d: the addresses of its %d ranks under %d key(s)", dmpi_world.node_id, n,
                 (n + TCP_ADDR_CHUNK - 1) / TCP_ADDR_CHUNK);
    return 0;
}

int tcp_addr_publish(const struct sockaddr_in *me)
{
    int size = dmpi_world.size;
    known = calloc((size_t)size, sizeof *known);
    chunk_read = calloc((size_t)dmpi_world.nnodes * ((size_t)size / TCP_ADDR_CHUNK + 1), 1);
    if (!known || !chunk_read)
        return -1;
    if (!dmpi_node_seg)                    /* (a node of several ranks always has one) */
        return put_node_alone(me);
    node_rank_ctl_t *c = dmpi_node_rank_ctl(dmpi_world.local_rank);
    c->tcp_addr = me->sin_addr.s_addr;
    atomic_store_explicit(&c->tcp_port, me->sin_port, memory_order_release);
    return dmpi_world.local_rank == 0 ? put_node() : 0;
}

static int nchunks(void)
{
    return dmpi_world.size / TCP_ADDR_CHUNK + 1;
}

/* Reads key k of node: fills known[] for the ranks it lists. */
static void read_chunk(int node, int k)
{
    char key[48], val[DMPI_PMI_VAL_MAX];
    snprintf(key, sizeof key, "dmpi-tcp-n%d-%d", node, k);
    if (dmpi_pmi_get(key, val, sizeof val) != 0)
        return;
    uint32_t addr = 0;
    char *save = NULL, *tok = strtok_r(val, ",", &save);
    for (int w = 0, l = 0; w < dmpi_world.size && tok; w++) {
        if (dmpi_world.node_of_world[w] != node || l++ < k * TCP_ADDR_CHUNK)
            continue;
        char *colon = strrchr(tok, ':');
        struct in_addr ia;
        if (colon) {
            *colon = '\0';
            if (inet_pton(AF_INET, tok, &ia) != 1)
                dmpi_fatal("tcp: malformed address list of node %d: %s", node, tok);
            addr = ia.s_addr;
        }
        long port = strtol(colon ? colon + 1 : tok, NULL, 10);
        if (!addr || port <= 0 || port > 65535)
            dmpi_fatal("tcp: malformed address list of node %d", node);
        known[w] = (addr_entry_t){addr, htons((uint16_t)port)};
        tok = strtok_r(NULL, ",", &save);
    }
}

void tcp_addr_of(int peer, struct sockaddr_in *sa)
{
    if (!known[peer].port) {
        int node = dmpi_world.node_of_world[peer], l = 0;
        for (int w = 0; w < peer; w++)
            l += dmpi_world.node_of_world[w] == node;
        unsigned char *asked = &chunk_read[(size_t)node * (size_t)nchunks() + (size_t)(l / TCP_ADDR_CHUNK)];
        if (!*asked) {
            *asked = 1;
            read_chunk(node, l / TCP_ADDR_CHUNK);
        }
        if (!known[peer].port)
            dmpi_fatal("tcp: no address for rank %d (node %d) in the launcher's key space", peer, node);
    }
    *sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = (in_port_t)known[peer].port,
                               .sin_addr = {.s_addr = known[peer].addr}};
}

void tcp_addr_finalize(void)
{
    free(known);
    free(chunk_read);
    known = NULL;
    chunk_read = NULL;
}
