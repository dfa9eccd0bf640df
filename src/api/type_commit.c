/* MPI_Type_commit and MPI_Type_free. */
#include "api/type_api.h"
#include "core/dtype_ops.h"

DMPI_ALIAS(Type_commit)
DMPI_ALIAS(Type_free)

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_commit";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, datatype, "datatype")) ||
        (err = dmpi_type_check(fn, *datatype, "datatype", &dt)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_dtype_commit(dt);          /* predefined types are committed already */
    return MPI_SUCCESS;
}

/* The type itself lives on while types built from it or pending operations
 * hold it; the handle is the user's no more. */
int PMPI_Type_free(MPI_Datatype *datatype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_free";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, datatype, "datatype")) ||
        (err = dmpi_type_check(fn, *datatype, "datatype", &dt)))
        return dmpi_api_error(NULL, fn, err);
    if (dt->predefined)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_TYPE, "%s: %s is predefined and cannot be freed", fn,
                                                 dmpi_dtype_desc(dt)));
    if ((err = dmpi_dtype_free(dt)) != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
