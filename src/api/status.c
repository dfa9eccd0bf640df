/* Setting the opaque part of a status (for generalized requests' query
 * functions, and layered libraries): the element count, as the bytes that
 * many predefined elements of the type take, so that MPI_Get_elements
 * returns that count and MPI_Get_count the matching number of whole
 * elements; and the cancelled flag, which MPI_Test_cancelled reports. */
#include "api/type_api.h"
#include "p2p/request.h"

DMPI_ALIAS(Status_set_elements)
DMPI_ALIAS(Status_set_elements_x)
DMPI_ALIAS(Status_set_elements_c)
DMPI_ALIAS(Status_set_cancelled)

static int check_status(const char *fn, const MPI_Status *status)
{
    if (!status)
        return dmpi_err(MPI_ERR_ARG, "%s: status is NULL", fn);
    if (status == MPI_STATUS_IGNORE)
        return dmpi_err(MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn);
    return MPI_SUCCESS;
}

static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    dmpi_dtype_t *dt;
    size_t bytes;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_status(fn, status)) ||
        (err = dmpi_type_check(fn, datatype, "datatype", &dt)))
        return dmpi_api_error(NULL, fn, err);
    if (count < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_COUNT, "%s: negative count %lld", fn, (long long)count));
    if (dmpi_dtype_elements_bytes(dt, count, &bytes) != 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_COUNT, "%s: %lld elements of %s are more bytes than a "
                                                 "status can hold", fn, (long long)count, dt->name));
    dmpi_status_set_bytes(status, bytes);
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    DMPI_API_ENTER;
    return set_elements("MPI_Status_set_elements", status, datatype, count);
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    DMPI_API_ENTER;
    return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    DMPI_API_ENTER;
    return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Status_set_cancelled";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_status(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}
