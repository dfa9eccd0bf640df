/* Which ranks share a node. The launcher says so in PMI_process_mapping
 * (our mpiexec, Hydra); without it, ranks whose host names are equal share
 * one. Host names are only the fallback: hosts made of network namespaces
 * share a host name and /dev/shm, yet are different nodes. */
#include "comm/comm.h"
#include "pmi/pmi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "(vector,(start,nodes,ranks),...)": blocks of ranks, in rank order, each
 * tuple giving `ranks` consecutive ranks to each of `nodes` nodes from
 * `start`; the tuples repeat until every rank has a node. 0, or -1 if the
 * text is not such a list. */
static int parse_mapping(const char *s, int *node_of, int size, int *nnodes)
{
    enum { MAX_TUPLES = 1024 };
    int t[MAX_TUPLES][3], nt = 0;
    const char *p = strstr(s, "vector");
    if (!p)
        return -1;
    p += 6;
    while ((p = strchr(p, '(')) != NULL) {
        int a, b, c, n;
        if (nt == MAX_TUPLES || sscanf(p, "(%d,%d,%d)%n", &a, &b, &c, &n) != 3 || a < 0 || b < 1 || c < 1)
            return -1;
        t[nt][0] = a, t[nt][1] = b, t[nt][2] = c;
        nt++;
        p += n;
    }
    if (nt == 0)
        return -1;
    int r = 0, most = 0;
    while (r < size)
        for (int i = 0; i < nt && r < size; i++)
            for (int node = t[i][0]; node < t[i][0] + t[i][1] && r < size; node++)
                for (int k = 0; k < t[i][2] && r < size; k++) {
                    node_of[r++] = node;
                    most = node + 1 > most ? node + 1 : most;
                }
    *nnodes = most;
    return 0;
}

/* The fallback: every rank publishes its host name. */
static int nodes_by_hostname(int *node_of, int *nnodes)
{
    char key[64], host[DMPI_PMI_VAL_MAX];
    snprintf(key, sizeof key, "dmpi-host-%d", dmpi_world.rank);
    if (dmpi_pmi_put(key, dmpi_world.processor_name) != 0 || dmpi_pmi_barrier() != 0)
        return -1;
    char(*names)[DMPI_PMI_VAL_MAX] = malloc((size_t)dmpi_world.size * sizeof *names);
    if (!names)
        return -1;
    int n = 0;
    for (int w = 0; w < dmpi_world.size; w++) {
        snprintf(key, sizeof key, "dmpi-host-%d", w);
        if (w == dmpi_world.rank)
            snprintf(host, sizeof host, "%s", dmpi_world.processor_name);
        else if (dmpi_pmi_get(key, host, sizeof host) != 0) {
            free(names);
            return -1;
        }
        int k = 0;
        while (k < n && strcmp(names[k], host) != 0)
            k++;
        if (k == n)
            strcpy(names[n++], host);
        node_of[w] = k;
    }
    free(names);
    *nnodes = n;
    return 0;
}

int dmpi_find_nodes(void)
{
    int size = dmpi_world.size;
    int *node_of = malloc((size_t)size * sizeof *node_of);
    dmpi_world.local_of_world = malloc((size_t)size * sizeof(int));
    if (!node_of || !dmpi_world.local_of_world) {
        free(node_of);
        return -1;
    }
    char map[DMPI_PMI_VAL_MAX];
    int rc = dmpi_pmi_try_get("PMI_process_mapping", map, sizeof map);
    if (rc < 0 || (rc == 0 && parse_mapping(map, node_of, size, &dmpi_world.nnodes) != 0)) {
        if (rc == 0)
            dmpi_verbose(1, "PMI_process_mapping '%s' is not understood; nodes by host name", map);
        rc = 1;
    }
    if (rc == 1 && nodes_by_hostname(node_of, &dmpi_world.nnodes) != 0) {
        free(node_of);
        return -1;
    }
    dmpi_world.node_id = node_of[dmpi_world.rank];
    int nlocal = 0;
    for (int w = 0; w < size; w++) {
        if (node_of[w] != dmpi_world.node_id) {
            dmpi_world.local_of_world[w] = -1;
            continue;
        }
        if (w == dmpi_world.rank)
            dmpi_world.local_rank = nlocal;
        dmpi_world.local_of_world[w] = nlocal++;
    }
    dmpi_world.local_size = nlocal;
    dmpi_world.node_of_world = node_of;
    if (dmpi_world.rank == 0 && dmpi_world.nnodes > 1)
        dmpi_verbose(1, "%d ranks on %d nodes", size, dmpi_world.nnodes);
    return 0;
}
