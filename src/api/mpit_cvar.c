/* MPI_T control variables and enumerations (core/mpit_cvar.c): the
 * parameters of core/params.c. */
#include "api/api.h"
#include "core/mpit.h"

DMPI_ALIAS(T_enum_get_info)
DMPI_ALIAS(T_enum_get_item)
DMPI_ALIAS(T_cvar_get_num)
DMPI_ALIAS(T_cvar_get_info)
DMPI_ALIAS(T_cvar_get_index)
DMPI_ALIAS(T_cvar_handle_alloc)
DMPI_ALIAS(T_cvar_handle_free)
DMPI_ALIAS(T_cvar_read)
DMPI_ALIAS(T_cvar_write)

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    DMPI_API_ENTER;
    return dmpi_mpit_enum_get_info(enumtype, num, name, name_len);
}

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len)
{
    DMPI_API_ENTER;
    return dmpi_mpit_enum_get_item(enumtype, indx, value, name, name_len);
}

int PMPI_T_cvar_get_num(int *num_cvar)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_get_num(num_cvar);
}

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_get_info(cvar_index, name, name_len, verbosity, datatype, enumtype, desc, desc_len, bind,
                                   scope);
}

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_get_index(name, cvar_index);
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_handle_alloc(cvar_index, obj_handle, handle, count);
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_handle_free(handle);
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_read(handle, buf);
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    DMPI_API_ENTER;
    return dmpi_mpit_cvar_write(handle, buf);
}
