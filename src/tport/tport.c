/* The transports compiled in, and which one reaches each peer. */
#include "tport/tport.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern const dmpi_tport_t dmpi_tport_self, dmpi_tport_shm, dmpi_tport_tcp;

/* In order of preference: the first to claim a peer keeps it. */
const dmpi_tport_t *const dmpi_tports[] = {&dmpi_tport_self, &dmpi_tport_shm, &dmpi_tport_tcp, NULL};

dmpi_tport_peer_t *dmpi_tport_peers;
unsigned dmpi_tport_poll_cost = 1;

void dmpi_tport_claim(int world, const dmpi_tport_t *t, int index, long long inline_max, long long eager_max)
{
    dmpi_tport_peer_t *p = &dmpi_tport_peers[world];
    if (!p->t)
        *p = (dmpi_tport_peer_t){t, inline_max, eager_max, index};
}

int dmpi_tport_plan(void)
{
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->plan && dmpi_tports[i]->plan() != 0)
            return -1;
    return 0;
}

int dmpi_tport_init(void)
{
    if (!(dmpi_tport_peers = calloc((size_t)dmpi_world.size, sizeof *dmpi_tport_peers)))
        return -1;
    dmpi_tport_nprocs = dmpi_world.size;
    for (int i = 0; dmpi_tports[i]; i++) {
        const dmpi_tport_t *t = dmpi_tports[i];
        if (t->init && t->init() != 0)
            return -1;
    }
    for (int w = 0; w < dmpi_world.size; w++)
        if (!dmpi_tport_peers[w].t) {
            fprintf(stderr, "dmpi: rank %d has no way to reach rank %d\n", dmpi_world.rank, w);
            return -1;
        }
    return 0;
}

void dmpi_tport_finalize(void)
{
    for (int i = 0; dmpi_tports[i]; i++) {
        const dmpi_tport_t *t = dmpi_tports[i];
        if (t->finalize)
            t->finalize();
    }
    free(dmpi_tport_peers);
    dmpi_tport_peers = NULL;
    dmpi_tport_procs_finalize();
}

bool dmpi_tport_quiet(void)
{
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->quiet && !dmpi_tports[i]->quiet())
            return false;
    return true;
}

void dmpi_tport_nap(double seconds)
{
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->nap && dmpi_tports[i]->nap(seconds))
            return;
    struct timespec ts = dmpi_tport_timespec(seconds);
    nanosleep(&ts, NULL);
}
