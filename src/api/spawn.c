/* MPI_Comm_spawn and MPI_Comm_spawn_multiple. The arguments that matter at
 * the root only are checked there; its verdict reaches the whole group. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/info.h"
#include <stdlib.h>

DMPI_ALIAS(Comm_spawn)
DMPI_ALIAS(Comm_spawn_multiple)

/* The root's commands: each named, maxprocs >= 1, info valid. */
static int check_cmds(const char *fn, int count, char *commands[], char **argvs[], const int maxprocs[],
                      const MPI_Info infos[], dmpi_spawn_cmd_t *cmds)
{
    for (int i = 0; i < count; i++) {
        if (!commands[i])
            return dmpi_err(MPI_ERR_ARG, "%s: command %d is NULL", fn, i);
        if (maxprocs[i] < 1)
            return dmpi_err(MPI_ERR_ARG, "%s: maxprocs %d for command %d; it must be at least 1", fn, maxprocs[i], i);
        dmpi_info_t *info = NULL;
        if (infos[i] != MPI_INFO_NULL && !(info = dmpi_info_get(infos[i])))
            return dmpi_err(MPI_ERR_INFO, "%s: info 0x%x of command %d is not valid", fn, (unsigned)infos[i], i);
        cmds[i] = (dmpi_spawn_cmd_t){commands[i], argvs ? argvs[i] : NULL, maxprocs[i], info};
    }
    return MPI_SUCCESS;
}

static int spawn(const char *fn, int count, char *commands[], char **argvs[], const int maxprocs[],
                 const MPI_Info infos[], int root, MPI_Comm comm, MPI_Comm *intercomm, int errcodes[])
{
    dmpi_comm_t *c = NULL, *n = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_intra(fn, c)) ||
        (err = dmpi_check_ptr(fn, intercomm, "intercomm")))
        return dmpi_api_error(c, fn, err);
    if (root < 0 || root >= c->size)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_ROOT, "%s: invalid root %d (%s has %d ranks)", fn, root,
                                              c->name, c->size));
    int leader_err = MPI_SUCCESS, nerr = 0;
    dmpi_spawn_cmd_t *cmds = NULL;
    if (c->rank == root) {
        if (count < 1)
            leader_err = dmpi_err(MPI_ERR_ARG, "%s: count %d; it must be at least 1", fn, count);
        else if (!commands || !maxprocs || !infos)
            leader_err = dmpi_err(MPI_ERR_ARG, "%s: array_of_%s is NULL", fn,
                                  !commands ? "commands" : !maxprocs ? "maxprocs" : "info");
        else if (!(cmds = calloc((size_t)count, sizeof *cmds)))
            leader_err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        else
            leader_err = check_cmds(fn, count, commands, argvs, maxprocs, infos, cmds);
    }
    /* errcodes has one entry per process asked for, as this process knows it */
    for (int i = 0; errcodes && maxprocs && i < count; i++)
        nerr += maxprocs[i] > 0 ? maxprocs[i] : 0;
    err = dmpi_comm_spawn(fn, c, root, count, cmds, leader_err, errcodes, nerr, &n);
    free(cmds);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *intercomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    DMPI_API_ENTER;
    char *cmd = (char *)command;
    char **argvs[1] = {argv};
    return spawn("MPI_Comm_spawn", 1, &cmd, argvs, &maxprocs, &info, root, comm, intercomm, array_of_errcodes);
}

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                             MPI_Comm *intercomm, int array_of_errcodes[])
{
    DMPI_API_ENTER;
    return spawn("MPI_Comm_spawn_multiple", count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info,
                 root, comm, intercomm, array_of_errcodes);
}
