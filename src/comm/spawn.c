/* MPI_Comm_spawn(_multiple): the root opens a port, asks the launcher (PMI
 * spawn) to start the commands as a new job whose key space names that
 * port, and accepts the children's connection, which their MPI_Init makes
 * (dmpi_comm_connect_parent). A launcher that cannot spawn (none: a
 * singleton; PMI-2) gives MPI_ERR_SPAWN on every process of the parents. */
#include "comm/comm.h"
#include "core/group.h"
#include "core/info.h"
#include "pmi/pmi.h"
#include "tport/tport.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Info "soft": the counts the caller accepts ("a", "a:b", "a:b:step", by
 * commas); the largest one not above maxprocs is asked for, so that it
 * holds under every launcher. -1 if none. */
static int soft_count(const char *soft, int maxprocs)
{
    int best = -1;
    for (const char *t = soft; *t;) {
        long lo, hi, step = 1;
        int n = sscanf(t, "%ld:%ld:%ld", &lo, &hi, &step);
        if (n >= 1 && step >= 1) {
            hi = n == 1 ? lo : hi;
            for (long v = lo; v <= hi && v <= maxprocs; v += step)
                best = v >= 1 && v > best ? (int)v : best;
        }
        const char *comma = strchr(t, ',');
        t = comma ? comma + 1 : t + strlen(t);
    }
    return best;
}

/* The root's part: open the port and ask the launcher; MPI_SUCCESS or the error. */
static int start(const char *fn, int count, const dmpi_spawn_cmd_t *cmds, char *port, size_t len)
{
    char why[512];
    if (dmpi_tport_port_open(port, len, why, sizeof why) != 0)
        return dmpi_err(MPI_ERR_SPAWN, "%s: %s", fn, why);
    dmpi_pmi_spawn_t *p = calloc((size_t)count, sizeof *p);
    int err = p ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; err == MPI_SUCCESS && i < count; i++) {
        const dmpi_info_t *info = cmds[i].info;
        int n = info ? info->nkeys : 0;
        const char *soft = info ? dmpi_info_lookup(info, "soft") : NULL;
        int count = soft ? soft_count(soft, cmds[i].maxprocs) : cmds[i].maxprocs;
        if (count < 1) {
            err = dmpi_err(MPI_ERR_SPAWN, "%s: info soft=%s of command %d allows no count up to maxprocs %d", fn,
                           soft, i, cmds[i].maxprocs);
            break;
        }
        p[i] = (dmpi_pmi_spawn_t){cmds[i].cmd, cmds[i].argv, count, n, NULL, NULL};
        if (n && (!(p[i].info_keys = calloc((size_t)n, sizeof(char *))) ||
                  !(p[i].info_vals = calloc((size_t)n, sizeof(char *))))) {
            err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
            break;
        }
        int k = 0;
        for (const dmpi_info_entry_t *e = info ? info->head : NULL; e; e = e->next, k++) {
            p[i].info_keys[k] = e->key;
            p[i].info_vals[k] = e->value;
        }
    }
    if (err == MPI_SUCCESS && dmpi_pmi_spawn(count, p, "PARENT_ROOT_PORT_NAME", port, why, sizeof why) != 0)
        err = dmpi_err(MPI_ERR_SPAWN, "%s: %s", fn, why);
    for (int i = 0; p && i < count; i++) {
        free(p[i].info_keys);
        free(p[i].info_vals);
    }
    free(p);
    if (err != MPI_SUCCESS)
        dmpi_tport_port_close(port);
    return err;
}

int dmpi_comm_spawn(const char *fn, dmpi_comm_t *c, int root, int count, const dmpi_spawn_cmd_t *cmds,
                    int leader_err, int *errcodes, int nerr, dmpi_comm_t **out)
{
    char port[MPI_MAX_PORT_NAME] = "";
    int total = 0;
    bool root_here = c->rank == root;
    if (root_here) {
        for (int i = 0; i < count; i++)
            total += cmds[i].maxprocs;
        if (leader_err == MPI_SUCCESS)
            leader_err = start(fn, count, cmds, port, sizeof port);
    }
    bool opened = root_here && leader_err == MPI_SUCCESS;
    int err = dmpi_comm_accept(port, c, root, leader_err, out);
    if (opened)
        dmpi_tport_port_close(port);
    if (errcodes) {
        int n = err == MPI_SUCCESS ? (*out)->remote_group->size : root_here ? total : 0;
        for (int i = 0; i < n && i < nerr; i++)
            errcodes[i] = err == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_SPAWN;
    }
    return err;
}
