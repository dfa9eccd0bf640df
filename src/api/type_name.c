/* Names of datatypes. Predefined types start with their MPI_ names and may
 * be renamed; derived types start without a name (Type_dup copies none). */
#include "api/type_api.h"
#include <stdio.h>
#include <string.h>

DMPI_ALIAS(Type_set_name)
DMPI_ALIAS(Type_get_name)

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_set_name";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, type_name, "type_name")))
        return dmpi_api_error(NULL, fn, err);
    snprintf(dt->name, sizeof dt->name, "%s", type_name);   /* longer names are cut, as MPI allows */
    return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_name";
    if (datatype == MPI_DATATYPE_NULL)
        return dmpi_null_handle_name(fn, "MPI_DATATYPE_NULL", type_name, resultlen);
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, type_name, "type_name")) || (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(NULL, fn, err);
    strcpy(type_name, dt->name);
    *resultlen = (int)strlen(dt->name);
    return MPI_SUCCESS;
}
