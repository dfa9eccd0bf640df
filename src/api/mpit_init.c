/* MPI_T_init_thread and MPI_T_finalize: usable at any time, before MPI_Init
 * and after MPI_Finalize too, and reference counted. Like every MPI_T call
 * they return MPI_T_ERR_* codes and never call an error handler. */
#include "api/api.h"
#include "comm/mpit_init.h"
#include "core/mpit.h"

DMPI_ALIAS(T_init_thread)
DMPI_ALIAS(T_finalize)

int PMPI_T_init_thread(int required, int *provided)
{
    DMPI_API_ENTER;
    return dmpi_tools_init_thread(required, provided);
}

int PMPI_T_finalize(void)
{
    DMPI_API_ENTER;
    return dmpi_mpit_finalize();
}
