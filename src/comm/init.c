/* Start-up and shut-down of the library. */
#include "comm/comm.h"
#include "coll/select.h"
#include "core/params.h"
#include "core/lock.h"
#include "core/ctxid.h"
#include "core/attr.h"
#include "core/dtype_ops.h"
#include "core/errhandler.h"
#include "core/info.h"
#include "core/op.h"
#include "p2p/p2p.h"
#include "p2p/bsend.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "pmi/pmi.h"
#include "rma/rma.h"
#include "node/node.h"
#include "tport/tport.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

dmpi_world_t dmpi_world;

static bool more_ranks_than_cores(void)
{
    cpu_set_t set;
    int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    return dmpi_world.local_size > (cores > 0 ? cores : 1);
}

int dmpi_init(const char *fn, int required, int *provided)
{
    if (dmpi_params_load() != 0 || dmpi_coll_check_params() != 0)
        return dmpi_err(MPI_ERR_OTHER, "%s: invalid DMPI_* environment variable (see above)", fn);
    int rc = dmpi_pmi_init(&dmpi_world.rank, &dmpi_world.size, &dmpi_world.appnum);
    if (rc == DMPI_PMI_REFUSED)
        dmpi_abort_job(1);      /* an unknown launcher: the one line saying so is out */
    if (rc != 0)
        return dmpi_err(MPI_ERR_OTHER, "%s: cannot reach the process manager (PMI)", fn);
    /* Hydra answers -1 when it does not know. */
    if (dmpi_pmi_universe_size(&dmpi_world.universe_size) != 0 || dmpi_world.universe_size < dmpi_world.size)
        dmpi_world.universe_size = dmpi_world.size;
    if (gethostname(dmpi_world.processor_name, sizeof dmpi_world.processor_name - 1) != 0)
        strcpy(dmpi_world.processor_name, "localhost");
    if (dmpi_find_nodes() != 0)
        return dmpi_err(MPI_ERR_OTHER, "%s: cannot determine the ranks on this node", fn);
    dmpi_world.oversubscribed = more_ranks_than_cores();   /* until the node services know all ranks' CPUs */
    dmpi_dtype_init();
    dmpi_ctx_set_release_hook(dmpi_mq_forget_pair);
    if (dmpi_comm_init_builtins() != 0)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for MPI_COMM_WORLD", fn);
    /* Transports reserve their part of the node segment, the node services
     * make it, then the transports start on it. */
    if (dmpi_tport_plan() != 0 || dmpi_node_init() != 0 || dmpi_p2p_init() != 0)
        return dmpi_err(MPI_ERR_OTHER, "%s: cannot set up communication with the other ranks (see above)", fn);
    dmpi_coll_comm_init(dmpi_comm_get(MPI_COMM_WORLD));
    dmpi_coll_comm_init(dmpi_comm_get(MPI_COMM_SELF));
    if (dmpi_from_group_init() != MPI_SUCCESS)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a communicator", fn);
    /* Threads: one thread at a time may call MPI, from any thread. */
    /* Any thread level: MPI_THREAD_MULTIPLE turns the library lock on
     * (core/lock.h), the others cost nothing. */
    dmpi_world.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                              : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    *provided = dmpi_world.thread_level;
    if (dmpi_info_init_env(dmpi_world.thread_level) != MPI_SUCCESS)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for MPI_INFO_ENV", fn);
    /* A spawned job connects to its parents (MPI_Comm_get_parent). */
    int err = dmpi_comm_connect_parent();
    if (err != MPI_SUCCESS)
        return err;
    dmpi_world.state = DMPI_STATE_INIT;
    dmpi_lock_on = dmpi_world.thread_level == MPI_THREAD_MULTIPLE;
    if (dmpi_world.oversubscribed && dmpi_world.local_rank == 0)
        dmpi_verbose(1, "%d ranks on this node share fewer cores: waiting ranks yield the processor",
                     dmpi_world.local_size);
    return MPI_SUCCESS;
}

static bool transports_quiet(void *arg)
{
    (void)arg;
    return dmpi_tport_quiet();
}

int dmpi_finalize(void)
{
    /* MPI says: attributes on MPI_COMM_SELF are deleted first, as if it
     * were freed (done already if MPI_Finalize came before the last session). */
    int err0 = dmpi_attr_delete_all(dmpi_comm_get(MPI_COMM_SELF));
    dmpi_bsend_finalize();
    int err = dmpi_coll_barrier(dmpi_comm_get(MPI_COMM_WORLD));
    /* Whatever control messages are still queued must reach their peers,
     * which are still polling: nobody leaves the barrier without them. */
    dmpi_progress_until(transports_quiet, NULL);
    /* Windows the program left: after the barrier no rank has an operation
     * on them in flight, and their private communicators go before the
     * communicators and point-to-point do. */
    dmpi_rma_finalize();
    dmpi_p2p_finalize();
    dmpi_coll_node_finalize();
    dmpi_comm_parent = NULL;
    dmpi_node_finalize();
    dmpi_world.state = DMPI_STATE_FINALIZED;
    dmpi_pmi_finalize();
    dmpi_mq_finalize();
    dmpi_req_pool_finalize();
    dmpi_from_group_finalize();
    dmpi_comm_finalize();
    dmpi_errhandler_finalize();
    dmpi_keyval_finalize();
    dmpi_op_finalize();
    dmpi_dtype_finalize();
    dmpi_dtype_named_finalize();
    dmpi_info_finalize();
    free(dmpi_world.local_of_world);
    dmpi_world.local_of_world = NULL;
    free(dmpi_world.node_of_world);
    dmpi_world.node_of_world = NULL;
    return err0 != MPI_SUCCESS ? err0 : err;
}
