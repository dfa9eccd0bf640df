/* Who keeps the library running. MPI_Init and every MPI_Session_init use
 * the same world-level state (PMI, transports, the node segment,
 * MPI_COMM_WORLD and MPI_COMM_SELF): the first of them starts it, and it
 * stops when the last of them has ended. PMI cannot be entered twice in
 * one process (PMI-1's finalize closes the launcher's connection), so a
 * stopped library never starts again; to keep sessions usable before
 * MPI_Init and after one another, a process that has never called MPI_Init
 * keeps the library when its last session ends and stops it at exit. */
#include "comm/comm.h"
#include "core/attr.h"
#include "core/lock.h"
#include "core/session.h"
#include "p2p/bsend.h"
#include <stdlib.h>

static bool stop_at_exit_set;

int dmpi_runtime_start(const char *fn, int required, int *provided)
{
    if (dmpi_world.state == DMPI_STATE_FINALIZED)
        return dmpi_err(MPI_ERR_OTHER, "%s: the library has been shut down (MPI_Finalize, then the last "
                        "MPI_Session_finalize) and cannot start again in this process", fn);
    if (dmpi_world.state == DMPI_STATE_NONE)
        return dmpi_init(fn, required, provided);
    /* Running: a higher level than it has is granted (the lock turns on
     * between two calls, as nothing else runs in the library meanwhile). */
    if (required > dmpi_world.thread_level)
        dmpi_world.thread_level = required;
    dmpi_lock_on = dmpi_world.thread_level == MPI_THREAD_MULTIPLE;
    *provided = dmpi_world.thread_level;
    return MPI_SUCCESS;
}

static void stop_at_exit(void)
{
    if (dmpi_world.state == DMPI_STATE_INIT && dmpi_world.model != DMPI_MODEL_INIT && dmpi_session_count() == 0)
        dmpi_finalize();
}

int dmpi_runtime_release(void)
{
    if (dmpi_world.model == DMPI_MODEL_INIT || dmpi_session_count() > 0)
        return MPI_SUCCESS;
    if (dmpi_world.model == DMPI_MODEL_NONE) {      /* MPI_Init may still come: stop at exit */
        if (!stop_at_exit_set && atexit(stop_at_exit) == 0)
            stop_at_exit_set = true;
        return MPI_SUCCESS;
    }
    return dmpi_finalize();
}

int dmpi_world_finalize(void)
{
    /* MPI says: attributes on MPI_COMM_SELF are deleted first, as if it were freed. */
    int err = dmpi_attr_delete_all(dmpi_comm_get(MPI_COMM_SELF));
    dmpi_bsend_finalize();
    dmpi_world.model = DMPI_MODEL_FINALIZED;
    int e = dmpi_runtime_release();
    return err != MPI_SUCCESS ? err : e;
}
