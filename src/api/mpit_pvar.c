/* MPI_T performance variables, sessions and handles (core/mpit_pvar.c). */
#include "api/api.h"
#include "core/mpit.h"

DMPI_ALIAS(T_pvar_get_num)
DMPI_ALIAS(T_pvar_get_info)
DMPI_ALIAS(T_pvar_get_index)
DMPI_ALIAS(T_pvar_session_create)
DMPI_ALIAS(T_pvar_session_free)
DMPI_ALIAS(T_pvar_handle_alloc)
DMPI_ALIAS(T_pvar_handle_free)
DMPI_ALIAS(T_pvar_start)
DMPI_ALIAS(T_pvar_stop)
DMPI_ALIAS(T_pvar_read)
DMPI_ALIAS(T_pvar_write)
DMPI_ALIAS(T_pvar_reset)
DMPI_ALIAS(T_pvar_readreset)

int PMPI_T_pvar_get_num(int *num_pvar)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_get_num(num_pvar);
}

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_get_info(pvar_index, name, name_len, verbosity, var_class, datatype, enumtype, desc,
                                   desc_len, bind, readonly, continuous, atomic);
}

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_get_index(name, var_class, pvar_index);
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_session_create(session);
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_session_free(session);
}

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_handle_alloc(session, pvar_index, obj_handle, handle, count);
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_handle_free(session, handle);
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_control(session, handle, DMPI_PVAR_START);
}

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_control(session, handle, DMPI_PVAR_STOP);
}

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_control(session, handle, DMPI_PVAR_RESET);
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_access(session, handle, buf, NULL, false);
}

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_access(session, handle, NULL, buf, false);
}

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    DMPI_API_ENTER;
    return dmpi_mpit_pvar_access(session, handle, buf, NULL, true);
}
