/* Node services: the segment, the peers' pids, and single copy verified
 * with each of them by doing one (libfabric's shm provider does the same:
 * a permission file says less than a real read). */
#include "node/node.h"
#include "node/cma.h"
#include "node/segment.h"
#include "core/params.h"
#include "pmi/pmi.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

dmpi_node_peer_t *dmpi_node_peers;

static void verify_cma(void)
{
    int failed = 0;
    for (int i = 0; i < dmpi_world.local_size; i++) {
        if (i == dmpi_world.local_rank)
            continue;
        node_rank_ctl_t *ctl = dmpi_node_rank_ctl(i);
        dmpi_node_peer_t *p = &dmpi_node_peers[i];
        p->pid = atomic_load(&ctl->pid);
        p->cma_ok = dmpi_params.shm_path != DMPI_PATH_COPY && dmpi_cma_verify(p->pid, ctl->probe_addr);
        failed += !p->cma_ok && dmpi_params.shm_path != DMPI_PATH_COPY;
    }
    if (failed)
        dmpi_verbose(1, "cross-memory attach is not permitted to %d local peers; large messages use the "
                        "pipelined copy path (check /proc/sys/kernel/yama/ptrace_scope)", failed);
}

/* This rank's affinity, for the others to see. */
static void publish_cpus(node_rank_ctl_t *ctl)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;                      /* all zero: counted as no CPU of its own */
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && c < 64 * 12)
            ctl->cpus[c / 64] |= 1ull << (c % 64);
        else if (CPU_ISSET(c, &set))
            ctl->cpus_above++;
}

/* The CPUs the node's ranks may run on together (the union of their
 * affinities, at least 1). */
static long node_cpus(void)
{
    uint64_t all[12] = {0};
    uint32_t above = 0;
    for (int i = 0; i < dmpi_world.local_size; i++) {
        node_rank_ctl_t *ctl = dmpi_node_rank_ctl(i);
        for (int w = 0; w < 12; w++)
            all[w] |= ctl->cpus[w];
        above = ctl->cpus_above > above ? ctl->cpus_above : above;
    }
    long cpus = above;
    for (int w = 0; w < 12; w++)
        cpus += __builtin_popcountll(all[w]);
    return cpus > 0 ? cpus : 1;
}

/* More ranks on the node than CPUs they may run on together: then waits
 * yield the core. A rank's own affinity says nothing of it: a launcher
 * that binds every rank to a core of its own leaves each one a single
 * CPU, and nobody oversubscribed. */
static bool ranks_share_cpus(void)
{
    long cpus = node_cpus();
    if (dmpi_world.local_rank == 0)
        dmpi_verbose(2, "node: %d ranks on %ld CPUs (their affinities together): %s", dmpi_world.local_size, cpus,
                     dmpi_world.local_size > cpus ? "oversubscribed, waits yield the core" : "not oversubscribed");
    return dmpi_world.local_size > cpus;
}

/* PMI barriers are the whole job's: a rank alone on its node takes part in
 * those its node's set-up would use (two in dmpi_node_segment_open, one in
 * dmpi_node_init), so that the other nodes' ranks are not left waiting. */
#define NODE_INIT_BARRIERS 3

/* DMPI_YIELD=always|never overrides what the node's CPUs say; -1: auto. */
static int yield_forced(void)
{
    if (!strcmp(dmpi_params.yield, "always"))
        return 1;
    if (!strcmp(dmpi_params.yield, "never"))
        return 0;
    return -1;
}

static int check_yield(void)
{
    if (yield_forced() < 0 && strcmp(dmpi_params.yield, "auto")) {
        fprintf(stderr, "dmpi: DMPI_YIELD=%s: expected auto, always or never\n", dmpi_params.yield);
        return -1;
    }
    return 0;
}

static int alone_on_node(void)
{
    for (int i = 0; i < NODE_INIT_BARRIERS; i++)
        if (dmpi_pmi_barrier() != 0)
            return -1;
    return 0;
}

int dmpi_node_init(void)
{
    int n = dmpi_world.local_size, me = dmpi_world.local_rank;
    if (check_yield() != 0)
        return -1;
    dmpi_world.oversubscribed = yield_forced() == 1;
    if (n < 2)
        return alone_on_node();
    if (dmpi_node_segment_open() != 0)
        return -1;
    node_rank_ctl_t *ctl = dmpi_node_rank_ctl(me);
    ctl->probe_addr = dmpi_cma_probe_addr();
    publish_cpus(ctl);
    atomic_store(&ctl->pid, (int32_t)getpid());
    if (dmpi_pmi_barrier() != 0)
        return -1;
    dmpi_world.oversubscribed = yield_forced() >= 0 ? yield_forced() : ranks_share_cpus();
    if (!(dmpi_node_peers = calloc((size_t)n, sizeof *dmpi_node_peers)))
        return -1;
    for (int w = 0; w < dmpi_world.size; w++)
        if (dmpi_world.local_of_world[w] >= 0)
            dmpi_node_peers[dmpi_world.local_of_world[w]].world = w;
    dmpi_node_peers[me].pid = getpid();
    verify_cma();
    return 0;
}

void dmpi_node_finalize(void)
{
    free(dmpi_node_peers);
    dmpi_node_peers = NULL;
    dmpi_node_segment_close();
}

void dmpi_node_cma_failed(int i, int err)
{
    dmpi_verbose(1, "cross-memory copy with local rank %d failed (%s); using the copy path", i, strerror(err));
    dmpi_node_peers[i].cma_ok = false;
}
