/* MPI_T sources and events. dmpi raises no events, so it has no event
 * types and no sources of timestamps (MPI_T_event_get_num and
 * MPI_T_source_get_num give 0, MPI-4.0 15.3.8): every index is invalid,
 * and since no registration can be made and no instance delivered, every
 * registration and instance handle is invalid too. */
#include "core/mpit_internal.h"

int dmpi_mpit_check_ready(void)
{
    MPIT_LOCKED;
    MPIT_READY();
    return MPI_SUCCESS;
}

int dmpi_mpit_source_get_num(int *num)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = 0;
    return MPI_SUCCESS;
}

int dmpi_mpit_event_get_num(int *num)
{
    return dmpi_mpit_source_get_num(num);   /* as many event types as sources: none */
}

int dmpi_mpit_no_such_index(int i)
{
    (void)i;
    MPIT_LOCKED;
    MPIT_READY();
    return MPI_T_ERR_INVALID_INDEX;
}

int dmpi_mpit_get_index_none(const char *name, int *i)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!name || !i)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

int dmpi_mpit_no_such_handle(const void *h)
{
    (void)h;
    MPIT_LOCKED;
    MPIT_READY();
    return MPI_T_ERR_INVALID_HANDLE;
}
