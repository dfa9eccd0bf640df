/* Datatype queries. */
#include "api/api.h"

DMPI_ALIAS(Type_size)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    const char *fn = "MPI_Type_size";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    if (!(dt = dmpi_dtype_get(datatype)))
        return dmpi_api_error(NULL, fn, dmpi_check_type(fn, datatype, &dt));
    *size = dt->size > 0x7fffffff ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}
