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

#define TCP_ADDR_CHUNK 32        /* ranks per key: 32 x "255.255.255.255:65535," fit in a value */
#define LEADER_WAIT 60.0         /* seconds local rank 0 waits for the node's addresses */

typedef struct { uint32_t addr, port; } addr_entry_t;   /* network order; port 0: unknown */

static addr_entry_t *known;      /* per world rank, filled a chunk at a time */
static unsigned char *chunk_read;   /* per (node, chunk): asked the key space already */

/* Local rank 0 of a node with a segment: waits for every local rank's
 * address there. 0, or -1 after saying who never came. */
static int gather_node(addr_entry_t *e, int n)
{
    double deadline = dmpi_wtime() + LEADER_WAIT;
    for (int l = 0; l < n; l++) {
        node_rank_ctl_t *c = dmpi_node_rank_ctl(l);
        while (!(e[l].port = atomic_load_explicit(&c->tcp_port, memory_order_acquire))) {
            if (dmpi_wtime() > deadline) {
                fprintf(stderr, "dmpi: tcp: local rank %d of node %d never said where it listens\n", l,
                        dmpi_world.node_id);
                return -1;
            }
            sched_yield();
        }
        e[l].addr = c->tcp_addr;
    }
    return 0;
}

/* Puts the node's n addresses (by local rank) under its keys. */
static int put_node(const addr_entry_t *e, int n)
{
    for (int k = 0; k * TCP_ADDR_CHUNK < n; k++) {
        char key[48], val[DMPI_PMI_VAL_MAX];
        size_t len = 0;
        for (int l = k * TCP_ADDR_CHUNK; l < n && l < (k + 1) * TCP_ADDR_CHUNK; l++) {
            char a[INET_ADDRSTRLEN];
            unsigned port = ntohs((uint16_t)e[l].port);
            inet_ntop(AF_INET, &e[l].addr, a, sizeof a);
            if (l == k * TCP_ADDR_CHUNK || e[l].addr != e[l - 1].addr)
                len += (size_t)snprintf(val + len, sizeof val - len, "%s%s:%u", len ? "," : "", a, port);
            else
                len += (size_t)snprintf(val + len, sizeof val - len, ",%u", port);
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
    addr_entry_t self = {me->sin_addr.s_addr, me->sin_port};
    if (!dmpi_node_seg)                    /* alone on the node (several ranks always have one) */
        return put_node(&self, 1);
    node_rank_ctl_t *c = dmpi_node_rank_ctl(dmpi_world.local_rank);
    c->tcp_addr = self.addr;
    atomic_store_explicit(&c->tcp_port, self.port, memory_order_release);
    if (dmpi_world.local_rank != 0)
        return 0;
    int n = dmpi_world.local_size;
    addr_entry_t *e = malloc((size_t)n * sizeof *e);
    int rc = e && gather_node(e, n) == 0 ? put_node(e, n) : -1;
    free(e);
    return rc;
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
