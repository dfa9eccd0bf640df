/* MPI_Get_elements(_x, _c): the predefined elements a receive delivered,
 * counted through the typemap (core/dtype_walk.c); MPI_UNDEFINED when the
 * bytes end inside a predefined element. */
#include "api/type_api.h"
#include "p2p/request.h"
#include <limits.h>

DMPI_ALIAS(Get_elements)
DMPI_ALIAS(Get_elements_x)
DMPI_ALIAS(Get_elements_c)

static int count_elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype, const void *count,
                          MPI_Count *n)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, status, "status")) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, count, "count")))
        return err;
    if (status == MPI_STATUS_IGNORE)
        return dmpi_err(MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn);
    *n = dmpi_dtype_elements(dt, dmpi_status_bytes(status));
    return MPI_SUCCESS;
}

/* The count, MPI_UNDEFINED when the bytes end inside an element or the
 * count is more than max. */
static int get_elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count,
                        MPI_Count max)
{
    MPI_Count n = 0;
    int err = count_elements(fn, status, datatype, count, &n);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *count = n < 0 || n > max ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    DMPI_API_ENTER;
    MPI_Count n = 0;
    int err = get_elements("MPI_Get_elements", status, datatype, count ? &n : NULL, INT_MAX);
    if (err == MPI_SUCCESS)
        *count = (int)n;
    return err;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    DMPI_API_ENTER;
    return get_elements("MPI_Get_elements_x", status, datatype, count, INT64_MAX);
}

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    DMPI_API_ENTER;
    return get_elements("MPI_Get_elements_c", status, datatype, count, INT64_MAX);
}
